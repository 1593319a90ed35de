import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';
import { autoIncrementId } from '../dialect.js';

/**
 * The whole v1 schema: catalog, profiles and keys, wallets and ledger, orders with their items,
 * the provider outbox, result-checker inventory and transactions, top-ups.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const money = 'bigint';
  const time = 'bigint';

  await db.schema
    .createTable('profiles')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('middle_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('gender', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('Agent', 'SuperAgent', 'Customer', 'Staff')`))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('country_code', 'text', (c) => c.notNull())
    .addColumn('country_iso', 'text', (c) => c.notNull())
    .addColumn('country_name', 'text', (c) => c.notNull())
    .addColumn('referral_code', 'text', (c) => c.notNull().unique())
    .addColumn('unique_id', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('update_meta', 'text', (c) => c.notNull())
    .addColumn('registered_at', time, (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('revoked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('revoked_at', time)
    .addColumn('last_used_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_keys_profile').on('api_keys').column('profile_id').execute();

  await db.schema
    .createTable('operators')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Active', 'Inactive')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('products')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Available', 'Unavailable')`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('products_operator').on('products').column('operator_id').execute();

  await db.schema
    .createTable('data_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id'))
    .addColumn('product_id', 'text', (c) => c.notNull().references('products.id'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('data_amount', 'text', (c) => c.notNull())
    .addColumn('validity', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Active', 'Inactive')`))
    .addColumn('price', money, (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_packages_product').on('data_packages').column('product_id').execute();

  for (const [table, parent] of [
    ['data_package_prices', 'data_packages'],
    ['rc_package_prices', 'rc_packages'],
  ] as const) {
    if (table === 'rc_package_prices') await createRcPackages(db, money, time);
    await db.schema
      .createTable(table)
      .addColumn('package_id', 'text', (c) => c.notNull().references(`${parent}.id`).onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('price', money, (c) => c.notNull().check(sql`price >= 0`))
      .addPrimaryKeyConstraint(`${table}_pk`, ['package_id', 'role'])
      .execute();
  }

  await db.schema
    .createTable('rc_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('package_id', 'text', (c) => c.notNull().references('rc_packages.id'))
    .addColumn('username_digest', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('assigned_transaction_id', 'text')
    .addColumn('assigned_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addUniqueConstraint('rc_credentials_package_username', ['package_id', 'username_digest'])
    .execute();
  await db.schema
    .createIndex('rc_credentials_unassigned')
    .on('rc_credentials')
    .columns(['package_id', 'created_at', 'id'])
    .where(sql.ref('assigned_transaction_id'), 'is', null)
    .execute();

  await db.schema
    .createTable('wallets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('available', money, (c) => c.notNull().check(sql`available >= 0`))
    .addColumn('held', money, (c) => c.notNull().check(sql`held >= 0`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('wallets_profile_mode', ['profile_id', 'mode'])
    .execute();

  await autoIncrementId(db.schema.createTable('ledger_entries'), dialect)
    .addColumn('wallet_id', 'text', (c) => c.notNull().references('wallets.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('available_delta', money, (c) => c.notNull())
    .addColumn('held_delta', money, (c) => c.notNull())
    .addColumn('available_after', money, (c) => c.notNull())
    .addColumn('held_after', money, (c) => c.notNull())
    .addColumn('order_id', 'text')
    .addColumn('order_item_id', 'text')
    .addColumn('rc_transaction_id', 'text')
    .addColumn('top_up_id', 'text')
    .addColumn('idempotency_key', 'text', (c) => c.unique())
    .addColumn('memo', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_wallet').on('ledger_entries').columns(['wallet_id', 'id']).execute();
  await db.schema.createIndex('ledger_entries_order').on('ledger_entries').column('order_id').execute();

  await db.schema
    .createTable('orders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('order_type', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state in ('pending', 'processing', 'completed', 'failed', 'reversed')`),
    )
    .addColumn('short_reference', 'text', (c) => c.notNull().unique())
    .addColumn('beneficiary_msisdn', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('operator_name', 'text', (c) => c.notNull())
    .addColumn('product_id', 'text', (c) => c.notNull())
    .addColumn('product_name', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('package_label', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('submitted_at', time)
    .addColumn('completed_at', time)
    .addColumn('is_bulk', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bulk_completed_count', 'integer')
    .addColumn('bulk_failed_count', 'integer')
    .addColumn('wallet_balance_before', money)
    .addColumn('wallet_balance_after', money)
    .addColumn('payment_reference', 'text')
    .addColumn('anonymous_id', 'text')
    .addColumn('rc_transaction_id', 'text')
    .addColumn('reversal_reason', 'text')
    .addColumn('reversed_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('orders_payment_reference', ['profile_id', 'mode', 'payment_reference'])
    .execute();
  await db.schema
    .createIndex('orders_owner_recent')
    .on('orders')
    .columns(['profile_id', 'mode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('orders_state_updated').on('orders').columns(['state', 'updated_at']).execute();

  await db.schema
    .createTable('order_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('order_id', 'text', (c) => c.notNull().references('orders.id'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('beneficiary_msisdn', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('package_label', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'processing', 'completed', 'failed')`))
    .addColumn('error_message', 'text')
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('provider_ref', 'text')
    .addColumn('submitted_at', time)
    .addColumn('completed_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('order_items_order_idx', ['order_id', 'idx'])
    .execute();
  // The in-flight rule enforced by the database: one open delivery per number and mode.
  await db.schema
    .createIndex('order_items_in_flight')
    .on('order_items')
    .columns(['mode', 'beneficiary_msisdn'])
    .unique()
    .where(sql.ref('status'), 'in', ['pending', 'processing'])
    .execute();
  // A provider reporting an outcome by callback names the delivery by its reference.
  await db.schema.createIndex('order_items_provider_ref').on('order_items').column('provider_ref').execute();

  await autoIncrementId(db.schema.createTable('outbox'), dialect)
    .addColumn('order_item_id', 'text', (c) => c.notNull().unique().references('order_items.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('run_at', time, (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', time)
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('outbox_run_at').on('outbox').column('run_at').execute();

  await db.schema
    .createTable('sandbox_submissions')
    .addColumn('idempotency_key', 'text', (c) => c.primaryKey())
    .addColumn('provider_ref', 'text', (c) => c.notNull().unique())
    .addColumn('msisdn', 'text', (c) => c.notNull())
    .addColumn('accepted_at', time, (c) => c.notNull())
    .addColumn('submit_calls', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rc_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('order_id', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('package_name', 'text', (c) => c.notNull())
    .addColumn('short_reference', 'text', (c) => c.notNull().unique())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('pending', 'completed', 'failed')`))
    .addColumn('payment_gateway_status', 'text')
    .addColumn('amount', money, (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('buyer_phone', 'text', (c) => c.notNull())
    .addColumn('credential_id', 'text', (c) => c.unique())
    .addColumn('credential_secret', 'text')
    .addColumn('bulk_id', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('completed_at', time)
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('rc_transactions_owner')
    .on('rc_transactions')
    .columns(['profile_id', 'mode', 'created_at'])
    .execute();

  await db.schema
    .createTable('top_ups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id'))
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('amount', money, (c) => c.notNull().check(sql`amount > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('momo', 'bank')`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'rejected')`))
    .addColumn('rejection_reason', 'text')
    .addColumn('decided_at', time)
    .addColumn('decided_by', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('top_ups_reference', ['profile_id', 'mode', 'reference'])
    .execute();
  await db.schema
    .createIndex('top_ups_owner_recent')
    .on('top_ups')
    .columns(['profile_id', 'mode', 'created_at', 'id'])
    .execute();
}

async function createRcPackages(db: Kysely<unknown>, money: 'bigint', time: 'bigint'): Promise<void> {
  await db.schema
    .createTable('rc_packages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('Active', 'Inactive')`))
    .addColumn('priority', 'integer')
    .addColumn('check_limit', 'integer')
    .addColumn('includes_pdf', 'integer')
    .addColumn('price', money, (c) => c.notNull().check(sql`price >= 0`))
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
}
