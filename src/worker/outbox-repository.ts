import type { Executor } from '../db/connection.js';
import { insertRow, preparedQuery } from '../db/prepared.js';
import { lockSkipLocked, type DialectName } from '../db/dialect.js';
import type { OutboxKind } from '../db/schema.js';

/**
 * The durable outbox: at most one row per order item, 'submit' until the provider accepted it,
 * then 'poll' until it is settled (the row is deleted in the settling transaction).
 * A claimed row carries a lease (locked_by, locked_until); an expired lease is claimable again.
 */

export async function insertSubmit(db: Executor, orderItemId: string, now: number): Promise<void> {
  await insertRow(db, 'outbox', { order_item_id: orderItemId, kind: 'submit', run_at: now, tries: 0, created_at: now });
}

export interface ClaimedRow {
  id: number;
  order_item_id: string;
  kind: OutboxKind;
  tries: number;
}

/** Claims up to `limit` due rows for `workerId`. Call inside a (short) transaction. */
export async function claimDue(
  trx: Executor,
  dialect: DialectName,
  claim: { workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedRow[]> {
  const due = await lockSkipLocked(
    trx
      .selectFrom('outbox')
      .select('id')
      .where('run_at', '<=', claim.now)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
      .orderBy('run_at')
      .orderBy('id')
      .limit(claim.limit),
    dialect,
  ).execute();
  if (due.length === 0) return [];
  const rows = await trx
    .updateTable('outbox')
    .set({ locked_by: claim.workerId, locked_until: claim.now + claim.leaseMs })
    .where(
      'id',
      'in',
      due.map((r) => r.id),
    )
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]))
    .returning(['id', 'order_item_id', 'kind', 'tries'])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), tries: Number(r.tries) }));
}

/** The earliest moment any row becomes claimable (run_at, or the end of a live lease), or null. */
export async function nextDueAt(db: Executor): Promise<number | null> {
  const row = await db
    .selectFrom('outbox')
    .select((eb) =>
      eb.fn
        .min(eb.case().when('locked_until', '>', eb.ref('run_at')).then(eb.ref('locked_until')).else(eb.ref('run_at')).end())
        .as('next'),
    )
    .executeTakeFirst();
  return row?.next === null || row?.next === undefined ? null : Number(row.next);
}

/** After a submission was accepted: poll next, at `runAt`. Only the lease holder may do this. */
const submitted = preparedQuery((db, id: number, workerId: string, runAt: number) =>
  db
    .updateTable('outbox')
    .set({ kind: 'poll', run_at: runAt, tries: 0, locked_by: null, locked_until: null, last_error: null })
    .where('id', '=', id)
    .where('locked_by', '=', workerId),
);

export async function markSubmitted(db: Executor, id: number, workerId: string, runAt: number): Promise<boolean> {
  return Number((await submitted(db, id, workerId, runAt)).numAffectedRows) > 0;
}

/** Releases the lease and runs the row again at `runAt`; an error bumps `tries` and is kept. */
export async function reschedule(
  db: Executor,
  id: number,
  workerId: string,
  next: { runAt: number; error: string | null },
): Promise<boolean> {
  const result = await db
    .updateTable('outbox')
    .set((eb) => ({
      run_at: next.runAt,
      locked_by: null,
      locked_until: null,
      ...(next.error === null ? {} : { tries: eb('tries', '+', 1), last_error: next.error.slice(0, 500) }),
    }))
    .where('id', '=', id)
    .where('locked_by', '=', workerId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

const deleteItemRow = preparedQuery((db, orderItemId: string) => db.deleteFrom('outbox').where('order_item_id', '=', orderItemId));

export async function deleteForItem(db: Executor, orderItemId: string): Promise<void> {
  await deleteItemRow(db, orderItemId);
}

/** Drops a row this worker holds (its item needs no more provider steps). */
export async function deleteOwned(db: Executor, id: number, workerId: string): Promise<void> {
  await db.deleteFrom('outbox').where('id', '=', id).where('locked_by', '=', workerId).execute();
}
