import type { Kysely } from 'kysely';
import { coveringColumns, type DialectName } from '../dialect.js';

/**
 * orders.version: incremented by every change of an order or of one of its items, so a rendered
 * order (bulk orders with their recipients included) is cached for exactly one version. The
 * owner's index on SQLite carries it instead of the columns that stood for it before (state stays
 * for the state filter).
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.alterTable('orders').addColumn('version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  const extra = coveringColumns(dialect, ['order_type', 'state', 'version', 'is_bulk']);
  if (extra.length === 0) return;
  await db.schema.dropIndex('orders_owner_recent').execute();
  await db.schema
    .createIndex('orders_owner_recent')
    .on('orders')
    .columns(['profile_id', 'mode', 'created_at', 'id', ...extra])
    .execute();
}
