import { Type, type Static } from 'typebox';
import { EXAMPLE, Ghs, Nullable, Success, Text, Timestamp } from '../../lib/wire.js';

/** The wallet of the key's mode, as GET /api/v1/wallet-balance returns it. */
export const WalletBalance = Type.Object({
  userProfileId: Text('Owner of the wallet (profile id)', EXAMPLE.profileId),
  availableBalance: Ghs('Spendable, GHS', 482.6),
  heldBalance: Ghs('Reserved for pending orders, GHS', 5.4),
  totalBalance: Ghs('Available plus held, GHS', 488),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  lastUpdated: Timestamp('Unix ms of the last balance change'),
  alertThreshold: Nullable(Ghs('GHS: wallet.balance_low is raised when available falls below it; null when off', 50)),
});
export type WalletBalance = Static<typeof WalletBalance>;
export const WalletBalanceResponse = Success(WalletBalance);

/** The low-balance alert (docs/webhooks.md, "Low-balance alert"). */
export const ALERT_THRESHOLD_MAX_GHS = 1_000_000;
export const WalletAlertBody = Type.Object(
  {
    threshold: Nullable(
      Type.Number({
        minimum: 0,
        maximum: ALERT_THRESHOLD_MAX_GHS,
        description: 'GHS, at most two decimals; null turns the alert off',
        examples: [50],
      }),
    ),
  },
  { additionalProperties: false, examples: [{ threshold: 50 }] },
);
export type WalletAlertBody = Static<typeof WalletAlertBody>;
