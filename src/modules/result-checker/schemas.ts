import { Type, type Static } from 'typebox';
import { Ghs, Id, Nullable, Success, Timestamp } from '../../lib/wire.js';

export const MAX_RC_BULK_ITEMS = 20;

const Phone = Type.String({ minLength: 1, maxLength: 32, description: 'Recipient phone (Ghana mobile; normalised)' });

/** Spec 2.10 */
export const RcPackage = Type.Object({
  _id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  description: Nullable(Type.String()),
  price: Ghs('GHS per credential for the key owner role'),
  currency: Type.Literal('GHS'),
  stockAvailable: Type.Integer({ description: 'Unassigned live credentials' }),
  priority: Nullable(Type.Number()),
  checkLimit: Nullable(Type.Number()),
  includesPdf: Nullable(Type.Boolean()),
});
export type RcPackage = Static<typeof RcPackage>;

export const Credential = Type.Object({ username: Type.String(), password: Type.String() });
export type Credential = Static<typeof Credential>;

export const RcBuySingleBody = Type.Object(
  { packageId: Id('rcPackages id'), recipientPhone: Phone },
  { additionalProperties: false },
);
export type RcBuySingleBody = Static<typeof RcBuySingleBody>;

export const RcBuyBulkBody = Type.Object(
  {
    items: Type.Array(Type.Object({ packageId: Id('rcPackages id'), recipientPhone: Phone }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: MAX_RC_BULK_ITEMS,
    }),
  },
  { additionalProperties: false },
);
export type RcBuyBulkBody = Static<typeof RcBuyBulkBody>;

/** Spec 4.16 response data. */
export const RcPurchase = Type.Object({
  transactionId: Type.String(),
  shortReference: Type.String(),
  credential: Credential,
  status: Type.Literal('completed'),
});
export type RcPurchase = Static<typeof RcPurchase>;

export const RcBulkFailure = Type.Object({
  index: Type.Integer({ description: 'Position of the item in the request' }),
  packageId: Type.String(),
  recipientPhone: Type.String({ description: 'As given in the request' }),
  error: Type.Object({ code: Type.String(), message: Type.String() }),
});
export type RcBulkFailure = Static<typeof RcBulkFailure>;

/** Spec 4.17 response data, with failures per decisions.md §8. */
export const RcBulkPurchase = Type.Object({
  transactions: Type.Array(
    Type.Object({
      transactionId: Type.String(),
      recipientPhone: Type.String({ description: 'Normalised recipient phone' }),
      credential: Credential,
    }),
  ),
  failures: Type.Array(RcBulkFailure),
  totalAmount: Ghs('GHS finally charged (failed items refunded)'),
  status: Type.Literal('completed'),
});
export type RcBulkPurchase = Static<typeof RcBulkPurchase>;

/** Spec 2.11. */
export const RcTransaction = Type.Object({
  _id: Type.String(),
  shortReference: Type.String(),
  state: Type.String({ description: 'pending, completed or failed' }),
  paymentGatewayStatus: Nullable(Type.String()),
  amount: Ghs('GHS charged'),
  currency: Type.Literal('GHS'),
  packageName: Type.String(),
  buyerPhone: Type.String(),
  credential: Nullable(Credential),
  createdAt: Timestamp(),
  completedAt: Nullable(Timestamp()),
});
export type RcTransaction = Static<typeof RcTransaction>;

export const RcOrderParams = Type.Object({ orderId: Id('rcTransactions id') });

export const RcPurchaseResponse = Success(RcPurchase);
export const RcBulkPurchaseResponse = Success(RcBulkPurchase);
export const RcTransactionResponse = Success(RcTransaction);
export const RcPackagesResponse = Success(Type.Array(RcPackage));
