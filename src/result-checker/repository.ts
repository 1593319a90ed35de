import type { Executor } from '../db/connection.js';
import { lockSkipLocked, type DialectName } from '../db/dialect.js';
import type { Mode, OrderState, RcTransactionState, Role } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { insertStatement, preparedQuery, runTogether, type Statement } from '../db/prepared.js';
import { walletLedgerNet } from '../wallet/repository.js';
import type { Credential, CredentialCipher } from './credential-crypto.js';

function packagesForRole(db: Executor, role: Role) {
  return db
    .selectFrom('rc_packages as p')
    .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
    .select((eb) => ['p.id', 'p.name', 'p.status', eb.fn.coalesce('rp.price', 'p.price').as('price')]);
}

const packageForRole = preparedQuery((db, packageId: string, role: Role) => packagesForRole(db, role).where('p.id', '=', packageId));

/** Packages with the price the given role pays (role price, else the package price). */
export async function findPackagesForRole(db: Executor, packageIds: readonly string[], role: Role) {
  const ids = [...new Set(packageIds)];
  if (ids.length === 0) return [];
  if (ids.length === 1 && ids[0] !== undefined) return (await packageForRole(db, ids[0], role)).rows;
  return packagesForRole(db, role).where('p.id', 'in', ids).execute();
}

export async function findPackage(db: Executor, packageId: string) {
  return db.selectFrom('rc_packages').select(['id', 'name', 'status']).where('id', '=', packageId).executeTakeFirst();
}

export async function countUnassigned(db: Executor, packageId: string): Promise<number> {
  const row = await db
    .selectFrom('rc_credentials')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('package_id', '=', packageId)
    .where('assigned_transaction_id', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Takes the oldest unassigned credential of the package for `transactionId` in one statement.
 * PostgreSQL skips rows another transaction is taking (no waiting, no double assignment);
 * SQLite has a single writer. The `assigned_transaction_id is null` re-check in the outer
 * update and the unique rc_transactions.credential_id are the backstops.
 */
export async function assignCredential(
  trx: Executor,
  dialect: DialectName,
  packageId: string,
  transactionId: string,
  now: number,
): Promise<{ id: string; secret: string } | undefined> {
  return (await assignNext[dialect](trx, packageId, transactionId, now)).rows[0];
}

function assignQuery(trx: Executor, dialect: DialectName, packageId: string, transactionId: string, now: number) {
  const next = lockSkipLocked(
    trx
      .selectFrom('rc_credentials')
      .select('id')
      .where('package_id', '=', packageId)
      .where('assigned_transaction_id', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1),
    dialect,
  );
  return trx
    .updateTable('rc_credentials')
    .set({ assigned_transaction_id: transactionId, assigned_at: now })
    .where('id', '=', next)
    .where('assigned_transaction_id', 'is', null)
    .returning(['id', 'secret']);
}

const assignNext = {
  sqlite: preparedQuery((trx, packageId: string, transactionId: string, now: number) =>
    assignQuery(trx, 'sqlite', packageId, transactionId, now),
  ),
  postgres: preparedQuery((trx, packageId: string, transactionId: string, now: number) =>
    assignQuery(trx, 'postgres', packageId, transactionId, now),
  ),
};

const INSERT_BATCH = 200;

/**
 * Adds credentials not yet known for the package (by username digest), encrypted; returns how
 * many were added. Duplicates in the list itself and ones already stored are skipped.
 */
export async function insertCredentials(
  trx: Executor,
  cipher: CredentialCipher,
  packageId: string,
  credentials: readonly Credential[],
  now: number,
): Promise<number> {
  const unique = new Map<string, Credential>();
  for (const credential of credentials) {
    const digest = cipher.usernameDigest(packageId, credential.username);
    if (!unique.has(digest)) unique.set(digest, credential);
  }
  const rows = [...unique].map(([digest, credential]) => ({
    id: newId('cred'),
    package_id: packageId,
    username_digest: digest,
    secret: cipher.encrypt({ username: credential.username, password: credential.password }),
    assigned_transaction_id: null,
    assigned_at: null,
    created_at: now,
  }));
  let added = 0;
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    const result = await trx
      .insertInto('rc_credentials')
      .values(rows.slice(start, start + INSERT_BATCH))
      .onConflict((oc) => oc.columns(['package_id', 'username_digest']).doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return added;
}

export interface PurchaseRecord {
  /** Shared by the rc transaction and its order row: one purchase, one id. */
  id: string;
  shortReference: string;
  profileId: string;
  mode: Mode;
  packageId: string;
  packageName: string;
  amount: number;
  buyerPhone: string;
  state: Extract<RcTransactionState, 'completed' | 'failed'>;
  credentialId: string | null;
  credentialSecret: string | null;
  bulkId: string | null;
  errorMessage: string | null;
  walletBalanceBefore: number;
  walletBalanceAfter: number;
  now: number;
}

/** The rc transaction and the order row GET /orders lists (orderType result_checker). */
export async function insertPurchase(trx: Executor, p: PurchaseRecord): Promise<void> {
  await runTogether(trx, purchaseStatements(trx, p));
}

/** The purchase's rc_transactions row and its order, as Statements (see runTogether). */
export function purchaseStatements(trx: Executor, p: PurchaseRecord): Statement[] {
  const completedAt = p.state === 'completed' ? p.now : null;
  const transaction = insertStatement(trx, 'rc_transactions', {
    id: p.id,
    profile_id: p.profileId,
    mode: p.mode,
    order_id: p.id,
    package_id: p.packageId,
    package_name: p.packageName,
    short_reference: p.shortReference,
    state: p.state,
    payment_gateway_status: null,
    amount: p.amount,
    currency: 'GHS',
    buyer_phone: p.buyerPhone,
    credential_id: p.credentialId,
    credential_secret: p.credentialSecret,
    bulk_id: p.bulkId,
    error_message: p.errorMessage,
    created_at: p.now,
    completed_at: completedAt,
    updated_at: p.now,
  });
  const state: OrderState = p.state;
  const order = insertStatement(trx, 'orders', {
    id: p.id,
    profile_id: p.profileId,
    mode: p.mode,
    order_type: 'result_checker',
    state,
    short_reference: p.shortReference,
    beneficiary_msisdn: p.buyerPhone,
    operator_id: '',
    operator_name: '',
    product_id: '',
    product_name: '',
    package_id: p.packageId,
    package_label: p.packageName,
    amount: p.amount,
    currency: 'GHS',
    error_message: p.errorMessage,
    submitted_at: null,
    completed_at: completedAt,
    is_bulk: 0,
    bulk_completed_count: null,
    bulk_failed_count: null,
    wallet_balance_before: p.walletBalanceBefore,
    wallet_balance_after: p.walletBalanceAfter,
    payment_reference: null,
    anonymous_id: null,
    rc_transaction_id: p.id,
    reversal_reason: null,
    reversed_at: null,
    created_at: p.now,
    updated_at: p.now,
  });
  return [transaction, order];
}

/** One transaction of its owner in its mode; another owner's or mode's is not found. */
export async function findOwnTransaction(db: Executor, id: string, profileId: string, mode: Mode) {
  return db
    .selectFrom('rc_transactions')
    .selectAll()
    .where('id', '=', id)
    .where('profile_id', '=', profileId)
    .where('mode', '=', mode)
    .executeTakeFirst();
}

// ---- ledger verify (read-only) ----

const RC_KINDS = ['rc_debit', 'rc_refund'] as const;

/** Per wallet: the net of its rc ledger entries and the total of its completed purchases. */
export async function walletRcTotals(db: Executor) {
  return db
    .selectFrom('wallets as w')
    .select((eb) => [
      'w.id',
      'w.profile_id',
      'w.mode',
      walletLedgerNet(eb, RC_KINDS).as('ledger_net'),
      eb
        .selectFrom('rc_transactions as t')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('t.amount'), s.lit(0)).as('n'))
        .whereRef('t.profile_id', '=', 'w.profile_id')
        .whereRef('t.mode', '=', 'w.mode')
        .where('t.state', '=', 'completed')
        .as('completed_total'),
    ])
    .orderBy('w.id')
    .execute();
}

/** Per rc transaction: the entries that name it (count and net). */
export async function transactionLedgerNets(db: Executor) {
  return db
    .selectFrom('rc_transactions as t')
    .leftJoin('ledger_entries as l', 'l.rc_transaction_id', 't.id')
    .select((eb) => [
      't.id',
      't.state',
      't.amount',
      't.bulk_id',
      eb.fn.count<number>('l.id').as('entries'),
      eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('net'),
      eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('held_net'),
    ])
    .groupBy(['t.id', 't.state', 't.amount', 't.bulk_id'])
    .orderBy('t.id')
    .execute();
}

/** Per bulk purchase: the total of its items. */
export async function bulkTotals(db: Executor) {
  return db
    .selectFrom('rc_transactions')
    .select((eb) => ['bulk_id', eb.fn.sum<number>('amount').as('total'), eb.fn.countAll<number>().as('items')])
    .where('bulk_id', 'is not', null)
    .groupBy('bulk_id')
    .execute();
}

/** rc ledger entries that name no transaction: bulk debits (idempotency key rc_bulk_debit:<bulkId>). */
export async function unattachedRcEntries(db: Executor) {
  return db
    .selectFrom('ledger_entries')
    .select(['id', 'kind', 'available_delta', 'held_delta', 'idempotency_key'])
    .where('kind', 'in', RC_KINDS)
    .where('rc_transaction_id', 'is', null)
    .orderBy('id')
    .execute();
}

/** rc ledger entries booked on a wallet that is not the transaction owner's wallet of its mode. */
export async function misdirectedRcEntries(db: Executor) {
  return db
    .selectFrom('ledger_entries as l')
    .innerJoin('rc_transactions as t', 't.id', 'l.rc_transaction_id')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .select(['l.id', 't.id as transaction_id'])
    .where((eb) => eb.or([eb('w.profile_id', '!=', eb.ref('t.profile_id')), eb('w.mode', '!=', eb.ref('t.mode'))]))
    .orderBy('l.id')
    .execute();
}

/** Inventory links that disagree: a credential and the transaction it was handed to must point at each other. */
export async function inventoryMismatches(db: Executor) {
  const credentialSide = await db
    .selectFrom('rc_credentials as c')
    .leftJoin('rc_transactions as t', 't.id', 'c.assigned_transaction_id')
    .select(['c.id as credential_id', 'c.assigned_transaction_id', 't.credential_id as transaction_credential_id'])
    .where('c.assigned_transaction_id', 'is not', null)
    .where((eb) => eb.or([eb('t.id', 'is', null), eb('t.credential_id', 'is', null), eb('t.credential_id', '!=', eb.ref('c.id'))]))
    .execute();
  const transactionSide = await db
    .selectFrom('rc_transactions as t')
    .leftJoin('rc_credentials as c', 'c.id', 't.credential_id')
    .select(['t.id', 't.state', 't.mode', 't.credential_id', 't.credential_secret', 'c.assigned_transaction_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('t.credential_id', 'is not', null), eb.or([eb('c.id', 'is', null), eb('c.assigned_transaction_id', 'is', null), eb('c.assigned_transaction_id', '!=', eb.ref('t.id'))])]),
        eb.and([eb('t.state', '=', 'completed'), eb('t.credential_secret', 'is', null)]),
        eb.and([eb('t.state', '=', 'completed'), eb('t.mode', '=', 'live'), eb('t.credential_id', 'is', null)]),
        eb.and([eb('t.state', '!=', 'completed'), eb.or([eb('t.credential_id', 'is not', null), eb('t.credential_secret', 'is not', null)])]),
        eb.and([eb('t.mode', '=', 'test'), eb('t.credential_id', 'is not', null)]),
      ]),
    )
    .execute();
  return { credentialSide, transactionSide };
}
