import { sql as rawSql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB, ItemStatus, LedgerKind, NewOrder, NewOrderItem, OrderRow, OrderState, OrderType, OrderUpdate } from '../../db/schema.js';
import type { Bound, Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';
import { countItems, type ItemCounts } from './order-state.js';
import { keysetSeek } from '../../db/keyset.js';
import type { PageRequest } from '../../lib/staff-page.js';
import { profileNameLike } from '../profiles/repository.js';
import { recordLedgerEntries } from '../wallet/ledger-verify-repository.js';

/**
 * "Open" (pending or processing) written as SQL literals, never parameters: only then can the
 * planner match the partial index order_items_in_flight (with parameters SQLite scans every item).
 */
export const isOpenItem = (column: 'status' | 'i.status') => rawSql<boolean>`${rawSql.ref(column)} in ('pending', 'processing')`;

export interface OrderListFilter extends Owner {
  /** null: every type. */
  types: OrderType[] | null;
  state: OrderState | null;
  after: { createdAt: number; id: string } | null;
  limit: number;
}

/** What a page of orders reads of each order: enough to find its rendered view (see OrderViewCache). */
export interface OrderListKey {
  id: string;
  version: number;
  is_bulk: number;
  created_at: number;
}

type ListRunner = (
  profileId: string,
  mode: Mode,
  state: OrderState,
  afterCreatedAt: number,
  afterId: string,
  limit: number,
) => Bound<OrderListKey>;

export function orderListQuery(db: Kysely<DB>, f: OrderListFilter) {
  let query = db
    .selectFrom('orders')
    .select(['id', 'version', 'is_bulk', 'created_at'])
    .where('profile_id', '=', f.profileId)
    .where('mode', '=', f.mode);
  if (f.types !== null) query = query.where('order_type', 'in', f.types);
  if (f.state !== null) query = query.where('state', '=', f.state);
  const after = f.after;
  if (after !== null) {
    // A row-value comparison: both engines seek the index to it. Spelled as
    // "created_at < ? or (created_at = ? and id < ?)" SQLite scans every newer order first.
    query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit);
}

/** Which of `msisdns` have an open delivery in `mode` (the partial index order_items_in_flight answers it). */
export function inFlightQuery(db: Kysely<DB>, mode: Mode, msisdns: string[]) {
  return db
    .selectFrom('order_items')
    .select('beneficiary_msisdn')
    .where('mode', '=', mode)
    .where('beneficiary_msisdn', 'in', msisdns)
    .where(isOpenItem('status'));
}

/** An item with what the worker needs of its order. */
const itemWithOrder = (db: Kysely<DB>) =>
  db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .selectAll('i')
    .select(['o.profile_id', 'o.is_bulk']);

export type ItemWithOrder = Awaited<ReturnType<ReturnType<typeof itemWithOrder>['executeTakeFirstOrThrow']>>;

function orderStatements(sql: Statements) {
  // Row locks: PostgreSQL takes them; SQLite has one writer at a time, which already serialises.
  const locking = sql.dialect === 'postgres';
  return {
    inFlightOne: sql.prepare((qb, mode: Mode, msisdn: string) =>
      qb
        .selectFrom('order_items')
        .select('beneficiary_msisdn')
        .where('mode', '=', mode)
        .where('beneficiary_msisdn', '=', msisdn)
        .where(isOpenItem('status')),
    ),
    locked: sql.prepare((qb, orderId: string) => {
      const query = qb.selectFrom('orders').selectAll().where('id', '=', orderId);
      return locking ? query.forUpdate() : query;
    }),
    lockOnly: sql.prepare((qb, orderId: string) => qb.selectFrom('orders').select('id').where('id', '=', orderId).forUpdate()),
    lockedWithWallet: sql.prepare((qb, orderId: string) => {
      const query = qb
        .selectFrom('orders as o')
        .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
        .selectAll('o')
        .select('w.id as wallet_id')
        .where('o.id', '=', orderId);
      return locking ? query.forUpdate(['o']) : query;
    }),
    ownedOrder: sql.prepare((qb, orderId: string, profileId: string, mode: Mode) =>
      qb.selectFrom('orders').selectAll().where('id', '=', orderId).where('profile_id', '=', profileId).where('mode', '=', mode),
    ),
    itemById: sql.prepare((qb, itemId: string) => itemWithOrder(qb).where('i.id', '=', itemId)),
    itemRouted: sql.prepare((qb, itemId: string, attempt: number, providerRef: string, now: number) =>
      qb
        .updateTable('order_items')
        .set((eb) => ({
          status: 'processing',
          provider_ref: providerRef,
          submitted_at: eb.fn.coalesce('submitted_at', eb.val(now)),
          updated_at: now,
        }))
        .where('id', '=', itemId)
        .where('attempt', '=', attempt)
        .where('status', 'in', ['pending', 'processing']),
    ),
    orderSubmitted: sql.prepare((qb, orderId: string, now: number) =>
      qb
        .updateTable('orders')
        .set((eb) => ({
          submitted_at: eb.fn.coalesce('submitted_at', eb.val(now)),
          updated_at: now,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', orderId),
    ),
    /** The worker's settlement: from processing only. */
    settleProcessing: sql.prepare(
      (
        qb,
        itemId: string,
        attempt: number,
        outcome: 'completed' | 'failed',
        errorMessage: string | null,
        completedAt: number | null,
        now: number,
      ) =>
        qb
          .updateTable('order_items')
          .set({ status: outcome, error_message: errorMessage, completed_at: completedAt, updated_at: now })
          .where('id', '=', itemId)
          .where('attempt', '=', attempt)
          .where('status', '=', 'processing')
          .returning('amount'),
    ),
    itemsOfOrder: sql.prepare((qb, orderId: string) =>
      qb.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('idx'),
    ),
    itemStatuses: sql.prepare((qb, orderId: string) =>
      qb.selectFrom('order_items').select(['status', 'error_message']).where('order_id', '=', orderId).orderBy('idx'),
    ),
  };
}

/** The update that reverses order `orderId` if it is completed (and gives it its next version); a caller may narrow it further. */
export function reverseCompletedOrder(qb: Kysely<DB>, orderId: string, reason: string, now: number) {
  return qb
    .updateTable('orders')
    .set((eb) => ({
      state: 'reversed' as const,
      reversal_reason: reason,
      reversed_at: now,
      updated_at: now,
      version: eb('version', '+', 1),
    }))
    .where('id', '=', orderId)
    .where('state', '=', 'completed');
}

/** Orders and their items (deliveries). */
export class OrderRepository {
  private readonly q: ReturnType<typeof orderStatements>;
  /** One compiled statement per shape of filter (the type list is part of the SQL, the rest are parameters). */
  private readonly listRunners = new Map<string, ListRunner>();

  constructor(private readonly database: Database) {
    this.q = orderStatements(database.statements);
  }

  private get sql(): Statements {
    return this.database.statements;
  }

  // ---- purchases ----

  /** Whether `msisdn` has an open delivery in `mode` (read handle; the unique index decides under races). */
  async isInFlight(mode: Mode, msisdn: string): Promise<boolean> {
    return (await this.database.readRows(this.q.inFlightOne(mode, msisdn))).length > 0;
  }

  async isInFlightInUnit(tx: Tx, mode: Mode, msisdn: string): Promise<boolean> {
    return (await tx.execute(this.q.inFlightOne(mode, msisdn))).rows.length > 0;
  }

  /** Which of `msisdns` already have an open delivery in `mode` (read handle). */
  async findInFlight(mode: Mode, msisdns: string[]): Promise<string[]> {
    if (msisdns.length === 0) return [];
    const rows = await inFlightQuery(this.database.read, mode, msisdns).execute();
    return rows.map((r) => r.beneficiary_msisdn);
  }

  /** The caller's order with this payment reference, if any (read handle). */
  async findByPaymentReference(owner: Owner, reference: string) {
    return this.database.read
      .selectFrom('orders')
      .selectAll()
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode)
      .where('payment_reference', '=', reference)
      .executeTakeFirst();
  }

  /**
   * Queues the order and its items. Items go in one global order (by number), so two bulk orders
   * sharing numbers take the in-flight index's entries in the same order and cannot deadlock.
   */
  insert(tx: Tx, order: NewOrder, items: readonly NewOrderItem[]): void {
    tx.write(this.sql.insert('orders', order));
    if (items.length === 0) return;
    const sorted = [...items].sort((a, b) => a.beneficiary_msisdn.localeCompare(b.beneficiary_msisdn));
    for (const statement of this.sql.insertRows('order_items', sorted)) tx.write(statement);
  }

  // ---- transitions (every one locks the order first: order, item, wallet, outbox) ----

  /** The order row, locked until the unit ends (PostgreSQL). */
  async lock(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
    return (await tx.execute(this.q.locked(orderId))).rows[0];
  }

  /** lock() for a caller that needs the lock, not the row: on SQLite (one writer) nothing to do. */
  async holdLock(tx: Tx, orderId: string): Promise<void> {
    if (this.sql.dialect === 'postgres') await tx.execute(this.q.lockOnly(orderId));
  }

  /** lock() with the id of the wallet that pays for the order (null if it has none), in one query. */
  async lockWithWallet(tx: Tx, orderId: string) {
    return (await tx.execute(this.q.lockedWithWallet(orderId))).rows[0];
  }

  /**
   * An upstream accepted the attempt `providerRef` of the item's charge `attempt`: pending →
   * processing (submitted_at kept from the first acceptance), and a processing item that moved to
   * another route takes the new reference. False when the item is no longer open under that charge.
   */
  async markItemRouted(tx: Tx, s: { itemId: string; attempt: number; providerRef: string; now: number }): Promise<boolean> {
    const result = await tx.execute(this.q.itemRouted(s.itemId, s.attempt, s.providerRef, s.now));
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Queues: the order's submitted_at (its first submission) and a new version. */
  markOrderSubmitted(tx: Tx, orderId: string, now: number): void {
    tx.write(this.q.orderSubmitted(orderId, now));
  }

  /**
   * The settlement guard: moves attempt `attempt` of the item from one of `from` to its outcome.
   * Returns the settled item's amount (that of this attempt), or undefined when it is no longer
   * there (already settled, or retried since): nothing to do then.
   */
  async settleItem(
    tx: Tx,
    s: {
      itemId: string;
      attempt: number;
      from: ItemStatus[];
      outcome: 'completed' | 'failed';
      errorMessage: string | null;
      now: number;
    },
  ): Promise<{ amount: number } | undefined> {
    const errorMessage = s.outcome === 'failed' ? s.errorMessage : null;
    const completedAt = s.outcome === 'completed' ? s.now : null;
    if (s.from.length === 1 && s.from[0] === 'processing') {
      const [row] = (await tx.execute(this.q.settleProcessing(s.itemId, s.attempt, s.outcome, errorMessage, completedAt, s.now)))
        .rows;
      return row ? { amount: Number(row.amount) } : undefined;
    }
    // Compiled once per number of statuses left from (the worker settles from pending or processing).
    const statement = this.sql.shaped(
      `order_items settle from ${s.from.length}`,
      [s.outcome, errorMessage, completedAt, s.now, s.itemId, s.attempt, ...s.from],
      (qb, args) =>
        qb
          .updateTable('order_items')
          .set({
            status: args[0] as ItemStatus,
            error_message: args[1] as string | null,
            completed_at: args[2] as number | null,
            updated_at: args[3] as number,
          })
          .where('id', '=', args[4] as string)
          .where('attempt', '=', args[5] as number)
          .where('status', 'in', args.slice(6) as ItemStatus[])
          .returning('amount'),
    );
    const [row] = (await tx.execute(statement)).rows;
    return row ? { amount: Number(row.amount) } : undefined;
  }

  async itemCounts(tx: Tx, orderId: string): Promise<ItemCounts> {
    return countItems((await tx.execute(this.q.itemStatuses(orderId))).rows);
  }

  /** Queues the order's new values, and its next version (the caller holds the order's lock). */
  update(tx: Tx, order: Pick<OrderRow, 'id' | 'version'>, values: OrderUpdate): void {
    tx.write(this.sql.updateById('orders', order.id, { ...values, version: Number(order.version) + 1 }));
  }

  /** failed → pending as attempt + 1 at `amount`; false if the item is not (or no longer) failed at `attempt`. */
  async reopenItem(tx: Tx, r: { itemId: string; attempt: number; amount: number; now: number }): Promise<boolean> {
    const query = tx.qb
      .updateTable('order_items')
      .set({
        status: 'pending',
        attempt: r.attempt + 1,
        amount: r.amount,
        error_message: null,
        provider_ref: null,
        submitted_at: null,
        completed_at: null,
        updated_at: r.now,
      })
      .where('id', '=', r.itemId)
      .where('attempt', '=', r.attempt)
      .where('status', '=', 'failed');
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** completed → reversed, once. */
  async markReversed(tx: Tx, orderId: string, reason: string, now: number): Promise<boolean> {
    return Number((await tx.execute(reverseCompletedOrder(tx.qb, orderId, reason, now))).numAffectedRows ?? 0) > 0;
  }

  /** A completed recipient → reversed (its status stays completed), once. */
  async markRecipientReversed(tx: Tx, itemId: string, reason: string, now: number): Promise<boolean> {
    const query = tx.qb
      .updateTable('order_items')
      .set({ reversed_at: now, reversal_reason: reason, updated_at: now })
      .where('id', '=', itemId)
      .where('status', '=', 'completed')
      .where('reversed_at', 'is', null);
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  async itemsOf(tx: Tx, orderId: string) {
    return (await tx.execute(this.q.itemsOfOrder(orderId))).rows;
  }

  // ---- reads ----

  async findOwned(owner: Owner, orderId: string): Promise<OrderRow | undefined> {
    return (await this.database.readRows(this.q.ownedOrder(orderId, owner.profileId, owner.mode)))[0];
  }

  async findItems(orderIds: string[]) {
    if (orderIds.length === 0) return [];
    return this.database.read
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('order_id')
      .orderBy('idx')
      .execute();
  }

  async findOrdersByIds(orderIds: string[]) {
    if (orderIds.length === 0) return [];
    return this.database.read.selectFrom('orders').selectAll().where('id', 'in', orderIds).execute();
  }

  /**
   * A page of the owner's orders, newest first, keyset on (created_at desc, id desc): stable while
   * new orders arrive. Only what identifies each order and its version (the service renders them).
   */
  async listKeys(f: OrderListFilter): Promise<OrderListKey[]> {
    const shape = `${f.types === null ? '*' : f.types.join(',')}|${f.state !== null}|${f.after !== null}`;
    let run = this.listRunners.get(shape);
    if (!run) {
      const { types, state, after } = f;
      run = this.sql.prepare(
        (qb, profileId: string, mode: Mode, stateArg: OrderState, afterCreatedAt: number, afterId: string, limit: number) =>
          orderListQuery(qb, {
            profileId,
            mode,
            types,
            state: state === null ? null : stateArg,
            after: after === null ? null : { createdAt: afterCreatedAt, id: afterId },
            limit,
          }),
      );
      this.listRunners.set(shape, run);
    }
    const rows = await this.database.readRows(
      run(f.profileId, f.mode, f.state ?? 'completed', f.after?.createdAt ?? 0, f.after?.id ?? '', f.limit),
    );
    return rows.map((r) => ({
      id: r.id,
      version: Number(r.version),
      is_bulk: Number(r.is_bulk),
      created_at: Number(r.created_at),
    }));
  }

  /** The owner's order with this payment reference, as a page key, if it passes the filters. */
  async keysByPaymentReference(
    owner: Owner,
    reference: string,
    types: OrderType[] | null,
    state: OrderState | null,
  ): Promise<OrderListKey[]> {
    const order = await this.findByPaymentReference(owner, reference);
    if (!order || (types !== null && !types.includes(order.order_type)) || (state !== null && order.state !== state)) return [];
    return [
      { id: order.id, version: Number(order.version), is_bulk: Number(order.is_bulk), created_at: Number(order.created_at) },
    ];
  }

  /** An item with what the worker needs of its order (read handle). */
  async findItemWithOrder(itemId: string): Promise<ItemWithOrder | undefined> {
    return (await this.database.readRows(this.q.itemById(itemId)))[0];
  }

  /** findItemWithOrder for several items in one query (a worker's claimed batch); missing ids are absent. */
  async findItemsWithOrders(itemIds: readonly string[]): Promise<ItemWithOrder[]> {
    if (itemIds.length === 0) return [];
    return this.database.readRows(
      this.sql.withList('items with orders', [], itemIds, (qb, _, ids) => itemWithOrder(qb).where('i.id', 'in', ids as string[])),
    );
  }

  async findItemByProviderRef(providerRef: string) {
    return this.database.read.selectFrom('order_items').selectAll().where('provider_ref', '=', providerRef).executeTakeFirst();
  }

  /** Open deliveries not moved since `updatedBefore`, with their outbox state. */
  async findStuckItems(updatedBefore: number) {
    return this.database.read
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .leftJoin('outbox as x', 'x.order_item_id', 'i.id')
      .select([
        'o.id as order_id',
        'o.short_reference',
        'o.profile_id',
        'o.mode',
        'i.id as item_id',
        'i.idx',
        'i.status',
        'i.attempt',
        'i.beneficiary_msisdn',
        'i.updated_at',
        'x.kind as outbox_kind',
        'x.tries as outbox_tries',
        'x.run_at as outbox_run_at',
        'x.last_error as outbox_last_error',
      ])
      .where(isOpenItem('i.status'))
      .where('i.updated_at', '<', updatedBefore)
      .orderBy('i.updated_at')
      .orderBy('i.id')
      .execute();
  }

  // ---- seed import of history, inside its unit ----

  /** Which of `ids` are already orders (of any type or owner). */
  async existingIds(tx: Tx, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let at = 0; at < ids.length; at += 1000) {
      const { rows } = await tx.execute(
        tx.qb
          .selectFrom('orders')
          .select('id')
          .where('id', 'in', ids.slice(at, at + 1000)),
      );
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  /** Which of `references` are already some order's short reference. */
  async takenShortReferences(tx: Tx, references: readonly string[]): Promise<Set<string>> {
    const taken = new Set<string>();
    for (let at = 0; at < references.length; at += 1000) {
      const chunk = references.slice(at, at + 1000);
      const { rows } = await tx.execute(
        tx.qb.selectFrom('orders').select('short_reference').where('short_reference', 'in', chunk),
      );
      for (const r of rows) taken.add(r.short_reference);
    }
    return taken;
  }

  /** Writes settled history: orders, then their items, in a few statements. */
  async insertHistory(tx: Tx, orders: readonly NewOrder[], items: readonly NewOrderItem[]): Promise<void> {
    for (let at = 0; at < orders.length; at += 200)
      await tx.execute(tx.qb.insertInto('orders').values(orders.slice(at, at + 200)));
    for (let at = 0; at < items.length; at += 200)
      await tx.execute(tx.qb.insertInto('order_items').values(items.slice(at, at + 200)));
  }

  // ---- ledger verify (read-only, inside its snapshot) ----

  /** Σ amount of open (pending/processing) deliveries per owner and mode. */
  async openAmountsByOwner(tx: Tx) {
    return tx.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select((eb) => ['o.profile_id', 'o.mode', eb.fn.sum<number>('i.amount').as('open_amount')])
      .where(isOpenItem('i.status'))
      .groupBy(['o.profile_id', 'o.mode'])
      .execute();
  }

  /**
   * Per item of an order of `types`: its status and amount, and its ledger entries (count, nets, and
   * how many are on another wallet than its order owner's). The owner is read through its wallet: an
   * order whose owner has no wallet in its mode has none of its entries counted as on another one.
   */
  async itemLedgerNets(tx: Tx, types: readonly OrderType[]) {
    if (types.length === 0) return [];
    const items = tx.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
      .select(['i.id', 'i.order_id', 'i.status', 'i.amount', 'i.reversed_at', 'w.profile_id', 'w.mode'])
      .where('o.order_type', 'in', types);
    const columns = ['t.id', 't.order_id', 't.status', 't.amount', 't.reversed_at'] as const;
    return recordLedgerEntries(tx, items.as('t'), 'order_item_id').select(columns).groupBy(columns).execute();
  }

  /** Ledger entries of `kinds` (the delivery kinds) that point at no order item. */
  async orphanItemEntries(tx: Tx, kinds: readonly LedgerKind[]) {
    if (kinds.length === 0) return [];
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('order_items as i', 'i.id', 'l.order_item_id')
      .select(['l.id', 'l.kind', 'l.order_item_id'])
      .where('l.kind', 'in', kinds)
      .where('i.id', 'is', null)
      .orderBy('l.id')
      .execute();
  }

  /** Per order of `types`: its state and bulk counts beside the statuses and amounts of its items. */
  async ordersWithItems(tx: Tx, types: readonly OrderType[]) {
    if (types.length === 0) return [];
    return tx.db
      .selectFrom('orders as o')
      .leftJoin('order_items as i', 'i.order_id', 'o.id')
      .select((eb) => [
        'o.id',
        'o.order_type',
        'o.state',
        'o.is_bulk',
        'o.amount',
        'o.bulk_completed_count',
        'o.bulk_failed_count',
        eb.fn.count<number>('i.id').as('items'),
        eb.fn.sum<number>(eb.case().when('i.status', 'in', ['pending', 'processing']).then(1).else(0).end()).as('open'),
        eb.fn.sum<number>(eb.case().when('i.status', '=', 'completed').then(1).else(0).end()).as('completed'),
        eb.fn.sum<number>(eb.case().when('i.status', '=', 'failed').then(1).else(0).end()).as('failed'),
        eb.fn
          .sum<number>(eb.case().when('i.status', '=', 'completed').then(eb.ref('i.amount')).else(0).end())
          .as('completed_amount'),
        eb.fn.sum<number>('i.amount').as('item_amount'),
        eb.fn.sum<number>(eb.case().when('i.reversed_at', 'is not', null).then(1).else(0).end()).as('reversed_recipients'),
        eb.fn
          .sum<number>(eb.case().when('i.reversed_at', 'is not', null).then(eb.ref('i.amount')).else(0).end())
          .as('reversed_amount'),
      ])
      .where('o.order_type', 'in', types)
      .groupBy(['o.id', 'o.order_type', 'o.state', 'o.is_bulk', 'o.amount', 'o.bulk_completed_count', 'o.bulk_failed_count'])
      .orderBy('o.id')
      .execute();
  }

  /** Every entry of `kinds` (the reversal kinds) with the wallet its order's owner has in the order's mode. */
  async reversalEntries(tx: Tx, kinds: readonly LedgerKind[]) {
    if (kinds.length === 0) return [];
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('orders as o', 'o.id', 'l.order_id')
      .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
      .select(['l.id', 'l.order_id', 'l.wallet_id', 'l.available_delta', 'l.held_delta', 'w.id as owner_wallet_id'])
      .where('l.kind', 'in', kinds)
      .orderBy('l.id')
      .execute();
  }

  /**
   * Every entry of `kinds` (the recipient reversal kinds) with the recipient it names (null when it
   * names none that exists) and the wallet of its order's owner in the order's mode.
   */
  async recipientReversalEntries(tx: Tx, kinds: readonly LedgerKind[]) {
    if (kinds.length === 0) return [];
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('order_items as i', 'i.id', 'l.order_item_id')
      .leftJoin('orders as o', 'o.id', 'i.order_id')
      .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
      .select(['l.id', 'l.order_id', 'l.order_item_id', 'l.wallet_id', 'l.available_delta', 'l.held_delta', 'i.id as item_id', 'w.id as owner_wallet_id'])
      .where('l.kind', 'in', kinds)
      .orderBy('l.id')
      .execute();
  }

  /** Recipients reversed on their own, with their order (orders of `types`). */
  async reversedRecipients(tx: Tx, types: readonly OrderType[]) {
    if (types.length === 0) return [];
    return tx.db
      .selectFrom('order_items as i')
      .innerJoin('orders as o', 'o.id', 'i.order_id')
      .select(['i.id', 'i.order_id', 'i.status', 'i.amount', 'o.is_bulk'])
      .where('i.reversed_at', 'is not', null)
      .where('o.order_type', 'in', types)
      .orderBy('i.id')
      .execute();
  }

  /**
   * Ledger entries that name an order, grouped per order and kind, where the order does not exist
   * or its type is not given that kind in `allowed` (a type missing from it: every kind).
   */
  async entriesOutsideTheirOrderType(tx: Tx, allowed: readonly (readonly [OrderType, readonly LedgerKind[]])[]) {
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('orders as o', 'o.id', 'l.order_id')
      .select((eb) => ['l.order_id', 'o.order_type', 'l.kind', eb.fn.countAll<number>().as('entries')])
      .where('l.order_id', 'is not', null)
      .where((eb) =>
        eb.or([
          eb('o.id', 'is', null),
          eb.not(
            eb.or(
              allowed
                .filter(([, kinds]) => kinds.length > 0)
                .map(([type, kinds]) => eb.and([eb('o.order_type', '=', type), eb('l.kind', 'in', kinds)])),
            ),
          ),
        ]),
      )
      .groupBy(['l.order_id', 'o.order_type', 'l.kind'])
      .orderBy('l.order_id')
      .orderBy('l.kind')
      .execute();
  }

  // ---- staff reads (console, CLI) ----

  /** The profiles whose name holds `text`, at most `limit` of them. */
  async profilesNamed(text: string, limit: number): Promise<string[]> {
    const rows = await this.database.read.selectFrom('profiles as p').select('p.id').where(profileNameLike('p', text)).limit(limit).execute();
    return rows.map((r) => r.id);
  }

  /** A page's read of the orders one way of matching finds (see staffOrdersQuery). */
  async searchForStaff(match: StaffOrderMatch, filter: StaffOrderFilter, page: PageRequest): Promise<OrderRow[]> {
    return staffOrdersQuery(this.database.read, match, filter, page).execute();
  }

  /** An order by its id or its short reference. */
  async findByIdOrReference(idOrReference: string): Promise<OrderRow | undefined> {
    return this.database.read
      .selectFrom('orders')
      .selectAll()
      .where((eb) => eb.or([eb('id', '=', idOrReference), eb('short_reference', '=', idOrReference.toUpperCase())]))
      .executeTakeFirst();
  }

  /**
   * Orders of any partner or mode whose paymentReference is `reference`, newest first. The unique
   * index (profile_id, mode, payment_reference) answers it: every profile and both modes are given.
   */
  async findByPaymentReferenceForStaff(reference: string, limit: number): Promise<StaffOrderCandidateRow[]> {
    return this.candidates()
      .where('o.profile_id', 'in', (eb) => eb.selectFrom('profiles').select('id'))
      .where('o.mode', 'in', ['live', 'test'])
      .where('o.payment_reference', '=', reference)
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Orders with a recipient whose number is one of `msisdns` (a bulk order's recipients count), newest first. */
  async findByNumberForStaff(msisdns: string[], limit: number): Promise<StaffOrderCandidateRow[]> {
    if (msisdns.length === 0) return [];
    return this.candidates()
      .where((eb) =>
        eb.or([
          eb('o.beneficiary_msisdn', 'in', msisdns),
          eb.exists(
            eb.selectFrom('order_items as i').select('i.id').whereRef('i.order_id', '=', 'o.id').where('i.beneficiary_msisdn', 'in', msisdns),
          ),
        ]),
      )
      .orderBy('o.created_at', 'desc')
      .orderBy('o.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** An order with its partner's name, as a list of candidates shows it. */
  private candidates() {
    return this.database.read
      .selectFrom('orders as o')
      .leftJoin('profiles as p', 'p.id', 'o.profile_id')
      .selectAll('o')
      .select(['p.first_name as partner_first_name', 'p.last_name as partner_last_name']);
  }

  async itemsWithOutbox(orderId: string) {
    return this.database.read
      .selectFrom('order_items as i')
      .leftJoin('outbox as x', 'x.order_item_id', 'i.id')
      .selectAll('i')
      .select([
        'x.kind as outbox_kind',
        'x.tries as outbox_tries',
        'x.run_at as outbox_run_at',
        'x.last_error as outbox_last_error',
      ])
      .where('i.order_id', '=', orderId)
      .orderBy('i.idx')
      .execute();
  }

  async ledgerEntriesOf(orderId: string) {
    return this.database.read.selectFrom('ledger_entries').selectAll().where('order_id', '=', orderId).orderBy('id').execute();
  }

  /** How many recipients (items) each of `orderIds` has. */
  async recipientCounts(orderIds: readonly string[]): Promise<{ order_id: string; recipients: number | string }[]> {
    if (orderIds.length === 0) return [];
    return this.database.read
      .selectFrom('order_items')
      .select((eb) => ['order_id', eb.fn.countAll<number | string>().as('recipients')])
      .where('order_id', 'in', orderIds)
      .groupBy('order_id')
      .execute();
  }

  /**
   * What came back to the partner's available balance for each of `orderIds` (pesewas): the
   * entries naming the order that credit available (a released hold, a reversal, a refund).
   */
  async refundedAmounts(orderIds: readonly string[]): Promise<{ order_id: string | null; refunded: number | string | null }[]> {
    if (orderIds.length === 0) return [];
    return this.database.read
      .selectFrom('ledger_entries')
      .select((eb) => ['order_id', eb.fn.sum<number | string | null>('available_delta').as('refunded')])
      .where('order_id', 'in', orderIds)
      .where('available_delta', '>', 0)
      .groupBy('order_id')
      .execute();
  }

  /** Orders created since `since` (of one mode, if given) and how many of them failed (the console's dashboard). */
  async activitySince(since: number, mode?: Mode): Promise<{ orders: number; failed: number }> {
    let query = this.database.read
      .selectFrom('orders')
      .select((eb) => [
        eb.fn.countAll<string | number>().as('orders'),
        eb.fn.sum<string | number | null>(eb.case().when('state', '=', 'failed').then(1).else(0).end()).as('failed'),
      ])
      .where('created_at', '>=', since);
    if (mode !== undefined) query = query.where('mode', '=', mode);
    const row = await query.executeTakeFirstOrThrow();
    return { orders: Number(row.orders), failed: Number(row.failed ?? 0) };
  }
}

export type StaffOrderCandidateRow = OrderRow & { partner_first_name: string | null; partner_last_name: string | null };

/** The criteria of the console's order list that every way of matching shares. */
export interface StaffOrderFilter {
  mode: Mode;
  profileId?: string | undefined;
  state?: OrderState | undefined;
  type?: OrderType | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/**
 * One way a staff search finds orders; a search by text reads each way on its own (each by its
 * index) and merges the reads (src/lib/staff-page.ts, mergeReads): one query with OR between them
 * would read every order of the mode instead.
 */
export type StaffOrderMatch =
  | { by: 'every' }
  | { by: 'id' | 'short_reference' | 'payment_reference'; value: string }
  /** The order's number, or a bulk order's recipient's, in one of the forms an order may carry (one read per form: each an index seek). */
  | { by: 'number' | 'recipient'; value: string }
  /** The orders of one profile (a partner found by name). */
  | { by: 'profile'; id: string }
  /** Orders of the profiles whose name holds the text: when too many profiles match to read each. */
  | { by: 'partner_name'; text: string };

export function staffOrdersQuery(db: Kysely<DB>, match: StaffOrderMatch, f: StaffOrderFilter, page: PageRequest) {
  const seek = keysetSeek('o.created_at', 'o.id', page);
  const narrowed = <Q extends { where(condition: Expression<SqlBool>): Q }>(query: Q) =>
    [...staffOrderConditions(f), ...(seek.where ? [seek.where] : [])].reduce((q, condition) => q.where(condition), query);
  if (match.by === 'recipient') {
    // A CROSS JOIN: SQLite reads the recipients by number first (the index), then their orders by
    // id, instead of walking every order of the mode looking for them (PostgreSQL plans it freely).
    return narrowed(
      db
        .selectFrom('order_items as i')
        .crossJoin('orders as o')
        .selectAll('o')
        .whereRef('o.id', '=', 'i.order_id')
        .where('i.beneficiary_msisdn', '=', match.value),
    )
      .orderBy('o.created_at', seek.order)
      .orderBy('o.id', seek.order)
      .limit(page.limit + 1);
  }
  let query = db.selectFrom('orders as o').selectAll('o');
  switch (match.by) {
    case 'every':
      break;
    case 'id':
      query = query.where('o.id', '=', match.value);
      break;
    case 'short_reference':
      query = query.where('o.short_reference', '=', match.value);
      break;
    case 'payment_reference':
      query = query.where('o.payment_reference', '=', match.value);
      break;
    case 'number':
      query = query.where('o.beneficiary_msisdn', '=', match.value);
      break;
    case 'profile':
      query = query.where('o.profile_id', '=', match.id);
      break;
    case 'partner_name':
      query = query.where('o.profile_id', 'in', (eb) => eb.selectFrom('profiles as p').select('p.id').where(profileNameLike('p', match.text)));
      break;
  }
  return narrowed(query).orderBy('o.created_at', seek.order).orderBy('o.id', seek.order).limit(page.limit + 1);
}

/** The shared criteria as conditions on the orders (alias `o`). */
function staffOrderConditions(f: StaffOrderFilter): Expression<SqlBool>[] {
  const column = (name: string) => rawSql.ref(`o.${name}`);
  const conditions = [rawSql<SqlBool>`${column('mode')} = ${f.mode}`];
  if (f.profileId !== undefined) conditions.push(rawSql<SqlBool>`${column('profile_id')} = ${f.profileId}`);
  if (f.state !== undefined) conditions.push(rawSql<SqlBool>`${column('state')} = ${f.state}`);
  if (f.type !== undefined) conditions.push(rawSql<SqlBool>`${column('order_type')} = ${f.type}`);
  if (f.from !== undefined) conditions.push(rawSql<SqlBool>`${column('created_at')} >= ${f.from}`);
  if (f.to !== undefined) conditions.push(rawSql<SqlBool>`${column('created_at')} < ${f.to}`);
  return conditions;
}
