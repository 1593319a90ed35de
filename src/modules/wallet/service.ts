import type { Database } from '../../db/connection.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import { invalid } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import { fromGhs } from '../../lib/money.js';
import { postings } from './postings.js';
import type { WalletRepository } from './repository.js';
import { ALERT_THRESHOLD_MAX_GHS, type WalletBalance } from './schemas.js';
import { toWalletView } from './views.js';

export class WalletService {
  constructor(
    private readonly database: Database,
    private readonly wallets: WalletRepository,
    private readonly clock: Clock,
  ) {}

  /** GET /api/v1/wallet-balance: the wallet of the key's mode (zero until it is first created). */
  async balanceView(owner: Owner): Promise<WalletBalance> {
    const wallet = await this.wallets.find(owner);
    return toWalletView(owner.profileId, {
      available: wallet ? Number(wallet.available) : 0,
      held: wallet ? Number(wallet.held) : 0,
      updatedAt: wallet ? Number(wallet.updated_at) : 0,
      alertThreshold:
        wallet?.alert_threshold === undefined || wallet.alert_threshold === null ? null : Number(wallet.alert_threshold),
    });
  }

  /**
   * The low-balance threshold (docs/webhooks.md, "Low-balance alert") of the key's wallet (GHS; null turns it off).
   * Setting it raises nothing by itself: the event comes when available next falls below it.
   */
  async setAlert(owner: Owner, thresholdGhs: number | null): Promise<WalletBalance> {
    const threshold = thresholdGhs === null ? null : fromGhs(thresholdGhs);
    if (thresholdGhs !== null && (threshold === null || threshold > ALERT_THRESHOLD_MAX_GHS * 100)) {
      throw invalid(
        'INVALID_REQUEST',
        `threshold must be a GHS amount from 0 to ${ALERT_THRESHOLD_MAX_GHS} with at most two decimals, or null`,
      );
    }
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const { walletId } = await this.ensure(tx, owner.profileId, owner.mode, 0, now);
      const wallet = await this.wallets.setAlert(tx, walletId, threshold, now);
      if (!wallet) throw new Error(`wallet ${walletId} vanished`);
      return toWalletView(owner.profileId, {
        available: Number(wallet.available),
        held: Number(wallet.held),
        updatedAt: Number(wallet.updated_at),
        alertThreshold: wallet.alert_threshold === null ? null : Number(wallet.alert_threshold),
      });
    });
  }

  /**
   * Makes sure the profile has its wallet in `mode`, inside the caller's unit. A wallet created now
   * is credited with `opening` pesewas through the ledger; an existing one is never credited again.
   */
  async ensure(
    tx: Tx,
    profileId: string,
    mode: Mode,
    opening: number,
    now: number,
  ): Promise<{ walletId: string; created: boolean }> {
    const created = await this.wallets.createIfMissing(tx, { id: newId('wal'), profileId, mode, now });
    const wallet = await this.wallets.findInUnit(tx, { profileId, mode });
    if (!wallet) throw new Error(`wallet for ${profileId}/${mode} vanished`);
    if (created && opening > 0) {
      const after = await this.wallets.post(tx, postings.openingBalance({ walletId: wallet.id, amount: opening }), now);
      if (!after) throw new Error(`opening balance of wallet ${wallet.id} was refused`);
    }
    return { walletId: wallet.id, created };
  }
}
