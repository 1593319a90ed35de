import type { Kysely } from 'kysely';

/**
 * Real upstreams (docs/live-delivery.md): the routes of each data package, in order, and one row per
 * submission to an upstream (a provider attempt), written before the call with the reference the
 * upstream receives, so that after a crash the attempt can still be looked up there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('package_routes')
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('service_id', 'text')
    .addColumn('bundle', 'text')
    .addColumn('operator_id', 'bigint')
    .addColumn('product_id', 'bigint')
    .addColumn('amount', 'bigint')
    .addColumn('cost', 'bigint')
    .addPrimaryKeyConstraint('package_routes_pk', ['package_id', 'position'])
    .execute();

  await db.schema
    .createTable('provider_attempts')
    .addColumn('reference', 'text', (c) => c.primaryKey())
    .addColumn('order_item_id', 'text', (c) => c.notNull())
    .addColumn('item_attempt', 'integer', (c) => c.notNull())
    .addColumn('route_position', 'integer')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('route', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_transaction_id', 'text')
    .addColumn('cost', 'bigint')
    .addColumn('message', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('retry_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('submitted_at', 'bigint')
    .addColumn('resolved_at', 'bigint')
    .execute();
  await db.schema.createIndex('provider_attempts_item').on('provider_attempts').columns(['order_item_id', 'item_attempt']).execute();
  await db.schema
    .createIndex('provider_attempts_transaction')
    .on('provider_attempts')
    .columns(['provider', 'provider_transaction_id'])
    .execute();
  await db.schema.createIndex('provider_attempts_open').on('provider_attempts').columns(['status', 'created_at']).execute();
}
