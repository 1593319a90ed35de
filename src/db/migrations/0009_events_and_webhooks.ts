import { sql, type Kysely } from 'kysely';
import { autoIncrementId, type DialectName } from '../dialect.js';

/**
 * Events and signed webhooks (docs/webhooks.md): the events of each profile and mode, the
 * endpoints that subscribe to them, one delivery per event and endpoint (drained by the worker, like
 * the order outbox), and every attempt of it. Wallets get their low-balance alert threshold.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const time = 'bigint';

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('type', 'text', (c) => c.notNull())
    /** The event object as sent and shown (JSON), without its deliveries. */
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_owner_recent').on('events').columns(['profile_id', 'mode', 'created_at', 'id']).execute();
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('profile_id', 'text', (c) => c.notNull().references('profiles.id').onDelete('cascade'))
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('live', 'test')`))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('enabled', 'disabled')`))
    .addColumn('disabled_reason', 'text')
    /** Sealed at rest (see Sealer). */
    .addColumn('secret', 'text', (c) => c.notNull())
    /** The secret before the last rotation, still signing until previous_secret_until. */
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_until', time)
    /** Since when every attempt has failed (null after a success): three days of it disable the endpoint. */
    .addColumn('failing_since', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_owner')
    .on('webhook_endpoints')
    .columns(['profile_id', 'mode', 'status'])
    .execute();

  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    /** An event type, or '*' for every type. */
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_subscriptions_pkey', ['endpoint_id', 'event_type'])
    .execute();

  await autoIncrementId(db.schema.createTable('webhook_deliveries'), dialect)
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'succeeded', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    /** Failed attempts since the delivery was (re)queued: the position in the retry schedule. */
    .addColumn('schedule_step', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', time)
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', time)
    .addColumn('last_attempt_at', time)
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_event_endpoint', ['event_id', 'endpoint_id'])
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .column('next_attempt_at')
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('webhook_deliveries_endpoint')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status'])
    .execute();

  await autoIncrementId(db.schema.createTable('webhook_attempts'), dialect)
    .addColumn('delivery_id', 'bigint', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempted_at', time, (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_attempts_delivery').on('webhook_attempts').columns(['delivery_id', 'id']).execute();

  /** Pesewas; wallet.balance_low is raised when available falls from at or above it to below it. */
  await db.schema.alterTable('wallets').addColumn('alert_threshold', 'bigint').execute();
}
