import { sql, type Kysely } from 'kysely';

/**
 * Four eyes that one admin cannot pass alone (issue 41, security review; docs/console.md, "Four eyes"):
 * - staff_accounts.created_by_staff_id / password_reset_by_staff_id: the account that created it and
 *   the one that last gave it a one-time password (null: the CLI, or before this migration). An
 *   approval between two accounts where one created or last reset the other is refused.
 * - staff_requests: a new admin account, or a role raised to admin, waits here until a second,
 *   different, active admin approves it (or an admin rejects it). A new account's password hash waits
 *   with it; the account exists only once approved.
 * - wallet_adjustments by requester and time: the 24-hour sums the adjustment threshold counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_accounts').addColumn('created_by_staff_id', 'text').execute();
  await db.schema.alterTable('staff_accounts').addColumn('password_reset_by_staff_id', 'text').execute();
  await db.schema
    .createTable('staff_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('create', 'promote')`))
    .addColumn('staff_id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'rejected')`))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_staff_id', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_by_staff_id', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema.createIndex('staff_requests_status').on('staff_requests').columns(['status', 'created_at']).execute();
  await db.schema
    .createIndex('wallet_adjustments_requester')
    .on('wallet_adjustments')
    .columns(['requested_by_staff_id', 'created_at'])
    .execute();
}
