import { sql, type Kysely } from 'kysely';

/**
 * Three indexes of the delivery path made partial (docs/performance.md, "Instructions per order"):
 * each held an entry for every row, moved at every change of its column, though every query that
 * reads it asks for a few rows only.
 * - order_items_completed: the margin report reads items completed in a window, so an open item
 *   (completed_at null) needs no entry; an item now enters it once, at its settlement.
 * - provider_attempts_transaction: an attempt is found by the upstream's transaction id (callbacks,
 *   reconciliation), which it has only once the upstream took it.
 * - provider_attempts_open: only the attempts still pending or unknown are read through it (the
 *   needs-attention list, AttemptRepository.unknownSince, which names both statuses as literals so
 *   that the planner may use it); an attempt now leaves it at its first answer and never comes back.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('order_items_completed').execute();
  await db.schema
    .createIndex('order_items_completed')
    .on('order_items')
    .column('completed_at')
    .where(sql.ref('completed_at'), 'is not', null)
    .execute();
  await db.schema.dropIndex('provider_attempts_transaction').execute();
  await db.schema
    .createIndex('provider_attempts_transaction')
    .on('provider_attempts')
    .columns(['provider', 'provider_transaction_id'])
    .where(sql.ref('provider_transaction_id'), 'is not', null)
    .execute();
  await db.schema.dropIndex('provider_attempts_open').execute();
  await db.schema
    .createIndex('provider_attempts_open')
    .on('provider_attempts')
    .column('created_at')
    .where(sql<boolean>`status in ('pending', 'unknown')`)
    .execute();
}
