import type { Executor } from '../db/connection.js';
import type { DialectName } from '../db/dialect.js';
import type { ItemStatus, OrderRow, OrderUpdate } from '../db/schema.js';
import type { ProviderOutcome } from '../provider/types.js';
import { post } from '../wallet/service.js';
import * as outbox from '../worker/outbox-repository.js';
import * as repo from './repository.js';

/**
 * Item transitions after the purchase: submission recorded, outcome settled. Each runs inside the
 * caller's transaction and locks the parent order first (one lock order everywhere: order, item,
 * wallet, outbox), so concurrent settlements of one bulk order see each other's counts.
 */

/**
 * The order's state, counts and times derived from its items (spec 3.1, decisions §6). `counts`
 * may be given when the caller knows them (a single order's one item just settled).
 */
export async function refreshOrder(trx: Executor, order: OrderRow, now: number, known?: repo.ItemCounts): Promise<void> {
  await repo.updateOrder(trx, order.id, orderRefresh(order, now, known ?? (await repo.itemCounts(trx, order.id))));
}

function orderRefresh(order: OrderRow, now: number, counts: repo.ItemCounts): OrderUpdate {
  const update: OrderUpdate = { updated_at: now };
  if (order.is_bulk === 1) {
    update.bulk_completed_count = counts.completed;
    update.bulk_failed_count = counts.failed;
  }
  if (order.state !== 'reversed') {
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
  }
  return update;
}

export interface SubmissionRecord {
  outboxId: number;
  workerId: string;
  orderId: string;
  itemId: string;
  attempt: number;
  providerRef: string;
  pollAt: number;
  now: number;
}

/**
 * The provider accepted attempt `attempt`: item → processing with submitted_at, outbox row → poll.
 * Returns false when this worker no longer holds the row's lease (another worker took it over and
 * records the same idempotent submission itself).
 */
export async function recordSubmission(trx: Executor, dialect: DialectName, s: SubmissionRecord): Promise<boolean> {
  await repo.holdOrderLock(trx, dialect, s.orderId);
  if (!(await outbox.markSubmitted(trx, s.outboxId, s.workerId, s.pollAt))) return false;
  const moved = await repo.markItemSubmitted(trx, {
    itemId: s.itemId,
    attempt: s.attempt,
    providerRef: s.providerRef,
    now: s.now,
  });
  if (moved) await repo.markOrderSubmitted(trx, s.orderId, s.now);
  return true;
}

export interface Settlement {
  itemId: string;
  /** The item's order (the caller has read the item; an item never changes order). */
  orderId: string;
  attempt: number;
  outcome: ProviderOutcome;
  /** Statuses the item may settle from: 'processing' normally; 'pending' too when a submission was refused. */
  from: ItemStatus[];
  now: number;
}

/**
 * Books the outcome of one delivery exactly once: completed releases the hold as spent, failed
 * returns it to available (decisions §3). Returns false, changing nothing, when the item already
 * left that state (settled before, or retried since).
 */
export async function settleItem(trx: Executor, dialect: DialectName, s: Settlement): Promise<boolean> {
  const order = await repo.lockOrderWithWallet(trx, dialect, s.orderId);
  if (!order) return false;
  const errorMessage = s.outcome.status === 'failed' ? s.outcome.errorMessage : null;
  const settled = await repo.settleItemRow(trx, {
    itemId: s.itemId,
    attempt: s.attempt,
    from: s.from,
    outcome: s.outcome.status,
    errorMessage,
    now: s.now,
  });
  if (!settled) return false;

  // The amount returned by the guarded update is this attempt's own.
  const amount = Number(settled.amount);
  const walletId = order.wallet_id;
  if (walletId === null) throw new Error(`wallet of order ${order.id} not found`);
  const completed = s.outcome.status === 'completed';
  // A single order has this one item: its counts need no query.
  const counts: repo.ItemCounts =
    order.is_bulk === 1
      ? await repo.itemCounts(trx, order.id)
      : { open: 0, completed: completed ? 1 : 0, failed: completed ? 0 : 1, total: 1, firstError: errorMessage };
  const after = await post(
    trx,
    {
      walletId,
      kind: completed ? 'data_settle' : 'data_release',
      availableDelta: completed ? 0 : amount,
      heldDelta: -amount,
      orderId: order.id,
      orderItemId: s.itemId,
      idempotencyKey: `${completed ? 'settle' : 'release'}:${s.itemId}:${s.attempt}`,
      memo: completed ? 'Data bundle delivered' : 'Data bundle not delivered: hold returned',
    },
    s.now,
    // Written with the ledger entry: the delivery leaves the outbox, the order takes its new state.
    () => [outbox.deleteForItemStatement(trx, s.itemId), repo.updateOrderStatement(trx, order.id, orderRefresh(order, s.now, counts))],
  );
  // The hold of this attempt is in `held`; anything else means the books are already wrong.
  if (!after) throw new Error(`held balance of wallet ${walletId} is below the hold of item ${s.itemId}`);
  return true;
}
