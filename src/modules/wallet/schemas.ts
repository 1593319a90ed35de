import { Type, type Static } from 'typebox';
import { Ghs, Nullable, Success, Timestamp } from '../../lib/wire.js';

/** Spec 2.3 */
export const WalletBalance = Type.Object({
  userProfileId: Type.String(),
  availableBalance: Ghs(),
  heldBalance: Ghs(),
  totalBalance: Ghs(),
  currency: Type.Literal('GHS'),
  lastUpdated: Timestamp(),
  alertThreshold: Nullable(Ghs('GHS: wallet.balance_low is raised when available falls below it; null when off')),
});
export type WalletBalance = Static<typeof WalletBalance>;
export const WalletBalanceResponse = Success(WalletBalance);

/** integrator-features §2: the low-balance alert. */
export const ALERT_THRESHOLD_MAX_GHS = 1_000_000;
export const WalletAlertBody = Type.Object(
  {
    threshold: Nullable(
      Type.Number({
        minimum: 0,
        maximum: ALERT_THRESHOLD_MAX_GHS,
        description: 'GHS, at most two decimals; null turns the alert off',
      }),
    ),
  },
  { additionalProperties: false },
);
export type WalletAlertBody = Static<typeof WalletAlertBody>;
