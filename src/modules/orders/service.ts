import type { Database } from '../../db/connection.js';
import type { OrderItemRow, OrderRow } from '../../db/schema.js';
import type { Owner } from '../../domain/caller.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { encodeCursor } from '../../lib/cursor.js';
import { toGhs } from '../../lib/money.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import { postings } from '../wallet/postings.js';
import type { EventRecorder } from '../events/service.js';
import type { WalletRepository } from '../wallet/repository.js';
import { parseListQuery } from './list-query.js';
import { mergeReads, readPage, type Page, type PageRequest } from '../../lib/staff-page.js';
import type { OrderRepository, StaffOrderFilter, StaffOrderMatch } from './repository.js';
import type { Order, OrderPage, OrderStatus, OrdersQuery } from './schemas.js';
import { OrderViewCache, type RenderedOrder } from './view-cache.js';
import { toOrderView, toStatusView } from './views.js';

/** An order page whose orders are JSON, as UTF-8 bytes (see OrderService.listEncoded). */
export interface EncodedOrderPage extends Omit<OrderPage, 'orders'> {
  orders: Buffer[];
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

export interface StaffOrderDetail {
  order: OrderRow;
  items: Awaited<ReturnType<OrderRepository['itemsWithOutbox']>>;
  ledger: Awaited<ReturnType<OrderRepository['ledgerEntriesOf']>>;
}

export interface Reversal {
  orderId: string;
  shortReference: string;
  refunded: number;
  availableAfter: number;
}

/** Views kept for the order lists: ~1 KB each (a bulk order of 20 recipients ~5 KB). */
const ORDER_VIEW_CACHE_SIZE = 50_000;

/** Up to this many partners found by name, each one's orders are read on their own (see searchForStaff). */
const NAMED_PARTNERS_READ_APART = 20;

export class OrderService {
  private readonly views = new OrderViewCache(ORDER_VIEW_CACHE_SIZE);

  constructor(
    private readonly database: Database,
    private readonly orders: OrderRepository,
    private readonly wallets: WalletRepository,
    private readonly events: EventRecorder,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly stuckAfterMs: number,
  ) {}

  /**
   * GET /api/v1/orders: the caller's own orders of the key's mode, newest first, keyset-paginated. The page
   * is read as ids and versions; orders already rendered at that version come from the view cache,
   * the rest are read in full with one query (and one for the recipients of bulk orders).
   */
  async list(owner: Owner, query: OrdersQuery): Promise<OrderPage> {
    const page = await this.readPage(owner, query);
    return { orders: page.orders.map((o) => o.view), isDone: page.isDone, continueCursor: page.continueCursor };
  }

  /**
   * `list` with each order as JSON made by `encode`: a cached order keeps its JSON with its view,
   * so an unchanged order is serialized once, not on every page that shows it.
   */
  async listEncoded(owner: Owner, query: OrdersQuery, encode: (order: Order) => Buffer): Promise<EncodedOrderPage> {
    const page = await this.readPage(owner, query);
    return {
      orders: page.orders.map((o) => (o.json ??= encode(o.view))),
      isDone: page.isDone,
      continueCursor: page.continueCursor,
    };
  }

  private async readPage(owner: Owner, query: OrdersQuery) {
    const q = parseListQuery(query);
    const keys =
      query.paymentReference === undefined
        ? await this.orders.listKeys({ ...owner, types: q.types, state: q.state, after: q.after, limit: q.limit + 1 })
        : await this.orders.keysByPaymentReference(owner, query.paymentReference.trim(), q.types, q.state);
    const page = keys.slice(0, q.limit);
    const cached = page.map((k) => this.views.get(k));
    const missing = page.filter((_, i) => cached[i] === undefined).map((k) => k.id);
    const fresh = new Map<string, RenderedOrder>();
    if (missing.length > 0) {
      const rows = await this.orders.findOrdersByIds(missing);
      const recipients = await this.orders.findItems(rows.filter((o) => o.is_bulk === 1).map((o) => o.id));
      const byOrder = new Map<string, OrderItemRow[]>();
      for (const item of recipients) byOrder.set(item.order_id, [...(byOrder.get(item.order_id) ?? []), item]);
      // Keyed by the row read in full: it may be newer than the page's key, never older.
      for (const row of rows) fresh.set(row.id, this.views.set(row, toOrderView(row, byOrder.get(row.id) ?? [])));
    }
    const last = page[page.length - 1];
    return {
      // Orders are never deleted, so every id of the page is found.
      orders: page.flatMap((k, i) => cached[i] ?? fresh.get(k.id) ?? []),
      isDone: keys.length <= q.limit,
      continueCursor: last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : q.after ? encodeCursor(q.after) : '',
    };
  }

  /** GET /api/v1/orders/{orderId}. */
  async get(owner: Owner, orderId: string): Promise<Order> {
    const order = await this.owned(owner, orderId);
    const items = order.is_bulk === 1 ? await this.orders.findItems([order.id]) : [];
    return toOrderView(order, items);
  }

  /** GET /api/v1/orders/{orderId}/status. */
  async status(owner: Owner, orderId: string): Promise<OrderStatus> {
    return toStatusView(await this.owned(owner, orderId));
  }

  private async owned(owner: Owner, orderId: string) {
    const order = await this.orders.findOwned(owner, orderId);
    if (!order) throw notFound('ORDER_NOT_FOUND', `Order ${orderId} not found`);
    return order;
  }

  /**
   * Staff refund of a completed data order (docs/order-lifecycle.md, "The money at each step";
   * docs/cli.md, orders reverse): state → reversed and the amount that was spent (a bulk order:
   * its completed recipients) back to available, exactly once, with its audit row.
   */
  async reverse(actor: Actor, orderId: string, reason: string): Promise<Reversal> {
    const why = reason.trim();
    if (why === '') throw invalid('INVALID_REQUEST', 'a reason is required');
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const order = await this.orders.lockWithWallet(tx, orderId);
      if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
      if (order.order_type !== 'data') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is a ${order.order_type} order; only data orders are reversed here`);
      }
      if (order.state === 'reversed')
        throw conflict('INVALID_REQUEST', `order ${orderId} was already reversed; nothing refunded`);
      if (order.state !== 'completed') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is ${order.state}; only a completed order can be reversed`);
      }
      const items = await this.orders.itemsOf(tx, order.id);
      const refund = items.filter((i) => i.status === 'completed').reduce((sum, i) => sum + Number(i.amount), 0);
      if (!(await this.orders.markReversed(tx, order.id, why, now))) {
        throw conflict('INVALID_REQUEST', `order ${orderId} changed meanwhile; nothing refunded`);
      }
      if (order.wallet_id === null) throw new Error(`wallet of order ${order.id} not found`);
      const balances = await this.wallets.post(
        tx,
        postings.reversal({ walletId: order.wallet_id, orderType: order.order_type, orderId: order.id, amount: refund, reason: why }),
        now,
      );
      if (!balances) throw new Error(`refund of order ${order.id} was refused by the wallet`);
      const reversed = { ...order, state: 'reversed' as const, reversal_reason: why, reversed_at: now, updated_at: now };
      const view = toOrderView(reversed, order.is_bulk === 1 ? items : []);
      this.events.record(tx, { profileId: order.profile_id, mode: order.mode }, 'order.reversed', { object: view }, now);
      await this.audit.record(tx, actor, 'order.reverse', { type: 'order', id: order.id }, {
        reason: why,
        refunded: toGhs(refund),
        shortReference: order.short_reference,
        profileId: order.profile_id,
        mode: order.mode,
      });
      return { orderId: order.id, shortReference: order.short_reference, refunded: refund, availableAfter: balances.available };
    });
  }

  // ---- staff reads (console, CLI) ----

  /**
   * A page of orders for staff, newest first: `text` is an order id, a short reference, the
   * partner's paymentReference, part of the partner's name, or a number (the order's or a bulk
   * recipient's, in any of its written forms); the filter narrows it.
   */
  async searchForStaff(filter: StaffOrderFilter & { text?: string | undefined }, page: PageRequest): Promise<Page<OrderRow>> {
    const { text: given, ...criteria } = filter;
    const text = given?.trim() || undefined;
    const matches: StaffOrderMatch[] = [];
    if (text === undefined) matches.push({ by: 'every' });
    else {
      matches.push({ by: 'id', value: text }, { by: 'short_reference', value: text.toUpperCase() }, { by: 'payment_reference', value: text });
      // A partner's orders are read per partner (each from its own index); a text so vague that
      // more partners match is read as one query instead.
      const named = await this.orders.profilesNamed(text, NAMED_PARTNERS_READ_APART + 1);
      if (named.length > NAMED_PARTNERS_READ_APART) matches.push({ by: 'partner_name', text });
      else for (const id of named) matches.push({ by: 'profile', id });
      const msisdn = normaliseGhanaMsisdn(text);
      if (msisdn !== null) {
        // Orders keep the number as the partner wrote it once normalised; try each form it may have.
        for (const value of new Set([msisdn, `0${msisdn.slice(3)}`, text])) matches.push({ by: 'number', value }, { by: 'recipient', value });
      }
    }
    return readPage(page, async (p) =>
      mergeReads(await Promise.all(matches.map((match) => this.orders.searchForStaff(match, criteria, p))), p),
    );
  }

  /** An order by id or short reference with its recipients (and their outbox rows) and ledger entries. */
  async detailForStaff(idOrReference: string): Promise<StaffOrderDetail> {
    const order = await this.orders.findByIdOrReference(idOrReference.trim());
    if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${idOrReference}`);
    const [items, ledger] = await Promise.all([this.orders.itemsWithOutbox(order.id), this.orders.ledgerEntriesOf(order.id)]);
    return { order, items, ledger };
  }

  /** Orders per minute and the failure rate over the last `windowMs` (the console's dashboard). */
  async activity(windowMs: number, mode?: Mode): Promise<{ orders: number; failed: number; perMinute: number; failureRate: number }> {
    const { orders, failed } = await this.orders.activitySince(this.clock() - windowMs, mode);
    return { orders, failed, perMinute: orders / (windowMs / 60_000), failureRate: orders === 0 ? 0 : failed / orders };
  }

  /** Deliveries still open after ORDER_STUCK_AFTER_MS (or `olderThanMs`) without moving. */
  async stuck(olderThanMs: number = this.stuckAfterMs): Promise<StuckDelivery[]> {
    const rows = await this.orders.findStuckItems(this.clock() - olderThanMs);
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
