import type { Config } from '../config.js';
import type { CatalogService } from '../catalog/service.js';
import type { Database } from '../db/connection.js';
import { ORDER_STATES, ORDER_TYPES, type Mode, type OrderState, type OrderType } from '../db/schema.js';
import { AppError, badRequest, conflict } from '../http/errors.js';
import type {
  BuyBulkBody,
  BuyBulkResult,
  BuySingleBody,
  BuySingleResult,
  Order,
  OrderPage,
  OrderStatus,
  OrdersQuery,
  RetryRecipientBody,
  RetryRecipientResult,
} from '../http/schemas/orders.js';
import * as walletRepo from '../wallet/repository.js';
import { post } from '../wallet/service.js';
import { decodeCursor, encodeCursor, type KeysetPosition } from '../lib/cursor.js';
import { PurchaseService, type Buyer } from './purchase.js';
import * as repo from './repository.js';
import { OrderViewCache, type RenderedOrder } from './view-cache.js';
import { toOrderView, toStatusView } from './views.js';

export type { Buyer } from './purchase.js';

/** Who reads: orders are visible to their owner, in the key's mode only (decisions §4). */
export interface Reader {
  profileId: string;
  mode: Mode;
}

export const DEFAULT_ORDER_TYPES: OrderType[] = ['data', 'result_checker'];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

interface ListQuery {
  types: OrderType[] | null;
  state: OrderState | null;
  limit: number;
  after: KeysetPosition | null;
}

/** decisions §10: each bad value is a 400; orderType has its own code, a limit above 100 is capped. */
export function parseListQuery(query: OrdersQuery): ListQuery {
  let types: OrderType[] | null = DEFAULT_ORDER_TYPES;
  if (query.orderType !== undefined && query.orderType !== '') {
    const wanted = query.orderType.trim();
    if (wanted === 'all') types = null;
    else {
      const type = ORDER_TYPES.find((t) => t === wanted);
      if (!type) {
        throw badRequest('INVALID_ORDER_TYPE', `orderType must be one of ${[...ORDER_TYPES, 'all'].join(', ')}`);
      }
      types = [type];
    }
  }
  let state: OrderState | null = null;
  if (query.state !== undefined && query.state !== '') {
    const found = ORDER_STATES.find((s) => s === query.state?.trim());
    if (!found) throw badRequest('INVALID_REQUEST', `state must be one of ${ORDER_STATES.join(', ')}`);
    state = found;
  }
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined && query.limit !== '') {
    const raw = query.limit.trim();
    const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw badRequest('INVALID_REQUEST', 'limit must be an integer from 1 to 100');
    limit = Math.min(value, MAX_LIMIT);
  }
  let after: KeysetPosition | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    after = decodeCursor(query.cursor);
    if (!after) throw badRequest('INVALID_REQUEST', 'cursor is not a continueCursor returned by this endpoint');
  }
  return { types, state, limit, after };
}

/** An order page whose orders are JSON texts (see OrderService.listEncoded). */
export interface EncodedOrderPage extends Omit<OrderPage, 'orders'> {
  orders: string[];
}

export interface StuckDelivery {
  orderId: string;
  shortReference: string;
  profileId: string;
  mode: Mode;
  itemId: string;
  recipient: number;
  status: string;
  attempt: number;
  msisdn: string;
  since: number;
  outbox: { kind: string; tries: number; runAt: number; lastError: string | null } | null;
}

export interface Reversal {
  orderId: string;
  shortReference: string;
  refunded: number;
  availableAfter: number;
}

/** Views kept for the order lists: ~1 KB each. */
const ORDER_VIEW_CACHE_SIZE = 50_000;

export class OrderService {
  private readonly purchases: PurchaseService;
  private readonly views = new OrderViewCache(ORDER_VIEW_CACHE_SIZE);
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly database: Database,
    private readonly config: Pick<Config, 'orderStuckAfterMs'>,
    catalog: CatalogService,
    private readonly clock: () => number = Date.now,
  ) {
    this.purchases = new PurchaseService(database, catalog, clock, () => {
      for (const listener of this.queuedListeners) {
        try {
          listener();
        } catch {
          // The purchase has committed: a listener (a wake-up) failing must not turn it into an error.
        }
      }
    });
  }

  /**
   * Calls `listener` each time a purchase or a retry has committed deliveries to the outbox, so a
   * worker in this process can start on them at once instead of after its idle sleep. Returns the
   * function that unsubscribes.
   */
  onDeliveriesQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  buySingle(buyer: Buyer, body: BuySingleBody): Promise<BuySingleResult> {
    return this.purchases.buySingle(buyer, body);
  }

  buyBulk(buyer: Buyer, body: BuyBulkBody): Promise<BuyBulkResult> {
    return this.purchases.buyBulk(buyer, body);
  }

  retryRecipient(buyer: Buyer, body: RetryRecipientBody): Promise<RetryRecipientResult> {
    return this.purchases.retryRecipient(buyer, body);
  }

  /**
   * Spec 4.11: the caller's own orders of the key's mode, newest first, keyset-paginated. The page
   * is read as ids and versions; single orders already rendered at that version come from the
   * view cache, the rest (and every bulk order) are read in full with one query.
   */
  async list(reader: Reader, query: OrdersQuery): Promise<OrderPage> {
    const page = await this.readPage(reader, query);
    return { orders: page.orders.map((o) => o.view), isDone: page.isDone, continueCursor: page.continueCursor };
  }

  /**
   * `list` with each order as JSON made by `encode`: a cached order keeps its JSON with its view,
   * so an unchanged order is serialized once, not on every page that shows it.
   */
  async listEncoded(reader: Reader, query: OrdersQuery, encode: (order: Order) => string): Promise<EncodedOrderPage> {
    const page = await this.readPage(reader, query);
    return { orders: page.orders.map((o) => (o.json ??= encode(o.view))), isDone: page.isDone, continueCursor: page.continueCursor };
  }

  private async readPage(reader: Reader, query: OrdersQuery) {
    const q = parseListQuery(query);
    const keys = await repo.listOrderKeys(this.database, {
      profileId: reader.profileId,
      mode: reader.mode,
      types: q.types,
      state: q.state,
      after: q.after,
      limit: q.limit + 1,
    });
    const page = keys.slice(0, q.limit);
    const cached = page.map((k) => (k.is_bulk === 1 ? undefined : this.views.get(k)));
    const missing = page.filter((_, i) => cached[i] === undefined).map((k) => k.id);
    const fresh = new Map<string, RenderedOrder>();
    if (missing.length > 0) {
      const rows = await repo.findOrdersByIds(this.database.read, missing);
      const items = await repo.findItems(
        this.database.read,
        rows.filter((o) => o.is_bulk === 1).map((o) => o.id),
      );
      for (const row of rows) {
        const view = toOrderView(row, items.filter((i) => i.order_id === row.id));
        // Keyed by the row read in full: it may be newer than the page's key, never older.
        fresh.set(row.id, row.is_bulk === 1 ? { view, json: undefined } : this.views.set(row, view));
      }
    }
    const last = page[page.length - 1];
    return {
      // Orders are never deleted, so every id of the page is found.
      orders: page.flatMap((k, i) => cached[i] ?? fresh.get(k.id) ?? []),
      isDone: keys.length <= q.limit,
      continueCursor: last
        ? encodeCursor({ createdAt: Number(last.created_at), id: last.id })
        : q.after
          ? encodeCursor(q.after)
          : '',
    };
  }

  async get(reader: Reader, orderId: string): Promise<Order> {
    const order = await this.owned(reader, orderId);
    const items = order.is_bulk === 1 ? await repo.findItems(this.database.read, [order.id]) : [];
    return toOrderView(order, items);
  }

  async status(reader: Reader, orderId: string): Promise<OrderStatus> {
    return toStatusView(await this.owned(reader, orderId));
  }

  private async owned(reader: Reader, orderId: string) {
    const order = await repo.findOwnedOrder(this.database.read, orderId, reader.profileId, reader.mode);
    if (!order) throw new AppError(404, 'ORDER_NOT_FOUND', `Order ${orderId} not found`);
    return order;
  }

  /**
   * Staff refund of a completed data order (decisions §3): state → reversed and the amount that
   * was spent (a bulk order: its completed recipients) back to available, exactly once.
   */
  async reverse(orderId: string, reason: string): Promise<Reversal> {
    const why = reason.trim();
    if (why === '') throw badRequest('INVALID_REQUEST', 'a reason is required');
    return this.database.transaction(async (trx) => {
      const now = this.clock();
      const order = await repo.lockOrder(trx, this.database.dialect, orderId);
      if (!order) throw new AppError(404, 'ORDER_NOT_FOUND', `no order ${orderId}`);
      if (order.order_type !== 'data') throw conflict('INVALID_REQUEST', `order ${orderId} is a ${order.order_type} order; only data orders are reversed here`);
      if (order.state === 'reversed') throw conflict('INVALID_REQUEST', `order ${orderId} was already reversed; nothing refunded`);
      if (order.state !== 'completed') throw conflict('INVALID_REQUEST', `order ${orderId} is ${order.state}; only a completed order can be reversed`);
      const items = await repo.findItems(trx, [order.id]);
      const refund = items.filter((i) => i.status === 'completed').reduce((sum, i) => sum + Number(i.amount), 0);
      if (!(await repo.markReversed(trx, order.id, why, now))) {
        throw conflict('INVALID_REQUEST', `order ${orderId} changed meanwhile; nothing refunded`);
      }
      const wallet = await walletRepo.findWallet(trx, order.profile_id, order.mode);
      if (!wallet) throw new Error(`wallet of order ${order.id} not found`);
      const after = await post(
        trx,
        {
          walletId: wallet.id,
          kind: 'data_reversal',
          availableDelta: refund,
          heldDelta: 0,
          orderId: order.id,
          idempotencyKey: `reversal:${order.id}`,
          memo: `Reversed by staff: ${why}`.slice(0, 500),
        },
        now,
      );
      if (!after) throw new Error(`refund of order ${order.id} was refused by the wallet`);
      return { orderId: order.id, shortReference: order.short_reference, refunded: refund, availableAfter: Number(after.available) };
    });
  }

  /** Deliveries still open after config.orderStuckAfterMs (or `olderThanMs`) without moving. */
  async stuck(olderThanMs: number = this.config.orderStuckAfterMs): Promise<StuckDelivery[]> {
    const rows = await repo.findStuckItems(this.database.read, this.clock() - olderThanMs);
    return rows.map((r) => ({
      orderId: r.order_id,
      shortReference: r.short_reference,
      profileId: r.profile_id,
      mode: r.mode,
      itemId: r.item_id,
      recipient: Number(r.idx),
      status: r.status,
      attempt: Number(r.attempt),
      msisdn: r.beneficiary_msisdn,
      since: Number(r.updated_at),
      outbox:
        r.outbox_kind === null
          ? null
          : {
              kind: r.outbox_kind,
              tries: Number(r.outbox_tries),
              runAt: Number(r.outbox_run_at),
              lastError: r.outbox_last_error,
            },
    }));
  }
}
