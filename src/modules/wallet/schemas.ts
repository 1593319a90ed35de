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

/** A staff adjustment as a partner's `wallet.adjusted` event carries it (docs/webhooks.md, "Event types"). */
export const WalletAdjustment = Type.Object({
  _id: Text('Adjustment id', 'adj_01jd6x4m2k8q9r7t5v3w1y0z2a'),
  userProfileId: Text('Owner of the wallet (profile id)', EXAMPLE.profileId),
  mode: Type.Union([Type.Literal('live'), Type.Literal('test')], { description: 'The wallet adjusted' }),
  direction: Type.Union([Type.Literal('credit'), Type.Literal('debit')], { description: 'credit adds to available, debit takes from it' }),
  amount: Ghs('GHS moved', 25),
  reason: Text('Why staff adjusted the wallet', 'Duplicate charge on order 7KQ2M9'),
  availableBalance: Ghs('Available after the adjustment, GHS', 507.6),
  heldBalance: Ghs('Held after the adjustment, GHS', 5.4),
  createdAt: Timestamp('Unix ms the adjustment was requested'),
  appliedAt: Timestamp('Unix ms the money moved'),
});
export type WalletAdjustment = Static<typeof WalletAdjustment>;
