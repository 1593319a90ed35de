import type { MarginGroup, MarginLine, MarginReport, UnknownCostSale } from '../../margins/service.js';
import { at } from './frame.js';
import { partnerRef, type PartnerRef } from './listing.js';

export interface MarginLineView {
  group: string;
  /** Grouped by partner: the partner (its name, linking to its page). */
  partner: PartnerRef | null;
  sales: string;
  refunds: string;
  cost: string;
  margin: string;
  deliveries: number;
  costUnknown: number;
  /** GHS, or '' when every sale of the line has a known cost. */
  costUnknownSales: string;
  negative: boolean;
}

/** One bar group of the chart, in SVG units. */
export interface ChartBar {
  label: string;
  x: number;
  sales: { y: number; height: number };
  cost: { y: number; height: number };
  margin: { y: number; height: number };
}

/** The period as the date pickers show it: its first and its last day (UTC). */
export interface PeriodDays {
  fromDay: string;
  toDay: string;
}

export interface MarginsView extends PeriodDays {
  from: string;
  to: string;
  by: MarginGroup;
  lines: MarginLineView[];
  total: MarginLineView;
  chart: { width: number; height: number; bars: ChartBar[]; barWidth: number; top: string; shown: number };
  csvHref: string;
  /** The list of the period's sales whose cost is not known. */
  unknownCostHref: string;
}

export interface UnknownCostView extends PeriodDays {
  rows: { kind: string; orderHref: string; reference: string; partner: PartnerRef; msisdn: string; packageId: string; provider: string; amount: string; completedAt: string }[];
  total: string;
  marginsHref: string;
  /** The list shows at most this many (the newest). */
  max: number;
}

const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);
const CHART_HEIGHT = 220;
const CHART_TOP = 10;
const CHART_BASE = CHART_HEIGHT - 30;
/** The chart shows at most this many groups (the first ones of the table). */
const CHART_GROUPS = 31;

function lineView(l: MarginLine, names: ReadonlyMap<string, string> | null = null): MarginLineView {
  return {
    group: l.group,
    partner: names === null ? null : partnerRef(l.group, names),
    sales: ghs(l.sales),
    refunds: l.refunds === 0 ? '' : ghs(l.refunds),
    cost: ghs(l.cost),
    margin: ghs(l.margin),
    deliveries: l.deliveries,
    costUnknown: l.costUnknown,
    costUnknownSales: l.costUnknown === 0 && l.costUnknownSales === 0 ? '' : ghs(l.costUnknownSales),
    negative: l.margin < 0,
  };
}

function chartOf(lines: MarginLine[]): MarginsView['chart'] {
  const shown = lines.slice(0, CHART_GROUPS);
  const max = Math.max(1, ...shown.map((l) => Math.max(l.sales, l.cost, l.margin)));
  const slot = 36;
  const barWidth = 9;
  const scale = (v: number) => Math.round((Math.max(0, v) / max) * (CHART_BASE - CHART_TOP));
  const bar = (v: number) => ({ y: CHART_BASE - scale(v), height: scale(v) });
  return {
    width: Math.max(200, shown.length * slot + 20),
    height: CHART_HEIGHT,
    barWidth,
    top: ghs(max),
    shown: shown.length,
    bars: shown.map((l, i) => ({ label: l.group.length > 10 ? `${l.group.slice(0, 9)}…` : l.group, x: 10 + i * slot, sales: bar(l.sales), cost: bar(l.cost), margin: bar(l.margin) })),
  };
}

type Period = { from: string; to: string; fromMs: number; toMs: number };

const days = (p: Period): PeriodDays => ({ fromDay: new Date(p.fromMs).toISOString().slice(0, 10), toDay: new Date(p.toMs - 1).toISOString().slice(0, 10) });

/** `names`: the partners' names when the report is grouped by partner. */
export function marginsView(report: MarginReport, query: Period, names: ReadonlyMap<string, string> | null = null): MarginsView {
  const params = new URLSearchParams({ from: query.from, to: query.to, by: report.by });
  const period = new URLSearchParams({ from: query.from, to: query.to });
  return {
    from: query.from,
    to: query.to,
    ...days(query),
    by: report.by,
    lines: report.lines.map((l) => lineView(l, names)),
    total: lineView(report.total),
    chart: chartOf(report.lines),
    csvHref: `/console/reports/margins.csv?${params.toString()}`,
    unknownCostHref: `/console/reports/margins/unknown-cost?${period.toString()}`,
  };
}

export function unknownCostView(sales: readonly UnknownCostSale[], query: Period, names: ReadonlyMap<string, string>, max: number): UnknownCostView {
  const period = new URLSearchParams({ from: query.from, to: query.to });
  return {
    ...days(query),
    rows: sales.map((s) => ({
      kind: s.kind === 'result_checker' ? 'result checker' : 'data',
      orderHref: `/console/orders/${encodeURIComponent(s.order_id)}`,
      reference: s.short_reference,
      partner: partnerRef(s.profile_id, names),
      msisdn: s.msisdn,
      packageId: s.package_id,
      provider: s.provider,
      amount: ghs(s.amount),
      completedAt: at(s.completed_at),
    })),
    total: ghs(sales.reduce((sum, s) => sum + s.amount, 0)),
    marginsHref: `/console/reports/margins?${period.toString()}`,
    max,
  };
}
