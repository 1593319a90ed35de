import { invalid } from '../../domain/errors.js';
import type { Clock } from '../../domain/types.js';
import { DAY_MS, dayOf, dayStart, type MarginRepository, type MarginRow } from './repository.js';

/**
 * The margin report (docs/live-delivery.md, "Margins"): per day, operator, package, upstream or
 * partner, what partners paid for completed live deliveries (sales), what the upstreams charged for
 * them (cost: the completed attempt's cost in GHS) and the difference (margin). Test mode never
 * counts; a reversed order is not a sale. Closed days are summed once (margin_days) and summed
 * again when one of their orders is reversed; today and partial days are read from the orders.
 *
 * Other costs of the platform come in through `CostSource`s: Paystack's fees on partners' live
 * Mobile Money top-ups (./mobile-money-fees.ts) are one.
 */

export const MARGIN_GROUPS = ['day', 'operator', 'package', 'provider', 'partner'] as const;
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
  /** Pesewas. */
  sales: number;
  cost: number;
  margin: number;
  deliveries: number;
  /** Deliveries counted without a cost (none known): their margin is overstated. */
  costUnknown: number;
}

export interface MarginReport {
  from: number;
  to: number;
  by: MarginGroup;
  lines: MarginLine[];
  total: MarginLine;
}

/** A day is summed once it ended this long ago (settlements stamped before midnight have committed). */
const CLOSED_AFTER_MS = 10 * 60_000;
const MAX_WINDOW_MS = 366 * DAY_MS;

export class MarginService {
  constructor(
    private readonly rows: MarginRepository,
    private readonly clock: Clock,
    private readonly costSources: readonly CostSource[] = [],
  ) {}

  async report(from: number, to: number, by: MarginGroup): Promise<MarginReport> {
    if (!Number.isFinite(from) || !Number.isFinite(to) || to <= from) throw invalid('INVALID_REQUEST', 'to must be after from');
    if (to - from > MAX_WINDOW_MS) throw invalid('INVALID_REQUEST', 'a margin report covers at most 366 days');
    if (!(MARGIN_GROUPS as readonly string[]).includes(by)) throw invalid('INVALID_REQUEST', `group by one of ${MARGIN_GROUPS.join(', ')}`);
    const rows = await this.rowsOf(from, to);
    const groups = new Map<string, MarginLine>();
    const add = (group: string, r: { sales: number; cost: number; deliveries: number; costUnknown: number }) => {
      const line = groups.get(group) ?? { group, sales: 0, cost: 0, margin: 0, deliveries: 0, costUnknown: 0 };
      line.sales += r.sales;
      line.cost += r.cost;
      line.margin = line.sales - line.cost;
      line.deliveries += r.deliveries;
      line.costUnknown += r.costUnknown;
      groups.set(group, line);
    };
    for (const r of rows) add(groupOf(r, by), { sales: r.sales, cost: r.cost, deliveries: r.deliveries, costUnknown: r.cost_unknown });
    for (const source of this.costSources) {
      for (const c of await source.costs(from, to)) {
        const group = by === 'day' ? c.day : by === 'partner' ? c.profileId : source.name;
        add(group, { sales: 0, cost: c.cost, deliveries: 0, costUnknown: 0 });
      }
    }
    const lines = [...groups.values()].sort((a, b) => (by === 'day' ? a.group.localeCompare(b.group) : b.sales - a.sales || a.group.localeCompare(b.group)));
    const total = lines.reduce<MarginLine>(
      (t, l) => ({ group: 'total', sales: t.sales + l.sales, cost: t.cost + l.cost, margin: t.margin + l.margin, deliveries: t.deliveries + l.deliveries, costUnknown: t.costUnknown + l.costUnknown }),
      { group: 'total', sales: 0, cost: 0, margin: 0, deliveries: 0, costUnknown: 0 },
    );
    return { from, to, by, lines, total };
  }

  /**
   * Sums the closed days of the last `days` that are not summed yet, or were summed before a
   * reversal of one of their orders (the worker does this after midnight, so that no report pays
   * for it). Returns how many days it summed.
   */
  async prepare(days = 35): Promise<number> {
    const now = this.clock();
    const closedBefore = Math.floor((now - CLOSED_AFTER_MS) / DAY_MS) * DAY_MS;
    const wanted = Array.from({ length: days }, (_, i) => dayOf(closedBefore - (i + 1) * DAY_MS));
    const computedAt = await this.rows.computedAt(wanted);
    const reversed = computedAt.size === 0 ? new Map<string, number>() : await this.rows.reversedDays(Math.min(...computedAt.values()), new Set(computedAt.keys()));
    const todo = wanted.filter((day) => !computedAt.has(day) || (reversed.get(day) ?? -1) >= (computedAt.get(day) ?? 0));
    for (const day of todo) {
      const start = dayStart(day);
      await this.rows.store(day, await this.rows.live(start, start + DAY_MS), now);
    }
    return todo.length;
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
    const reversed = computedAt.size === 0 ? new Map<string, number>() : await this.rows.reversedDays(Math.min(...computedAt.values()), new Set(computedAt.keys()));
    const todo = new Set(wholeDays.filter((day) => !computedAt.has(day) || (reversed.get(day) ?? -1) >= (computedAt.get(day) ?? 0)));
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

function groupOf(r: MarginRow, by: MarginGroup): string {
  switch (by) {
    case 'day':
      return r.day;
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

/** The CSV of a report: the group, then sales, cost and margin in GHS (docs/live-delivery.md, "Margins"). */
export function marginCsv(report: MarginReport): string {
  const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);
  const cell = (text: string) => (/[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
  const lines = [`${report.by},sales,cost,margin`, ...report.lines.map((l) => [cell(l.group), ghs(l.sales), ghs(l.cost), ghs(l.margin)].join(','))];
  return `${lines.join('\n')}\n`;
}
