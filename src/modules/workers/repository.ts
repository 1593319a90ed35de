import type { Database } from '../../db/connection.js';
import type { Tx } from '../../db/unit-of-work.js';

/** Worker heartbeats (worker_heartbeats): who is alive, as each worker process last said. */
export class WorkerRepository {
  constructor(private readonly database: Database) {}

  /** Records that `workerId` is alive at `now` (one statement). */
  async beat(tx: Tx, workerId: string, now: number): Promise<void> {
    await tx.execute(
      tx.qb
        .insertInto('worker_heartbeats')
        .values({ worker_id: workerId, started_at: now, beat_at: now })
        .onConflict((oc) => oc.column('worker_id').doUpdateSet({ beat_at: now })),
    );
  }

  /** Workers other than `self` whose last beat is older than `silentSince`. */
  async silentWorkers(tx: Tx, self: string, silentSince: number): Promise<string[]> {
    const { rows } = await tx.execute(
      tx.qb.selectFrom('worker_heartbeats').select('worker_id').where('beat_at', '<', silentSince).where('worker_id', '<>', self),
    );
    return rows.map((r) => r.worker_id);
  }

  async forget(tx: Tx, workerIds: readonly string[]): Promise<void> {
    if (workerIds.length === 0) return;
    await tx.execute(tx.qb.deleteFrom('worker_heartbeats').where('worker_id', 'in', [...workerIds]));
  }

  /** Workers that beat at or after `since` (for operators and tests). */
  async alive(since: number): Promise<{ workerId: string; beatAt: number }[]> {
    const rows = await this.database.read
      .selectFrom('worker_heartbeats')
      .select(['worker_id', 'beat_at'])
      .where('beat_at', '>=', since)
      .execute();
    return rows.map((r) => ({ workerId: r.worker_id, beatAt: Number(r.beat_at) }));
  }
}
