import { Type, type Static } from 'typebox';
import { Count, dryRunFields, EXAMPLE, Ghs, Id, Nullable, Success, Text, Timestamp, ValidateOnly } from '../../lib/wire.js';

export const MAX_RC_BULK_ITEMS = 20;

const Phone = Type.String({
  minLength: 1,
  maxLength: 32,
  description: 'Recipient Ghana mobile number, any common format; normalised to 233…',
  examples: ['0244123456'],
});

/** A result-checker package, as GET /api/v1/result-checker/packages lists it. */
export const RcPackage = Type.Object({
  _id: Text('Result-checker package id', 'rcp_wassce'),
  code: Text('Internal package code', 'WASSCE'),
  name: Text('Package name', 'WASSCE Result Checker'),
  displayName: Text('UI display name', 'WASSCE'),
  description: Nullable(Text('Description, if any', 'West African Senior School Certificate Examination results')),
  price: Ghs("GHS per credential, for the key owner's role", 17.5),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  stockAvailable: Count('Credentials in stock (unassigned live credentials)', 240),
  priority: Nullable(Type.Number({ description: 'Display sort order', examples: [1] })),
  checkLimit: Nullable(Type.Number({ description: 'Maximum checks per credential', examples: [5] })),
  includesPdf: Nullable(Type.Boolean({ description: 'Whether a PDF of the results is included', examples: [true] })),
});
export type RcPackage = Static<typeof RcPackage>;

export const Credential = Type.Object(
  { username: Text('Checker username (serial)', 'WAS0012345'), password: Text('Checker PIN', '4821-7730-1956') },
  { description: 'The result-checker credential' },
);
export type Credential = Static<typeof Credential>;

export const RcBuySingleBody = Type.Object(
  { packageId: Id('The package (rcPackages id)', 'rcp_wassce'), recipientPhone: Phone, validateOnly: ValidateOnly() },
  {
    additionalProperties: false,
    examples: [
      { packageId: 'rcp_wassce', recipientPhone: '0244123456' },
      { packageId: 'rcp_wassce', recipientPhone: '0244123456', validateOnly: true },
    ],
  },
);
export type RcBuySingleBody = Static<typeof RcBuySingleBody>;

export const RcBuyBulkBody = Type.Object(
  {
    items: Type.Array(
      Type.Object({ packageId: Id('rcPackages id', 'rcp_wassce'), recipientPhone: Phone }, { additionalProperties: false }),
      {
        minItems: 1,
        maxItems: MAX_RC_BULK_ITEMS,
        description: '1 to 20 items (outside that: 400)',
      },
    ),
    validateOnly: ValidateOnly(),
  },
  {
    additionalProperties: false,
    examples: [
      {
        items: [
          { packageId: 'rcp_wassce', recipientPhone: '0244123456' },
          { packageId: 'rcp_bece', recipientPhone: '0201234567' },
        ],
      },
      { validateOnly: true, items: [{ packageId: 'rcp_wassce', recipientPhone: '0244123456' }] },
    ],
  },
);
export type RcBuyBulkBody = Static<typeof RcBuyBulkBody>;

/** POST /api/v1/result-checker/buy-single response data. */
export const RcPurchase = Type.Object({
  transactionId: Text(
    'The transaction (rcTransactions id): GET /result-checker/orders/{orderId}/status reads it',
    EXAMPLE.rcTransactionId,
  ),
  shortReference: Text('User-friendly reference', EXAMPLE.rcShortReference),
  credential: Credential,
  status: Type.Literal('completed', { description: 'Always completed: credentials are issued at once' }),
});
export type RcPurchase = Static<typeof RcPurchase>;

export const RcBulkFailure = Type.Object({
  index: Count('Position of the item in the request (from 0)', 1),
  packageId: Text('The package of the item', 'rcp_bece'),
  recipientPhone: Text('As given in the request', '0201234567'),
  error: Type.Object(
    { code: Text('Why it failed', 'RC_WALLET_BULK_BUY_FAILED'), message: Text('For people', 'No BECE credential in stock') },
    { description: 'Why this item failed; it was refunded' },
  ),
});
export type RcBulkFailure = Static<typeof RcBulkFailure>;

/**
 * POST /api/v1/result-checker/buy-bulk response data, with the failures of a partial purchase
 * (docs/api.md, "Result checkers").
 */
export const RcBulkPurchase = Type.Object({
  transactions: Type.Array(
    Type.Object({
      transactionId: Text('rcTransactions id', EXAMPLE.rcTransactionId),
      recipientPhone: Text('Normalised recipient phone', EXAMPLE.msisdn),
      credential: Credential,
    }),
    { description: 'The items that got a credential' },
  ),
  failures: Type.Array(RcBulkFailure, { description: 'The items that failed (refunded); empty when all succeeded' }),
  totalAmount: Ghs('GHS finally charged (failed items refunded)', 17.5),
  status: Type.Literal('completed', { description: 'Always completed' }),
});
export type RcBulkPurchase = Static<typeof RcBulkPurchase>;

/** A result-checker transaction, as GET /api/v1/result-checker/orders/{orderId}/status returns it. */
export const RcTransaction = Type.Object({
  _id: Text('rcTransactions record id', EXAMPLE.rcTransactionId),
  shortReference: Text('User-friendly reference', EXAMPLE.rcShortReference),
  state: Text('pending, completed or failed', 'completed'),
  paymentGatewayStatus: Nullable(Text('Set if a payment gateway was used; null for wallet purchases')),
  amount: Ghs('GHS charged', 17.5),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  packageName: Text('Package name', 'WASSCE Result Checker'),
  buyerPhone: Text('Recipient phone', EXAMPLE.msisdn),
  credential: Nullable(Credential),
  createdAt: Timestamp('When it was bought'),
  completedAt: Nullable(Timestamp('When it completed', 1764063000050)),
});
export type RcTransaction = Static<typeof RcTransaction>;

export const RcOrderParams = Type.Object({ orderId: Id('rcTransactions id', EXAMPLE.rcTransactionId) });

/** result-checker buy-single with validateOnly: what it would charge, nothing bought. */
export const RcPurchaseDryRun = Type.Object(
  {
    ...dryRunFields,
    amountCharged: Ghs('GHS the purchase would debit', 17.5),
    walletBalanceBefore: Ghs('Available balance now, GHS', 488),
    walletBalanceAfter: Ghs('Available balance after the purchase, were it made now', 470.5),
  },
  { title: 'RcPurchaseDryRun', description: 'The answer to validateOnly: true when the purchase would go through' },
);
export type RcPurchaseDryRun = Static<typeof RcPurchaseDryRun>;

/** result-checker buy-bulk with validateOnly: the figures of the purchase, and the items that would fail. */
export const RcBulkPurchaseDryRun = Type.Object(
  {
    ...dryRunFields,
    totalAmount: Ghs('GHS the purchase would finally charge (items that would fail are not charged)', 17.5),
    walletBalanceBefore: Ghs('Available balance now, GHS', 488),
    walletBalanceAfter: Ghs('Available balance after the purchase, were it made now', 470.5),
    failures: Type.Array(RcBulkFailure, { description: 'The items that would fail, as the purchase would list them; empty when none' }),
  },
  { title: 'RcBulkPurchaseDryRun', description: 'The answer to validateOnly: true when the purchase would go through' },
);
export type RcBulkPurchaseDryRun = Static<typeof RcBulkPurchaseDryRun>;

export const RcPurchaseResponse = Success(Type.Union([RcPurchase, RcPurchaseDryRun]));
export const RcBulkPurchaseResponse = Success(Type.Union([RcBulkPurchase, RcBulkPurchaseDryRun]));
export const RcTransactionResponse = Success(RcTransaction);
export const RcPackagesResponse = Success(Type.Array(RcPackage));
