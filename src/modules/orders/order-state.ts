import type { OrderRow, OrderUpdate } from '../../db/schema.js';
import type { ItemCounts } from './repository.js';

/**
 * An order's state, counts and times derived from its items (spec 3.1, decisions §6): processing
 * while any delivery is open; then completed if at least one completed, failed if all failed. A
 * reversed order keeps its state.
 */
export function orderStateAfter(order: OrderRow, counts: ItemCounts, now: number): OrderUpdate {
  const update: OrderUpdate = { updated_at: now };
  if (order.is_bulk === 1) {
    update.bulk_completed_count = counts.completed;
    update.bulk_failed_count = counts.failed;
  }
  if (order.state === 'reversed') return update;
  if (counts.open > 0) {
    update.state = 'processing';
    update.completed_at = null;
    update.error_message = null;
  } else if (counts.completed > 0) {
    update.state = 'completed';
    update.completed_at = order.state === 'completed' && order.completed_at !== null ? order.completed_at : now;
    update.error_message = null;
  } else {
    update.state = 'failed';
    update.completed_at = null;
    update.error_message =
      order.is_bulk === 1
        ? `All ${counts.total} recipients failed${counts.firstError ? `: ${counts.firstError}` : ''}`
        : counts.firstError;
  }
  return update;
}
