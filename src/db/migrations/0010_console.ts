import { sql, type Kysely } from 'kysely';
import { autoIncrementId, type DialectName } from '../dialect.js';

/**
 * The operator console (issue 18): staff accounts with their roles, their sessions (kept here so
 * that logout and expiry end them on the server, not only in the browser), and the audit trail of
 * every console action, which the database itself keeps append-only. Orders get an index by time
 * for the console's dashboard and date-range search.
 */
export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  const time = 'bigint';

  await db.schema
    .createTable('staff_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** Lower-cased. */
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'operator', 'viewer')`))
    /** scrypt$N$r$p$salt$hash (see console/passwords.ts). */
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active', 'disabled')`))
    .addColumn('last_login_at', time)
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('updated_at', time, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_sessions')
    /** sha-256 of the cookie's token: a copy of the table opens no session. */
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff_accounts.id').onDelete('cascade'))
    /** The session's anti-CSRF token, echoed by every form. */
    .addColumn('csrf_token', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .addColumn('expires_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_staff').on('staff_sessions').column('staff_id').execute();
  await db.schema.createIndex('staff_sessions_expiry').on('staff_sessions').column('expires_at').execute();

  await autoIncrementId(db.schema.createTable('audit_log'), dialect)
    /** No foreign key: the trail outlives the account. */
    .addColumn('staff_id', 'text')
    /** Who, as shown: the staff e-mail, or `cli:<user>`. */
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('record_type', 'text')
    .addColumn('record_id', 'text')
    .addColumn('address', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('ok', 'refused')`))
    /** JSON: the action's parameters and result (never a secret). */
    .addColumn('detail', 'text')
    .addColumn('created_at', time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_recent').on('audit_log').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_record').on('audit_log').columns(['record_type', 'record_id']).execute();
  await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();

  // The console's dashboard (orders of the last hour) and its search by date range read orders by time.
  await db.schema.createIndex('orders_created').on('orders').columns(['created_at', 'id']).execute();

  // Append-only: the database refuses to change or remove a row, whoever asks.
  if (dialect === 'postgres') {
    await sql`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_log is append-only'; end $$`.execute(db);
    await sql`create trigger audit_log_no_change before update or delete on audit_log
      for each row execute function audit_log_append_only()`.execute(db);
  } else {
    await sql`create trigger audit_log_no_update before update on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
    await sql`create trigger audit_log_no_delete before delete on audit_log
      begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
  }
}
