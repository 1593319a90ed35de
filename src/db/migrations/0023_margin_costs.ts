import { sql, type Kysely } from 'kysely';

/**
 * Margins that a finance person signs (docs/live-delivery.md, "Margins"):
 * - rc_credentials.cost: what a result-checker credential cost the platform (pesewas), from the seed
 *   or the inventory file; null when not known.
 * - margin_days rebuilt: a row now has its kind (data or result_checker), the refunds of the day
 *   (a reversal or refund is a negative sale on its own day) and the sales whose cost is not known.
 *   The old sums (reversed orders left out of their day) are dropped: every closed day is summed
 *   again from the orders at its next report.
 * - Partial indexes of refunds and of result-checker sales by time, which the report reads by window.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('rc_credentials').addColumn('cost', 'bigint').execute();

  await db.schema.dropTable('margin_days').execute();
  await db.schema.dropTable('margin_days_done').execute();
  await db.schema
    .createTable('margin_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('sales', 'bigint', (c) => c.notNull())
    .addColumn('refunds', 'bigint', (c) => c.notNull())
    .addColumn('cost', 'bigint', (c) => c.notNull())
    .addColumn('deliveries', 'integer', (c) => c.notNull())
    .addColumn('cost_unknown', 'integer', (c) => c.notNull())
    .addColumn('cost_unknown_sales', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('margin_days_pk', ['day', 'kind', 'profile_id', 'package_id', 'provider'])
    .execute();
  await db.schema
    .createTable('margin_days_done')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('order_items_reversed').on('order_items').column('reversed_at').where(sql.ref('reversed_at'), 'is not', null).execute();
  await db.schema.createIndex('orders_reversed').on('orders').column('reversed_at').where(sql.ref('reversed_at'), 'is not', null).execute();
  await db.schema.createIndex('rc_transactions_completed').on('rc_transactions').column('completed_at').where(sql.ref('completed_at'), 'is not', null).execute();
  await db.schema.createIndex('rc_transactions_refunded').on('rc_transactions').column('refunded_at').where(sql.ref('refunded_at'), 'is not', null).execute();
}
