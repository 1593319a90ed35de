import type { OrderItemRow, OrderRow, OrderUpdate } from '../../db/schema.js';

/** How a bulk order's recipients stand. */
export interface ItemCounts {
  open: number;
  completed: number;
  failed: number;
  total: number;
  firstError: string | null;
}

/** A bulk order's recipients counted by outcome (items in idx order: the first error is the first recipient's). */
export function countItems(items: readonly Pick<OrderItemRow, 'status' | 'error_message'>[]): ItemCounts {
  const counts: ItemCounts = { open: 0, completed: 0, failed: 0, total: items.length, firstError: null };
  for (const item of items) {
    if (item.status === 'completed') counts.completed++;
    else if (item.status === 'failed') {
      counts.failed++;
      counts.firstError ??= item.error_message;
    } else counts.open++;
  }
  return counts;
}

/**
 * An order's state, counts and times derived from its items (docs/order-lifecycle.md, "States" and
 * "Bulk orders"): processing while any delivery is open; then completed if at least one completed,
 * failed if all failed. A reversed order keeps its state.
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
