import type { Kysely } from 'kysely';

/**
 * Staff refunds of a single recipient and of a result-checker sale (docs/order-lifecycle.md,
 * "Refunds by staff"):
 * - order_items.reversed_at, reversal_reason: a completed recipient of a bulk order refunded on its
 *   own (its status stays `completed`: the contract's recipient statuses are fixed).
 * - rc_transactions.refunded_at, refund_reason: a sold credential refunded (its state stays
 *   `completed`; its order becomes `reversed`).
 * - rc_credentials.voided_at, void_reason: the credential of a refunded sale, kept assigned to that
 *   sale so it is never sold again, and shown as voided in the inventory.
 * Every column is new and nullable: rows that exist stay as they were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('order_items').addColumn('reversed_at', 'bigint').execute();
  await db.schema.alterTable('order_items').addColumn('reversal_reason', 'text').execute();
  await db.schema.alterTable('rc_transactions').addColumn('refunded_at', 'bigint').execute();
  await db.schema.alterTable('rc_transactions').addColumn('refund_reason', 'text').execute();
  await db.schema.alterTable('rc_credentials').addColumn('voided_at', 'bigint').execute();
  await db.schema.alterTable('rc_credentials').addColumn('void_reason', 'text').execute();
}
