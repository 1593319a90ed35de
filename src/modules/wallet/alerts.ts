import type { EventRecorder } from '../events/service.js';
import type { LowBalanceListener } from './repository.js';
import { toWalletView } from './views.js';

/** wallet.balance_low with the wallet as GET /wallet-balance shows it right after the fall. */
export function lowBalanceEvents(events: EventRecorder): LowBalanceListener {
  return (tx, crossing) => {
    const wallet = toWalletView(crossing.profileId, {
      available: crossing.available,
      held: crossing.held,
      updatedAt: crossing.now,
      alertThreshold: crossing.threshold,
    });
    events.record(tx, crossing, 'wallet.balance_low', { object: wallet }, crossing.now);
  };
}
