import type { Database } from '../../db/connection.js';
import { isUniqueViolation, whenRefusedBy } from '../../db/unique-indexes.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller } from '../../domain/caller.js';
import { conflict, forbidden, insufficientFunds, invalid, notFound, unprocessable, type ErrorCode } from '../../domain/errors.js';
import type { Clock, Role } from '../../domain/types.js';
import { newId, type ReferencePrefix, type ReferenceSource } from '../../lib/ids.js';
import { formatGhs, toGhs } from '../../lib/money.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import { networkMismatch } from '../../domain/networks.js';
import type { CatalogService } from '../catalog/service.js';
import type { CatalogOperator, CatalogProduct, CatalogSnapshot, PricedPackage } from '../catalog/snapshot.js';
import type { IdempotencyService } from '../idempotency/service.js';
import { postings } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import { orderStateAfter } from '../orders/order-state.js';
import type { OutboxRepository } from '../deliveries/outbox-repository.js';
import type { OrderRepository } from '../orders/repository.js';
import { itemRow, orderRow } from '../orders/rows.js';
import {
  BULK_MAX_ITEMS,
  BULK_MIN_ITEMS,
  type BuyBulkBody,
  type BuyBulkDryRun,
  type BuyBulkResult,
  type BuySingleBody,
  type BuySingleDryRun,
  type BuySingleResult,
  type RetryRecipientBody,
  type RetryRecipientResult,
} from './schemas.js';

/**
 * Data bundle purchases (docs/order-lifecycle.md: "Rules that can refuse a purchase", "Bulk
 * orders", "The money at each step"). Each purchase's money path is one function: the checks, then one unit of work that holds the money (available → held) with its
 * ledger entry and writes the order, its items and their outbox rows with it. The database backs
 * the checks under concurrency: the wallet update refuses to go below zero, and unique indexes
 * refuse a second open delivery per number and mode and a repeated payment reference.
 */

type BuyCode = Extract<ErrorCode, 'BUY_DATA_FAILED' | 'BUY_DATA_BULK_FAILED'>;

const BULK_ROLES: readonly Role[] = ['Agent', 'SuperAgent'];
const IN_FLIGHT = 'already has a data order in progress; try again once it has completed or failed';

const inFlight = (code: BuyCode, who: string) => conflict(code, `${who} ${IN_FLIGHT}`);
const repeatedReference = (code: BuyCode, orderId?: string) =>
  conflict(
    code,
    `Duplicate order: this paymentReference was already used${orderId ? ` by order ${orderId}` : ''}; nothing was charged`,
    orderId ? { orderId } : {},
  );
const insufficient = (code: BuyCode, available: number, required: number) =>
  insufficientFunds(code, `Insufficient wallet balance: ${formatGhs(available)} available, ${formatGhs(required)} required`);

interface Parents {
  operator: CatalogOperator;
  product: CatalogProduct;
}

/** Rule 1 (docs/order-lifecycle.md, "Rules that can refuse a purchase"): the operator and product exist and belong together. */
function parentsOf(catalog: CatalogSnapshot, code: BuyCode, operatorId: string, productId: string): Parents {
  const operator = catalog.operator(operatorId);
  if (!operator) throw invalid(code, `Operator ${operatorId} not found`);
  const product = catalog.product(productId);
  if (!product) throw invalid(code, `Product ${productId} not found`);
  if (product.operator_id !== operator.id) throw invalid(code, `Product ${productId} does not belong to operator ${operatorId}`);
  return { operator, product };
}

/** Rule 1: the package belongs to the product, all three are on sale; priced for the role. */
function packageFor(
  catalog: CatalogSnapshot,
  role: Role,
  code: BuyCode,
  parents: Parents,
  packageId: string,
  where = '',
): PricedPackage {
  const pkg = catalog.package(packageId, role);
  if (!pkg) throw invalid(code, `${where}package ${packageId} not found`);
  if (pkg.product_id !== parents.product.id || pkg.operator_id !== parents.operator.id) {
    throw invalid(
      code,
      `${where}package ${packageId} does not belong to product ${parents.product.id} of operator ${parents.operator.id}`,
    );
  }
  if (parents.operator.status !== 'Active') throw invalid(code, `Operator ${parents.operator.id} is not active`);
  if (parents.product.status !== 'Available') throw invalid(code, `Product ${parents.product.id} is not available`);
  if (pkg.status !== 'Active') throw invalid(code, `${where}package ${packageId} is not active`);
  return pkg;
}

/** Rule 2 (same section). */
function normalised(code: BuyCode, raw: string, where = ''): string {
  const msisdn = normaliseGhanaMsisdn(raw);
  if (msisdn === null) throw invalid(code, `${where}beneficiaryMsisdn "${raw}" is not a valid Ghana mobile number`);
  return msisdn;
}

/**
 * Rule 2, the number's network (docs/api.md, "The number's network"): an operator that names its
 * network refuses a number of another network by its prefix, unless the caller says it was ported.
 */
function sameNetwork(code: BuyCode, operator: CatalogOperator, msisdn: string, allowPorted: boolean | undefined, where = ''): void {
  if (allowPorted === true) return;
  const mismatch = networkMismatch(msisdn, operator.network);
  if (mismatch !== null) throw invalid(code, `${where}${mismatch}`);
}

/** Rule 5, as the dry run reads it (the purchase itself holds the money with a guarded update that refuses the same). */
function affordable(code: BuyCode, caller: Pick<Caller, 'wallet'>, required: number): { before: number; after: number } {
  const before = caller.wallet?.available ?? 0;
  if (before < required) throw insufficient(code, before, required);
  return { before, after: before - required };
}

/** What a buy-single would buy, once the checks before the money have passed. */
interface SinglePlan extends Parents {
  pkg: PricedPackage;
  msisdn: string;
  paymentReference: string | null;
}

/** What a buy-bulk would buy: every recipient checked, the wallet able to pay them all. */
interface BulkPlan extends Parents {
  lines: { msisdn: string; pkg: PricedPackage }[];
  total: number;
  available: number;
}

export function requireBulkRole(caller: Pick<Caller, 'role'>): void {
  if (!BULK_ROLES.includes(caller.role)) {
    throw forbidden('BUY_DATA_BULK_FAILED', 'Bulk data purchases are available to Agent and SuperAgent accounts only');
  }
}

/** Runs `work` with a fresh short reference, drawing again on the (astronomically rare) collision. */
async function withFreshReference<T>(draw: ReferenceSource, prefix: ReferencePrefix, work: (reference: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work(draw(prefix));
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error, 'orders_short_reference_key')) continue;
      throw error;
    }
  }
}

export class PurchaseService {
  constructor(
    private readonly database: Database,
    private readonly catalog: CatalogService,
    private readonly orders: OrderRepository,
    private readonly outbox: OutboxRepository,
    private readonly wallets: WalletRepository,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
    private readonly references: ReferenceSource,
    /** Called once a unit that queued deliveries has committed. */
    private readonly deliveriesQueued: () => void,
  ) {}

  /**
   * The checks of buy-single, in the order of docs/order-lifecycle.md, "Rules that can refuse a
   * purchase": the purchase and its dry run (validateOnly) both run exactly these. Rules 3 and 4
   * (an open order for the number, a repeated paymentReference) are read here when there is a
   * reference or for a dry run; a purchase without a reference has its unit find an open order
   * (the unique index), which answers the same 409.
   */
  private async checkSingle(caller: Caller, body: BuySingleBody, dryRun: boolean): Promise<SinglePlan> {
    const code = 'BUY_DATA_FAILED';
    const catalog = await this.catalog.snapshot(caller.catalogVersion);
    const parents = parentsOf(catalog, code, body.operatorId, body.productId);
    const pkg = packageFor(catalog, caller.role, code, parents, body.packageId);
    const msisdn = normalised(code, body.beneficiaryMsisdn);
    sameNetwork(code, parents.operator, msisdn, body.allowPortedNumber);
    const paymentReference = body.paymentReference?.trim() || null;
    if (paymentReference !== null || dryRun) {
      if (await this.orders.isInFlight(caller.mode, msisdn)) throw inFlight(code, msisdn);
      const earlier = paymentReference === null ? undefined : await this.orders.findByPaymentReference(caller, paymentReference);
      if (earlier) throw repeatedReference(code, earlier.id);
    }
    return { ...parents, pkg, msisdn, paymentReference };
  }

  /** buy-single; with validateOnly, its dry run: the same checks, then the figures, nothing written. */
  async buySingle(caller: Caller, body: BuySingleBody): Promise<BuySingleResult | BuySingleDryRun> {
    if (body.validateOnly === true) {
      const plan = await this.checkSingle(caller, body, true);
      const { before, after } = affordable('BUY_DATA_FAILED', caller, plan.pkg.price);
      return {
        validateOnly: true,
        valid: true,
        amountCharged: toGhs(plan.pkg.price),
        walletBalanceBefore: toGhs(before),
        walletBalanceAfter: toGhs(after),
      };
    }
    return this.placeSingle(caller, body);
  }

  private async placeSingle(caller: Caller, body: BuySingleBody): Promise<BuySingleResult> {
    const code = 'BUY_DATA_FAILED';
    const { operator, product, pkg, msisdn, paymentReference } = await this.checkSingle(caller, body, false);
    const parents = { operator, product };
    const price = pkg.price;

    const placed = await withFreshReference(this.references, 'DB', (reference) =>
      this.database.unit(async (tx) => {
        const now = this.clock();
        const orderId = newId('ord');
        const item = itemRow({
          id: newId('itm'),
          orderId,
          idx: 0,
          mode: caller.mode,
          beneficiaryMsisdn: msisdn,
          packageId: pkg.id,
          packageLabel: pkg.label,
          amount: price,
          createdAt: now,
        });
        // Rule 5: hold the price (available → held), with its ledger entry. A wallet that cannot pay
        // is 402, unless the number has an open order: rule 3 answers first.
        const balances =
          caller.wallet &&
          (await this.wallets.post(
            tx,
            postings.hold({ walletId: caller.wallet.id, orderType: 'data', orderId, itemId: item.id, attempt: 1, amount: price }),
            now,
          ));
        if (!balances) {
          if (await this.orders.isInFlightInUnit(tx, caller.mode, msisdn)) throw inFlight(code, msisdn);
          throw insufficient(code, await this.available(tx, caller), price);
        }
        // Rule 6: the order, its item and its delivery in the outbox, written with the ledger entry.
        const before = balances.available + price;
        this.orders.insert(
          tx,
          orderRow({
            id: orderId,
            profileId: caller.profileId,
            mode: caller.mode,
            type: 'data',
            state: 'processing',
            shortReference: reference,
            beneficiaryMsisdn: msisdn,
            operator: parents.operator,
            product: parents.product,
            packageId: pkg.id,
            packageLabel: pkg.label,
            amount: price,
            walletBalanceBefore: before,
            walletBalanceAfter: balances.available,
            paymentReference,
            anonymousId: body.anonymousId?.trim() || null,
            createdAt: now,
          }),
          [item],
        );
        this.outbox.submit(tx, [item.id], now);
        const result: BuySingleResult = {
          success: true,
          orderId,
          shortReference: reference,
          message: `Order accepted: ${pkg.label} for ${msisdn} is being delivered`,
          amountCharged: toGhs(price),
          status: 'processing',
          walletBalanceBefore: toGhs(before),
          walletBalanceAfter: toGhs(balances.available),
        };
        // The answer kept with the caller's Idempotency-Key, if any, written with the purchase.
        this.idempotency.succeeded(tx, caller, result);
        await tx.flush().catch(whenRefusedBy({ order_items_in_flight: () => inFlight(code, msisdn) }));
        return result;
      }),
    ).catch(async (error: unknown) => {
      // A purchase with the same paymentReference raced this one and won: it has committed by
      // now, so the refusal can name its order.
      if (paymentReference === null || !isUniqueViolation(error, 'orders_payment_reference')) throw error;
      throw repeatedReference(code, (await this.orders.findByPaymentReference(caller, paymentReference))?.id);
    });
    this.deliveriesQueued();
    return placed;
  }

  /**
   * The checks of buy-bulk (docs/order-lifecycle.md, "Rules that can refuse a purchase"), run by
   * the purchase and its dry run alike: every recipient is checked before anything is written.
   */
  private async checkBulk(caller: Caller, body: BuyBulkBody): Promise<BulkPlan> {
    const code = 'BUY_DATA_BULK_FAILED';
    requireBulkRole(caller);
    const count = body.items.length;
    if (count < BULK_MIN_ITEMS || count > BULK_MAX_ITEMS) {
      throw unprocessable(code, `items must have ${BULK_MIN_ITEMS} to ${BULK_MAX_ITEMS} entries (got ${count})`);
    }
    const catalog = await this.catalog.snapshot(caller.catalogVersion);
    const parents = parentsOf(catalog, code, body.operatorId, body.productId);
    const lines: { msisdn: string; pkg: PricedPackage }[] = [];
    const seen = new Map<string, number>();
    for (const [i, entry] of body.items.entries()) {
      const where = `items[${i}]: `;
      const pkg = packageFor(catalog, caller.role, code, parents, entry.packageId, where);
      const msisdn = normalised(code, entry.beneficiaryMsisdn, where);
      sameNetwork(code, parents.operator, msisdn, entry.allowPortedNumber, where);
      const first = seen.get(msisdn);
      if (first !== undefined) throw invalid(code, `${where}${msisdn} is already items[${first}]: each number may appear once`);
      seen.set(msisdn, i);
      lines.push({ msisdn, pkg });
    }
    const busy = new Set(await this.orders.findInFlight(caller.mode, [...seen.keys()]));
    const firstBusy = lines.findIndex((l) => busy.has(l.msisdn));
    if (firstBusy >= 0) throw inFlight(code, `items[${firstBusy}]: ${lines[firstBusy]?.msisdn}`);
    const total = lines.reduce((sum, l) => sum + l.pkg.price, 0);
    const { before: available } = affordable(code, caller, total);
    return { ...parents, lines, total, available };
  }

  /** buy-bulk; with validateOnly, its dry run: the same checks, then the figures, nothing written. */
  async buyBulk(caller: Caller, body: BuyBulkBody): Promise<BuyBulkResult | BuyBulkDryRun> {
    if (body.validateOnly === true) {
      const { total, available, lines } = await this.checkBulk(caller, body);
      return {
        validateOnly: true,
        valid: true,
        totalAmount: toGhs(total),
        recipientCount: lines.length,
        walletBalanceBefore: toGhs(available),
        walletBalanceAfter: toGhs(available - total),
      };
    }
    return this.placeBulk(caller, body);
  }

  private async placeBulk(caller: Caller, body: BuyBulkBody): Promise<BuyBulkResult> {
    const code = 'BUY_DATA_BULK_FAILED';
    const { operator, product, lines, total, available } = await this.checkBulk(caller, body);
    const parents = { operator, product };
    const count = lines.length;
    const packages = new Set(lines.map((l) => l.pkg.id));
    const onePackage = packages.size === 1 ? lines[0]?.pkg : undefined;

    const placed = await withFreshReference(this.references, 'DB', (reference) =>
      this.database.unit(async (tx) => {
        const now = this.clock();
        const orderId = newId('ord');
        const items = lines.map((l, idx) =>
          itemRow({
            id: newId('itm'),
            orderId,
            idx,
            mode: caller.mode,
            beneficiaryMsisdn: l.msisdn,
            packageId: l.pkg.id,
            packageLabel: l.pkg.label,
            amount: l.pkg.price,
            createdAt: now,
          }),
        );
        // One hold per recipient, each with its ledger entry; a wallet that cannot pay them all is 402.
        let after = available;
        for (const item of items) {
          const balances =
            caller.wallet &&
            (await this.wallets.post(
              tx,
              postings.hold({ walletId: caller.wallet.id, orderType: 'data', orderId, itemId: item.id, attempt: 1, amount: item.amount }),
              now,
            ));
          if (!balances) throw insufficient(code, await this.available(tx, caller), total);
          after = balances.available;
        }
        // The parent order with its recipients and their deliveries, written with the last ledger entry.
        const before = after + total;
        this.orders.insert(
          tx,
          orderRow({
            id: orderId,
            profileId: caller.profileId,
            mode: caller.mode,
            type: 'data',
            state: 'processing',
            shortReference: reference,
            beneficiaryMsisdn: '',
            operator: parents.operator,
            product: parents.product,
            packageId: onePackage?.id ?? '',
            packageLabel: onePackage?.label ?? `Mixed packages (${count} recipients)`,
            amount: total,
            isBulk: true,
            walletBalanceBefore: before,
            walletBalanceAfter: after,
            createdAt: now,
          }),
          items,
        );
        this.outbox.submit(
          tx,
          items.map((i) => i.id),
          now,
        );
        const result: BuyBulkResult = {
          success: true,
          message: `Bulk order accepted: ${count} recipients are being delivered`,
          orderId,
          shortReference: reference,
          totalAmount: toGhs(total),
          recipientCount: count,
          status: 'processing',
          walletBalanceBefore: toGhs(before),
          walletBalanceAfter: toGhs(after),
        };
        this.idempotency.succeeded(tx, caller, result);
        await tx.flush().catch(whenRefusedBy({ order_items_in_flight: () => inFlight(code, 'A recipient of this order') }));
        return result;
      }),
    );
    this.deliveriesQueued();
    return placed;
  }

  /**
   * (docs/order-lifecycle.md, "Bulk orders"): charges a failed bulk recipient again (at the package's current price for the
   * caller's role), resubmits it as the next attempt and puts the parent back to processing. A price
   * that changed since the recipient's previous charge is never taken silently: the answer names both
   * amounts (`previousAmount`, `priceChanged`) and its message says so.
   */
  async retryRecipient(caller: Caller, body: RetryRecipientBody): Promise<RetryRecipientResult> {
    const code = 'BUY_DATA_BULK_FAILED';
    requireBulkRole(caller);
    const order = await this.orders.findOwned(caller, body.orderId);
    if (!order) throw notFound('ORDER_NOT_FOUND', `Order ${body.orderId} not found`);
    if (order.order_type !== 'data' || order.is_bulk !== 1) throw invalid(code, `Order ${order.id} is not a bulk data order`);
    const msisdn = normalised(code, body.beneficiaryMsisdn);
    const item = (await this.orders.findItems([order.id])).find((i) => i.beneficiary_msisdn === msisdn);
    if (!item) throw invalid(code, `${msisdn} is not a recipient of order ${order.id}`);
    const reversed = () => conflict(code, `Order ${order.id} was reversed; its recipients cannot be retried`);
    if (order.state === 'reversed') throw reversed();
    if (item.status !== 'failed')
      throw conflict(code, `Recipient ${msisdn} is ${item.status}; only a failed recipient can be retried`);
    const catalog = await this.catalog.snapshot(caller.catalogVersion);
    const pkg = packageFor(
      catalog,
      caller.role,
      code,
      parentsOf(catalog, code, order.operator_id, order.product_id),
      item.package_id,
    );
    if (await this.orders.isInFlight(caller.mode, msisdn)) throw inFlight(code, msisdn);
    const price = pkg.price;
    const previous = Number(item.amount);
    if ((caller.wallet?.available ?? 0) < price) throw insufficient(code, caller.wallet?.available ?? 0, price);
    const attempt = Number(item.attempt) + 1;

    const placed = await this.database
      .unit(async (tx) => {
        const now = this.clock();
        const locked = await this.orders.lock(tx, order.id);
        if (!locked || locked.state === 'reversed') throw reversed();
        const reopened = await this.orders.reopenItem(tx, { itemId: item.id, attempt: attempt - 1, amount: price, now });
        if (!reopened) throw conflict(code, `Recipient ${msisdn} is no longer failed; only a failed recipient can be retried`);
        const counts = await this.orders.itemCounts(tx, order.id);
        // The new attempt's hold, with its ledger entry.
        const balances =
          caller.wallet &&
          (await this.wallets.post(
            tx,
            postings.hold({ walletId: caller.wallet.id, orderType: 'data', orderId: order.id, itemId: item.id, attempt, amount: price }),
            now,
          ));
        if (!balances) throw insufficient(code, await this.available(tx, caller), price);
        // The delivery back in the outbox; the parent back to processing.
        this.outbox.submit(tx, [item.id], now);
        this.orders.update(tx, locked, orderStateAfter(locked, counts, now));
        const result: RetryRecipientResult = {
          success: true,
          message:
            price === previous
              ? `Recipient ${msisdn} resubmitted (attempt ${attempt})`
              : `Recipient ${msisdn} resubmitted (attempt ${attempt}) at the package's current price, ${formatGhs(price)}; its previous charge was ${formatGhs(previous)}`,
          orderId: order.id,
          shortReference: order.short_reference,
          beneficiaryMsisdn: msisdn,
          amountCharged: toGhs(price),
          previousAmount: toGhs(previous),
          priceChanged: price !== previous,
          attempt,
          status: 'processing',
          walletBalanceBefore: toGhs(balances.available + price),
          walletBalanceAfter: toGhs(balances.available),
        };
        this.idempotency.succeeded(tx, caller, result);
        return result;
      })
      .catch(whenRefusedBy({ order_items_in_flight: () => inFlight(code, msisdn) }));
    this.deliveriesQueued();
    return placed;
  }

  /** The caller's available balance inside the unit, for a 402's message. */
  private async available(tx: Tx, caller: Caller): Promise<number> {
    if (!caller.wallet) return 0;
    return Number((await this.wallets.findById(tx, caller.wallet.id))?.available ?? 0);
  }
}
