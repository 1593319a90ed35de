import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB } from '../../db/schema.js';

export const MARGIN_KINDS = ['data', 'result_checker'] as const;
export type MarginKind = (typeof MARGIN_KINDS)[number];

/**
 * One group of live sales and refunds of one day: who bought, what, through which upstream; pesewas.
 * A refund is a negative sale on its own day; the cost stays on the day of the sale.
 */
export interface MarginRow {
  day: string;
  kind: MarginKind;
  profile_id: string;
  package_id: string;
  operator_id: string;
  provider: string;
  /** Net: sales less refunds. */
  sales: number;
  refunds: number;
  cost: number;
  deliveries: number;
  cost_unknown: number;
  /** The part of `sales` (sales and refunds) of deliveries whose cost is not known. */
  cost_unknown_sales: number;
}

/** A live sale whose cost is not known (the console's list): a data delivery or a result-checker sale. */
export interface UnknownCostSale {
  kind: MarginKind;
  order_id: string;
  short_reference: string;
  profile_id: string;
  package_id: string;
  /** The recipient's number (data) or the buyer's phone (result checker). */
  msisdn: string;
  provider: string;
  amount: number;
  completed_at: number;
}

const DAY_MS = 86_400_000;
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00Z`);

/** Result-checker credentials come from our own stock: their "upstream" in the report. */
const RC_PROVIDER = 'inventory';
const RC_OPERATOR = 'result_checker';

/** The attempt that delivered an item, found by the item's index (`status || ''` keeps SQLite off the status index). */
const deliveringAttempt = (qb: Kysely<DB>) =>
  qb
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .leftJoin('provider_attempts as a', (join) =>
      join.onRef('a.order_item_id', '=', 'i.id').onRef('a.item_attempt', '=', 'i.attempt').on(sql`a.status || ''`, '=', 'completed'),
    )
    .leftJoin('data_packages as p', 'p.id', 'i.package_id');

/**
 * The completed live deliveries of [from, to), grouped, each a sale on the day it was delivered
 * (reversed since or not): read through the partial index order_items_completed
 * (test/db/query-plans.test.ts).
 */
export const marginWindowQuery = (qb: Kysely<DB>, from: number, to: number) =>
  deliveringAttempt(qb)
    .select((eb) => [
      'o.profile_id',
      'i.package_id',
      eb.fn.coalesce('p.operator_id', sql<string>`'unknown'`).as('operator_id'),
      eb.fn.coalesce('a.provider', sql<string>`'none'`).as('provider'),
      eb.fn.sum<number>('i.amount').as('sales'),
      eb.fn.coalesce(eb.fn.sum<number>('a.cost'), sql<number>`0`).as('cost'),
      eb.fn.countAll<number>().as('deliveries'),
      eb.fn.sum<number>(sql<number>`case when a.cost is null then 1 else 0 end`).as('cost_unknown'),
      eb.fn.sum<number>(sql<number>`case when a.cost is null then i.amount else 0 end`).as('cost_unknown_sales'),
    ])
    .where('i.completed_at', '>=', from)
    .where('i.completed_at', '<', to)
    .where('i.status', '=', 'completed')
    .where('i.mode', '=', 'live')
    .groupBy(['o.profile_id', 'i.package_id', 'p.operator_id', 'a.provider']);

/**
 * The delivered live recipients refunded in [from, to): by themselves (`'item'`, through
 * order_items_reversed) or with their whole order (`'order'`, through orders_reversed; a recipient
 * reversed before its order was refunded then, not now). test/db/query-plans.test.ts
 */
export const marginRefundsQuery = (qb: Kysely<DB>, from: number, to: number, reversedBy: 'item' | 'order') => {
  const query = deliveringAttempt(qb)
    .select((eb) => [
      'o.profile_id',
      'i.package_id',
      eb.fn.coalesce('p.operator_id', sql<string>`'unknown'`).as('operator_id'),
      eb.fn.coalesce('a.provider', sql<string>`'none'`).as('provider'),
      eb.fn.sum<number>('i.amount').as('refunds'),
      eb.fn.sum<number>(sql<number>`case when a.cost is null then i.amount else 0 end`).as('cost_unknown_refunds'),
    ])
    .where('i.status', '=', 'completed')
    .where('i.mode', '=', 'live')
    .groupBy(['o.profile_id', 'i.package_id', 'p.operator_id', 'a.provider']);
  return reversedBy === 'item'
    ? query.where('i.reversed_at', '>=', from).where('i.reversed_at', '<', to)
    : query
        // The orders first (orders_reversed), then their items by the order's index.
        .where('i.order_id', 'in', (eb) =>
          eb.selectFrom('orders as r').select('r.id').where('r.reversed_at', '>=', from).where('r.reversed_at', '<', to).where('r.state', '=', 'reversed'),
        )
        .where('i.reversed_at', 'is', null);
};

/** Live result-checker sales completed (`'completed_at'`) or refunded (`'refunded_at'`) in [from, to), grouped. */
export const rcWindowQuery = (qb: Kysely<DB>, from: number, to: number, at: 'completed_at' | 'refunded_at') =>
  qb
    .selectFrom('rc_transactions as t')
    .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
    .select((eb) => [
      't.profile_id',
      't.package_id',
      eb.fn.sum<number>('t.amount').as('sales'),
      eb.fn.coalesce(eb.fn.sum<number>('c.cost'), sql<number>`0`).as('cost'),
      eb.fn.countAll<number>().as('deliveries'),
      eb.fn.sum<number>(sql<number>`case when c.cost is null then 1 else 0 end`).as('cost_unknown'),
      eb.fn.sum<number>(sql<number>`case when c.cost is null then t.amount else 0 end`).as('cost_unknown_sales'),
    ])
    .where(`t.${at}`, '>=', from)
    .where(`t.${at}`, '<', to)
    .where('t.state', '=', 'completed')
    .where('t.mode', '=', 'live')
    .groupBy(['t.profile_id', 't.package_id']);

const num = (value: number | string | bigint | null) => Number(value ?? 0);

/**
 * The figures of the margin report (docs/live-delivery.md, "Margins"): live data deliveries and
 * result-checker sales, each a sale on its day, and their refunds (reversals), each a negative sale
 * on the refund's day; the cost of what was delivered (the delivering attempt's, the credential's);
 * closed days summed once into margin_days.
 */
export class MarginRepository {
  constructor(private readonly database: Database) {}

  /** The rows of [from, to) (within one day), read from the orders themselves. */
  async live(from: number, to: number): Promise<MarginRow[]> {
    const day = dayOf(from);
    const read = this.database.read;
    const rows = new Map<string, MarginRow>();
    const add = (kind: MarginKind, r: { profile_id: string; package_id: string; operator_id: string; provider: string }, figures: Partial<MarginRow>) => {
      const key = [kind, r.profile_id, r.package_id, r.provider].join('\u0000');
      const row = rows.get(key) ?? {
        day,
        kind,
        profile_id: r.profile_id,
        package_id: r.package_id,
        operator_id: r.operator_id,
        provider: r.provider,
        sales: 0,
        refunds: 0,
        cost: 0,
        deliveries: 0,
        cost_unknown: 0,
        cost_unknown_sales: 0,
      };
      for (const field of ['sales', 'refunds', 'cost', 'deliveries', 'cost_unknown', 'cost_unknown_sales'] as const) row[field] += figures[field] ?? 0;
      rows.set(key, row);
    };
    for (const r of await marginWindowQuery(read, from, to).execute()) {
      add('data', r, { sales: num(r.sales), cost: num(r.cost), deliveries: num(r.deliveries), cost_unknown: num(r.cost_unknown), cost_unknown_sales: num(r.cost_unknown_sales) });
    }
    for (const by of ['item', 'order'] as const) {
      for (const r of await marginRefundsQuery(read, from, to, by).execute()) {
        add('data', r, { sales: -num(r.refunds), refunds: num(r.refunds), cost_unknown_sales: -num(r.cost_unknown_refunds) });
      }
    }
    const rc = { operator_id: RC_OPERATOR, provider: RC_PROVIDER };
    for (const r of await rcWindowQuery(read, from, to, 'completed_at').execute()) {
      add('result_checker', { ...r, ...rc }, { sales: num(r.sales), cost: num(r.cost), deliveries: num(r.deliveries), cost_unknown: num(r.cost_unknown), cost_unknown_sales: num(r.cost_unknown_sales) });
    }
    for (const r of await rcWindowQuery(read, from, to, 'refunded_at').execute()) {
      add('result_checker', { ...r, ...rc }, { sales: -num(r.sales), refunds: num(r.sales), cost_unknown_sales: -num(r.cost_unknown_sales) });
    }
    return [...rows.values()];
  }

  /** The summed rows of closed days, and when each day was summed. */
  async summarised(days: readonly string[]): Promise<{ rows: MarginRow[]; computedAt: Map<string, number> }> {
    if (days.length === 0) return { rows: [], computedAt: new Map() };
    const computedAt = await this.computedAt(days);
    const have = [...computedAt.keys()];
    const rows = have.length === 0 ? [] : await this.database.read.selectFrom('margin_days').selectAll().where('day', 'in', have).execute();
    return {
      rows: rows.map((r) => ({
        ...r,
        kind: r.kind as MarginKind,
        sales: num(r.sales),
        refunds: num(r.refunds),
        cost: num(r.cost),
        deliveries: num(r.deliveries),
        cost_unknown: num(r.cost_unknown),
        cost_unknown_sales: num(r.cost_unknown_sales),
      })),
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
            .onConflict((oc) => oc.columns(['day', 'kind', 'profile_id', 'package_id', 'provider']).doNothing()),
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

  /** Live sales of [from, to) whose cost is not known, newest first (at most `limit`). */
  async unknownCost(from: number, to: number, limit: number): Promise<UnknownCostSale[]> {
    const read = this.database.read;
    const data = await deliveringAttempt(read)
      .select(['i.order_id', 'o.short_reference', 'o.profile_id', 'i.package_id', 'i.beneficiary_msisdn as msisdn', 'a.provider', 'i.amount', 'i.completed_at'])
      .where('i.completed_at', '>=', from)
      .where('i.completed_at', '<', to)
      .where('i.status', '=', 'completed')
      .where('i.mode', '=', 'live')
      .where('a.cost', 'is', null)
      .orderBy('i.completed_at', 'desc')
      .limit(limit)
      .execute();
    const rc = await read
      .selectFrom('rc_transactions as t')
      .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
      .select(['t.order_id', 't.short_reference', 't.profile_id', 't.package_id', 't.buyer_phone as msisdn', 't.amount', 't.completed_at'])
      .where('t.completed_at', '>=', from)
      .where('t.completed_at', '<', to)
      .where('t.state', '=', 'completed')
      .where('t.mode', '=', 'live')
      .where('c.cost', 'is', null)
      .orderBy('t.completed_at', 'desc')
      .limit(limit)
      .execute();
    const sales: UnknownCostSale[] = [
      ...data.map((r) => ({ kind: 'data' as const, order_id: r.order_id, short_reference: r.short_reference, profile_id: r.profile_id, package_id: r.package_id, msisdn: r.msisdn, provider: r.provider ?? 'none', amount: num(r.amount), completed_at: num(r.completed_at) })),
      ...rc.map((r) => ({ kind: 'result_checker' as const, order_id: r.order_id, short_reference: r.short_reference, profile_id: r.profile_id, package_id: r.package_id, msisdn: r.msisdn, provider: RC_PROVIDER, amount: num(r.amount), completed_at: num(r.completed_at) })),
    ];
    return sales.sort((a, b) => b.completed_at - a.completed_at || a.order_id.localeCompare(b.order_id)).slice(0, limit);
  }
}

export { DAY_MS };
