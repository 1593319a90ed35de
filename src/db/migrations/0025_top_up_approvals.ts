import type { Kysely } from 'kysely';

/**
 * Four eyes on top-ups (docs/console.md, "Top-up approvals"): a request above TOPUP_APPROVAL_ABOVE needs two
 * approvals. The first is kept on the top-up, which stays `pending` until the second: who gave it
 * (first_approved_by, as the audit trail names them; first_approved_by_staff_id, their account)
 * and when (first_approved_at). All null until then, and for every top-up decided with one approval.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('top_ups').addColumn('first_approved_by', 'text').execute();
  await db.schema.alterTable('top_ups').addColumn('first_approved_by_staff_id', 'text').execute();
  await db.schema.alterTable('top_ups').addColumn('first_approved_at', 'bigint').execute();
}
