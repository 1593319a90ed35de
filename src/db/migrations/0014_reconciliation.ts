import type { Kysely } from 'kysely';

/**
 * What the upstreams did (docs/live-delivery.md, "Float balances", "Reconciliation", "Margins"):
 * each upstream's last float reading and insufficient-float refusal; reconciliation runs (one row per
 * run, and a daily key so that the daily run happens once across every worker and process) and their
 * findings with both sides; the indexes the reconciliation window and the margin report read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('provider_balances')
    .addColumn('provider', 'text', (c) => c.primaryKey())
    .addColumn('currency', 'text')
    /** Hundredths of the upstream's currency. */
    .addColumn('available', 'bigint')
    .addColumn('read_at', 'bigint')
    .addColumn('read_error', 'text')
    .addColumn('error_at', 'bigint')
    .addColumn('refused_at', 'bigint')
    .execute();

  await db.schema
    .createTable('reconciliation_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('window_from', 'bigint', (c) => c.notNull())
    .addColumn('window_to', 'bigint', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('daily_key', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'bigint')
    .addColumn('attempts_checked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('upstream_records', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('findings', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('started_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('reconciliation_runs_daily').on('reconciliation_runs').column('daily_key').unique().execute();
  await db.schema.createIndex('reconciliation_runs_status').on('reconciliation_runs').columns(['status', 'created_at']).execute();
  await db.schema.createIndex('reconciliation_runs_provider').on('reconciliation_runs').columns(['provider', 'created_at']).execute();

  await db.schema
    .createTable('reconciliation_findings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('finding_key', 'text', (c) => c.notNull().unique())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('transaction_id', 'text')
    .addColumn('order_id', 'text')
    .addColumn('order_item_id', 'text')
    .addColumn('ours', 'text')
    .addColumn('theirs', 'text')
    .addColumn('first_run_id', 'text', (c) => c.notNull())
    .addColumn('last_run_id', 'text', (c) => c.notNull())
    .addColumn('found_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('resolved_at', 'bigint')
    .addColumn('resolved_by', 'text')
    .addColumn('resolution_note', 'text')
    .execute();
  await db.schema.createIndex('reconciliation_findings_open').on('reconciliation_findings').columns(['resolved_at', 'provider']).execute();
  await db.schema.createIndex('reconciliation_findings_run').on('reconciliation_findings').column('last_run_id').execute();

  // Margins (docs/live-delivery.md, "Margins"): a closed day's sales, cost and margin, summed once per
  // partner, package, operator and upstream; a reversal of one of its orders makes it computed again.
  await db.schema
    .createTable('margin_days')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('profile_id', 'text', (c) => c.notNull())
    .addColumn('package_id', 'text', (c) => c.notNull())
    .addColumn('operator_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('sales', 'bigint', (c) => c.notNull())
    .addColumn('cost', 'bigint', (c) => c.notNull())
    .addColumn('deliveries', 'integer', (c) => c.notNull())
    .addColumn('cost_unknown', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('margin_days_pk', ['day', 'profile_id', 'package_id', 'provider'])
    .execute();
  await db.schema
    .createTable('margin_days_done')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('computed_at', 'bigint', (c) => c.notNull())
    .execute();
  // A day's completed deliveries, read by their completion time (the summary of a day, and today's figures).
  await db.schema.createIndex('order_items_completed').on('order_items').column('completed_at').execute();

  // The attempts of one upstream in a window (reconciliation), read in order of creation.
  await db.schema.createIndex('provider_attempts_window').on('provider_attempts').columns(['provider', 'created_at']).execute();
}
