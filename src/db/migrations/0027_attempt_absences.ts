import type { Kysely } from 'kysely';

/**
 * How many times a lookup proved each provider attempt absent at its upstream (docs/live-delivery.md,
 * "One delivery, many attempts"): the same upstream gets the attempt again, under the same
 * reference, only when no other route is usable, and at most three more times.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('provider_attempts')
    .addColumn('absences', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
}
