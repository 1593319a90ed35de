import type { Executor } from '../db/connection.js';
import type { Mode, TopUpStatus } from '../db/schema.js';
import type { KeysetPosition } from '../lib/cursor.js';
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

export async function insertTopUp(db: Executor, t: NewTopUp) {
  return db
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
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Newest first, keyset-paginated on (created_at, id); reads `limit` rows. */
export async function listOwnTopUps(
  db: Executor,
  owner: { profileId: string; mode: Mode },
  filter: { status?: TopUpStatus | undefined; after?: KeysetPosition | null; limit: number },
) {
  let query = db
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
export async function listTopUps(db: Executor, filter: { status?: TopUpStatus | undefined; mode?: Mode | undefined; limit: number }) {
  let query = db.selectFrom('top_ups').selectAll();
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.mode) query = query.where('mode', '=', filter.mode);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function findTopUp(db: Executor, id: string) {
  return db.selectFrom('top_ups').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Moves a pending top-up to its decision; undefined when it is not pending (or unknown). */
export async function decidePending(
  db: Executor,
  id: string,
  decision: { status: 'approved' | 'rejected'; rejectionReason: string | null; decidedBy: string; now: number },
) {
  return db
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
    .returningAll()
    .executeTakeFirst();
}

// ---- ledger verify (read-only) ----

/** Per wallet: the net of its top_up entries and the total of its approved top-ups. */
export async function walletTopUpTotals(db: Executor) {
  return db
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
export async function topUpLedgerEntries(db: Executor) {
  return db
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
export async function orphanTopUpEntries(db: Executor) {
  return db
    .selectFrom('ledger_entries as l')
    .leftJoin('top_ups as t', 't.id', 'l.top_up_id')
    .select(['l.id', 'l.top_up_id'])
    .where('l.kind', '=', 'top_up')
    .where('t.id', 'is', null)
    .orderBy('l.id')
    .execute();
}
