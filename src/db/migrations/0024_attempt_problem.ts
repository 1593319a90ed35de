import type { Kysely } from 'kysely';

/**
 * What kind of problem ended a refused or failed provider attempt (docs/live-delivery.md, "Routes"):
 * `number` (the beneficiary's number) or `route` (the route: float, product, limits, credentials).
 * A route refused on its last orders is flagged on the package's console page and the dashboard;
 * attempts made before this column have none and are not counted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('provider_attempts').addColumn('problem', 'text').execute();
}
