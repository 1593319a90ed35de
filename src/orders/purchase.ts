import type { Insertable } from 'kysely';
import type { CatalogService } from '../catalog/service.js';
import type { CatalogOperator, CatalogProduct, CatalogSnapshot, PricedPackage } from '../catalog/snapshot.js';
import type { Database, Executor } from '../db/connection.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { Statement } from '../db/prepared.js';
import type { Mode, NewOrder, OrderItemsTable, Role } from '../db/schema.js';
import { AppError, badRequest, conflict, forbidden, paymentRequired, type ErrorCode } from '../http/errors.js';
import type {
  BuyBulkBody,
  BuyBulkResult,
  BuySingleBody,
  BuySingleResult,
  RetryRecipientBody,
  RetryRecipientResult,
} from '../http/schemas/orders.js';
import { newId, shortReference, type ReferencePrefix } from '../lib/ids.js';
import { toGhs } from '../lib/money.js';
import { normaliseGhanaMsisdn } from '../lib/phone.js';
import * as walletRepo from '../wallet/repository.js';
import { post, walletIdOf, type Balances, type WalletOwner } from '../wallet/service.js';
import * as outbox from '../worker/outbox-repository.js';
import { refreshOrder } from './lifecycle.js';
import * as repo from './repository.js';

/**
 * Data bundle purchases (spec 4.9, 4.10, decisions §3, §6). Cheap checks run first on the read
 * handle for clean errors; the money moves in one transaction that re-checks what matters through
 * conditional updates (the wallet never goes below zero) and unique indexes (one open delivery per
 * number and mode, one order per payment reference).
 */

export interface Buyer extends WalletOwner {
  role: Role;
  /** The catalog version already read in this request (AuthContext.catalogVersion), if any. */
  catalogVersion?: number;
}

type BuyCode = Extract<ErrorCode, 'BUY_DATA_FAILED' | 'BUY_DATA_BULK_FAILED'>;

const BULK_ROLES: readonly Role[] = ['Agent', 'SuperAgent'];
const IN_FLIGHT_MESSAGE = 'already has a data order in progress; try again once it has completed or failed';

type Package = PricedPackage;

interface Parents {
  operator: CatalogOperator;
  product: CatalogProduct;
}

const ghs = (pesewas: number) => `GHS ${toGhs(pesewas).toFixed(2)}`;

function insufficient(code: BuyCode, available: number, required: number): AppError {
  return paymentRequired(code, `Insufficient wallet balance: ${ghs(available)} available, ${ghs(required)} required`);
}

/** Spec 4.9 rule 1: the operator and product exist and belong together. */
function loadParents(catalog: CatalogSnapshot, code: BuyCode, operatorId: string, productId: string): Parents {
  const operator = catalog.operator(operatorId);
  if (!operator) throw badRequest(code, `Operator ${operatorId} not found`);
  const product = catalog.product(productId);
  if (!product) throw badRequest(code, `Product ${productId} not found`);
  if (product.operator_id !== operator.id) {
    throw badRequest(code, `Product ${productId} does not belong to operator ${operatorId}`);
  }
  return { operator, product };
}

/** Spec 4.9 rule 1 and decisions §10: the package belongs to the product, and all three are on sale. */
function loadPackage(
  catalog: CatalogSnapshot,
  role: Role,
  code: BuyCode,
  parents: Parents,
  packageId: string,
  where: string,
): Package {
  const pkg = catalog.package(packageId, role);
  if (!pkg) throw badRequest(code, `${where}package ${packageId} not found`);
  if (pkg.product_id !== parents.product.id || pkg.operator_id !== parents.operator.id) {
    throw badRequest(
      code,
      `${where}package ${packageId} does not belong to product ${parents.product.id} of operator ${parents.operator.id}`,
    );
  }
  if (parents.operator.status !== 'Active') throw badRequest(code, `Operator ${parents.operator.id} is not active`);
  if (parents.product.status !== 'Available') throw badRequest(code, `Product ${parents.product.id} is not available`);
  if (pkg.status !== 'Active') throw badRequest(code, `${where}package ${packageId} is not active`);
  return pkg;
}

function normalise(code: BuyCode, raw: string, where: string): string {
  const msisdn = normaliseGhanaMsisdn(raw);
  if (msisdn === null) throw badRequest(code, `${where}beneficiaryMsisdn "${raw}" is not a valid Ghana mobile number`);
  return msisdn;
}

async function requireAffordable(db: Executor, code: BuyCode, buyer: Buyer, amount: number): Promise<void> {
  const wallet = await walletRepo.findWallet(db, buyer.profileId, buyer.mode);
  const available = wallet ? Number(wallet.available) : 0;
  if (available < amount) throw insufficient(code, available, amount);
}

/** The unique indexes that back the pre-checks under concurrency, mapped to their 409s. */
function mapConflict(error: unknown, code: BuyCode, who: string): unknown {
  if (isUniqueViolation(error, 'order_items_in_flight')) return conflict(code, `${who} ${IN_FLIGHT_MESSAGE}`);
  if (isUniqueViolation(error, 'orders_payment_reference')) {
    return conflict(code, 'Duplicate order: this paymentReference was already used; nothing was charged');
  }
  return error;
}

/** Runs a purchase transaction with a fresh short reference, retrying the (astronomically rare) collision. */
async function withShortReference<T>(prefix: ReferencePrefix, work: (reference: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(shortReference(prefix));
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error, 'orders_short_reference_key')) continue;
      throw error;
    }
  }
}

interface Hold {
  walletId: string;
  itemId: string;
  attempt: number;
  orderId: string;
  amount: number;
}

/**
 * data_hold: available → held, with `alsoWrite` written alongside its ledger entry (see post).
 * Throws 402 (rolling the transaction back) when it cannot be afforded.
 */
async function hold(trx: Executor, code: BuyCode, h: Hold, now: number, alsoWrite?: (after: Balances) => Statement[]) {
  const after = await post(
    trx,
    {
      walletId: h.walletId,
      kind: 'data_hold',
      availableDelta: -h.amount,
      heldDelta: h.amount,
      orderId: h.orderId,
      orderItemId: h.itemId,
      idempotencyKey: `hold:${h.itemId}:${h.attempt}`,
      memo: 'Data bundle purchase: held until delivery',
    },
    now,
    alsoWrite,
  );
  if (!after) {
    const current = await walletRepo.findWalletById(trx, h.walletId);
    throw insufficient(code, current ? Number(current.available) : 0, h.amount);
  }
  return { available: Number(after.available), held: Number(after.held) };
}

function newItem(
  orderId: string,
  idx: number,
  mode: Mode,
  msisdn: string,
  pkg: Package,
  now: number,
): Insertable<OrderItemsTable> {
  return {
    id: newId('itm'),
    order_id: orderId,
    idx,
    mode,
    beneficiary_msisdn: msisdn,
    package_id: pkg.id,
    package_label: pkg.label,
    amount: Number(pkg.price),
    status: 'pending',
    error_message: null,
    attempt: 1,
    provider_ref: null,
    submitted_at: null,
    completed_at: null,
    created_at: now,
    updated_at: now,
  };
}

function newOrder(
  buyer: Buyer,
  parents: Parents,
  fields: Pick<NewOrder, 'id' | 'short_reference' | 'beneficiary_msisdn' | 'package_id' | 'package_label' | 'amount' | 'is_bulk'>,
  extra: Partial<NewOrder>,
  now: number,
): NewOrder {
  return {
    profile_id: buyer.profileId,
    mode: buyer.mode,
    order_type: 'data',
    state: 'processing',
    operator_id: parents.operator.id,
    operator_name: parents.operator.name,
    product_id: parents.product.id,
    product_name: parents.product.name,
    currency: 'GHS',
    error_message: null,
    submitted_at: null,
    completed_at: null,
    bulk_completed_count: null,
    bulk_failed_count: null,
    wallet_balance_before: null,
    wallet_balance_after: null,
    payment_reference: null,
    anonymous_id: null,
    rc_transaction_id: null,
    reversal_reason: null,
    reversed_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
    ...extra,
  };
}

/**
 * Writes a new order in the caller's unit of work: one hold per item (402, rolling everything
 * back, when the wallet cannot afford it), then the order with its balances before and after,
 * its items and one outbox row per item for the worker, written with the last hold's ledger entry.
 * The unique indexes (one open delivery per number and mode, one order per payment reference)
 * still refuse a duplicate that raced past the pre-checks, and the savepoint rolls the hold back
 * with it.
 */
async function placeOrder(
  trx: Executor,
  code: BuyCode,
  walletId: string,
  order: NewOrder,
  items: Insertable<OrderItemsTable>[],
  now: number,
): Promise<{ before: number; after: number }> {
  // One global order for in-flight index entries: two bulk orders sharing numbers cannot deadlock.
  const sorted = [...items].sort((a, b) => a.beneficiary_msisdn.localeCompare(b.beneficiary_msisdn));
  const orderWrites = (before: number, after: number): Statement[] => [
    repo.insertOrderStatement(trx, { ...order, wallet_balance_before: before, wallet_balance_after: after }),
    repo.insertItemsStatement(trx, sorted),
    outbox.insertSubmitsStatement(
      trx,
      items.map((item) => item.id),
      now,
    ),
  ];
  let before: number | null = null;
  let after = 0;
  for (const [index, item] of items.entries()) {
    const amount = Number(item.amount);
    const last = index === items.length - 1;
    const balances = await hold(
      trx,
      code,
      { walletId, itemId: item.id, attempt: 1, orderId: order.id, amount },
      now,
      last ? (held) => orderWrites(before ?? held.available + amount, held.available) : undefined,
    );
    before ??= balances.available + amount;
    after = balances.available;
  }
  if (before === null) throw new Error('an order needs at least one item');
  return { before, after };
}

export class PurchaseService {
  constructor(
    private readonly database: Database,
    private readonly catalog: CatalogService,
    private readonly clock: () => number = Date.now,
    /** Called once a unit that queued deliveries has committed. */
    private readonly deliveriesQueued: () => void = () => {},
  ) {}

  /** Spec 4.9, rules in order. */
  async buySingle(buyer: Buyer, body: BuySingleBody): Promise<BuySingleResult> {
    const code = 'BUY_DATA_FAILED';
    const read = this.database.read;
    const catalog = await this.catalog.snapshot(buyer.catalogVersion);
    const parents = loadParents(catalog, code, body.operatorId, body.productId);
    const pkg = loadPackage(catalog, buyer.role, code, parents, body.packageId, '');
    const msisdn = normalise(code, body.beneficiaryMsisdn, '');
    const inFlight = () => conflict(code, `${msisdn} ${IN_FLIGHT_MESSAGE}`);
    // Rule 3 (an open order for the number) answers before a repeated paymentReference and before
    // the balance. With a paymentReference both are read first. Without one, the unit of work finds
    // an open order itself: the in-flight index refuses the item, and a wallet that cannot pay
    // (checked by the hold, 402 with the balance at that moment) looks for an open order first.
    const paymentReference = body.paymentReference?.trim() || null;
    if (paymentReference !== null) {
      if (await repo.isInFlight(this.database, buyer.mode, msisdn)) throw inFlight();
      if (await repo.paymentReferenceTaken(read, buyer.profileId, buyer.mode, paymentReference)) {
        throw conflict(code, 'Duplicate order: this paymentReference was already used; nothing was charged');
      }
    }
    const price = Number(pkg.price);
    const unlessInFlight = async (trx: Executor, refusal: unknown): Promise<unknown> =>
      refusal instanceof AppError && refusal.statusCode === 402 && (await repo.findInFlight(trx, buyer.mode, [msisdn])).length > 0
        ? inFlight()
        : refusal;

    try {
      const placed = await withShortReference('DB', (reference) =>
        this.database.transaction(async (trx) => {
          const now = this.clock();
          const walletId = await walletIdOf(trx, buyer);
          if (walletId === null) throw await unlessInFlight(trx, insufficient(code, 0, price));
          const orderId = newId('ord');
          const item = newItem(orderId, 0, buyer.mode, msisdn, pkg, now);
          const order = newOrder(
            buyer,
            parents,
            {
              id: orderId,
              short_reference: reference,
              beneficiary_msisdn: msisdn,
              package_id: pkg.id,
              package_label: pkg.label,
              amount: price,
              is_bulk: 0,
            },
            { payment_reference: paymentReference, anonymous_id: body.anonymousId?.trim() || null },
            now,
          );
          try {
            const { before, after } = await placeOrder(trx, code, walletId, order, [item], now);
            return { orderId, reference, before, after };
          } catch (error) {
            throw await unlessInFlight(trx, error);
          }
        }),
      );
      this.deliveriesQueued();
      return {
        success: true,
        orderId: placed.orderId,
        shortReference: placed.reference,
        message: `Order accepted: ${pkg.label} for ${msisdn} is being delivered`,
        amountCharged: toGhs(price),
        status: 'processing',
        walletBalanceBefore: toGhs(placed.before),
        walletBalanceAfter: toGhs(placed.after),
      };
    } catch (error) {
      throw mapConflict(error, code, msisdn);
    }
  }

  /** Spec 4.10: every recipient is prevalidated before anything is written. */
  async buyBulk(buyer: Buyer, body: BuyBulkBody): Promise<BuyBulkResult> {
    const code = 'BUY_DATA_BULK_FAILED';
    requireBulkRole(buyer);
    const count = body.items.length;
    if (count < 2 || count > 20) throw new AppError(422, code, `items must have 2 to 20 entries (got ${count})`);
    const read = this.database.read;
    const catalog = await this.catalog.snapshot(buyer.catalogVersion);
    const parents = loadParents(catalog, code, body.operatorId, body.productId);

    const packages = new Map<string, Package>();
    const lines: { msisdn: string; pkg: Package }[] = [];
    const seen = new Map<string, number>();
    for (const [i, entry] of body.items.entries()) {
      const where = `items[${i}]: `;
      let pkg = packages.get(entry.packageId);
      if (!pkg) {
        pkg = loadPackage(catalog, buyer.role, code, parents, entry.packageId, where);
        packages.set(pkg.id, pkg);
      }
      const msisdn = normalise(code, entry.beneficiaryMsisdn, where);
      const first = seen.get(msisdn);
      if (first !== undefined) throw badRequest(code, `${where}${msisdn} is already items[${first}]: each number may appear once`);
      seen.set(msisdn, i);
      lines.push({ msisdn, pkg });
    }
    const busy = new Set(await repo.findInFlight(read, buyer.mode, [...seen.keys()]));
    const firstBusy = lines.findIndex((l) => busy.has(l.msisdn));
    if (firstBusy >= 0) throw conflict(code, `items[${firstBusy}]: ${lines[firstBusy]?.msisdn} ${IN_FLIGHT_MESSAGE}`);
    const total = lines.reduce((sum, l) => sum + Number(l.pkg.price), 0);
    await requireAffordable(read, code, buyer, total);

    const samePackage = packages.size === 1 ? [...packages.values()][0] : undefined;
    try {
      const placed = await withShortReference('DB', (reference) =>
        this.database.transaction(async (trx) => {
          const now = this.clock();
          const walletId = await walletIdOf(trx, buyer);
          if (walletId === null) throw insufficient(code, 0, total);
          const orderId = newId('ord');
          const items = lines.map((l, idx) => newItem(orderId, idx, buyer.mode, l.msisdn, l.pkg, now));
          const order = newOrder(
            buyer,
            parents,
            {
              id: orderId,
              short_reference: reference,
              beneficiary_msisdn: '',
              package_id: samePackage?.id ?? '',
              package_label: samePackage?.label ?? `Mixed packages (${count} recipients)`,
              amount: total,
              is_bulk: 1,
            },
            { bulk_completed_count: 0, bulk_failed_count: 0 },
            now,
          );
          const { before, after } = await placeOrder(trx, code, walletId, order, items, now);
          return { orderId, reference, before, after };
        }),
      );
      this.deliveriesQueued();
      return {
        success: true,
        message: `Bulk order accepted: ${count} recipients are being delivered`,
        orderId: placed.orderId,
        shortReference: placed.reference,
        totalAmount: toGhs(total),
        recipientCount: count,
        status: 'processing',
        walletBalanceBefore: toGhs(placed.before),
        walletBalanceAfter: toGhs(placed.after),
      };
    } catch (error) {
      throw mapConflict(error, code, 'A recipient of this order');
    }
  }

  /**
   * decisions §6: charges a failed bulk recipient again (at the package's current price for the
   * caller's role), resubmits it as the next attempt and puts the parent back to processing.
   */
  async retryRecipient(buyer: Buyer, body: RetryRecipientBody): Promise<RetryRecipientResult> {
    const code = 'BUY_DATA_BULK_FAILED';
    requireBulkRole(buyer);
    const read = this.database.read;
    const order = await repo.findOwnedOrder(read, body.orderId, buyer.profileId, buyer.mode);
    if (!order) throw new AppError(404, 'ORDER_NOT_FOUND', `Order ${body.orderId} not found`);
    if (order.order_type !== 'data' || order.is_bulk !== 1) {
      throw badRequest(code, `Order ${order.id} is not a bulk data order`);
    }
    const msisdn = normalise(code, body.beneficiaryMsisdn, '');
    const item = (await repo.findItems(read, [order.id])).find((i) => i.beneficiary_msisdn === msisdn);
    if (!item) throw badRequest(code, `${msisdn} is not a recipient of order ${order.id}`);
    if (order.state === 'reversed') throw conflict(code, `Order ${order.id} was reversed; its recipients cannot be retried`);
    if (item.status !== 'failed') {
      throw conflict(code, `Recipient ${msisdn} is ${item.status}; only a failed recipient can be retried`);
    }
    const catalog = await this.catalog.snapshot(buyer.catalogVersion);
    const parents = loadParents(catalog, code, order.operator_id, order.product_id);
    const pkg = loadPackage(catalog, buyer.role, code, parents, item.package_id, '');
    if ((await repo.findInFlight(read, buyer.mode, [msisdn])).length > 0) {
      throw conflict(code, `${msisdn} ${IN_FLIGHT_MESSAGE}`);
    }
    const price = Number(pkg.price);
    await requireAffordable(read, code, buyer, price);

    const attempt = Number(item.attempt) + 1;
    try {
      const placed = await this.database.transaction(async (trx) => {
        const now = this.clock();
        const locked = await repo.lockOrder(trx, this.database.dialect, order.id);
        if (!locked || locked.state === 'reversed') {
          throw conflict(code, `Order ${order.id} was reversed; its recipients cannot be retried`);
        }
        const reopened = await repo.reopenItem(trx, { itemId: item.id, attempt: attempt - 1, amount: price, now });
        if (!reopened) throw conflict(code, `Recipient ${msisdn} is no longer failed; only a failed recipient can be retried`);
        const walletId = await walletIdOf(trx, buyer);
        if (walletId === null) throw insufficient(code, 0, price);
        const after = await hold(trx, code, { walletId, itemId: item.id, attempt, orderId: order.id, amount: price }, now);
        await outbox.insertSubmit(trx, item.id, now);
        await refreshOrder(trx, locked, now);
        return { before: after.available + price, after: after.available };
      });
      this.deliveriesQueued();
      return {
        success: true,
        message: `Recipient ${msisdn} resubmitted (attempt ${attempt})`,
        orderId: order.id,
        shortReference: order.short_reference,
        beneficiaryMsisdn: msisdn,
        amountCharged: toGhs(price),
        attempt,
        status: 'processing',
        walletBalanceBefore: toGhs(placed.before),
        walletBalanceAfter: toGhs(placed.after),
      };
    } catch (error) {
      throw mapConflict(error, code, msisdn);
    }
  }
}

export function requireBulkRole(buyer: Pick<Buyer, 'role'>): void {
  if (!BULK_ROLES.includes(buyer.role)) {
    throw forbidden('BUY_DATA_BULK_FAILED', 'Bulk data purchases are available to Agent and SuperAgent accounts only');
  }
}
