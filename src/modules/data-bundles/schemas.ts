import { Type, type Static } from 'typebox';
import { Count, dryRunFields, EXAMPLE, Ghs, Id, Success, Text, ValidateOnly } from '../../lib/wire.js';

const Msisdn = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 64, description, examples: [example] });

const AllowPortedNumber = (whose: string) =>
  Type.Optional(
    Type.Boolean({
      description: `true: skip the network check of ${whose} (a number ported from the network of its prefix to the operator's); docs/api.md, "The number's network"`,
      examples: [true],
    }),
  );

/** POST /api/v1/data-bundles/buy-single (docs/api.md, "Buying a bundle for one number"). */
export const BuySingleBody = Type.Object(
  {
    packageId: Id('The package to buy (packages id)', 'pkg_mtn_1gb'),
    productId: Id('Its parent product (products id)', 'prd_mtn_data'),
    operatorId: Id('Its parent operator (operators id)', 'op_mtn'),
    beneficiaryMsisdn: Msisdn(
      'Recipient Ghana mobile number in any common format (0244123456, +233 24 412 3456, 233244123456); normalised to 233…. ' +
        'Sandbox test numbers: ending 0000 fails, 0001 slow, 0002 refused, 0003 provider times out twice, 0004 poll error; others complete',
      '0244123456',
    ),
    paymentReference: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'Optional offline-first reference of yours, unique per profile and mode: a repeat is 409 and charges nothing',
        examples: ['INV-2026-00417'],
      }),
    ),
    anonymousId: Type.Optional(
      Type.String({
        maxLength: 128,
        description: 'In the shared schema; not typically used with API keys',
        examples: ['anon_5d1c9e'],
      }),
    ),
    allowPortedNumber: AllowPortedNumber('beneficiaryMsisdn'),
    validateOnly: ValidateOnly(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        operatorId: 'op_mtn',
        productId: 'prd_mtn_data',
        packageId: 'pkg_mtn_1gb',
        beneficiaryMsisdn: '0244123456',
        paymentReference: 'INV-2026-00417',
      },
      { operatorId: 'op_mtn', productId: 'prd_mtn_data', packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0244123456', validateOnly: true },
      {
        operatorId: 'op_mtn',
        productId: 'prd_mtn_data',
        packageId: 'pkg_mtn_1gb',
        beneficiaryMsisdn: '0501234567',
        allowPortedNumber: true,
      },
    ],
  },
);
export type BuySingleBody = Static<typeof BuySingleBody>;

export const BuySingleResult = Type.Object({
  success: Type.Literal(true, { description: 'Always true (inside the envelope, as the contract has it)' }),
  orderId: Text('The new order: poll GET /orders/{orderId}/status, or wait for order.completed / order.failed', EXAMPLE.orderId),
  shortReference: Text('User-friendly reference', EXAMPLE.shortReference),
  message: Text('What happened, for people', 'Order accepted: MTN 1GB (30 days) for 233244123456 is being delivered'),
  amountCharged: Ghs('GHS taken from the available balance (held until delivery)', 5.4),
  status: Type.Literal('processing', { description: 'Always processing: the outcome comes later' }),
  walletBalanceBefore: Ghs('Available balance before the charge, GHS', 488),
  walletBalanceAfter: Ghs('Available balance after the charge: before minus amountCharged', 482.6),
});
export type BuySingleResult = Static<typeof BuySingleResult>;

export const BULK_MIN_ITEMS = 2;
export const BULK_MAX_ITEMS = 20;

/** POST /api/v1/data-bundles/buy-bulk (docs/api.md, "Buying for several numbers"). */
export const BuyBulkBody = Type.Object(
  {
    operatorId: Id('operators id (every item is of this operator)', 'op_mtn'),
    productId: Id('products id (every item is of this product)', 'prd_mtn_data'),
    items: Type.Array(
      Type.Object(
        {
          packageId: Id('packages id', 'pkg_mtn_1gb'),
          beneficiaryMsisdn: Msisdn('Recipient Ghana mobile number, any common format; each number at most once', '0244123456'),
          allowPortedNumber: AllowPortedNumber("this item's number"),
        },
        { additionalProperties: false },
      ),
      { minItems: BULK_MIN_ITEMS, maxItems: BULK_MAX_ITEMS, description: '2 to 20 recipients (outside that: 422)' },
    ),
    validateOnly: ValidateOnly(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        operatorId: 'op_mtn',
        productId: 'prd_mtn_data',
        items: [
          { packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0244123456' },
          { packageId: 'pkg_mtn_2gb', beneficiaryMsisdn: '0244123457' },
        ],
      },
      {
        operatorId: 'op_mtn',
        productId: 'prd_mtn_data',
        validateOnly: true,
        items: [
          { packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0244123456' },
          { packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0201234567', allowPortedNumber: true },
        ],
      },
    ],
  },
);
export type BuyBulkBody = Static<typeof BuyBulkBody>;

export const BuyBulkResult = Type.Object({
  success: Type.Literal(true, { description: 'Always true (inside the envelope)' }),
  message: Text('What happened, for people', 'Bulk order accepted: 2 recipients are being delivered'),
  orderId: Text('The parent order', EXAMPLE.bulkOrderId),
  shortReference: Text('User-friendly reference', 'DB3HX8P2WM'),
  totalAmount: Ghs('GHS for all recipients, held until each is delivered', 15.8),
  recipientCount: Count('Recipients in the order', 2),
  status: Type.Literal('processing', { description: 'Always processing: each recipient is delivered on its own' }),
  walletBalanceBefore: Ghs('Available balance before the charge, GHS', 488),
  walletBalanceAfter: Ghs('Available balance after the charge: before minus totalAmount', 472.2),
});
export type BuyBulkResult = Static<typeof BuyBulkResult>;

/** POST /api/v1/data-bundles/retry-recipient (docs/order-lifecycle.md, "Bulk orders"). */
export const RetryRecipientBody = Type.Object(
  {
    orderId: Id('The bulk order (orders id)', EXAMPLE.bulkOrderId),
    beneficiaryMsisdn: Msisdn('The failed recipient, any common format', '0244120000'),
  },
  { additionalProperties: false, examples: [{ orderId: EXAMPLE.bulkOrderId, beneficiaryMsisdn: '0244120000' }] },
);
export type RetryRecipientBody = Static<typeof RetryRecipientBody>;

export const RetryRecipientResult = Type.Object({
  success: Type.Literal(true, { description: 'Always true (inside the envelope)' }),
  message: Text('What happened, for people', 'Recipient 233244120000 resubmitted (attempt 2)'),
  orderId: Text('The bulk order, back to processing', EXAMPLE.bulkOrderId),
  shortReference: Text('User-friendly reference of the bulk order', 'DB3HX8P2WM'),
  beneficiaryMsisdn: Text('The recipient, normalised', '233244120000'),
  amountCharged: Ghs("GHS charged again for this recipient: the package's current price for the caller's role", 5.4),
  previousAmount: Ghs("GHS the recipient's previous charge was (refunded when it failed)", 5.4),
  priceChanged: Type.Boolean({
    description: 'True when amountCharged differs from previousAmount: the package\'s price changed since; the message says so too',
    examples: [false],
  }),
  attempt: Count('2 for the first retry', 2),
  status: Type.Literal('processing', { description: 'Always processing' }),
  walletBalanceBefore: Ghs('Available balance before the charge, GHS', 477.6),
  walletBalanceAfter: Ghs('Available balance after the charge', 472.2),
});
export type RetryRecipientResult = Static<typeof RetryRecipientResult>;

/** buy-single with validateOnly: what it would charge, nothing bought. */
export const BuySingleDryRun = Type.Object(
  {
    ...dryRunFields,
    amountCharged: Ghs('GHS the purchase would take from the available balance', 5.4),
    walletBalanceBefore: Ghs('Available balance now, GHS', 488),
    walletBalanceAfter: Ghs('Available balance after the purchase, were it made now', 482.6),
  },
  { title: 'BuySingleDryRun', description: 'The answer to validateOnly: true when the purchase would go through' },
);
export type BuySingleDryRun = Static<typeof BuySingleDryRun>;

/** buy-bulk with validateOnly. */
export const BuyBulkDryRun = Type.Object(
  {
    ...dryRunFields,
    totalAmount: Ghs('GHS the purchase would hold for all recipients', 15.8),
    recipientCount: Count('Recipients in the order', 2),
    walletBalanceBefore: Ghs('Available balance now, GHS', 488),
    walletBalanceAfter: Ghs('Available balance after the purchase, were it made now', 472.2),
  },
  { title: 'BuyBulkDryRun', description: 'The answer to validateOnly: true when the purchase would go through' },
);
export type BuyBulkDryRun = Static<typeof BuyBulkDryRun>;

export const BuySingleResponse = Success(Type.Union([BuySingleResult, BuySingleDryRun]));
export const BuyBulkResponse = Success(Type.Union([BuyBulkResult, BuyBulkDryRun]));
export const RetryRecipientResponse = Success(RetryRecipientResult);
