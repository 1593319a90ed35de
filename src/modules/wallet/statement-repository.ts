import type { Database } from '../../db/connection.js';
import type { LedgerKind } from '../../db/schema.js';

export interface StatementRange {
  walletId: string;
  /** Unix ms, inclusive; null: from the first entry. */
  from: number | null;
  /** Unix ms, exclusive; null: to now. */
  to: number | null;
  /** Empty: every kind. */
  kinds: readonly LedgerKind[];
}

/** One wallet's ledger entries read for a statement (read handle; entries are never changed). */
export class StatementRepository {
  constructor(private readonly database: Database) {}

  private ranged(r: StatementRange) {
    let query = this.database.read.selectFrom('ledger_entries').where('wallet_id', '=', r.walletId);
    if (r.from !== null) query = query.where('created_at', '>=', r.from);
    if (r.to !== null) query = query.where('created_at', '<', r.to);
    if (r.kinds.length > 0) query = query.where('kind', 'in', r.kinds);
    return query;
  }

  /**
   * Entries of the range that move available, in ledger order (`asc`) or newest first (`desc`), after
   * (asc) or before (desc) entry `from` (null: from the start), at most `limit`.
   */
  async movements(r: StatementRange, direction: 'asc' | 'desc', from: number | null, limit: number) {
    let query = this.ranged(r).select([
      'id',
      'kind',
      'available_delta',
      'available_after',
      'held_after',
      'order_id',
      'order_item_id',
      'rc_transaction_id',
      'top_up_id',
      'idempotency_key',
      'created_at',
    ]);
    if (from !== null) query = query.where('id', direction === 'asc' ? '>' : '<', from);
    return query.orderBy('id', direction).limit(limit).execute();
  }

  /** What statement lines name of their orders (result-checker sales are orders too). */
  async orders(ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.database.read
      .selectFrom('orders')
      .select(['id', 'order_type', 'short_reference', 'beneficiary_msisdn', 'operator_name', 'product_name', 'package_label', 'is_bulk'])
      .where('id', 'in', ids)
      .execute();
  }

  /** The recipients statement lines name (a bulk order's line names its recipient when it is one). */
  async orderItems(ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.database.read.selectFrom('order_items').select(['id', 'beneficiary_msisdn', 'package_label']).where('id', 'in', ids).execute();
  }

  async topUps(ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.database.read.selectFrom('top_ups').select(['id', 'method', 'reference']).where('id', 'in', ids).execute();
  }

  /** The partner-facing reason of each adjustment (the one its wallet.adjusted event carries). */
  async adjustments(ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.database.read.selectFrom('wallet_adjustments').select(['id', 'reason']).where('id', 'in', ids).execute();
  }

  /** Items and package names of result-checker bulk purchases. */
  async rcBulks(ids: readonly string[]) {
    if (ids.length === 0) return [];
    return this.database.read
      .selectFrom('rc_transactions')
      .select(['bulk_id', 'package_name'])
      .where('bulk_id', 'in', ids)
      .execute();
  }

  /** Count and sums of the range's entries: credits and debits of available, and the net change of held. */
  async totals(r: StatementRange) {
    const row = await this.ranged(r)
      .select((eb) => [
        eb.fn.countAll<number>().as('entries'),
        eb.fn
          .coalesce(eb.fn.sum<number>(eb.case().when('available_delta', '>', 0).then(eb.ref('available_delta')).else(0).end()), eb.lit(0))
          .as('credits'),
        eb.fn
          .coalesce(eb.fn.sum<number>(eb.case().when('available_delta', '<', 0).then(eb.ref('available_delta')).else(0).end()), eb.lit(0))
          .as('debits'),
        eb.fn.coalesce(eb.fn.sum<number>('held_delta'), eb.lit(0)).as('held'),
      ])
      .executeTakeFirst();
    return {
      entries: Number(row?.entries ?? 0),
      credits: Number(row?.credits ?? 0),
      debits: Number(row?.debits ?? 0),
      held: Number(row?.held ?? 0),
    };
  }

  /** The wallet's balances from its entries booked before `before` (null: every entry). */
  async balancesBefore(walletId: string, before: number | null) {
    let query = this.database.read
      .selectFrom('ledger_entries')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>('available_delta'), eb.lit(0)).as('available'),
        eb.fn.coalesce(eb.fn.sum<number>('held_delta'), eb.lit(0)).as('held'),
      ])
      .where('wallet_id', '=', walletId);
    if (before !== null) query = query.where('created_at', '<', before);
    const row = await query.executeTakeFirst();
    return { available: Number(row?.available ?? 0), held: Number(row?.held ?? 0) };
  }
}
