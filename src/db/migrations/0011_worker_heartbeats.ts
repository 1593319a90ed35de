import type { Kysely } from 'kysely';

/**
 * Worker heartbeats: each running worker process refreshes its row every second or so. A worker
 * whose row has gone silent for WORKER_HEARTBEAT_TIMEOUT_MS is dead (kill -9, lost machine): the
 * others end its leases at once instead of waiting for them to run out (issue 19, item 6).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('worker_heartbeats')
    .addColumn('worker_id', 'text', (c) => c.primaryKey())
    .addColumn('started_at', 'bigint', (c) => c.notNull())
    .addColumn('beat_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('worker_heartbeats_beat_at').on('worker_heartbeats').column('beat_at').execute();
}
