import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import { toGhs } from '../../lib/money.js';
import { ledgerKeys } from './ledger-keys.js';
import type { WalletRepository } from './repository.js';
import type { WalletBalance } from './schemas.js';

export class WalletService {
  constructor(private readonly wallets: WalletRepository) {}

  /** Spec 2.3: the wallet of the key's mode (zero until it is first created). */
  async balanceView(owner: Owner): Promise<WalletBalance> {
    const wallet = await this.wallets.find(owner);
    const available = wallet ? Number(wallet.available) : 0;
    const held = wallet ? Number(wallet.held) : 0;
    return {
      userProfileId: owner.profileId,
      availableBalance: toGhs(available),
      heldBalance: toGhs(held),
      totalBalance: toGhs(available + held),
      currency: 'GHS',
      lastUpdated: wallet ? Number(wallet.updated_at) : 0,
    };
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
      const after = await this.wallets.post(
        tx,
        {
          walletId: wallet.id,
          kind: 'opening_balance',
          availableDelta: opening,
          heldDelta: 0,
          idempotencyKey: ledgerKeys.opening(wallet.id),
          memo: 'Opening balance from seed import',
        },
        now,
      );
      if (!after) throw new Error(`opening balance of wallet ${wallet.id} was refused`);
    }
    return { walletId: wallet.id, created };
  }
}
