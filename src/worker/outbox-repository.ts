import type { Executor } from '../db/connection.js';
import { insertRow, insertStatement, preparedQuery, preparedStatement, statementOf, type Statement } from '../db/prepared.js';
import { lockSkipLocked, type DialectName } from '../db/dialect.js';
import type { ExpressionBuilder } from 'kysely';
import type { DB, OutboxKind } from '../db/schema.js';

/**
 * The durable outbox: at most one row per order item, 'submit' until the provider accepted it,
 * then 'poll' until it is settled (the row is deleted in the settling transaction).
 * A claimed row carries a lease (locked_by, locked_until); an expired lease is claimable again.
 */

const submitRow = (orderItemId: string, now: number) =>
  ({ order_item_id: orderItemId, kind: 'submit', run_at: now, tries: 0, created_at: now }) as const;

export async function insertSubmit(db: Executor, orderItemId: string, now: number): Promise<void> {
  await insertRow(db, 'outbox', submitRow(orderItemId, now));
}

/** A 'submit' row for each item, in one statement (compiled once for a single item). */
export function insertSubmitsStatement(db: Executor, orderItemIds: readonly string[], now: number): Statement {
  const [only] = orderItemIds;
  if (orderItemIds.length === 1 && only !== undefined) return insertStatement(db, 'outbox', submitRow(only, now));
  return statementOf(db.insertInto('outbox').values(orderItemIds.map((id) => submitRow(id, now))));
}

export interface ClaimedRow {
  id: number;
  order_item_id: string;
  kind: OutboxKind;
  tries: number;
}

/**
 * Claims up to `limit` due rows for `workerId`, oldest first, in one statement (run it as one:
 * Database.singleStatement). PostgreSQL skips rows another worker is claiming at that moment.
 */
export async function claimDue(
  db: Executor,
  dialect: DialectName,
  claim: { workerId: string; now: number; leaseMs: number; limit: number },
): Promise<ClaimedRow[]> {
  const unleased = (eb: ExpressionBuilder<DB, 'outbox'>) =>
    eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', claim.now)]);
  const due = lockSkipLocked(
    db.selectFrom('outbox').select('id').where('run_at', '<=', claim.now).where(unleased).orderBy('run_at').orderBy('id').limit(claim.limit),
    dialect,
  );
  const rows = await db
    .updateTable('outbox')
    .set({ locked_by: claim.workerId, locked_until: claim.now + claim.leaseMs })
    .where('id', 'in', due)
    .where(unleased)
    .returning(['id', 'order_item_id', 'kind', 'tries'])
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id), tries: Number(r.tries) })).sort((a, b) => a.id - b.id);
}

export const firstUnleasedQuery = (db: Executor) =>
  db.selectFrom('outbox').select('run_at').where('locked_until', 'is', null).orderBy('run_at').limit(1);
export const firstLeaseEndQuery = (db: Executor) =>
  db.selectFrom('outbox').select('locked_until').where('locked_until', 'is not', null).orderBy('locked_until').limit(1);
const firstUnleased = preparedQuery((db) => firstUnleasedQuery(db));
const firstLeaseEnd = preparedQuery((db) => firstLeaseEndQuery(db));

/**
 * When the worker should look again, or null when the outbox is empty: the earliest run_at of the
 * rows nobody holds, or the earliest end of a lease if sooner (a lower bound for that row: waking
 * early costs one claim that finds nothing). Each query reads an index in order and stops at its
 * first row (outbox_run_at, outbox_leased), however many rows wait: the worker asks before every step.
 */
export async function nextDueAt(db: Executor): Promise<number | null> {
  const [unleased] = (await firstUnleased(db)).rows;
  const [leased] = (await firstLeaseEnd(db)).rows;
  const times = [unleased?.run_at, leased?.locked_until].filter((t) => t !== null && t !== undefined).map(Number);
  return times.length === 0 ? null : Math.min(...times);
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

/** Deletes the item's row (its delivery is settled). */
export const deleteForItemStatement = preparedStatement((db, orderItemId: string) =>
  db.deleteFrom('outbox').where('order_item_id', '=', orderItemId),
);

/** Drops a row this worker holds (its item needs no more provider steps). */
export async function deleteOwned(db: Executor, id: number, workerId: string): Promise<void> {
  await db.deleteFrom('outbox').where('id', '=', id).where('locked_by', '=', workerId).execute();
}
