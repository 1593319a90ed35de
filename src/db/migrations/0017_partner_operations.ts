import type { Kysely } from 'kysely';

/**
 * Staff adjustments of a wallet (docs/console.md, "Wallet adjustments"): one row per request, with
 * its requester, its decision and who made it. Money moves only when it is applied (at once below
 * ADJUSTMENT_APPROVAL_ABOVE, else when a second admin approves it), through the ledger entry keyed
 * `adjustment:<id>`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('wallet_adjustments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('wallet_id', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('requested_by_staff_id', 'text')
    .addColumn('decided_by', 'text')
    .addColumn('decided_by_staff_id', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('decided_at', 'bigint')
    .execute();
  await db.schema.createIndex('wallet_adjustments_status').on('wallet_adjustments').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('wallet_adjustments_profile').on('wallet_adjustments').columns(['profile_id', 'created_at']).execute();
  // The statement reads one wallet's entries by time.
  await db.schema.createIndex('ledger_entries_wallet_time').on('ledger_entries').columns(['wallet_id', 'created_at', 'id']).execute();
}
