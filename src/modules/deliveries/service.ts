import type { Database } from '../../db/connection.js';
import type { ItemStatus, OrderItemRow, OrderRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import { conflict, notFound } from '../../domain/errors.js';
import type { Clock } from '../../domain/types.js';
import type { ProviderOutcome } from '../../providers/legacy.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { EventRecorder } from '../events/service.js';
import { heldOrderType, postings } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import { countItems, orderStateAfter, type ItemCounts } from '../orders/order-state.js';
import type { ClaimedRow, OutboxRepository } from './outbox-repository.js';
import type { ItemWithOrder, OrderRepository } from '../orders/repository.js';
import { toOrderView, toRecipientView } from '../orders/views.js';

/**
 * What happens to a delivery after the purchase: its submission recorded, its outcome settled.
 * Each is one unit of work that locks the parent order first (one lock order everywhere: order,
 * item, wallet, outbox), so concurrent settlements of one bulk order see each other's counts.
 */

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

export interface StuckRetry {
  orderId: string;
  shortReference: string;
  /** Deliveries open past the threshold. */
  stuck: number;
  /** Of those, how many had lost their outbox row and got one again. */
  requeued: number;
  /** Of those, how many outbox rows were made due now (rows a worker holds are left alone). */
  hurried: number;
}

export class DeliveryService {
  constructor(
    private readonly database: Database,
    private readonly orders: OrderRepository,
    private readonly outbox: OutboxRepository,
    private readonly wallets: WalletRepository,
    private readonly events: EventRecorder,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** The deliveries of a claimed batch as they are now, in one read; missing items are absent. */
  async itemsOf(claimed: readonly ClaimedRow[]): Promise<Map<string, ItemWithOrder>> {
    const items = await this.orders.findItemsWithOrders(claimed.map((row) => row.order_item_id));
    return new Map(items.map((item) => [item.id, item]));
  }

  async item(itemId: string): Promise<ItemWithOrder | undefined> {
    return this.orders.findItemWithOrder(itemId);
  }

  /**
   * Staff retry of a stuck order: each delivery open longer than `olderThanMs` is made due at once
   * (a row a worker holds is left to it), and one that lost its outbox row gets one again (a poll
   * when the provider has it, else a submission; the provider call is idempotent either way).
   * Refused when no delivery of the order is stuck.
   */
  async retryStuck(actor: Actor, orderId: string, olderThanMs: number): Promise<StuckRetry> {
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const order = await this.orders.lock(tx, orderId);
      if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
      const stuck = (await this.orders.itemsOf(tx, order.id)).filter(
        (i) => (i.status === 'pending' || i.status === 'processing') && Number(i.updated_at) < now - olderThanMs,
      );
      if (stuck.length === 0) {
        throw conflict(
          'INVALID_REQUEST',
          `order ${orderId} has no delivery open longer than ${Math.round(olderThanMs / 1000)}s; nothing to retry`,
        );
      }
      const rows = await this.outbox.rowsFor(
        tx,
        stuck.map((i) => i.id),
      );
      let requeued = 0;
      for (const item of stuck) {
        if (rows.has(item.id)) continue;
        await this.outbox.requeue(tx, item.id, item.provider_ref ? 'poll' : 'submit', now);
        requeued++;
      }
      const hurried = await this.outbox.runNow(
        tx,
        [...rows.values()].map((r) => r.id),
        now,
      );
      const retry = { orderId: order.id, shortReference: order.short_reference, stuck: stuck.length, requeued, hurried };
      const { orderId: _, ...detail } = retry;
      await this.audit.record(tx, actor, 'order.retry', { type: 'order', id: order.id }, detail);
      return retry;
    });
  }

  /**
   * The provider accepted attempt `attempt`: item → processing with submitted_at, outbox row → poll.
   * Returns false when this worker no longer holds the row's lease (another worker took it over and
   * records the same idempotent submission itself).
   */
  async recordSubmission(s: SubmissionRecord): Promise<boolean> {
    return this.database.unit(async (tx) => {
      await this.orders.holdLock(tx, s.orderId);
      if (!(await this.outbox.markSubmitted(tx, s.outboxId, s.workerId, s.pollAt))) return false;
      const moved = await this.orders.markItemSubmitted(tx, {
        itemId: s.itemId,
        attempt: s.attempt,
        providerRef: s.providerRef,
        now: s.now,
      });
      if (moved) this.orders.markOrderSubmitted(tx, s.orderId, s.now);
      return true;
    });
  }

  /**
   * Books the outcome of one delivery exactly once: completed spends the hold, failed returns it
   * to available (docs/order-lifecycle.md, "The money at each step"). Returns false, changing
   * nothing, when the item already left that state (settled before, or retried since).
   */
  async settle(s: Settlement): Promise<boolean> {
    return this.database.unit(async (tx) => {
      const order = await this.orders.lockWithWallet(tx, s.orderId);
      if (!order) return false;
      const errorMessage = s.outcome.status === 'failed' ? s.outcome.errorMessage : null;
      const settled = await this.orders.settleItem(tx, {
        itemId: s.itemId,
        attempt: s.attempt,
        from: s.from,
        outcome: s.outcome.status,
        errorMessage,
        now: s.now,
      });
      if (!settled) return false;
      if (order.wallet_id === null) throw new Error(`wallet of order ${order.id} not found`);
      const completed = s.outcome.status === 'completed';
      // A bulk order's recipients as they are now (its counts, and its events' view); a single order has this one item.
      const items = order.is_bulk === 1 ? await this.orders.itemsOf(tx, order.id) : [];
      const counts: ItemCounts =
        order.is_bulk === 1
          ? countItems(items)
          : { open: 0, completed: completed ? 1 : 0, failed: completed ? 0 : 1, total: 1, firstError: errorMessage };
      // The hold of this attempt (the guarded update returned its amount) is spent or returned.
      const delivery = {
        walletId: order.wallet_id,
        orderType: heldOrderType(order.order_type),
        orderId: order.id,
        itemId: s.itemId,
        attempt: s.attempt,
        amount: settled.amount,
      };
      const balances = await this.wallets.post(tx, completed ? postings.settle(delivery) : postings.release(delivery), s.now);
      // The hold of this attempt is in `held`; anything else means the books are already wrong.
      if (!balances) throw new Error(`held balance of wallet ${order.wallet_id} is below the hold of item ${s.itemId}`);
      // With the ledger entry: the delivery leaves the outbox, the order takes its new state.
      this.outbox.removeForItem(tx, s.itemId);
      const changes = orderStateAfter(order, counts, s.now);
      this.orders.update(tx, order, changes);
      this.recordEvents(tx, { ...order, ...changes, version: Number(order.version) + 1 }, order.state, items, s.itemId, s.now);
      return true;
    });
  }

  /**
   * The events of a settlement (docs/webhooks.md, "Event types"), in its unit: a bulk recipient's outcome,
   * and the order's when it has just become final.
   */
  private recordEvents(
    tx: Tx,
    order: OrderRow,
    stateBefore: OrderRow['state'],
    items: OrderItemRow[],
    itemId: string,
    now: number,
  ): void {
    const owner = { profileId: order.profile_id, mode: order.mode };
    const view = toOrderView(order, items);
    const recipient = items.find((i) => i.id === itemId);
    if (recipient) {
      const type = recipient.status === 'completed' ? 'order.recipient.completed' : 'order.recipient.failed';
      this.events.record(tx, owner, type, { object: view, recipient: toRecipientView(recipient) }, now);
    }
    const final = order.state === 'completed' || order.state === 'failed';
    if (final && order.state !== stateBefore) {
      this.events.record(tx, owner, order.state === 'completed' ? 'order.completed' : 'order.failed', { object: view }, now);
    }
  }

  /**
   * For a provider that reports outcomes itself (callback/webhook): settles the delivery known by
   * `providerRef` once; false if it is unknown or already settled.
   */
  async settleFromProvider(providerRef: string, outcome: ProviderOutcome): Promise<boolean> {
    const item = await this.orders.findItemByProviderRef(providerRef);
    if (!item || item.status !== 'processing') return false;
    return this.settle({
      itemId: item.id,
      orderId: item.order_id,
      attempt: Number(item.attempt),
      outcome,
      from: ['processing'],
      now: this.clock(),
    });
  }
}
