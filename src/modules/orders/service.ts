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
import type { OrderRepository, StaffOrderCandidateRow, StaffOrderFilter, StaffOrderMatch } from './repository.js';
import type { Order, OrderPage, OrderStatus, OrdersQuery } from './schemas.js';
import { OrderViewCache, type RenderedOrder } from './view-cache.js';
import { toOrderView, toRecipientView, toStatusView } from './views.js';

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
  /** Pesewas. */
  refunded: number;
  /** Pesewas. */
  availableAfter: number;
  /** The order after it, as GET /api/v1/orders/{orderId} shows it. */
  order: Order;
}

export interface RecipientReversal extends Reversal {
  /** The recipient reversed (233…). */
  recipient: string;
  /** Whether the order became `reversed` with it (its last completed recipient). */
  orderReversed: boolean;
}

/** One of the orders an identifier may name (a number or a paymentReference), as staff are shown it to choose. */
export interface OrderCandidate {
  id: string;
  shortReference: string;
  profileId: string;
  /** The partner's first and last name, or null when the profile is gone. */
  partnerName: string | null;
  mode: Mode;
  orderType: OrderRow['order_type'];
  state: OrderRow['state'];
  createdAt: number;
  paymentReference: string | null;
}

/**
 * What an identifier typed by staff names (see OrderService.resolveForStaff): one order (with how it
 * was found, and the number when it was a number), several, or none.
 */
export type OrderMatch =
  | { kind: 'one'; order: OrderRow; by: 'id' | 'shortReference' | 'paymentReference' | 'number'; msisdn: string | null }
  | { kind: 'several'; candidates: OrderCandidate[]; more: boolean }
  | { kind: 'none' };

/** The most candidates an ambiguous identifier lists. */
const MAX_CANDIDATES = 20;

const isOpenOrder = (o: Pick<OrderRow, 'state'>) => o.state === 'pending' || o.state === 'processing';

function toCandidate(o: StaffOrderCandidateRow): OrderCandidate {
  const name = [o.partner_first_name, o.partner_last_name].filter((n) => n !== null && n !== '').join(' ');
  return {
    id: o.id,
    shortReference: o.short_reference,
    profileId: o.profile_id,
    partnerName: name === '' ? null : name,
    mode: o.mode,
    orderType: o.order_type,
    state: o.state,
    createdAt: Number(o.created_at),
    paymentReference: o.payment_reference,
  };
}

/** Orders keep the number as the partner wrote it once normalised to the local form; try both forms (and as typed). */
function msisdnForms(msisdn: string, typed: string): string[] {
  return [...new Set([msisdn, `0${msisdn.slice(3)}`, typed])];
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
      if (order.order_type === 'result_checker') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is a result-checker sale; refund it instead (cli rc refund, or Refund on its page)`);
      }
      if (order.order_type !== 'data') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is a ${order.order_type} order; only data orders are reversed here`);
      }
      if (order.state === 'reversed')
        throw conflict('INVALID_REQUEST', `order ${orderId} was already reversed; nothing refunded`);
      if (order.state !== 'completed') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is ${order.state}; only a completed order can be reversed`);
      }
      const items = await this.orders.itemsOf(tx, order.id);
      // A recipient already reversed on its own was refunded then: only the rest comes back now.
      const refund = items
        .filter((i) => i.status === 'completed' && i.reversed_at === null)
        .reduce((sum, i) => sum + Number(i.amount), 0);
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
      return { orderId: order.id, shortReference: order.short_reference, refunded: refund, availableAfter: balances.available, order: view };
    });
  }

  /**
   * Staff refund of one completed recipient of a bulk data order (docs/order-lifecycle.md, "Refunds
   * by staff"): what it was charged back to available, exactly once, the recipient marked reversed
   * (its status stays completed), event `order.recipient.reversed` and the audit row in one unit.
   * When it was the order's last completed recipient not yet reversed, the order becomes `reversed`
   * too (and `order.reversed` is sent).
   */
  async reverseRecipient(actor: Actor, orderId: string, recipient: string, reason: string): Promise<RecipientReversal> {
    const why = reason.trim();
    if (why === '') throw invalid('INVALID_REQUEST', 'a reason is required');
    const msisdn = normaliseGhanaMsisdn(recipient) ?? recipient.trim();
    if (msisdn === '') throw invalid('INVALID_REQUEST', 'the recipient (its number) is required');
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const order = await this.orders.lockWithWallet(tx, orderId);
      if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${orderId}`);
      if (order.order_type !== 'data' || order.is_bulk !== 1) {
        throw conflict('INVALID_REQUEST', `order ${orderId} is not a bulk data order; reverse the whole order instead`);
      }
      if (order.state === 'reversed') throw conflict('INVALID_REQUEST', `order ${orderId} was already reversed; nothing refunded`);
      if (order.state !== 'completed') {
        throw conflict('INVALID_REQUEST', `order ${orderId} is ${order.state}; a recipient can be reversed once its order is completed`);
      }
      const items = await this.orders.itemsOf(tx, order.id);
      const item = items.find((i) => i.beneficiary_msisdn === msisdn);
      if (!item) throw invalid('INVALID_REQUEST', `${msisdn} is not a recipient of order ${orderId}`);
      if (item.status === 'failed') {
        throw conflict('INVALID_REQUEST', `recipient ${msisdn} failed and was refunded then; only a completed recipient can be reversed`);
      }
      if (item.status !== 'completed') {
        throw conflict('INVALID_REQUEST', `recipient ${msisdn} is ${item.status}; only a completed recipient can be reversed`);
      }
      if (item.reversed_at !== null) throw conflict('INVALID_REQUEST', `recipient ${msisdn} was already reversed; nothing refunded`);
      if (!(await this.orders.markRecipientReversed(tx, item.id, why, now))) {
        throw conflict('INVALID_REQUEST', `recipient ${msisdn} changed meanwhile; nothing refunded`);
      }
      if (order.wallet_id === null) throw new Error(`wallet of order ${order.id} not found`);
      const amount = Number(item.amount);
      const balances = await this.wallets.post(
        tx,
        postings.recipientReversal({ walletId: order.wallet_id, orderType: order.order_type, orderId: order.id, itemId: item.id, amount, reason: why }),
        now,
      );
      if (!balances) throw new Error(`refund of recipient ${item.id} was refused by the wallet`);
      const reversedItem = { ...item, reversed_at: now, reversal_reason: why, updated_at: now };
      const after = items.map((i) => (i.id === item.id ? reversedItem : i));
      const orderReversed = after.every((i) => i.status !== 'completed' || i.reversed_at !== null);
      if (orderReversed) {
        // Its last completed recipient: the order is reversed too (nothing left to refund as a whole).
        if (!(await this.orders.markReversed(tx, order.id, why, now))) {
          throw conflict('INVALID_REQUEST', `order ${orderId} changed meanwhile; nothing refunded`);
        }
      } else this.orders.update(tx, order, { updated_at: now });
      const updated = orderReversed
        ? { ...order, state: 'reversed' as const, reversal_reason: why, reversed_at: now, updated_at: now }
        : { ...order, updated_at: now };
      const view = toOrderView(updated, after);
      const owner = { profileId: order.profile_id, mode: order.mode };
      this.events.record(tx, owner, 'order.recipient.reversed', { object: view, recipient: toRecipientView(reversedItem) }, now);
      if (orderReversed) this.events.record(tx, owner, 'order.reversed', { object: view }, now);
      await this.audit.record(tx, actor, 'order.reverse_recipient', { type: 'order', id: order.id }, {
        reason: why,
        recipient: msisdn,
        refunded: toGhs(amount),
        orderReversed,
        shortReference: order.short_reference,
        profileId: order.profile_id,
        mode: order.mode,
      });
      return {
        orderId: order.id,
        shortReference: order.short_reference,
        recipient: msisdn,
        refunded: amount,
        availableAfter: balances.available,
        orderReversed,
        order: view,
      };
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
        for (const value of msisdnForms(msisdn, text)) matches.push({ by: 'number', value }, { by: 'recipient', value });
      }
    }
    return readPage(page, async (p) =>
      mergeReads(await Promise.all(matches.map((match) => this.orders.searchForStaff(match, criteria, p))), p),
    );
  }

  /** What an export shows beside each of `orderIds`: its recipients and what was refunded (pesewas, 0 for none). */
  async exportFacts(orderIds: readonly string[]): Promise<Map<string, { recipients: number; refunded: number }>> {
    const [counts, refunds] = await Promise.all([this.orders.recipientCounts(orderIds), this.orders.refundedAmounts(orderIds)]);
    const facts = new Map(orderIds.map((id) => [id, { recipients: 0, refunded: 0 }]));
    for (const c of counts) {
      const f = facts.get(c.order_id);
      if (f) f.recipients = Number(c.recipients);
    }
    for (const r of refunds) {
      const f = r.order_id === null ? undefined : facts.get(r.order_id);
      if (f) f.refunded = Number(r.refunded ?? 0);
    }
    return facts;
  }

  /** An order by id or short reference with its recipients (and their outbox rows) and ledger entries. */
  async detailForStaff(idOrReference: string): Promise<StaffOrderDetail> {
    const order = await this.orders.findByIdOrReference(idOrReference.trim());
    if (!order) throw notFound('ORDER_NOT_FOUND', `no order ${idOrReference}`);
    const [items, ledger] = await Promise.all([this.orders.itemsWithOutbox(order.id), this.orders.ledgerEntriesOf(order.id)]);
    return { order, items, ledger };
  }

  /**
   * The order staff mean by `identifier`: its id, its short reference, a partner's paymentReference
   * (of any partner and mode) or a recipient's number in any written form (a bulk order's
   * recipients count). An id or short reference names one order. A paymentReference or a number may
   * name several (several partners, both modes, orders over time): they are returned as candidates,
   * newest first, unless `preferOpen` and exactly one of them is still open (pending or processing),
   * which is the one a retry or a resolve means.
   */
  async resolveForStaff(identifier: string, options: { preferOpen?: boolean } = {}): Promise<OrderMatch> {
    const text = identifier.trim();
    if (text === '') return { kind: 'none' };
    const direct = await this.orders.findByIdOrReference(text);
    if (direct) return { kind: 'one', order: direct, by: direct.id === text ? 'id' : 'shortReference', msisdn: null };
    const msisdn = normaliseGhanaMsisdn(text);
    const [byReference, byNumber] = await Promise.all([
      this.orders.findByPaymentReferenceForStaff(text, MAX_CANDIDATES + 1),
      msisdn === null ? [] : this.orders.findByNumberForStaff(msisdnForms(msisdn, text), MAX_CANDIDATES + 1),
    ]);
    const found = new Map<string, StaffOrderCandidateRow>();
    for (const row of [...byReference, ...byNumber]) found.set(row.id, row);
    const rows = [...found.values()].sort((a, b) => Number(b.created_at) - Number(a.created_at) || (a.id < b.id ? 1 : -1));
    const one = (order: StaffOrderCandidateRow): OrderMatch => {
      const byNumberToo = byNumber.some((r) => r.id === order.id);
      const { partner_first_name: _f, partner_last_name: _l, ...row } = order;
      return byNumberToo && !byReference.some((r) => r.id === order.id)
        ? { kind: 'one', order: row, by: 'number', msisdn }
        : { kind: 'one', order: row, by: 'paymentReference', msisdn: null };
    };
    const [only] = rows;
    if (only && rows.length === 1) return one(only);
    if (rows.length === 0) return { kind: 'none' };
    const open = rows.filter(isOpenOrder);
    const [onlyOpen] = open;
    if (options.preferOpen && onlyOpen && open.length === 1) return one(onlyOpen);
    return { kind: 'several', candidates: rows.slice(0, MAX_CANDIDATES).map(toCandidate), more: rows.length > MAX_CANDIDATES };
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
