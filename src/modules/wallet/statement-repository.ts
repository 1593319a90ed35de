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

  /** Entries of the range in ledger order (id), after entry `afterId`, at most `limit`. */
  async entries(r: StatementRange, afterId: number, limit: number) {
    return this.ranged(r)
      .select([
        'id',
        'kind',
        'available_delta',
        'held_delta',
        'available_after',
        'held_after',
        'order_id',
        'order_item_id',
        'rc_transaction_id',
        'top_up_id',
        'idempotency_key',
        'memo',
        'created_at',
      ])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
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
