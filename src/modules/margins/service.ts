import { invalid } from '../../domain/errors.js';
import type { Clock } from '../../domain/types.js';
import { csvField, csvText } from '../../lib/csv.js';
import { DAY_MS, dayOf, dayStart, type MarginRepository, type MarginRow, type UnknownCostSale } from './repository.js';

/**
 * The margin report (docs/live-delivery.md, "Margins"): per day, kind, operator, package, upstream or
 * partner, what partners paid for live data deliveries and result-checker sales, net of refunds
 * (sales), what the deliveries cost (the delivering attempt's cost, the credential's) and the
 * difference (margin). A sale counts on the day it was delivered; a reversal or refund is a negative
 * sale on its own day, and the cost stays (the upstream delivered). A sale whose cost is not known is
 * counted apart (how many, and the sales they cover): the margin is over the sales of known cost only.
 * Test mode never counts. Closed days are summed once (margin_days); a closed day with a sale of
 * unknown cost is read again from the orders (a later report of the upstream may fill it in).
 *
 * Other costs of the platform come in through `CostSource`s: Paystack's fees on partners' live
 * Mobile Money top-ups (./mobile-money-fees.ts) are one.
 */

export type { UnknownCostSale, MarginKind } from './repository.js';

export const MARGIN_GROUPS = ['day', 'kind', 'operator', 'package', 'provider', 'partner'] as const;
export type MarginGroup = (typeof MARGIN_GROUPS)[number];

/** A cost the platform bears that is not an upstream's (a payment gateway's fee), in pesewas. */
export interface CostSource {
  /** Shown as the group of its line (e.g. "Mobile Money fees"). */
  name: string;
  /** Its cost in [from, to), per partner and day; groups other than day and partner show it as one line. */
  costs(from: number, to: number): Promise<{ day: string; profileId: string; cost: number }[]>;
}

export interface MarginLine {
  group: string;
  /** Pesewas, net of refunds. */
  sales: number;
  /** Refunded in the period (a negative sale on the refund's day), already taken from `sales`. */
  refunds: number;
  cost: number;
  /** Sales of known cost less their cost: `sales − costUnknownSales − cost`. */
  margin: number;
  deliveries: number;
  /** Deliveries whose cost is not known: left out of the margin, never counted as free. */
  costUnknown: number;
  /** The net sales of those deliveries (their refunds included). */
  costUnknownSales: number;
}

export interface MarginReport {
  from: number;
  to: number;
  by: MarginGroup;
  lines: MarginLine[];
  total: MarginLine;
}

type Figures = Omit<MarginLine, 'group' | 'margin'>;
const FIGURES = ['sales', 'refunds', 'cost', 'deliveries', 'costUnknown', 'costUnknownSales'] as const;
const emptyLine = (group: string): MarginLine => ({ group, sales: 0, refunds: 0, cost: 0, margin: 0, deliveries: 0, costUnknown: 0, costUnknownSales: 0 });

function addTo(line: MarginLine, figures: Figures): void {
  for (const field of FIGURES) line[field] += figures[field];
  line.margin = line.sales - line.costUnknownSales - line.cost;
}

/** A day is summed once it ended this long ago (settlements stamped before midnight have committed). */
const CLOSED_AFTER_MS = 10 * 60_000;
const MAX_WINDOW_MS = 366 * DAY_MS;
/** The console's list of sales of unknown cost shows at most this many. */
export const UNKNOWN_COST_LIST_MAX = 200;

export class MarginService {
  constructor(
    private readonly rows: MarginRepository,
    private readonly clock: Clock,
    private readonly costSources: readonly CostSource[] = [],
  ) {}

  async report(from: number, to: number, by: MarginGroup): Promise<MarginReport> {
    checkWindow(from, to);
    if (!(MARGIN_GROUPS as readonly string[]).includes(by)) throw invalid('INVALID_REQUEST', `group by one of ${MARGIN_GROUPS.join(', ')}`);
    const rows = await this.rowsOf(from, to);
    const groups = new Map<string, MarginLine>();
    const add = (group: string, figures: Figures) => {
      const line = groups.get(group) ?? emptyLine(group);
      addTo(line, figures);
      groups.set(group, line);
    };
    for (const r of rows) {
      add(groupOf(r, by), { sales: r.sales, refunds: r.refunds, cost: r.cost, deliveries: r.deliveries, costUnknown: r.cost_unknown, costUnknownSales: r.cost_unknown_sales });
    }
    for (const source of this.costSources) {
      for (const c of await source.costs(from, to)) {
        const group = by === 'day' ? c.day : by === 'partner' ? c.profileId : source.name;
        add(group, { sales: 0, refunds: 0, cost: c.cost, deliveries: 0, costUnknown: 0, costUnknownSales: 0 });
      }
    }
    const lines = [...groups.values()].sort((a, b) => (by === 'day' ? a.group.localeCompare(b.group) : b.sales - a.sales || a.group.localeCompare(b.group)));
    const total = emptyLine('total');
    for (const l of lines) addTo(total, l);
    return { from, to, by, lines, total };
  }

  /**
   * Sums the closed days of the last `days` that are not summed yet (the worker does this after
   * midnight, so that no report pays for it). Returns how many days it summed.
   */
  async prepare(days = 35): Promise<number> {
    const now = this.clock();
    const closedBefore = Math.floor((now - CLOSED_AFTER_MS) / DAY_MS) * DAY_MS;
    const wanted = Array.from({ length: days }, (_, i) => dayOf(closedBefore - (i + 1) * DAY_MS));
    const computedAt = await this.rows.computedAt(wanted);
    const todo = wanted.filter((day) => !computedAt.has(day));
    for (const day of todo) {
      const start = dayStart(day);
      await this.rows.store(day, await this.rows.live(start, start + DAY_MS), now);
    }
    return todo.length;
  }

  /** Live sales of [from, to) whose cost is not known, newest first (the console's list). */
  async unknownCost(from: number, to: number): Promise<UnknownCostSale[]> {
    checkWindow(from, to);
    return this.rows.unknownCost(from, to, UNKNOWN_COST_LIST_MAX);
  }

  /** The rows of [from, to): closed whole days from their sums (summed now when missing or stale), the rest from the orders. */
  private async rowsOf(from: number, to: number): Promise<MarginRow[]> {
    const now = this.clock();
    const closedBefore = Math.floor((now - CLOSED_AFTER_MS) / DAY_MS) * DAY_MS;
    const wholeDays: string[] = [];
    const partial: [number, number][] = [];
    for (let start = Math.floor(from / DAY_MS) * DAY_MS; start < to; start += DAY_MS) {
      const end = start + DAY_MS;
      const a = Math.max(start, from);
      const b = Math.min(end, to);
      if (a === start && b === end && end <= closedBefore) wholeDays.push(dayOf(start));
      else partial.push([a, b]);
    }
    const { rows, computedAt } = await this.rows.summarised(wholeDays);
    // A day with a sale of unknown cost is read again: its cost may have been filled in since.
    const unknown = new Set(rows.filter((r) => r.cost_unknown > 0 || r.cost_unknown_sales !== 0).map((r) => r.day));
    const todo = new Set(wholeDays.filter((day) => !computedAt.has(day) || unknown.has(day)));
    const result = rows.filter((r) => !todo.has(r.day));
    for (const day of todo) {
      const start = dayStart(day);
      const dayRows = await this.rows.live(start, start + DAY_MS);
      await this.rows.store(day, dayRows, now);
      result.push(...dayRows);
    }
    for (const [a, b] of partial) result.push(...(await this.rows.live(a, b)));
    return result;
  }
}

function checkWindow(from: number, to: number): void {
  if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) throw invalid('INVALID_REQUEST', 'to must be after from');
  if (to - from > MAX_WINDOW_MS) throw invalid('INVALID_REQUEST', 'a margin report covers at most 366 days');
}

function groupOf(r: MarginRow, by: MarginGroup): string {
  switch (by) {
    case 'day':
      return r.day;
    case 'kind':
      return r.kind;
    case 'operator':
      return r.operator_id;
    case 'package':
      return r.package_id;
    case 'provider':
      return r.provider;
    case 'partner':
      return r.profile_id;
  }
}

/**
 * The CSV of a report (docs/live-delivery.md, "Margins"): the group, then sales, cost and margin in
 * GHS, then refunds, deliveries, deliveries of unknown cost and the sales they cover; a last row of
 * totals.
 */
export function marginCsv(report: MarginReport): string {
  const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);
  const cell = (text: string) => csvField(csvText(text));
  const row = (l: MarginLine) =>
    [cell(l.group), ghs(l.sales), ghs(l.cost), ghs(l.margin), ghs(l.refunds), String(l.deliveries), String(l.costUnknown), ghs(l.costUnknownSales)].join(',');
  const header = `${report.by},sales,cost,margin,refunds,deliveries,unknown_cost_deliveries,unknown_cost_sales`;
  return `${[header, ...report.lines.map(row), row(report.total)].join('\n')}\n`;
}
