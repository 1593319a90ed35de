import type { Kysely } from 'kysely';
import { coveringColumns, type DialectName } from '../dialect.js';

/**
 * The order list reads, for each order of a page, its id and version (state, submitted_at,
 * updated_at), whether it is bulk, and its type for the filter. On SQLite the owner's index now
 * carries those columns, so a page is read from the index alone instead of 21 lookups of wide rows
 * (~15% of the time of a page in a cursor walk); see coveringColumns for PostgreSQL.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const extra = coveringColumns(dialect, ['order_type', 'state', 'submitted_at', 'updated_at', 'is_bulk']);
  if (extra.length === 0) return;
  await db.schema.dropIndex('orders_owner_recent').execute();
  await db.schema
    .createIndex('orders_owner_recent')
    .on('orders')
    .columns(['profile_id', 'mode', 'created_at', 'id', ...extra])
    .execute();
}
