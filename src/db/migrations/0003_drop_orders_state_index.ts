import type { Kysely } from 'kysely';

/**
 * orders_state_updated served no query (stuck deliveries are found through order items), yet
 * every order insert and state change paid for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('orders_state_updated').execute();
}
