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

/** GET /api/v1/wallet/transactions: raw strings, each checked by the service (docs/errors.md). */
export const TRANSACTIONS_PAGE_DEFAULT = 20;
export const TRANSACTIONS_PAGE_MAX = 100;
export const WalletTransactionsQuery = Type.Object({
  from: Type.Optional(Text('Unix ms: only lines at or after it', '1764000000000')),
  to: Type.Optional(Text('Unix ms: only lines before it (exclusive)', '1764086400000')),
  limit: Type.Optional(Text(`Page size: default ${TRANSACTIONS_PAGE_DEFAULT}; above ${TRANSACTIONS_PAGE_MAX} is capped`, '20')),
  cursor: Type.Optional(Text('continueCursor of the previous page')),
});
export type WalletTransactionsQuery = Static<typeof WalletTransactionsQuery>;

/** One statement line (docs/api.md, "Wallet transactions"). */
export const WalletTransaction = Type.Object({
  id: Text('Line id (stable)', 'txn_1042'),
  type: Type.Union(
    [Type.Literal('order'), Type.Literal('refund'), Type.Literal('topup'), Type.Literal('adjustment'), Type.Literal('opening')],
    { description: 'order: a purchase charged; refund: money back for an order; topup; adjustment by staff; opening balance' },
  ),
  createdAt: Timestamp('When the money moved'),
  description: Text('What the line is, in words', 'Data bundle 1GB for 0244123456 (order 7KQ2M9)'),
  direction: Type.Union([Type.Literal('debit'), Type.Literal('credit')], { description: 'debit takes from the balance, credit adds to it' }),
  amount: Ghs('GHS, signed: negative for a debit', -5.4),
  balanceAfter: Ghs('Available balance after the line, GHS', 482.6),
  orderId: Nullable(Text('The order charged or refunded; null for other lines', EXAMPLE.orderId)),
  shortReference: Nullable(Text("The order's short reference", EXAMPLE.shortReference)),
  beneficiaryMsisdn: Nullable(Text('The number served; null for several recipients or other lines', '0244123456')),
  packageName: Nullable(Text('The package or product bought; null when several or for other lines', '1GB')),
  topUpId: Nullable(Text('The top-up credited; null for other lines', EXAMPLE.topUpId)),
  adjustmentId: Nullable(Text('The staff adjustment; null for other lines', 'adj_01jd6x4m2k8q9r7t5v3w1y0z2a')),
});
export type WalletTransaction = Static<typeof WalletTransaction>;

export const WalletTransactionPage = Type.Object({
  transactions: Type.Array(WalletTransaction, { description: "The lines of the key's wallet, newest first" }),
  isDone: Type.Boolean({ description: 'true when there are no more pages', examples: [true] }),
  continueCursor: Text('Pass as cursor to get the next page', 'WzE3NjQwNjMwMDAwMDAsIjEwNDIiXQ'),
});
export type WalletTransactionPage = Static<typeof WalletTransactionPage>;
export const WalletTransactionsResponse = Success(WalletTransactionPage);
