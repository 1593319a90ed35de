import type { Database, Executor } from '../db/connection.js';
import { insertStatement, prepared, preparedQuery, type Statement } from '../db/prepared.js';
import type { ExpressionBuilder } from 'kysely';
import type { DB, LedgerKind, Mode } from '../db/schema.js';

const walletQuery = (db: Executor, profileId: string, mode: Mode) =>
  db.selectFrom('wallets').selectAll().where('profile_id', '=', profileId).where('mode', '=', mode);

const walletInUnit = preparedQuery((db, profileId: string, mode: Mode) => walletQuery(db, profileId, mode));

export async function findWallet(db: Executor, profileId: string, mode: Mode) {
  return (await walletInUnit(db, profileId, mode)).rows[0];
}

const walletPrepared = prepared((db, profileId: string, mode: Mode) => walletQuery(db, profileId, mode));

/** findWallet for the read path (balance reads on every profile and wallet request). */
export async function readWallet(database: Database, profileId: string, mode: Mode) {
  return (await walletPrepared(database, profileId, mode))[0];
}

export async function findWalletById(db: Executor, walletId: string) {
  return db.selectFrom('wallets').selectAll().where('id', '=', walletId).executeTakeFirst();
}

/** Creates the wallet at zero if it does not exist; returns true when it was created now. */
export async function createWalletIfMissing(
  db: Executor,
  wallet: { id: string; profileId: string; mode: Mode; now: number },
): Promise<boolean> {
  const result = await db
    .insertInto('wallets')
    .values({
      id: wallet.id,
      profile_id: wallet.profileId,
      mode: wallet.mode,
      available: 0,
      held: 0,
      created_at: wallet.now,
      updated_at: wallet.now,
    })
    .onConflict((oc) => oc.columns(['profile_id', 'mode']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * Moves money in one statement that refuses to take either balance below zero.
 * Returns the balances after, or undefined when the wallet cannot afford it (nothing changed).
 */
const applyDeltaQuery = preparedQuery((db, walletId: string, availableDelta: number, heldDelta: number, now: number) =>
  db
    .updateTable('wallets')
    .set((eb) => ({
      available: eb('available', '+', availableDelta),
      held: eb('held', '+', heldDelta),
      updated_at: now,
    }))
    .where('id', '=', walletId)
    .where((eb) =>
      eb.and([eb(eb('available', '+', availableDelta), '>=', 0), eb(eb('held', '+', heldDelta), '>=', 0)]),
    )
    .returning(['available', 'held']),
);

export async function applyDelta(
  db: Executor,
  walletId: string,
  availableDelta: number,
  heldDelta: number,
  now: number,
): Promise<{ available: number; held: number } | undefined> {
  return (await applyDeltaQuery(db, walletId, availableDelta, heldDelta, now)).rows[0];
}

/**
 * Sets the balances to `to` only if they are still `from` (compare-and-set); false when another
 * writer changed the wallet in between (nothing changed then).
 */
export async function replaceBalances(
  db: Executor,
  walletId: string,
  from: { available: number; held: number },
  to: { available: number; held: number },
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('wallets')
    .set({ available: to.available, held: to.held, updated_at: now })
    .where('id', '=', walletId)
    .where('available', '=', from.available)
    .where('held', '=', from.held)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface LedgerEntryInput {
  walletId: string;
  kind: LedgerKind;
  availableDelta: number;
  heldDelta: number;
  availableAfter: number;
  heldAfter: number;
  orderId?: string | null;
  orderItemId?: string | null;
  rcTransactionId?: string | null;
  topUpId?: string | null;
  idempotencyKey?: string | null;
  memo?: string | null;
  now: number;
}

export function ledgerEntryStatement(db: Executor, e: LedgerEntryInput): Statement {
  return insertStatement(db, 'ledger_entries', ledgerRow(e));
}

const LEDGER_BATCH = 500;

/** Ledger rows in the given order (ids ascending), a few hundred per statement. */
export async function insertLedgerEntries(db: Executor, entries: readonly LedgerEntryInput[]): Promise<void> {
  for (let start = 0; start < entries.length; start += LEDGER_BATCH) {
    await db.insertInto('ledger_entries').values(entries.slice(start, start + LEDGER_BATCH).map(ledgerRow)).execute();
  }
}

function ledgerRow(e: LedgerEntryInput) {
  return {
    wallet_id: e.walletId,
    kind: e.kind,
    available_delta: e.availableDelta,
    held_delta: e.heldDelta,
    available_after: e.availableAfter,
    held_after: e.heldAfter,
    order_id: e.orderId ?? null,
    order_item_id: e.orderItemId ?? null,
    rc_transaction_id: e.rcTransactionId ?? null,
    top_up_id: e.topUpId ?? null,
    idempotency_key: e.idempotencyKey ?? null,
    memo: e.memo ?? null,
    created_at: e.now,
  };
}

/**
 * For the `ledger verify` checks of each module: the net change to `available` of the entries of
 * `kinds` booked on wallet `w`, as a subquery of a select from `wallets as w`.
 */
export function walletLedgerNet(eb: ExpressionBuilder<DB & { w: DB['wallets'] }, 'w'>, kinds: readonly LedgerKind[]) {
  return eb
    .selectFrom('ledger_entries as l')
    .select((s) => s.fn.coalesce(s.fn.sum<number>('l.available_delta'), s.lit(0)).as('n'))
    .whereRef('l.wallet_id', '=', 'w.id')
    .where('l.kind', 'in', kinds);
}

/** Sum of every ledger entry per wallet, for `ledger verify`. */
export async function ledgerTotals(db: Executor) {
  return db
    .selectFrom('wallets as w')
    .leftJoin('ledger_entries as l', 'l.wallet_id', 'w.id')
    .select((eb) => [
      'w.id',
      'w.profile_id',
      'w.mode',
      'w.available',
      'w.held',
      eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('ledger_available'),
      eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('ledger_held'),
    ])
    .groupBy(['w.id', 'w.profile_id', 'w.mode', 'w.available', 'w.held'])
    .orderBy('w.id')
    .execute();
}
