import { sql, type Kysely } from 'kysely';

/**
 * The reconciliation window's index of provider attempts made to leave out the sandbox's
 * (docs/performance.md, "Kysely off the worker's path"): reconciliation reads an upstream's
 * attempts of a window (ReconciliationRepository.attemptsIn) and never the sandbox's
 * (UPSTREAMS_RECONCILED), while every test-mode delivery, and a live one without a usable route
 * outside production, goes to the sandbox. The query names `provider <> 'sandbox'` as a literal,
 * so that the planner may use the index (test/db/query-plans.test.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('provider_attempts_window').execute();
  await db.schema
    .createIndex('provider_attempts_window')
    .on('provider_attempts')
    .columns(['provider', 'created_at'])
    .where(sql<boolean>`provider <> 'sandbox'`)
    .execute();
}
