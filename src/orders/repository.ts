import type { Database, Executor } from '../db/connection.js';
import {
  insertRow,
  insertStatement,
  prepared,
  preparedQuery,
  runTogether,
  statementOf,
  updateById,
  updateByIdStatement,
  type Statement,
} from '../db/prepared.js';
import { lockForUpdate, type DialectName } from '../db/dialect.js';
import type {
  ItemStatus,
  Mode,
  NewOrder,
  OrderState,
  OrderType,
  OrderUpdate,
  OrderItemsTable,
} from '../db/schema.js';
import { sql, type Insertable } from 'kysely';

/**
 * "Open" (pending or processing) written as SQL literals, never parameters: only then can the
 * planner match the partial index order_items_in_flight (with parameters SQLite scans every item).
 */
export const isOpenItem = (column: 'status' | 'i.status') => sql<boolean>`${sql.ref(column)} in ('pending', 'processing')`;

export function inFlightQuery(db: Executor, mode: Mode, msisdns: string[]) {
  return db
    .selectFrom('order_items')
    .select('beneficiary_msisdn')
    .where('mode', '=', mode)
    .where('beneficiary_msisdn', 'in', msisdns)
    .where(isOpenItem('status'));
}

const inFlightOne = prepared((db, mode: Mode, msisdn: string) =>
  db
    .selectFrom('order_items')
    .select('beneficiary_msisdn')
    .where('mode', '=', mode)
    .where('beneficiary_msisdn', '=', msisdn)
    .where(isOpenItem('status')),
);

/** Whether `msisdn` has an open delivery in `mode` (read handle; the unique index decides under races). */
export async function isInFlight(database: Database, mode: Mode, msisdn: string): Promise<boolean> {
  return (await inFlightOne(database, mode, msisdn)).length > 0;
}

/** Which of `msisdns` already have an open delivery (pending/processing) in `mode`. */
export async function findInFlight(db: Executor, mode: Mode, msisdns: string[]): Promise<string[]> {
  if (msisdns.length === 0) return [];
  const rows = await inFlightQuery(db, mode, msisdns).execute();
  return rows.map((r) => r.beneficiary_msisdn);
}

export async function paymentReferenceTaken(db: Executor, profileId: string, mode: Mode, reference: string): Promise<boolean> {
  const row = await db
    .selectFrom('orders')
    .select('id')
    .where('profile_id', '=', profileId)
    .where('mode', '=', mode)
    .where('payment_reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertOrder(db: Executor, order: NewOrder): Promise<void> {
  await insertRow(db, 'orders', order);
}

export function insertOrderStatement(db: Executor, order: NewOrder): Statement {
  return insertStatement(db, 'orders', order);
}

/** The items in one statement (compiled once for a single item). */
export function insertItemsStatement(db: Executor, items: Insertable<OrderItemsTable>[]): Statement {
  if (items.length === 1 && items[0]) return insertStatement(db, 'order_items', items[0]);
  return statementOf(db.insertInto('order_items').values(items));
}

export async function insertItems(db: Executor, items: Insertable<OrderItemsTable>[]): Promise<void> {
  await runTogether(db, [insertItemsStatement(db, items)]);
}

const orderLocked = {
  sqlite: preparedQuery((db, orderId: string) => lockForUpdate(db.selectFrom('orders').selectAll().where('id', '=', orderId), 'sqlite')),
  postgres: preparedQuery((db, orderId: string) =>
    lockForUpdate(db.selectFrom('orders').selectAll().where('id', '=', orderId), 'postgres'),
  ),
};

/** The order row, locked until the transaction ends (PostgreSQL): every item transition locks its order first. */
export async function lockOrder(db: Executor, dialect: DialectName, orderId: string) {
  return (await orderLocked[dialect](db, orderId)).rows[0];
}

const orderLockOnly = preparedQuery((db, orderId: string) =>
  lockForUpdate(db.selectFrom('orders').select('id').where('id', '=', orderId), 'postgres'),
);

/** lockOrder for a caller that needs the lock, not the row: on SQLite (one writer) nothing to do. */
export async function holdOrderLock(db: Executor, dialect: DialectName, orderId: string): Promise<void> {
  if (dialect === 'postgres') await orderLockOnly(db, orderId);
}

const settlingQuery = (db: Executor, dialect: DialectName, orderId: string) => {
  const query = db
    .selectFrom('orders as o')
    .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
    .selectAll('o')
    .select('w.id as wallet_id')
    .where('o.id', '=', orderId);
  return dialect === 'postgres' ? query.forUpdate(['o']) : query;
};
const orderSettling = {
  sqlite: preparedQuery((db, orderId: string) => settlingQuery(db, 'sqlite', orderId)),
  postgres: preparedQuery((db, orderId: string) => settlingQuery(db, 'postgres', orderId)),
};

/** lockOrder with the id of the wallet that pays for the order (null if it has none), in one query. */
export async function lockOrderWithWallet(db: Executor, dialect: DialectName, orderId: string) {
  return (await orderSettling[dialect](db, orderId)).rows[0];
}

export async function findOwnedOrder(db: Executor, orderId: string, profileId: string, mode: Mode) {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('id', '=', orderId)
    .where('profile_id', '=', profileId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

export async function findOrder(db: Executor, orderId: string) {
  return db.selectFrom('orders').selectAll().where('id', '=', orderId).executeTakeFirst();
}

export async function findItems(db: Executor, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db
    .selectFrom('order_items')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .orderBy('order_id')
    .orderBy('idx')
    .execute();
}

/** An item with what the worker needs of its order. */
const itemWithOrder = (db: Executor) =>
  db.selectFrom('order_items as i').innerJoin('orders as o', 'o.id', 'i.order_id').selectAll('i').select(['o.profile_id', 'o.is_bulk']);

const itemById = preparedQuery((db, itemId: string) => itemWithOrder(db).where('i.id', '=', itemId));

export async function findItem(db: Executor, itemId: string) {
  return (await itemById(db, itemId)).rows[0];
}

/** findItem for several items in one query (a worker's claimed batch); missing ids are absent. */
export async function findItemsByIds(db: Executor, itemIds: readonly string[]) {
  if (itemIds.length === 0) return [];
  return itemWithOrder(db).where('i.id', 'in', itemIds).execute();
}

export async function findItemByProviderRef(db: Executor, providerRef: string) {
  return db.selectFrom('order_items').selectAll().where('provider_ref', '=', providerRef).executeTakeFirst();
}

/** pending → processing once the provider accepted attempt `attempt`; false if it already moved on. */
export async function markItemSubmitted(
  db: Executor,
  s: { itemId: string; attempt: number; providerRef: string; now: number },
): Promise<boolean> {
  const result = await itemSubmitted(db, s.itemId, s.attempt, s.providerRef, s.now);
  return Number(result.numAffectedRows) > 0;
}

const itemSubmitted = preparedQuery((db, itemId: string, attempt: number, providerRef: string, now: number) =>
  db
    .updateTable('order_items')
    .set({ status: 'processing', provider_ref: providerRef, submitted_at: now, updated_at: now })
    .where('id', '=', itemId)
    .where('attempt', '=', attempt)
    .where('status', '=', 'pending'),
);

const orderSubmitted = preparedQuery((db, orderId: string, now: number) =>
  db
    .updateTable('orders')
    .set((eb) => ({ submitted_at: eb.fn.coalesce('submitted_at', eb.val(now)), updated_at: now }))
    .where('id', '=', orderId),
);

export async function markOrderSubmitted(db: Executor, orderId: string, now: number): Promise<void> {
  await orderSubmitted(db, orderId, now);
}

/**
 * The settlement guard: moves attempt `attempt` of the item from one of `from` to its outcome.
 * Returns the settled item's amount (that of this attempt), or undefined when it is no longer
 * there (already settled, or retried since): do nothing then.
 */
export async function settleItemRow(
  db: Executor,
  s: { itemId: string; attempt: number; from: ItemStatus[]; outcome: 'completed' | 'failed'; errorMessage: string | null; now: number },
): Promise<{ amount: number } | undefined> {
  const errorMessage = s.outcome === 'failed' ? s.errorMessage : null;
  const completedAt = s.outcome === 'completed' ? s.now : null;
  if (s.from.length === 1 && s.from[0] === 'processing') {
    // The worker's settlement: compiled once.
    return (await settleProcessing(db, s.itemId, s.attempt, s.outcome, errorMessage, completedAt, s.now)).rows[0];
  }
  return db
    .updateTable('order_items')
    .set({ status: s.outcome, error_message: errorMessage, completed_at: completedAt, updated_at: s.now })
    .where('id', '=', s.itemId)
    .where('attempt', '=', s.attempt)
    .where('status', 'in', s.from)
    .returning('amount')
    .executeTakeFirst();
}

const settleProcessing = preparedQuery(
  (
    db,
    itemId: string,
    attempt: number,
    outcome: 'completed' | 'failed',
    errorMessage: string | null,
    completedAt: number | null,
    now: number,
  ) =>
    db
      .updateTable('order_items')
      .set({ status: outcome, error_message: errorMessage, completed_at: completedAt, updated_at: now })
      .where('id', '=', itemId)
      .where('attempt', '=', attempt)
      .where('status', '=', 'processing')
      .returning('amount'),
);

export interface ItemCounts {
  open: number;
  completed: number;
  failed: number;
  total: number;
  firstError: string | null;
}

const itemStatuses = preparedQuery((db, orderId: string) =>
  db.selectFrom('order_items').select(['status', 'error_message']).where('order_id', '=', orderId).orderBy('idx'),
);

export async function itemCounts(db: Executor, orderId: string): Promise<ItemCounts> {
  const { rows } = await itemStatuses(db, orderId);
  const counts: ItemCounts = { open: 0, completed: 0, failed: 0, total: rows.length, firstError: null };
  for (const r of rows) {
    if (r.status === 'completed') counts.completed++;
    else if (r.status === 'failed') {
      counts.failed++;
      counts.firstError ??= r.error_message;
    } else counts.open++;
  }
  return counts;
}

export async function updateOrder(db: Executor, orderId: string, update: OrderUpdate): Promise<void> {
  await updateById(db, 'orders', orderId, update);
}

export function updateOrderStatement(db: Executor, orderId: string, update: OrderUpdate): Statement {
  return updateByIdStatement(db, 'orders', orderId, update);
}

/** failed → pending as attempt + 1 at `amount`; false if the item is not (or no longer) failed at `attempt`. */
export async function reopenItem(
  db: Executor,
  r: { itemId: string; attempt: number; amount: number; now: number },
): Promise<boolean> {
  const result = await db
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
    .where('status', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** completed → reversed, once. */
export async function markReversed(db: Executor, orderId: string, reason: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ state: 'reversed', reversal_reason: reason, reversed_at: now, updated_at: now })
    .where('id', '=', orderId)
    .where('state', '=', 'completed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface OrderListFilter {
  profileId: string;
  mode: Mode;
  /** null: every type. */
  types: OrderType[] | null;
  state: OrderState | null;
  after: { createdAt: number; id: string } | null;
  limit: number;
}

export function orderListQuery(db: Executor, f: OrderListFilter) {
  let query = db
    .selectFrom('orders')
    .select(['id', 'state', 'submitted_at', 'updated_at', 'created_at', 'is_bulk'])
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

export type OrderListKey = Awaited<ReturnType<typeof listOrderKeys>>[number];

type ListRunner = (
  database: Database,
  profileId: string,
  mode: Mode,
  state: OrderState,
  afterCreatedAt: number,
  afterId: string,
  limit: number,
) => Promise<{ id: string; state: OrderState; submitted_at: number | null; updated_at: number; created_at: number; is_bulk: number }[]>;

/** One compiled statement per shape of filter (the type list is part of the SQL, the rest are parameters). */
const listRunners = new Map<string, ListRunner>();

/**
 * A page of the caller's orders, newest first, keyset on (created_at desc, id desc): stable while
 * new orders arrive. Only what identifies each order and its version (service.ts renders them).
 */
export async function listOrderKeys(database: Database, f: OrderListFilter) {
  const shape = `${f.types === null ? '*' : f.types.join(',')}|${f.state !== null}|${f.after !== null}`;
  let run = listRunners.get(shape);
  if (!run) {
    const { types, state, after } = f;
    run = prepared((db, profileId: string, mode: Mode, stateArg: OrderState, afterCreatedAt: number, afterId: string, limit: number) =>
      orderListQuery(db, {
        profileId,
        mode,
        types,
        state: state === null ? null : stateArg,
        after: after === null ? null : { createdAt: afterCreatedAt, id: afterId },
        limit,
      }),
    );
    listRunners.set(shape, run);
  }
  return run(database, f.profileId, f.mode, f.state ?? 'completed', f.after?.createdAt ?? 0, f.after?.id ?? '', f.limit);
}

export async function findOrdersByIds(db: Executor, orderIds: string[]) {
  if (orderIds.length === 0) return [];
  return db.selectFrom('orders').selectAll().where('id', 'in', orderIds).execute();
}

/** Open deliveries not moved for `olderThan` ms or more, with their outbox state. */
export async function findStuckItems(db: Executor, updatedBefore: number) {
  return db
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
