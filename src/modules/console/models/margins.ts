import type { MarginGroup, MarginLine, MarginReport } from '../../margins/service.js';
import { partnerRef, type PartnerRef } from './listing.js';

export interface MarginLineView {
  group: string;
  /** Grouped by partner: the partner (its name, linking to its page). */
  partner: PartnerRef | null;
  sales: string;
  cost: string;
  margin: string;
  deliveries: number;
  costUnknown: number;
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

export interface MarginsView {
  from: string;
  to: string;
  by: MarginGroup;
  lines: MarginLineView[];
  total: MarginLineView;
  chart: { width: number; height: number; bars: ChartBar[]; barWidth: number; top: string; shown: number };
  csvHref: string;
}

const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);
const CHART_HEIGHT = 220;
const CHART_TOP = 10;
const CHART_BASE = CHART_HEIGHT - 30;
/** The chart shows at most this many groups (the first ones of the table). */
const CHART_GROUPS = 31;

function lineView(l: MarginLine, names: ReadonlyMap<string, string> | null = null): MarginLineView {
  return { group: l.group, partner: names === null ? null : partnerRef(l.group, names), sales: ghs(l.sales), cost: ghs(l.cost), margin: ghs(l.margin), deliveries: l.deliveries, costUnknown: l.costUnknown, negative: l.margin < 0 };
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

/** `names`: the partners' names when the report is grouped by partner. */
export function marginsView(report: MarginReport, query: { from: string; to: string }, names: ReadonlyMap<string, string> | null = null): MarginsView {
  const params = new URLSearchParams({ from: query.from, to: query.to, by: report.by });
  return {
    from: query.from,
    to: query.to,
    by: report.by,
    lines: report.lines.map((l) => lineView(l, names)),
    total: lineView(report.total),
    chart: chartOf(report.lines),
    csvHref: `/console/reports/margins.csv?${params.toString()}`,
  };
}
