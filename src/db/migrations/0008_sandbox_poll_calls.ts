import type { Kysely } from 'kysely';

/** The sandbox counts polls per submission, for outcomes that fail on the first poll (docs/api.md, "Sandbox test numbers"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sandbox_submissions').addColumn('poll_calls', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
