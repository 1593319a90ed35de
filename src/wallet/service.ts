import type { Database, Executor } from '../db/connection.js';
import { runTogether, type Statement } from '../db/prepared.js';
import type { LedgerKind, Mode } from '../db/schema.js';
import type { WalletBalance } from '../http/schemas/profile.js';
import { newId } from '../lib/ids.js';
import { toGhs } from '../lib/money.js';
import * as repo from './repository.js';

export interface Balances {
  available: number;
  held: number;
}

/** One balance change and the reason for it. Amounts are pesewas; either delta may be zero. */
export interface Posting {
  walletId: string;
  kind: LedgerKind;
  availableDelta: number;
  heldDelta: number;
  orderId?: string | null;
  orderItemId?: string | null;
  rcTransactionId?: string | null;
  topUpId?: string | null;
  /** Unique per business event ("settle:<item>:<attempt>"): a second booking fails the transaction. */
  idempotencyKey?: string | null;
  memo?: string | null;
}

/** Whose wallet: a profile's in one mode, with its id when the caller already read it. */
export interface WalletOwner {
  profileId: string;
  mode: Mode;
  /** From the API key's read (the auth join); looked up when absent or null. */
  wallet?: { id: string } | null;
}

/** The owner's wallet id inside a unit of work; null when the profile has no wallet in that mode. */
export async function walletIdOf(trx: Executor, owner: WalletOwner): Promise<string | null> {
  if (owner.wallet) return owner.wallet.id;
  return (await repo.findWallet(trx, owner.profileId, owner.mode))?.id ?? null;
}

/**
 * The only way money moves. Must be called inside the caller's unit of work, so the balance
 * change, its ledger entry and the record that caused it commit or roll back together.
 * `alsoWrite` gives writes that belong with this change (the order it pays for, say), from the
 * balances after it (it may first do what they depend on, in the same unit): they are written
 * with the ledger entry, in one round trip on PostgreSQL. Nothing is written when the wallet
 * cannot take the change (null).
 */
export async function post(
  trx: Executor,
  posting: Posting,
  now: number,
  alsoWrite?: (after: Balances) => Statement[] | Promise<Statement[]>,
): Promise<Balances | null> {
  const after = await repo.applyDelta(trx, posting.walletId, posting.availableDelta, posting.heldDelta, now);
  if (!after) return null;
  const also = alsoWrite ? await alsoWrite(after) : [];
  const entry = repo.ledgerEntryStatement(trx, { ...posting, availableAfter: after.available, heldAfter: after.held, now });
  await runTogether(trx, [entry, ...also]);
  return after;
}

export type PostManyResult =
  | { ok: true; after: Balances[] }
  /** `failedAt`: the first posting the wallet could not take; `balance`: the balances before it. */
  | { ok: false; failedAt: number; balance: Balances };

/**
 * Several postings to one wallet, in order: the same ledger entries and balances as calling
 * post() for each in turn, written as one balance update and batched ledger rows (bulk imports).
 * Nothing is written when any step would take a balance below zero. Inside the caller's unit of
 * work, like post(); a concurrent change to the wallet fails the whole unit.
 */
export async function postMany(
  trx: Executor,
  walletId: string,
  postings: readonly Omit<Posting, 'walletId'>[],
  now: number,
): Promise<PostManyResult> {
  const wallet = await repo.findWalletById(trx, walletId);
  if (!wallet) throw new Error(`no wallet ${walletId}`);
  const start = { available: Number(wallet.available), held: Number(wallet.held) };
  const running = { ...start };
  const after: Balances[] = [];
  const entries: repo.LedgerEntryInput[] = [];
  for (const [index, posting] of postings.entries()) {
    const next = { available: running.available + posting.availableDelta, held: running.held + posting.heldDelta };
    if (next.available < 0 || next.held < 0) return { ok: false, failedAt: index, balance: { ...running } };
    Object.assign(running, next);
    after.push({ ...next });
    entries.push({ ...posting, walletId, availableAfter: next.available, heldAfter: next.held, now });
  }
  if (entries.length === 0) return { ok: true, after };
  if (!(await repo.replaceBalances(trx, walletId, start, running, now))) {
    throw new Error(`wallet ${walletId} changed while a batch of postings was being booked`);
  }
  await repo.insertLedgerEntries(trx, entries);
  return { ok: true, after };
}

export class WalletService {
  constructor(private readonly database: Database) {}

  async balance(profileId: string, mode: Mode): Promise<Balances & { updatedAt: number }> {
    const wallet = await repo.readWallet(this.database, profileId, mode);
    if (!wallet) return { available: 0, held: 0, updatedAt: 0 };
    return { available: wallet.available, held: wallet.held, updatedAt: wallet.updated_at };
  }

  async balanceView(profileId: string, mode: Mode): Promise<WalletBalance> {
    const b = await this.balance(profileId, mode);
    return {
      userProfileId: profileId,
      availableBalance: toGhs(b.available),
      heldBalance: toGhs(b.held),
      totalBalance: toGhs(b.available + b.held),
      currency: 'GHS',
      lastUpdated: b.updatedAt,
    };
  }
}

/**
 * Makes sure the profile has its wallet in `mode`. A wallet created now is credited with
 * `opening` pesewas through the ledger; an existing one is never credited again.
 */
export async function ensureWallet(
  trx: Executor,
  profileId: string,
  mode: Mode,
  opening: number,
  now: number,
): Promise<{ walletId: string; created: boolean }> {
  const created = await repo.createWalletIfMissing(trx, { id: newId('wal'), profileId, mode, now });
  const wallet = await repo.findWallet(trx, profileId, mode);
  if (!wallet) throw new Error(`wallet for ${profileId}/${mode} vanished`);
  if (created && opening > 0) {
    await post(
      trx,
      {
        walletId: wallet.id,
        kind: 'opening_balance',
        availableDelta: opening,
        heldDelta: 0,
        idempotencyKey: `opening:${wallet.id}`,
        memo: 'Opening balance from seed import',
      },
      now,
    );
  }
  return { walletId: wallet.id, created };
}
