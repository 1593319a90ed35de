import type { Database } from '../../db/connection.js';
import type { TopUpRow, TopUpStatus } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';
import type { KeysetPosition } from '../../lib/cursor.js';
import { walletLedgerNet } from '../wallet/repository.js';

export interface NewTopUp {
  id: string;
  profileId: string;
  mode: Mode;
  amount: number;
  method: 'momo' | 'bank';
  reference: string;
  note: string | null;
  status: TopUpStatus;
  decidedAt: number | null;
  decidedBy: string | null;
  now: number;
}

export class TopUpRepository {
  constructor(private readonly database: Database) {}

  /** The new top-up; a reference the owner already used is refused by top_ups_reference. */
  async insert(tx: Tx, t: NewTopUp): Promise<TopUpRow> {
    const query = tx.qb
      .insertInto('top_ups')
      .values({
        id: t.id,
        profile_id: t.profileId,
        mode: t.mode,
        amount: t.amount,
        currency: 'GHS',
        method: t.method,
        reference: t.reference,
        note: t.note,
        status: t.status,
        rejection_reason: null,
        decided_at: t.decidedAt,
        decided_by: t.decidedBy,
        created_at: t.now,
        updated_at: t.now,
      })
      .returningAll();
    const [row] = (await tx.execute(query)).rows;
    if (!row) throw new Error(`top-up ${t.id} was not written`);
    return row;
  }

  /** Newest first, keyset-paginated on (created_at, id); reads `limit` rows. */
  async listOwn(owner: Owner, filter: { status?: TopUpStatus | undefined; after?: KeysetPosition | null; limit: number }) {
    let query = this.database.read
      .selectFrom('top_ups')
      .selectAll()
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode);
    if (filter.status) query = query.where('status', '=', filter.status);
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        // Row values: the index is sought to the cursor (see orders/repository.ts orderListQuery).
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  /** Staff view across profiles (CLI), newest first. */
  async list(filter: { status?: TopUpStatus | undefined; mode?: Mode | undefined; limit: number }) {
    let query = this.database.read.selectFrom('top_ups').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.mode) query = query.where('mode', '=', filter.mode);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  async find(tx: Tx, id: string) {
    return (await tx.execute(tx.qb.selectFrom('top_ups').selectAll().where('id', '=', id))).rows[0];
  }

  /** Moves a pending top-up to its decision; undefined when it is not pending (or unknown). */
  async decidePending(
    tx: Tx,
    id: string,
    decision: { status: 'approved' | 'rejected'; rejectionReason: string | null; decidedBy: string; now: number },
  ) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        status: decision.status,
        rejection_reason: decision.rejectionReason,
        decided_at: decision.now,
        decided_by: decision.decidedBy,
        updated_at: decision.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  // ---- ledger verify (read-only, inside its snapshot) ----

  /** Per wallet: the net of its top_up entries and the total of its approved top-ups. */
  async walletTopUpTotals(tx: Tx) {
    return tx.db
      .selectFrom('wallets as w')
      .select((eb) => [
        'w.id',
        'w.profile_id',
        'w.mode',
        walletLedgerNet(eb, ['top_up']).as('ledger_net'),
        eb
          .selectFrom('top_ups as t')
          .select((s) => s.fn.coalesce(s.fn.sum<number>('t.amount'), s.lit(0)).as('n'))
          .whereRef('t.profile_id', '=', 'w.profile_id')
          .whereRef('t.mode', '=', 'w.mode')
          .where('t.status', '=', 'approved')
          .as('approved_total'),
      ])
      .orderBy('w.id')
      .execute();
  }

  /** Per top-up: its ledger entries (count, net, and how many sit on a wallet that is not the owner's). */
  async topUpLedgerEntries(tx: Tx) {
    return tx.db
      .selectFrom('top_ups as t')
      .leftJoin('ledger_entries as l', 'l.top_up_id', 't.id')
      .leftJoin('wallets as w', 'w.id', 'l.wallet_id')
      .select((eb) => [
        't.id',
        't.status',
        't.amount',
        eb.fn.count<number>('l.id').as('entries'),
        eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('net'),
        eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('held_net'),
        eb.fn
          .count<number>('l.id')
          .filterWhere((f) => f.or([f('w.profile_id', '!=', f.ref('t.profile_id')), f('w.mode', '!=', f.ref('t.mode'))]))
          .as('misdirected'),
      ])
      .groupBy(['t.id', 't.status', 't.amount'])
      .orderBy('t.id')
      .execute();
  }

  /** top_up ledger entries that name no top-up, or one that does not exist. */
  async orphanTopUpEntries(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('top_ups as t', 't.id', 'l.top_up_id')
      .select(['l.id', 'l.top_up_id'])
      .where('l.kind', '=', 'top_up')
      .where('t.id', 'is', null)
      .orderBy('l.id')
      .execute();
  }
}
