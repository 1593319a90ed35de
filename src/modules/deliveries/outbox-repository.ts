import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB, OutboxKind } from '../../db/schema.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';

/**
 * The durable outbox of deliveries: at most one row per order item, 'submit' until the provider
 * accepted it, then 'poll' until it is settled (the row is deleted in the settling unit). A claimed
 * row carries a lease (locked_by, locked_until); an expired lease is claimable again.
 */

export interface ClaimedRow {
  id: number;
  order_item_id: string;
  kind: OutboxKind;
  tries: number;
}

const submitRow = (orderItemId: string, now: number) =>
  ({ order_item_id: orderItemId, kind: 'submit', run_at: now, tries: 0, created_at: now }) as const;

/** The earliest run_at of the rows nobody holds: reads outbox_run_at in order, stops at its first row. */
export const firstUnleasedQuery = (qb: Kysely<DB>) =>
  qb.selectFrom('outbox').select('run_at').where('locked_until', 'is', null).orderBy('run_at').limit(1);

/** The earliest end of a lease: reads outbox_leased in order, stops at its first row. */
export const firstLeaseEndQuery = (qb: Kysely<DB>) =>
  qb.selectFrom('outbox').select('locked_until').where('locked_until', 'is not', null).orderBy('locked_until').limit(1);

function outboxStatements(sql: Statements) {
  return {
    firstUnleased: sql.prepare((qb) => firstUnleasedQuery(qb)),
    firstLeaseEnd: sql.prepare((qb) => firstLeaseEndQuery(qb)),
    submitted: sql.prepare((qb, id: number, workerId: string, runAt: number) =>
      qb
        .updateTable('outbox')
        .set({ kind: 'poll', run_at: runAt, tries: 0, locked_by: null, locked_until: null, last_error: null })
        .where('id', '=', id)
        .where('locked_by', '=', workerId),
    ),
    removeForItem: sql.prepare((qb, orderItemId: string) => qb.deleteFrom('outbox').where('order_item_id', '=', orderItemId)),
    claimDue: sql.prepare((qb, now: number, limit: number, workerId: string, lockedUntil: number) => {
      const unleased = (eb: ExpressionBuilder<DB, 'outbox'>) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]);
      let due = qb.selectFrom('outbox').select('id').where('run_at', '<=', now).where(unleased).orderBy('run_at').orderBy('id').limit(limit);
      if (sql.dialect === 'postgres') due = due.forUpdate().skipLocked();
      return qb
        .updateTable('outbox')
        .set({ locked_by: workerId, locked_until: lockedUntil })
        .where('id', 'in', due)
        .where(unleased)
        .returning(['id', 'order_item_id', 'kind', 'tries']);
    }),
  };
}

export class OutboxRepository {
  private readonly q: ReturnType<typeof outboxStatements>;

  constructor(private readonly database: Database) {
    this.q = outboxStatements(database.statements);
  }

  /** Queues a 'submit' row for each item (one statement for up to 16 items). */
  submit(tx: Tx, orderItemIds: readonly string[], now: number): void {
    for (const statement of this.database.statements.insertRows(
      'outbox',
      orderItemIds.map((id) => submitRow(id, now)),
    )) {
      tx.write(statement);
    }
  }

  /**
   * Claims up to `limit` due rows for `workerId`, oldest first, in one statement (run it as one:
   * Database.singleStatement). PostgreSQL skips rows another worker is claiming at that moment.
   */
  async claimDue(tx: Tx, claim: { workerId: string; now: number; leaseMs: number; limit: number }): Promise<ClaimedRow[]> {
    const { rows } = await tx.execute(this.q.claimDue(claim.now, claim.limit, claim.workerId, claim.now + claim.leaseMs));
    return rows.map((r) => ({ ...r, id: Number(r.id), tries: Number(r.tries) })).sort((a, b) => a.id - b.id);
  }

  /**
   * When the worker should look again, or null when the outbox is empty: the earliest run_at of the
   * rows nobody holds, or the earliest end of a lease if sooner (a lower bound for that row: waking
   * early costs one claim that finds nothing). The worker asks before every step.
   */
  async nextDueAt(): Promise<number | null> {
    const [unleased] = await this.database.readRows(this.q.firstUnleased());
    const [leased] = await this.database.readRows(this.q.firstLeaseEnd());
    const times = [unleased?.run_at, leased?.locked_until].filter((t) => t !== null && t !== undefined).map(Number);
    return times.length === 0 ? null : Math.min(...times);
  }

  /** Ends now every lease held by `workerIds` (dead workers): their rows are claimable at once. Returns how many. */
  async releaseClaimsOf(tx: Tx, workerIds: readonly string[], now: number): Promise<number> {
    if (workerIds.length === 0) return 0;
    const query = tx.qb
      .updateTable('outbox')
      .set({ locked_until: now })
      .where('locked_by', 'in', [...workerIds])
      .where('locked_until', '>', now);
    return Number((await tx.execute(query)).numAffectedRows ?? 0);
  }

  /** Rows in the outbox and the creation time of the oldest (null when empty), for metrics. */
  async stats(): Promise<{ depth: number; oldestCreatedAt: number | null }> {
    const row = await this.database.read
      .selectFrom('outbox')
      .select((eb) => [eb.fn.countAll<number>().as('depth'), eb.fn.min('created_at').as('oldest')])
      .executeTakeFirst();
    return {
      depth: Number(row?.depth ?? 0),
      oldestCreatedAt: row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest),
    };
  }

  /** After a submission was accepted: poll next, at `runAt`. Only the lease holder may do this. */
  async markSubmitted(tx: Tx, id: number, workerId: string, runAt: number): Promise<boolean> {
    return Number((await tx.execute(this.q.submitted(id, workerId, runAt))).numAffectedRows ?? 0) > 0;
  }

  /** Releases the lease and runs the row again at `runAt`; an error bumps `tries` and is kept. */
  async reschedule(tx: Tx, id: number, workerId: string, next: { runAt: number; error: string | null }): Promise<boolean> {
    const query = tx.qb
      .updateTable('outbox')
      .set((eb) => ({
        run_at: next.runAt,
        locked_by: null,
        locked_until: null,
        ...(next.error === null ? {} : { tries: eb('tries', '+', 1), last_error: next.error.slice(0, 500) }),
      }))
      .where('id', '=', id)
      .where('locked_by', '=', workerId);
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** Queues the deletion of the item's row (its delivery is settled). */
  removeForItem(tx: Tx, orderItemId: string): void {
    tx.write(this.q.removeForItem(orderItemId));
  }

  /** Drops a row this worker holds (its item needs no more provider steps). */
  async deleteOwned(tx: Tx, id: number, workerId: string): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('outbox').where('id', '=', id).where('locked_by', '=', workerId));
  }

  /** The outbox rows of these items, by item id (staff retries). */
  async rowsFor(tx: Tx, orderItemIds: readonly string[]) {
    if (orderItemIds.length === 0) return new Map<string, { id: number; lockedUntil: number | null }>();
    const { rows } = await tx.execute(
      tx.qb.selectFrom('outbox').select(['id', 'order_item_id', 'locked_until']).where('order_item_id', 'in', orderItemIds),
    );
    return new Map(
      rows.map((r) => [
        r.order_item_id,
        { id: Number(r.id), lockedUntil: r.locked_until === null ? null : Number(r.locked_until) },
      ]),
    );
  }

  /** Makes rows due now that no worker holds; the number made due. */
  async runNow(tx: Tx, ids: readonly number[], now: number): Promise<number> {
    if (ids.length === 0) return 0;
    const query = tx.qb
      .updateTable('outbox')
      .set({ run_at: now })
      .where('id', 'in', ids)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]));
    return Number((await tx.execute(query)).numAffectedRows ?? 0);
  }

  /** A row for an open item that lost its own: a poll when the provider has the delivery, else a submission. */
  async requeue(tx: Tx, orderItemId: string, kind: OutboxKind, now: number): Promise<void> {
    await tx.execute(
      tx.qb
        .insertInto('outbox')
        .values({
          order_item_id: orderItemId,
          kind,
          run_at: now,
          tries: 0,
          locked_by: null,
          locked_until: null,
          last_error: null,
          created_at: now,
        }),
    );
  }
}
