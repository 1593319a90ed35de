import { Type, type Static } from 'typebox';
import { Count, EXAMPLE, Ghs, Id, Nullable, Success, Text, Timestamp } from '../../lib/wire.js';

/** A bulk order's recipient entry (bulkRecipients[] of the order). */
export const BulkRecipient = Type.Object({
  beneficiaryMsisdn: Text('Recipient phone, international format', '233244123457'),
  packageId: Text('Package bought for this recipient', 'pkg_mtn_2gb'),
  packageLabel: Text('Display label of the package', 'MTN 2GB (30 days)'),
  amount: Ghs('Charged for this recipient (latest attempt), GHS', 10.4),
  status: Text('pending, processing, completed, failed (lower case)', 'completed'),
  errorMessage: Nullable(Text('Why it failed; null otherwise', 'Sandbox: delivery failed')),
  submittedAt: Nullable(Timestamp('When submitted to the provider', 1764063000120)),
  completedAt: Nullable(Timestamp('When it completed; null until then, and for a failure', 1764063003150)),
  reversedAt: Nullable(
    Timestamp(
      'When staff reversed this completed recipient on its own (its amount was refunded; its status stays completed); null otherwise',
      1764149403150,
    ),
  ),
  reversalReason: Nullable(Text("Staff's reason for reversing this recipient; null unless reversedAt is set", 'Bundle not received')),
});
export type BulkRecipient = Static<typeof BulkRecipient>;

/** An order, as GET /api/v1/orders/{orderId} and the order list return it. */
export const Order = Type.Object({
  _id: Text('Order record id', EXAMPLE.orderId),
  _creationTime: Timestamp('Record creation timestamp (fractional allowed)'),
  createdAt: Timestamp('When the order was taken'),
  updatedAt: Timestamp('Last change (a failed order: when it failed)', 1764063003150),
  shortReference: Text('User-friendly alphanumeric reference, to read out over the phone', EXAMPLE.shortReference),
  beneficiaryMsisdn: Text('Recipient phone, international format; empty for a bulk order (see bulkRecipients)', EXAMPLE.msisdn),
  operatorId: Text('Operator id', 'op_mtn'),
  operatorName: Text('Operator name', 'MTN Ghana'),
  productId: Text('Product id', 'prd_mtn_data'),
  productName: Text('Product name', 'MTN Data'),
  packageId: Text('Package id', 'pkg_mtn_1gb'),
  packageLabel: Text('Display label', 'MTN 1GB (30 days)'),
  amount: Ghs('GHS charged to the wallet (a bulk order: the total held at creation)', 5.4),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  state: Text(
    'pending, processing, completed, failed, reversed (lower case; the status projection capitalises them)',
    'completed',
  ),
  orderType: Text('data, airtime, voice, afa, registration, top_up, result_checker', 'data'),
  errorMessage: Nullable(Text('Details when state is failed; null otherwise', 'Sandbox: delivery failed')),
  submittedAt: Nullable(Timestamp('When submitted to the provider', 1764063000120)),
  completedAt: Nullable(Timestamp('When it completed; null until then, and for a failure', 1764063003150)),
  isBulkOrder: Nullable(Type.Boolean({ description: 'true for a bulk order', examples: [false] })),
  bulkRecipients: Nullable(
    Type.Array(BulkRecipient, { description: 'The recipients of a bulk order, each with its own status; null otherwise' }),
  ),
  bulkCompletedCount: Nullable(Count('Completed recipients of a bulk order; null otherwise', 2)),
  bulkFailedCount: Nullable(Count('Failed recipients of a bulk order; null otherwise', 0)),
  walletBalanceBefore: Nullable(Ghs('Available wallet balance just before the charge, GHS', 488)),
  walletBalanceAfter: Nullable(Ghs('Available wallet balance after the charge, GHS', 482.6)),
});
export type Order = Static<typeof Order>;

/** An order's status projection, as GET /api/v1/orders/{orderId}/status returns it (docs/order-lifecycle.md, "Two spellings of the same state"). */
export const OrderStatus = Type.Object({
  orderId: Text('The order (orders id)', EXAMPLE.orderId),
  _creationTime: Timestamp('Record creation timestamp'),
  state: Text('Pending, Processing, Completed, Failed, Reversed (capitalised, unlike the order record)', 'Completed'),
  shortReference: Text('User-friendly reference', EXAMPLE.shortReference),
  amount: Ghs('GHS charged', 5.4),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  errorMessage: Nullable(Text('Reason if failed; null otherwise', 'Sandbox: delivery failed')),
  createdAt: Timestamp('When the order was taken'),
  submittedAt: Nullable(Timestamp('When submitted to the provider', 1764063000120)),
  completedAt: Nullable(Timestamp('When it completed; null until then, and for a failure', 1764063003150)),
  isBulkOrder: Type.Boolean({ description: 'true for a bulk order', examples: [false] }),
  bulkCompletedCount: Nullable(Count('Completed recipients of a bulk order; null otherwise', 2)),
  bulkFailedCount: Nullable(Count('Failed recipients of a bulk order; null otherwise', 0)),
});
export type OrderStatus = Static<typeof OrderStatus>;

/** Raw strings: every value is checked by the service so each gets its own error code (docs/errors.md, "Codes of the platform"). */
export const OrdersQuery = Type.Object({
  orderType: Type.Optional(
    Text(
      'data and result_checker by default; one of airtime, voice, afa, registration, top_up, result_checker, data, or all',
      'data',
    ),
  ),
  state: Type.Optional(Text('Only orders in this state: pending, processing, completed, failed, reversed', 'completed')),
  limit: Type.Optional(Text('Page size: default 20; above 100 is capped at 100', '20')),
  cursor: Type.Optional(Text('continueCursor of the previous page')),
  paymentReference: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        'Your own order with this paymentReference, if any: a list of at most one (to learn whether a timed-out purchase was taken)',
      examples: ['INV-2026-00417'],
    }),
  ),
});
export type OrdersQuery = Static<typeof OrdersQuery>;

export const OrderPage = Type.Object({
  orders: Type.Array(Order, { description: "The caller's orders, newest first" }),
  isDone: Type.Boolean({ description: 'true when there are no more pages', examples: [true] }),
  continueCursor: Text('Pass as cursor to get the next page', 'WzE3NjQwNjMwMDAwMDAsIm9yZF8wMWthc3E0ZDdteiJd'),
});
export type OrderPage = Static<typeof OrderPage>;

export const OrderParams = Type.Object({ orderId: Id('orders id', EXAMPLE.orderId) });

export const OrdersResponse = Success(OrderPage);
export const OrderResponse = Success(Order);
export const OrderStatusResponse = Success(OrderStatus);
