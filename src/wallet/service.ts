import type { Database, Executor } from '../db/connection.js';
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

/**
 * The only way money moves. Must be called inside the caller's unit of work, so the balance
 * change, its ledger entry and the record that caused it commit or roll back together.
 */
export async function post(trx: Executor, posting: Posting, now: number): Promise<Balances | null> {
  const after = await repo.applyDelta(trx, posting.walletId, posting.availableDelta, posting.heldDelta, now);
  if (!after) return null;
  await repo.insertLedgerEntry(trx, {
    ...posting,
    availableAfter: after.available,
    heldAfter: after.held,
    now,
  });
  return after;
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
