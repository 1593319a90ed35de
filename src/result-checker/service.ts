import type { Database, Executor } from '../db/connection.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { Statement } from '../db/prepared.js';
import type { Mode, Role } from '../db/schema.js';
import { AppError, badRequest, conflict, forbidden, paymentRequired, type ErrorCode } from '../http/errors.js';
import {
  MAX_RC_BULK_ITEMS,
  type RcBulkFailure,
  type RcBulkPurchase,
  type RcPurchase,
  type RcTransaction,
} from '../http/schemas/result-checker.js';
import { newId, shortReference } from '../lib/ids.js';
import { toGhs } from '../lib/money.js';
import { normaliseGhanaMsisdn } from '../lib/phone.js';
import * as walletRepo from '../wallet/repository.js';
import { post, walletIdOf, type Balances, type WalletOwner } from '../wallet/service.js';
import type { Credential, CredentialCipher } from './credential-crypto.js';
import { InventoryImportError, parseCredentialCsv } from './csv.js';
import * as repo from './repository.js';
import { sandboxCredential } from './sandbox-credentials.js';

/** Who is buying: the key owner, the key's mode, its wallet when known, and the owner's role (prices are role-aware). */
export interface Buyer extends WalletOwner {
  role: Role;
}

export interface RcItemInput {
  packageId: string;
  recipientPhone: string;
}

type SingleCode = 'RC_WALLET_BUY_FAILED';
type BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
type RcCode = SingleCode | BulkCode;

const BUYER_ROLES: readonly Role[] = ['Agent', 'SuperAgent'];

/** Spec §5.5: result-checker purchases are for Agent and SuperAgent keys only. */
export function assertRcBuyer(role: Role, code: RcCode): void {
  if (!BUYER_ROLES.includes(role)) {
    throw forbidden(code, 'Result-checker purchases are available to Agent and SuperAgent accounts only');
  }
}

interface PricedPackage {
  id: string;
  name: string;
  price: number;
}

type PackageRow = Awaited<ReturnType<typeof repo.findPackagesForRole>>[number];

/** Why a package cannot be sold, or null when it can. */
function packageProblem(row: PackageRow | undefined, packageId: string): string | null {
  if (!row) return `Result-checker package ${packageId} does not exist`;
  if (row.status !== 'Active') return `Result-checker package ${packageId} is not active`;
  return null;
}

function priced(row: PackageRow): PricedPackage {
  return { id: row.id, name: row.name, price: Number(row.price) };
}

function ghsText(pesewas: number): string {
  return `GHS ${toGhs(pesewas).toFixed(2)}`;
}

/** What the buyer is handed: the credential's ciphertext (decrypted after commit) and its inventory row. */
interface Issued {
  credentialId: string | null;
  secret: string;
}

type SingleOutcome =
  | { kind: 'completed'; secret: string; reference: string }
  | { kind: 'out_of_stock'; packageName: string; reference: string };

interface BulkOutcome {
  transactions: { transactionId: string; recipientPhone: string; secret: string }[];
  failures: RcBulkFailure[];
  charged: number;
}

interface ValidBulkItem {
  index: number;
  input: RcItemInput;
  phone: string;
}

const OUT_OF_STOCK = (name: string) => `Out of stock: no ${name} credential is available`;

export class ResultCheckerService {
  constructor(
    private readonly database: Database,
    private readonly cipher: CredentialCipher,
  ) {}

  /**
   * Spec 4.16 / decisions.md §3: debit, then assign one credential, in one transaction. Out of
   * stock: the debit is refunded and the failed attempt is committed (an audit trail that
   * nets to zero) before the call answers 409.
   */
  async buySingle(buyer: Buyer, input: RcItemInput): Promise<RcPurchase> {
    const code: SingleCode = 'RC_WALLET_BUY_FAILED';
    assertRcBuyer(buyer.role, code);
    const phone = normaliseGhanaMsisdn(input.recipientPhone);
    if (!phone) throw badRequest(code, 'recipientPhone is not a valid Ghana mobile number');
    const [known] = await repo.findPackagesForRole(this.database.read, [input.packageId], buyer.role);
    const problem = packageProblem(known, input.packageId);
    if (problem) throw badRequest(code, problem);

    const id = newId('rc');
    const outcome = await this.guarded(code, () =>
      this.database.transaction(async (trx): Promise<SingleOutcome> => {
        const now = Date.now();
        const reference = shortReference('RC');
        const [row] = await repo.findPackagesForRole(trx, [input.packageId], buyer.role);
        const stillProblem = packageProblem(row, input.packageId);
        if (stillProblem || !row) throw badRequest(code, stillProblem ?? 'package vanished');
        const pkg = priced(row);

        const refs = { orderId: id, rcTransactionId: id, idempotencyKey: `rc_debit:${id}`, memo: `Result checker ${pkg.name}` };
        const record = (before: number) => ({
          id,
          shortReference: reference,
          profileId: buyer.profileId,
          mode: buyer.mode,
          packageId: pkg.id,
          packageName: pkg.name,
          amount: pkg.price,
          buyerPhone: phone,
          bulkId: null,
          walletBalanceBefore: before,
          now,
        });
        // Spec 4.16: the wallet is debited before inventory is assigned. A sale's debit is written
        // with its records (its ledger entry, the transaction and its order) once the credential is taken.
        let issued = null as Issued | null;
        const debited = await this.debit(trx, buyer, pkg.price, code, now, refs, async (after) => {
          issued = await this.issue(trx, buyer.mode, pkg.id, id, now);
          if (!issued) return [];
          return repo.purchaseStatements(trx, {
            ...record(after.available + pkg.price),
            state: 'completed',
            credentialId: issued.credentialId,
            credentialSecret: issued.secret,
            errorMessage: null,
            walletBalanceAfter: after.available,
          });
        });
        if (!issued) {
          const before = debited.availableAfter + pkg.price;
          await this.refund(trx, debited.walletId, pkg.price, id, now);
          await repo.insertPurchase(trx, {
            ...record(before),
            state: 'failed',
            credentialId: null,
            credentialSecret: null,
            errorMessage: `${OUT_OF_STOCK(pkg.name)}; the debit was refunded`,
            walletBalanceAfter: before,
          });
          return { kind: 'out_of_stock', packageName: pkg.name, reference };
        }
        return { kind: 'completed', secret: issued.secret, reference };
      }),
    );
    if (outcome.kind === 'out_of_stock') {
      throw conflict(
        code,
        `${OUT_OF_STOCK(outcome.packageName)}. The debit was refunded; nothing was charged (reference ${outcome.reference}).`,
      );
    }
    return { transactionId: id, shortReference: outcome.reference, credential: this.reveal(outcome.secret), status: 'completed' };
  }

  /**
   * Spec 4.17 / decisions.md §8: each item validated on its own; one debit for the total of the
   * valid items; each then gets a credential or fails and is refunded. Every item failing is 409
   * with everything refunded.
   */
  async buyBulk(buyer: Buyer, items: readonly RcItemInput[]): Promise<RcBulkPurchase> {
    const code: BulkCode = 'RC_WALLET_BULK_BUY_FAILED';
    assertRcBuyer(buyer.role, code);
    if (items.length < 1 || items.length > MAX_RC_BULK_ITEMS) {
      throw badRequest(code, `items must hold 1 to ${MAX_RC_BULK_ITEMS} entries`);
    }
    const failures: RcBulkFailure[] = [];
    const fail = (index: number, input: RcItemInput, message: string) =>
      failures.push({ index, packageId: input.packageId, recipientPhone: input.recipientPhone, error: { code, message } });

    const known = new Map(
      (await repo.findPackagesForRole(this.database.read, items.map((i) => i.packageId), buyer.role)).map((p) => [p.id, p]),
    );
    const valid: ValidBulkItem[] = [];
    items.forEach((input, index) => {
      const phone = normaliseGhanaMsisdn(input.recipientPhone);
      const problem = packageProblem(known.get(input.packageId), input.packageId);
      if (problem) fail(index, input, problem);
      else if (!phone) fail(index, input, 'recipientPhone is not a valid Ghana mobile number');
      else valid.push({ index, input, phone });
    });

    let outcome: BulkOutcome = { transactions: [], failures: [], charged: 0 };
    if (valid.length > 0) {
      const bulkId = newId('rcb');
      outcome = await this.guarded(code, () =>
        this.database.transaction((trx) => this.bulkInTransaction(trx, buyer, bulkId, valid, code)),
      );
    }
    failures.push(...outcome.failures);
    failures.sort((a, b) => a.index - b.index);

    if (outcome.transactions.length === 0) {
      const shown = failures.slice(0, 3).map((f) => `item ${f.index}: ${f.error.message}`);
      const more = failures.length > 3 ? `; and ${failures.length - 3} more` : '';
      throw conflict(code, `No item could be bought (${shown.join('; ')}${more}). Nothing was charged.`);
    }
    return {
      transactions: outcome.transactions.map((t) => ({
        transactionId: t.transactionId,
        recipientPhone: t.recipientPhone,
        credential: this.reveal(t.secret),
      })),
      failures,
      totalAmount: toGhs(outcome.charged),
      status: 'completed',
    };
  }

  private async bulkInTransaction(
    trx: Executor,
    buyer: Buyer,
    bulkId: string,
    valid: readonly ValidBulkItem[],
    code: BulkCode,
  ): Promise<BulkOutcome> {
    const now = Date.now();
    const outcome: BulkOutcome = { transactions: [], failures: [], charged: 0 };
    const fresh = new Map(
      (await repo.findPackagesForRole(trx, valid.map((v) => v.input.packageId), buyer.role)).map((p) => [p.id, p]),
    );
    const payable: (ValidBulkItem & { pkg: PricedPackage })[] = [];
    for (const item of valid) {
      const row = fresh.get(item.input.packageId);
      const problem = packageProblem(row, item.input.packageId);
      if (problem || !row) outcome.failures.push(this.failure(item, code, problem ?? 'package vanished'));
      else payable.push({ ...item, pkg: priced(row) });
    }
    if (payable.length === 0) return outcome;

    const total = payable.reduce((sum, item) => sum + item.pkg.price, 0);
    const debited = await this.debit(trx, buyer, total, code, now, {
      orderId: null,
      rcTransactionId: null,
      idempotencyKey: `rc_bulk_debit:${bulkId}`,
      memo: `Result checker bulk purchase ${bulkId} (${payable.length} items)`,
    });
    // Each item's order shows the balance as if items were charged one after another.
    let running = debited.availableAfter + total;
    for (const item of payable) {
      const id = newId('rc');
      const issued = await this.issue(trx, buyer.mode, item.pkg.id, id, now);
      const record = {
        id,
        shortReference: shortReference('RC'),
        profileId: buyer.profileId,
        mode: buyer.mode,
        packageId: item.pkg.id,
        packageName: item.pkg.name,
        amount: item.pkg.price,
        buyerPhone: item.phone,
        bulkId,
        walletBalanceBefore: running,
        now,
      };
      if (!issued) {
        await this.refund(trx, debited.walletId, item.pkg.price, id, now);
        await repo.insertPurchase(trx, {
          ...record,
          state: 'failed',
          credentialId: null,
          credentialSecret: null,
          errorMessage: `${OUT_OF_STOCK(item.pkg.name)}; refunded`,
          walletBalanceAfter: running,
        });
        outcome.failures.push(this.failure(item, code, `${OUT_OF_STOCK(item.pkg.name)}; refunded`));
        continue;
      }
      running -= item.pkg.price;
      outcome.charged += item.pkg.price;
      await repo.insertPurchase(trx, {
        ...record,
        state: 'completed',
        credentialId: issued.credentialId,
        credentialSecret: issued.secret,
        errorMessage: null,
        walletBalanceAfter: running,
      });
      outcome.transactions.push({ transactionId: id, recipientPhone: item.phone, secret: issued.secret });
    }
    return outcome;
  }

  /** Spec 4.15: the caller's own transaction in the key's mode; the credential only once completed. */
  async status(owner: { profileId: string; mode: Mode }, transactionId: string): Promise<RcTransaction> {
    const t = await repo.findOwnTransaction(this.database.read, transactionId, owner.profileId, owner.mode);
    if (!t) throw new AppError(404, 'ORDER_NOT_FOUND', `Result-checker transaction ${transactionId} not found`);
    return {
      _id: t.id,
      shortReference: t.short_reference,
      state: t.state,
      paymentGatewayStatus: t.payment_gateway_status,
      amount: toGhs(t.amount),
      currency: 'GHS',
      packageName: t.package_name,
      buyerPhone: t.buyer_phone,
      credential: t.state === 'completed' && t.credential_secret ? this.reveal(t.credential_secret) : null,
      createdAt: t.created_at,
      completedAt: t.completed_at,
    };
  }

  /**
   * `cli rc import`: a strict CSV of username,password; all or nothing. Duplicates (in the
   * file or already stored for the package) are skipped and counted.
   */
  async importCredentials(packageId: string, csvText: string): Promise<{ added: number; skipped: number }> {
    const credentials = parseCredentialCsv(csvText);
    return this.database.transaction(async (trx) => {
      const pkg = await repo.findPackage(trx, packageId);
      if (!pkg) throw new InventoryImportError(`no result-checker package ${packageId}`);
      const added = await repo.insertCredentials(trx, this.cipher, packageId, credentials, Date.now());
      return { added, skipped: credentials.length - added };
    });
  }

  async stock(packageId: string): Promise<number> {
    return repo.countUnassigned(this.database.read, packageId);
  }

  private failure(item: ValidBulkItem, code: BulkCode, message: string): RcBulkFailure {
    return {
      index: item.index,
      packageId: item.input.packageId,
      recipientPhone: item.input.recipientPhone,
      error: { code, message },
    };
  }

  /** Debits available (never below zero) with an rc_debit ledger entry; 402 when it cannot. */
  private async debit(
    trx: Executor,
    buyer: Buyer,
    amount: number,
    code: RcCode,
    now: number,
    refs: { orderId: string | null; rcTransactionId: string | null; idempotencyKey: string; memo: string },
    alsoWrite?: (after: Balances) => Promise<Statement[]>,
  ): Promise<{ walletId: string; availableAfter: number }> {
    const walletId = await walletIdOf(trx, buyer);
    const insufficient = (available: number) =>
      paymentRequired(code, `Insufficient wallet balance: ${ghsText(amount)} needed, ${ghsText(available)} available`);
    if (walletId === null) throw insufficient(0);
    const after = await post(trx, { walletId, kind: 'rc_debit', availableDelta: -amount, heldDelta: 0, ...refs }, now, alsoWrite);
    if (!after) throw insufficient((await walletRepo.findWalletById(trx, walletId))?.available ?? 0);
    return { walletId, availableAfter: after.available };
  }

  private async refund(trx: Executor, walletId: string, amount: number, transactionId: string, now: number): Promise<void> {
    const after = await post(
      trx,
      {
        walletId,
        kind: 'rc_refund',
        availableDelta: amount,
        heldDelta: 0,
        orderId: transactionId,
        rcTransactionId: transactionId,
        idempotencyKey: `rc_refund:${transactionId}`,
        memo: 'Result checker out of stock: refund',
      },
      now,
    );
    if (!after) throw new Error(`refund of ${transactionId} was refused`);
  }

  /** Live: the next credential from inventory (null when none). Test: a generated sandbox credential. */
  private async issue(trx: Executor, mode: Mode, packageId: string, transactionId: string, now: number): Promise<Issued | null> {
    if (mode === 'test') return { credentialId: null, secret: this.cipher.encrypt(sandboxCredential()) };
    const taken = await repo.assignCredential(trx, this.database.dialect, packageId, transactionId, now);
    return taken ? { credentialId: taken.id, secret: taken.secret } : null;
  }

  private reveal(secret: string): Credential {
    const { username, password } = this.cipher.decrypt(secret);
    return { username, password };
  }

  /**
   * Runs a purchase transaction (which draws fresh short references on each run). Unique
   * violations abort the transaction on PostgreSQL, so they are handled here, outside it:
   * a short-reference collision (astronomically rare) is retried; should two transactions
   * ever be handed the same credential, the unique rc_transactions.credential_id refuses the
   * second and nothing is charged.
   */
  private async guarded<T>(code: ErrorCode, work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (error) {
        const referenceTaken =
          isUniqueViolation(error, 'rc_transactions_short_reference_key') || isUniqueViolation(error, 'orders_short_reference_key');
        if (referenceTaken && attempt < 3) continue;
        if (isUniqueViolation(error, 'rc_transactions_credential_id_key')) {
          throw conflict(code, 'A concurrent purchase took the same credential; nothing was charged. Please retry.');
        }
        throw error;
      }
    }
  }
}
