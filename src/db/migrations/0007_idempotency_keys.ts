import { sql, type Kysely } from 'kysely';

/**
 * Idempotency-Key (docs/errors.md, "Retrying safely"): one row per key, scoped to the key owner's profile and
 * mode. `running` while the first request with the key is being answered (until `locked_until`),
 * then `done` with what to answer every later request with the same key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = 'bigint';
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('running', 'done')`))
    .addColumn('locked_until', time)
    .addColumn('response_status', 'integer')
    /** The response body as sent (refusals) ... */
    .addColumn('response_body', 'text')
    /** ... or the `data` of a success, written in the unit of work that did the work. */
    .addColumn('response_data', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('completed_at', time)
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['profile_id', 'mode', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}
