import { Type, type Static } from 'typebox';
import { Ghs, Id, Nullable, Success, Timestamp } from '../../lib/wire.js';

/** Spec 2.8 */
export const BulkRecipient = Type.Object({
  beneficiaryMsisdn: Type.String(),
  packageId: Type.String(),
  packageLabel: Type.String(),
  amount: Ghs('Charged for this recipient (latest attempt), GHS'),
  status: Type.String({ description: 'pending, processing, completed, failed' }),
  errorMessage: Nullable(Type.String()),
  submittedAt: Nullable(Timestamp()),
  completedAt: Nullable(Timestamp()),
});
export type BulkRecipient = Static<typeof BulkRecipient>;

/** Spec 2.7 */
export const Order = Type.Object({
  _id: Type.String(),
  _creationTime: Timestamp(),
  createdAt: Timestamp(),
  updatedAt: Timestamp(),
  shortReference: Type.String(),
  beneficiaryMsisdn: Type.String({ description: 'International format; empty for a bulk order (see bulkRecipients)' }),
  operatorId: Type.String(),
  operatorName: Type.String(),
  productId: Type.String(),
  productName: Type.String(),
  packageId: Type.String(),
  packageLabel: Type.String(),
  amount: Ghs('GHS charged to the wallet (a bulk order: the total held at creation)'),
  currency: Type.Literal('GHS'),
  state: Type.String({ description: 'pending, processing, completed, failed, reversed' }),
  orderType: Type.String(),
  errorMessage: Nullable(Type.String()),
  submittedAt: Nullable(Timestamp()),
  completedAt: Nullable(Timestamp()),
  isBulkOrder: Nullable(Type.Boolean()),
  bulkRecipients: Nullable(Type.Array(BulkRecipient)),
  bulkCompletedCount: Nullable(Type.Integer()),
  bulkFailedCount: Nullable(Type.Integer()),
  walletBalanceBefore: Nullable(Ghs()),
  walletBalanceAfter: Nullable(Ghs()),
});
export type Order = Static<typeof Order>;

/** Spec 2.9 */
export const OrderStatus = Type.Object({
  orderId: Type.String(),
  _creationTime: Timestamp(),
  state: Type.String({ description: 'Pending, Processing, Completed, Failed, Reversed' }),
  shortReference: Type.String(),
  amount: Ghs(),
  currency: Type.Literal('GHS'),
  errorMessage: Nullable(Type.String()),
  createdAt: Timestamp(),
  submittedAt: Nullable(Timestamp()),
  completedAt: Nullable(Timestamp()),
  isBulkOrder: Type.Boolean({ description: 'true for a bulk order (beyond spec 2.9)' }),
  bulkCompletedCount: Nullable(Type.Integer({ description: 'Completed recipients of a bulk order; null otherwise' })),
  bulkFailedCount: Nullable(Type.Integer({ description: 'Failed recipients of a bulk order; null otherwise' })),
});
export type OrderStatus = Static<typeof OrderStatus>;

/** Raw strings: every value is checked by the service so each gets its own error code (decisions §10). */
export const OrdersQuery = Type.Object({
  orderType: Type.Optional(Type.String({ description: 'data and result_checker by default; a type, or all' })),
  state: Type.Optional(Type.String({ description: 'pending, processing, completed, failed, reversed' })),
  limit: Type.Optional(Type.String({ description: 'Default 20; above 100 is capped at 100' })),
  cursor: Type.Optional(Type.String({ description: 'continueCursor of the previous page' })),
  paymentReference: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description: 'Your own order with this paymentReference, if any: a list of at most one (integrator-features §4)',
    }),
  ),
});
export type OrdersQuery = Static<typeof OrdersQuery>;

export const OrderPage = Type.Object({
  orders: Type.Array(Order),
  isDone: Type.Boolean(),
  continueCursor: Type.String(),
});
export type OrderPage = Static<typeof OrderPage>;

export const OrderParams = Type.Object({ orderId: Id('orders id') });

export const OrdersResponse = Success(OrderPage);
export const OrderResponse = Success(Order);
export const OrderStatusResponse = Success(OrderStatus);

const Msisdn = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

/** Spec 4.9 */
export const BuySingleBody = Type.Object(
  {
    packageId: Id('packages id'),
    productId: Id('products id (parent of the package)'),
    operatorId: Id('operators id (parent of the product)'),
    beneficiaryMsisdn: Msisdn('Recipient Ghana mobile number, any common format'),
    paymentReference: Type.Optional(
      Type.String({ maxLength: 128, description: 'Optional reference, unique per profile and mode; a repeat is 409' }),
    ),
    anonymousId: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type BuySingleBody = Static<typeof BuySingleBody>;

export const BuySingleResult = Type.Object({
  success: Type.Literal(true),
  orderId: Type.String(),
  shortReference: Type.String(),
  message: Type.String(),
  amountCharged: Ghs(),
  status: Type.Literal('processing'),
  walletBalanceBefore: Ghs('Available balance before the charge'),
  walletBalanceAfter: Ghs('Available balance after the charge'),
});
export type BuySingleResult = Static<typeof BuySingleResult>;

export const BULK_MIN_ITEMS = 2;
export const BULK_MAX_ITEMS = 20;

/** Spec 4.10 */
export const BuyBulkBody = Type.Object(
  {
    operatorId: Id('operators id'),
    productId: Id('products id'),
    items: Type.Array(
      Type.Object(
        { packageId: Id('packages id'), beneficiaryMsisdn: Msisdn('Recipient Ghana mobile number') },
        { additionalProperties: false },
      ),
      { minItems: BULK_MIN_ITEMS, maxItems: BULK_MAX_ITEMS },
    ),
  },
  { additionalProperties: false },
);
export type BuyBulkBody = Static<typeof BuyBulkBody>;

export const BuyBulkResult = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  orderId: Type.String(),
  shortReference: Type.String(),
  totalAmount: Ghs(),
  recipientCount: Type.Integer(),
  status: Type.Literal('processing'),
  walletBalanceBefore: Ghs(),
  walletBalanceAfter: Ghs(),
});
export type BuyBulkResult = Static<typeof BuyBulkResult>;

/** decisions §6 */
export const RetryRecipientBody = Type.Object(
  { orderId: Id('bulk order id'), beneficiaryMsisdn: Msisdn('The failed recipient, any common format') },
  { additionalProperties: false },
);
export type RetryRecipientBody = Static<typeof RetryRecipientBody>;

export const RetryRecipientResult = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  orderId: Type.String(),
  shortReference: Type.String(),
  beneficiaryMsisdn: Type.String(),
  amountCharged: Ghs(),
  attempt: Type.Integer({ description: '2 for the first retry' }),
  status: Type.Literal('processing'),
  walletBalanceBefore: Ghs(),
  walletBalanceAfter: Ghs(),
});
export type RetryRecipientResult = Static<typeof RetryRecipientResult>;

export const BuySingleResponse = Success(BuySingleResult);
export const BuyBulkResponse = Success(BuyBulkResult);
export const RetryRecipientResponse = Success(RetryRecipientResult);
