import type { Database } from '../../db/connection.js';
import { isUniqueViolation } from '../../db/unique-indexes.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller, Owner } from '../../domain/caller.js';
import { conflict, forbidden, insufficientFunds, invalid, notFound } from '../../domain/errors.js';
import type { Clock, Mode, Role } from '../../domain/types.js';
import { newId, type ReferenceSource } from '../../lib/ids.js';
import { formatGhs, toGhs } from '../../lib/money.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { EventRecorder } from '../events/service.js';
import type { IdempotencyService } from '../idempotency/service.js';
import type { Order } from '../orders/schemas.js';
import { toOrderView } from '../orders/views.js';
import { postings } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import type { Credential, CredentialCipher } from './credential-crypto.js';
import { InventoryImportError, parseCredentialCsv } from './csv.js';
import type { RcPackageRow, ResultCheckerRepository } from './repository.js';
import { sandboxCredential } from './sandbox-credentials.js';
import {
  MAX_RC_BULK_ITEMS,
  type RcBulkFailure,
  type RcBulkPurchase,
  type RcBulkPurchaseDryRun,
  type RcPackage,
  type RcPurchase,
  type RcPurchaseDryRun,
  type RcTransaction,
} from './schemas.js';

/** A package with fewer unassigned credentials than this is marked low on stock. */
export const RC_LOW_STOCK_BELOW = 20;

export interface RcStockLine {
  packageId: string;
  code: string;
  name: string;
  status: string;
  stock: number;
  low: boolean;
  /** Credentials voided by a refund of their sale (never sold again, not in stock). */
  voided: number;
}

/** A result-checker sale refunded by staff. */
export interface RcRefund {
  transactionId: string;
  shortReference: string;
  /** Pesewas. */
  refunded: number;
  /** Pesewas: the paying wallet's available balance after the refund. */
  availableAfter: number;
  /** The credential voided; null for a test-mode sale (its credential was generated, not from inventory). */
  voidedCredentialId: string | null;
  /** The sale's order after it, as GET /api/v1/orders/{orderId} shows it (state reversed). */
  order: Order;
}

export interface RcItemInput {
  packageId: string;
  recipientPhone: string;
}

/** A purchase's body: its item(s) and, for a dry run, validateOnly. */
interface DryRunnable {
  validateOnly?: boolean | undefined;
}

type SingleCode = 'RC_WALLET_BUY_FAILED';
type BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
type RcCode = SingleCode | BulkCode;

const BUYER_ROLES: readonly Role[] = ['Agent', 'SuperAgent'];

/** Result-checker purchases are for Agent and SuperAgent keys only (docs/api.md, "Conventions"). */
export function assertRcBuyer(role: Role, code: RcCode): void {
  if (!BUYER_ROLES.includes(role)) {
    throw forbidden(code, 'Result-checker purchases are available to Agent and SuperAgent accounts only');
  }
}

/** Why a package cannot be sold, or null when it can. */
function packageProblem(row: RcPackageRow | undefined, packageId: string): string | null {
  if (!row) return `Result-checker package ${packageId} does not exist`;
  if (row.status !== 'Active') return `Result-checker package ${packageId} is not active`;
  return null;
}

const outOfStock = (name: string) => `Out of stock: no ${name} credential is available`;
const insufficient = (code: RcCode, needed: number, available: number) =>
  insufficientFunds(code, `Insufficient wallet balance: ${formatGhs(needed)} needed, ${formatGhs(available)} available`);

interface BulkOutcome {
  sold: { transactionId: string; recipientPhone: string; secret: string }[];
  failures: RcBulkFailure[];
  charged: number;
}

interface ValidBulkItem {
  index: number;
  input: RcItemInput;
  phone: string;
}

/** buy-bulk when no item could be bought: 409 naming the first failures. */
function noItemBought(code: BulkCode, failures: readonly RcBulkFailure[]) {
  const all = [...failures].sort((a, b) => a.index - b.index);
  const shown = all.slice(0, 3).map((f) => `item ${f.index}: ${f.error.message}`);
  const more = all.length > 3 ? `; and ${all.length - 3} more` : '';
  return conflict(code, `No item could be bought (${shown.join('; ')}${more}). Nothing was charged.`);
}

/** Runs a sale with fresh short references, drawing again on the (astronomically rare) collision. */
async function retryOnReferenceCollision<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const taken =
        isUniqueViolation(error, 'rc_transactions_short_reference_key') || isUniqueViolation(error, 'orders_short_reference_key');
      if (taken && attempt < 3) continue;
      throw error;
    }
  }
}

/** Should two sales ever be handed the same credential, the unique credential_id refuses the second: nothing is charged. */
function credentialTaken(code: RcCode) {
  return (error: unknown): never => {
    if (isUniqueViolation(error, 'rc_transactions_credential_id_key')) {
      throw conflict(code, 'A concurrent purchase took the same credential; nothing was charged. Please retry.');
    }
    throw error;
  };
}

export class ResultCheckerService {
  constructor(
    private readonly database: Database,
    private readonly rc: ResultCheckerRepository,
    private readonly wallets: WalletRepository,
    private readonly idempotency: IdempotencyService,
    private readonly cipher: CredentialCipher,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly references: ReferenceSource,
    private readonly events: EventRecorder,
  ) {}

  /** GET /api/v1/result-checker/packages: active packages priced for the caller's role, with live stock (never cached). */
  async packages(role: Role): Promise<RcPackage[]> {
    const rows = await this.rc.listActive(role);
    return rows.map((p) => ({
      _id: p.id,
      code: p.code,
      name: p.name,
      displayName: p.display_name,
      description: p.description,
      price: toGhs(Number(p.price)),
      currency: 'GHS',
      stockAvailable: Number(p.stock ?? 0),
      priority: p.priority,
      checkLimit: p.check_limit,
      includesPdf: p.includes_pdf === null ? null : p.includes_pdf === 1,
    }));
  }

  /**
   * The checks of result-checker buy-single before the money (role, number, package), run by the
   * purchase and its dry run alike; the purchase's unit then debits (402 when the wallet cannot
   * pay) and assigns a credential (409 when out of stock), which the dry run reads instead.
   */
  private async checkSingle(caller: Caller, input: RcItemInput): Promise<{ phone: string; row: RcPackageRow }> {
    const code: SingleCode = 'RC_WALLET_BUY_FAILED';
    assertRcBuyer(caller.role, code);
    const phone = normaliseGhanaMsisdn(input.recipientPhone);
    if (!phone) throw invalid(code, 'recipientPhone is not a valid Ghana mobile number');
    const [known] = await this.rc.findForRole([input.packageId], caller.role);
    const problem = packageProblem(known, input.packageId);
    if (problem !== null || !known) throw invalid(code, problem ?? 'package vanished');
    return { phone, row: known };
  }

  /**
   * POST /api/v1/result-checker/buy-single (docs/order-lifecycle.md, "Result checkers"): debit,
   * then assign one credential, in one unit of work. Out of stock: the debit is refunded and the failed attempt recorded (an audit trail that nets to zero) before
   * the call answers 409. With validateOnly, the same checks and nothing written.
   */
  async buySingle(caller: Caller, input: RcItemInput & DryRunnable): Promise<RcPurchase | RcPurchaseDryRun> {
    const code: SingleCode = 'RC_WALLET_BUY_FAILED';
    const { phone, row: checked } = await this.checkSingle(caller, input);
    if (input.validateOnly === true) {
      // The unit's two checks, read: the debit (402), then a credential (409).
      const price = Number(checked.price);
      const before = this.debitable(code, caller, price);
      const [stocked] = await this.wouldIssue(caller.mode, [checked.id]);
      if (stocked !== true) throw conflict(code, `${outOfStock(checked.name)}. Nothing was charged.`);
      return {
        validateOnly: true,
        valid: true,
        amountCharged: toGhs(price),
        walletBalanceBefore: toGhs(before),
        walletBalanceAfter: toGhs(before - price),
      };
    }

    const id = newId('rc');
    const sale = await retryOnReferenceCollision(() =>
      this.database.unit(async (tx) => {
        const now = this.clock();
        const reference = this.references('RC');
        const [row] = await this.rc.findForRoleInUnit(tx, [input.packageId], caller.role);
        const stillProblem = packageProblem(row, input.packageId);
        if (stillProblem !== null || !row) throw invalid(code, stillProblem ?? 'package vanished');
        const price = Number(row.price);
        const record = {
          id,
          shortReference: reference,
          profileId: caller.profileId,
          mode: caller.mode,
          packageId: row.id,
          packageName: row.name,
          amount: price,
          buyerPhone: phone,
          bulkId: null,
          now,
        };
        // The wallet is debited before inventory is assigned with its ledger entry.
        const balances =
          caller.wallet &&
          (await this.wallets.post(
            tx,
            postings.rcDebit({ walletId: caller.wallet.id, transactionId: id, amount: price, packageName: row.name }),
            now,
          ));
        if (!balances || !caller.wallet) throw insufficient(code, price, await this.available(tx, caller));
        const before = balances.available + price;
        const credential = await this.issue(tx, caller.mode, row.id, id, now);
        if (!credential) {
          // Out of stock: the debit comes back, and the failed attempt is kept.
          await this.refund(tx, caller.wallet.id, price, id, now);
          const errorMessage = `${outOfStock(row.name)}; the debit was refunded`;
          this.rc.recordSale(tx, {
            ...record,
            state: 'failed',
            credentialId: null,
            credentialSecret: null,
            errorMessage,
            walletBalanceBefore: before,
            walletBalanceAfter: before,
          });
          return { sold: false as const, packageName: row.name, reference };
        }
        // The sale: its transaction and its order, written with the debit's ledger entry.
        this.rc.recordSale(tx, {
          ...record,
          state: 'completed',
          credentialId: credential.credentialId,
          credentialSecret: credential.secret,
          errorMessage: null,
          walletBalanceBefore: before,
          walletBalanceAfter: balances.available,
        });
        const purchase: RcPurchase = {
          transactionId: id,
          shortReference: reference,
          credential: this.reveal(credential.secret),
          status: 'completed',
        };
        // The answer kept with the caller's Idempotency-Key, if any, written with the sale.
        this.idempotency.succeeded(tx, caller, purchase);
        return { sold: true as const, purchase };
      }),
    ).catch(credentialTaken(code));
    if (!sale.sold) {
      throw conflict(
        code,
        `${outOfStock(sale.packageName)}. The debit was refunded; nothing was charged (reference ${sale.reference}).`,
      );
    }
    return sale.purchase;
  }

  /**
   * The checks of result-checker buy-bulk before the money, run by the purchase and its dry run
   * alike: the role, the item count, then each item on its own (its package, its number); the
   * items that fail here are listed in the answer and not charged.
   */
  private async checkBulk(caller: Caller, items: readonly RcItemInput[]): Promise<{ valid: ValidBulkItem[]; failures: RcBulkFailure[]; known: Map<string, RcPackageRow> }> {
    const code: BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
    assertRcBuyer(caller.role, code);
    if (items.length < 1 || items.length > MAX_RC_BULK_ITEMS)
      throw invalid(code, `items must hold 1 to ${MAX_RC_BULK_ITEMS} entries`);
    const failures: RcBulkFailure[] = [];
    const fail = (index: number, input: RcItemInput, message: string) =>
      failures.push({ index, packageId: input.packageId, recipientPhone: input.recipientPhone, error: { code, message } });

    const known = new Map(
      (
        await this.rc.findForRole(
          items.map((i) => i.packageId),
          caller.role,
        )
      ).map((p) => [p.id, p]),
    );
    const valid: ValidBulkItem[] = [];
    items.forEach((input, index) => {
      const phone = normaliseGhanaMsisdn(input.recipientPhone);
      const problem = packageProblem(known.get(input.packageId), input.packageId);
      if (problem) fail(index, input, problem);
      else if (!phone) fail(index, input, 'recipientPhone is not a valid Ghana mobile number');
      else valid.push({ index, input, phone });
    });
    return { valid, failures, known };
  }

  /**
   * POST /api/v1/result-checker/buy-bulk (docs/api.md, "Result checkers"): each item validated on
   * its own; one debit for the total of the valid items; each then gets a credential or fails and is refunded. Every item failing is 409 with
   * everything refunded. With validateOnly, the same checks and nothing written.
   */
  async buyBulk(caller: Caller, body: { items: readonly RcItemInput[] } & DryRunnable): Promise<RcBulkPurchase | RcBulkPurchaseDryRun> {
    const code: BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
    const { valid, failures, known } = await this.checkBulk(caller, body.items);
    if (body.validateOnly === true) return this.dryRunBulk(caller, valid, failures, known);

    const bulkId = newId('rcb');
    const outcome =
      valid.length === 0
        ? { sold: [], failures: [], charged: 0 }
        : await retryOnReferenceCollision(() =>
            this.database.unit(async (tx) => {
              const now = this.clock();
              const result: BulkOutcome = { sold: [], failures: [], charged: 0 };
              const fresh = new Map(
                (
                  await this.rc.findForRoleInUnit(
                    tx,
                    valid.map((v) => v.input.packageId),
                    caller.role,
                  )
                ).map((p) => [p.id, p]),
              );
              const payable: (ValidBulkItem & { pkg: RcPackageRow; price: number })[] = [];
              for (const item of valid) {
                const row = fresh.get(item.input.packageId);
                const problem = packageProblem(row, item.input.packageId);
                if (problem !== null || !row) result.failures.push(this.failure(item, code, problem ?? 'package vanished'));
                else payable.push({ ...item, pkg: row, price: Number(row.price) });
              }
              if (payable.length === 0) return result;
              // One debit for the total of the payable items, with its ledger entry.
              const total = payable.reduce((sum, item) => sum + item.price, 0);
              const balances =
                caller.wallet &&
                (await this.wallets.post(
                  tx,
                  postings.rcBulkDebit({ walletId: caller.wallet.id, bulkId, amount: total, items: payable.length }),
                  now,
                ));
              if (!balances || !caller.wallet) throw insufficient(code, total, await this.available(tx, caller));
              // Each item: a credential, or a refund. Its order shows the balance as if items were charged one after another.
              let running = balances.available + total;
              for (const item of payable) {
                const id = newId('rc');
                const credential = await this.issue(tx, caller.mode, item.pkg.id, id, now);
                const record = {
                  id,
                  shortReference: this.references('RC'),
                  profileId: caller.profileId,
                  mode: caller.mode,
                  packageId: item.pkg.id,
                  packageName: item.pkg.name,
                  amount: item.price,
                  buyerPhone: item.phone,
                  bulkId,
                  now,
                };
                if (!credential) {
                  await this.refund(tx, caller.wallet.id, item.price, id, now);
                  const errorMessage = `${outOfStock(item.pkg.name)}; refunded`;
                  this.rc.recordSale(tx, {
                    ...record,
                    state: 'failed',
                    credentialId: null,
                    credentialSecret: null,
                    errorMessage,
                    walletBalanceBefore: running,
                    walletBalanceAfter: running,
                  });
                  result.failures.push(this.failure(item, code, errorMessage));
                  continue;
                }
                this.rc.recordSale(tx, {
                  ...record,
                  state: 'completed',
                  credentialId: credential.credentialId,
                  credentialSecret: credential.secret,
                  errorMessage: null,
                  walletBalanceBefore: running,
                  walletBalanceAfter: running - item.price,
                });
                running -= item.price;
                result.charged += item.price;
                result.sold.push({ transactionId: id, recipientPhone: item.phone, secret: credential.secret });
              }
              // The answer kept with the caller's Idempotency-Key, if any, written with the sales.
              if (result.sold.length > 0) this.idempotency.succeeded(tx, caller, this.bulkPurchase(result, failures));
              return result;
            }),
          ).catch(credentialTaken(code));
    if (outcome.sold.length === 0) throw noItemBought(code, [...failures, ...outcome.failures]);
    return this.bulkPurchase(outcome, failures);
  }

  /**
   * buy-bulk's dry run: the unit's checks, read: one debit for every valid item (402 when the
   * wallet cannot pay them all), then a credential for each in order, or a failure (out of stock);
   * none at all is the purchase's 409.
   */
  private async dryRunBulk(
    caller: Caller,
    valid: readonly ValidBulkItem[],
    failedBefore: readonly RcBulkFailure[],
    known: ReadonlyMap<string, RcPackageRow>,
  ): Promise<RcBulkPurchaseDryRun> {
    const code: BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
    const payable = valid.flatMap((item) => {
      const pkg = known.get(item.input.packageId);
      return pkg ? [{ ...item, pkg, price: Number(pkg.price) }] : [];
    });
    const total = payable.reduce((sum, item) => sum + item.price, 0);
    const before = payable.length === 0 ? (caller.wallet?.available ?? 0) : this.debitable(code, caller, total);
    const issued = await this.wouldIssue(
      caller.mode,
      payable.map((item) => item.pkg.id),
    );
    const failures = [...failedBefore];
    let charged = 0;
    payable.forEach((item, i) => {
      if (issued[i] === true) charged += item.price;
      else failures.push(this.failure(item, code, `${outOfStock(item.pkg.name)}; it would not be charged`));
    });
    failures.sort((a, b) => a.index - b.index);
    if (!issued.includes(true)) throw noItemBought(code, failures);
    return {
      validateOnly: true,
      valid: true,
      totalAmount: toGhs(charged),
      walletBalanceBefore: toGhs(before),
      walletBalanceAfter: toGhs(before - charged),
      failures,
    };
  }

  /** The available balance, when it can pay `price` (the unit's guarded debit, read); 402 otherwise. */
  private debitable(code: RcCode, caller: Pick<Caller, 'wallet'>, price: number): number {
    const available = caller.wallet?.available ?? 0;
    if (available < price) throw insufficient(code, price, available);
    return available;
  }

  /**
   * Whether each of `packageIds`, taken in order, would get a credential now: in test mode always
   * (sandbox credentials), live while the package's unassigned inventory lasts.
   */
  private async wouldIssue(mode: Mode, packageIds: readonly string[]): Promise<boolean[]> {
    if (mode === 'test') return packageIds.map(() => true);
    const left = new Map<string, number>();
    for (const id of new Set(packageIds)) left.set(id, await this.rc.countUnassigned(id));
    return packageIds.map((id) => {
      const n = left.get(id) ?? 0;
      left.set(id, n - 1);
      return n > 0;
    });
  }

  /** buy-bulk's answer: the sales with their credentials, and every failure (before and in the unit) by index. */
  private bulkPurchase(outcome: BulkOutcome, failedBefore: readonly RcBulkFailure[]): RcBulkPurchase {
    return {
      transactions: outcome.sold.map((t) => ({
        transactionId: t.transactionId,
        recipientPhone: t.recipientPhone,
        credential: this.reveal(t.secret),
      })),
      failures: [...failedBefore, ...outcome.failures].sort((a, b) => a.index - b.index),
      totalAmount: toGhs(outcome.charged),
      status: 'completed',
    };
  }

  /**
   * GET /api/v1/result-checker/orders/{orderId}/status: the caller's own transaction in the key's
   * mode; the credential only once completed.
   */
  async status(owner: Owner, transactionId: string): Promise<RcTransaction> {
    const t = await this.rc.findOwnTransaction(owner, transactionId);
    if (!t) throw notFound('ORDER_NOT_FOUND', `Result-checker transaction ${transactionId} not found`);
    return {
      _id: t.id,
      shortReference: t.short_reference,
      state: t.state,
      paymentGatewayStatus: t.payment_gateway_status,
      amount: toGhs(t.amount),
      currency: 'GHS',
      packageName: t.package_name,
      buyerPhone: t.buyer_phone,
      // A sale refunded by staff keeps its state (the contract's states are fixed) but no longer hands out its voided credential.
      credential: t.state === 'completed' && t.refunded_at === null && t.credential_secret ? this.reveal(t.credential_secret) : null,
      createdAt: t.created_at,
      completedAt: t.completed_at,
    };
  }

  /**
   * `cli rc import`: a strict CSV of username,password; all or nothing. Duplicates (in the file or
   * already stored for the package) are skipped and counted.
   */
  /**
   * Loads credentials from a CSV into a package's stock (known ones skipped). The audit row names
   * the file and the counts, never a credential.
   */
  async importCredentials(
    actor: Actor,
    packageId: string,
    csvText: string,
    fileName: string,
  ): Promise<{ added: number; skipped: number }> {
    const credentials = parseCredentialCsv(csvText);
    return this.database.unit(async (tx) => {
      if (!(await this.rc.packageExists(tx, packageId))) throw new InventoryImportError(`no result-checker package ${packageId}`);
      const added = await this.rc.insertCredentials(tx, this.cipher, packageId, credentials, this.clock());
      const result = { added, skipped: credentials.length - added };
      await this.audit.record(tx, actor, 'rc.import', { type: 'rc_package', id: packageId }, { file: fileName, ...result });
      return result;
    });
  }

  /**
   * Staff refund of one sold credential (docs/order-lifecycle.md, "Refunds by staff"): the wallet
   * that paid gets back exactly what the sale charged (one rc_reversal, once), the credential is
   * voided (it stays assigned to the sale: never sold again, never stock), the sale's order becomes
   * `reversed` with the reason, `order.reversed` is recorded and the audit row, all in one unit. A
   * bulk purchase is refunded item by item (each item is a sale of its own). A test-mode sale: the
   * test wallet is credited, and there is nothing to void.
   */
  async refundSale(actor: Actor, idOrReference: string, reason: string): Promise<RcRefund> {
    const why = reason.trim();
    if (why === '') throw invalid('INVALID_REQUEST', 'a reason is required');
    const wanted = idOrReference.trim();
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const sale = await this.rc.lockSale(tx, wanted);
      if (!sale) throw notFound('ORDER_NOT_FOUND', `no result-checker sale ${wanted}`);
      if (sale.refunded_at !== null) throw conflict('INVALID_REQUEST', `sale ${sale.id} was already refunded; nothing refunded`);
      if (sale.state !== 'completed') {
        throw conflict('INVALID_REQUEST', `sale ${sale.id} is ${sale.state}; only a completed sale can be refunded (a failed one was refunded when it failed)`);
      }
      if (!(await this.rc.markRefunded(tx, sale.id, why, now))) {
        throw conflict('INVALID_REQUEST', `sale ${sale.id} changed meanwhile; nothing refunded`);
      }
      const order = await this.rc.markOrderReversed(tx, sale.order_id, why, now);
      if (!order) throw conflict('INVALID_REQUEST', `the order of sale ${sale.id} is not completed; nothing refunded`);
      if (sale.credential_id !== null && !(await this.rc.voidCredential(tx, sale.credential_id, sale.id, why, now))) {
        throw new Error(`credential ${sale.credential_id} of sale ${sale.id} could not be voided`);
      }
      if (sale.wallet_id === null) throw new Error(`wallet of sale ${sale.id} not found`);
      const amount = Number(sale.amount);
      const balances = await this.wallets.post(
        tx,
        postings.rcReversal({ walletId: sale.wallet_id, transactionId: sale.id, amount, reason: why }),
        now,
      );
      if (!balances) throw new Error(`refund of sale ${sale.id} was refused by the wallet`);
      const view = toOrderView(order, []);
      this.events.record(tx, { profileId: sale.profile_id, mode: sale.mode }, 'order.reversed', { object: view }, now);
      await this.audit.record(tx, actor, 'rc.refund', { type: 'rc_transaction', id: sale.id }, {
        reason: why,
        refunded: toGhs(amount),
        shortReference: sale.short_reference,
        packageName: sale.package_name,
        voidedCredentialId: sale.credential_id,
        profileId: sale.profile_id,
        mode: sale.mode,
      });
      return {
        transactionId: sale.id,
        shortReference: sale.short_reference,
        refunded: amount,
        availableAfter: balances.available,
        voidedCredentialId: sale.credential_id,
        order: view,
      };
    });
  }

  /** Voided credentials (refunded sales), newest first: the inventory page lists them. */
  voided(limit = 200) {
    return this.rc.voidedCredentials(limit);
  }

  /** The sale behind a result-checker order, with its credential's state (staff pages). */
  saleForStaff(orderId: string) {
    return this.rc.saleForStaff(orderId);
  }

  async stock(packageId: string): Promise<number> {
    return this.rc.countUnassigned(packageId);
  }

  /** Stock of every package, each marked low below RC_LOW_STOCK_BELOW (staff: console, `cli rc stock`). */
  async stockReport(): Promise<RcStockLine[]> {
    const rows = await this.rc.stockByPackage();
    return rows.map((r) => {
      const stock = Number(r.stock ?? 0);
      return {
        packageId: r.id,
        code: r.code,
        name: r.name,
        status: r.status,
        stock,
        low: stock < RC_LOW_STOCK_BELOW,
        voided: Number(r.voided ?? 0),
      };
    });
  }

  private failure(item: ValidBulkItem, code: BulkCode, message: string): RcBulkFailure {
    return {
      index: item.index,
      packageId: item.input.packageId,
      recipientPhone: item.input.recipientPhone,
      error: { code, message },
    };
  }

  private async refund(tx: Tx, walletId: string, amount: number, transactionId: string, now: number): Promise<void> {
    const balances = await this.wallets.post(tx, postings.rcRefund({ walletId, transactionId, amount }), now);
    if (!balances) throw new Error(`refund of ${transactionId} was refused`);
  }

  /** Live: the next credential from inventory (null when none). Test: a generated sandbox credential. */
  private async issue(
    tx: Tx,
    mode: Mode,
    packageId: string,
    transactionId: string,
    now: number,
  ): Promise<{ credentialId: string | null; secret: string } | null> {
    if (mode === 'test') return { credentialId: null, secret: this.cipher.encrypt(sandboxCredential()) };
    const taken = await this.rc.assignCredential(tx, packageId, transactionId, now);
    return taken ? { credentialId: taken.id, secret: taken.secret } : null;
  }

  private reveal(secret: string): Credential {
    const { username, password } = this.cipher.decrypt(secret);
    return { username, password };
  }

  /** The caller's available balance inside the unit, for a 402's message. */
  private async available(tx: Tx, caller: Caller): Promise<number> {
    if (!caller.wallet) return 0;
    return Number((await this.wallets.findById(tx, caller.wallet.id))?.available ?? 0);
  }
}
