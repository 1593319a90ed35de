import type { Kysely } from 'kysely';

/**
 * Indexes of the staff searches (docs/console.md, "Finding orders, top-ups and partners"). Each
 * reads its rows newest first from the cursor on, so an index ends in (created_at, id) where the
 * search is a list; the others find a handful of rows by a value. None of these columns changes
 * after the row is written: PostgreSQL's updates of the rows stay HOT.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The console's order list per mode (live or test), newest first.
  await db.schema.createIndex('orders_mode_recent').on('orders').columns(['mode', 'created_at', 'id']).execute();
  // An order by the partner's paymentReference, or by its number, in one mode and from the cursor
  // on (with the mode and the cursor in the index, the planner never prefers walking the whole
  // mode); a bulk order by a recipient's number.
  await db.schema
    .createIndex('orders_payment_reference_search')
    .on('orders')
    .columns(['payment_reference', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('orders_beneficiary').on('orders').columns(['beneficiary_msisdn', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('order_items_beneficiary').on('order_items').columns(['beneficiary_msisdn', 'order_id']).execute();
  // The console's top-up list per mode, newest first.
  await db.schema.createIndex('top_ups_mode_recent').on('top_ups').columns(['mode', 'created_at', 'id']).execute();
}
