import { sql, type Kysely } from 'kysely';
import { autoIncrementId, type DialectName } from '../dialect.js';

/**
 * Mobile Money top-ups through a payment gateway (docs/mobile-money.md): what the gateway was asked
 * and answered, kept on the top-up; when the worker checks it next and when it expires; the fee the
 * gateway kept; and the history of every answer, for staff.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const [name, type] of [
    ['gateway', 'text'],
    ['payment_status', 'text'],
    ['payment_display_text', 'text'],
    ['payment_phone', 'text'],
    ['payment_network', 'text'],
    ['gateway_fee', 'bigint'],
    ['gateway_problem', 'text'],
    ['check_at', 'bigint'],
    ['expires_at', 'bigint'],
  ] as const) {
    await db.schema.alterTable('top_ups').addColumn(name, type).execute();
  }
  // One charge waiting on a phone at a time, per mode (a second prompt would confuse the payer).
  await db.schema
    .createIndex('top_ups_momo_pending')
    .on('top_ups')
    .columns(['mode', 'payment_phone'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  // The webhook and the reconciliation find a top-up by the reference the gateway was given.
  await db.schema.createIndex('top_ups_gateway_reference').on('top_ups').columns(['reference']).execute();
  // The worker's due checks.
  await db.schema
    .createIndex('top_ups_check_due')
    .on('top_ups')
    .columns(['check_at'])
    .where(sql.ref('check_at'), 'is not', null)
    .execute();

  await autoIncrementId(db.schema.createTable('top_up_gateway_events'), dialect)
    .addColumn('top_up_id', 'text', (c) => c.notNull().references('top_ups.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('payment_status', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('top_up_gateway_events_top_up').on('top_up_gateway_events').columns(['top_up_id', 'id']).execute();
}
