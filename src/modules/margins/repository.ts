import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB } from '../../db/schema.js';

/** One group of completed live deliveries: who bought, what, through which upstream; pesewas. */
export interface MarginRow {
  day: string;
  profile_id: string;
  package_id: string;
  operator_id: string;
  provider: string;
  sales: number;
  cost: number;
  deliveries: number;
  cost_unknown: number;
}

const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/**
 * The completed live deliveries of [from, to), grouped: read through the partial index
 * order_items_completed (test/db/query-plans.test.ts).
 */
export const marginWindowQuery = (qb: Kysely<DB>, from: number, to: number) =>
  qb
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    // The attempt that delivered the item, found by the item's index; `status || ''` kept SQLite
    // from reading every completed attempt through the status index (whole until migration 0021).
    .leftJoin('provider_attempts as a', (join) =>
      join.onRef('a.order_item_id', '=', 'i.id').onRef('a.item_attempt', '=', 'i.attempt').on(sql`a.status || ''`, '=', 'completed'),
    )
    .leftJoin('data_packages as p', 'p.id', 'i.package_id')
    .select((eb) => [
      'o.profile_id',
      'i.package_id',
      eb.fn.coalesce('p.operator_id', sql<string>`'unknown'`).as('operator_id'),
      eb.fn.coalesce('a.provider', sql<string>`'none'`).as('provider'),
      eb.fn.sum<number>('i.amount').as('sales'),
      eb.fn.coalesce(eb.fn.sum<number>('a.cost'), sql<number>`0`).as('cost'),
      eb.fn.countAll<number>().as('deliveries'),
      eb.fn.sum<number>(sql<number>`case when a.cost is null then 1 else 0 end`).as('cost_unknown'),
    ])
    .where('i.completed_at', '>=', from)
    .where('i.completed_at', '<', to)
    .where('i.status', '=', 'completed')
    .where('i.mode', '=', 'live')
    .where('o.state', '<>', 'reversed')
    .where('i.reversed_at', 'is', null)
    .groupBy(['o.profile_id', 'i.package_id', 'p.operator_id', 'a.provider']);

/**
 * The figures of the margin report (docs/live-delivery.md, "Margins"): completed live deliveries of
 * data orders not reversed (nor reversed recipient by recipient), their price (what the partner paid) and the cost of the attempt that
 * delivered them; closed days summed once into margin_days.
 */
export class MarginRepository {
  constructor(private readonly database: Database) {}

  /** Completed live deliveries in [from, to) (within one day), grouped, read from the orders themselves. */
  async live(from: number, to: number): Promise<MarginRow[]> {
    const day = dayOf(from);
    const rows = await marginWindowQuery(this.database.read, from, to).execute();
    return rows.map((r) => ({
      day,
      profile_id: r.profile_id,
      package_id: r.package_id,
      operator_id: r.operator_id,
      provider: r.provider,
      sales: Number(r.sales),
      cost: Number(r.cost),
      deliveries: Number(r.deliveries),
      cost_unknown: Number(r.cost_unknown),
    }));
  }

  /** The summed rows of closed days, and when each day was summed. */
  async summarised(days: readonly string[]): Promise<{ rows: MarginRow[]; computedAt: Map<string, number> }> {
    if (days.length === 0) return { rows: [], computedAt: new Map() };
    const done = await this.database.read.selectFrom('margin_days_done').selectAll().where('day', 'in', [...days]).execute();
    const computedAt = new Map(done.map((d) => [d.day, Number(d.computed_at)]));
    const have = [...computedAt.keys()];
    const rows = have.length === 0 ? [] : await this.database.read.selectFrom('margin_days').selectAll().where('day', 'in', have).execute();
    return {
      rows: rows.map((r) => ({ ...r, sales: Number(r.sales), cost: Number(r.cost), deliveries: Number(r.deliveries), cost_unknown: Number(r.cost_unknown) })),
      computedAt,
    };
  }

  /** When each of `days` was summed, for those that were. */
  async computedAt(days: readonly string[]): Promise<Map<string, number>> {
    if (days.length === 0) return new Map();
    const done = await this.database.read.selectFrom('margin_days_done').selectAll().where('day', 'in', [...days]).execute();
    return new Map(done.map((d) => [d.day, Number(d.computed_at)]));
  }

  /** Replaces a closed day's summed rows (one unit: the day and its rows change together). */
  async store(day: string, rows: readonly MarginRow[], now: number): Promise<void> {
    await this.database.unit(async (tx) => {
      await tx.execute(tx.qb.deleteFrom('margin_days').where('day', '=', day));
      for (let i = 0; i < rows.length; i += 200) {
        // Another worker summing the same day at once writes the same figures: its rows stand.
        await tx.execute(
          tx.qb
            .insertInto('margin_days')
            .values(rows.slice(i, i + 200).map((r) => ({ ...r, day })))
            .onConflict((oc) => oc.columns(['day', 'profile_id', 'package_id', 'provider']).doNothing()),
        );
      }
      await tx.execute(
        tx.qb
          .insertInto('margin_days_done')
          .values({ day, computed_at: now })
          .onConflict((oc) => oc.column('day').doUpdateSet({ computed_at: now })),
      );
    });
  }

  /**
   * The days (of `days`) of orders reversed (whole or one recipient) since `since`, with the latest such reversal: a day
   * summed before it is out of date. A reversal is found by its audit row (every reversal, console
   * or CLI, has one).
   */
  async reversedDays(since: number, days: ReadonlySet<string>): Promise<Map<string, number>> {
    const reversals = await this.database.read
      .selectFrom('audit_log')
      .select(['record_id', 'created_at'])
      .where('action', 'in', ['order.reverse', 'order.reverse_recipient'])
      .where('outcome', '=', 'ok')
      .where('created_at', '>=', since)
      .execute();
    const reversedAt = new Map<string, number>();
    for (const r of reversals) if (r.record_id !== null) reversedAt.set(r.record_id, Math.max(reversedAt.get(r.record_id) ?? 0, Number(r.created_at)));
    const orderIds = [...reversedAt.keys()];
    const latest = new Map<string, number>();
    for (let i = 0; i < orderIds.length; i += 500) {
      const items = await this.database.read
        .selectFrom('order_items')
        .select(['order_id', 'completed_at'])
        .where('order_id', 'in', orderIds.slice(i, i + 500))
        .where('completed_at', 'is not', null)
        .execute();
      for (const item of items) {
        const day = dayOf(Number(item.completed_at));
        const at = reversedAt.get(item.order_id) ?? 0;
        if (days.has(day) && at > (latest.get(day) ?? 0)) latest.set(day, at);
      }
    }
    return latest;
  }
}

export { DAY_MS };
