import { nullableGhs, toGhs } from '../../lib/money.js';
import type { WalletBalance } from './schemas.js';

/** What the wallet view needs of a wallet row (pesewas). */
export interface WalletState {
  available: number;
  held: number;
  updatedAt: number;
  alertThreshold: number | null;
}

/** GET /api/v1/wallet-balance, with alertThreshold (docs/webhooks.md, "Low-balance alert"): GHS at the edge. */
export function toWalletView(profileId: string, w: WalletState): WalletBalance {
  return {
    userProfileId: profileId,
    availableBalance: toGhs(w.available),
    heldBalance: toGhs(w.held),
    totalBalance: toGhs(w.available + w.held),
    currency: 'GHS',
    lastUpdated: w.updatedAt,
    alertThreshold: nullableGhs(w.alertThreshold),
  };
}
