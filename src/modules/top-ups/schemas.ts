import { Type, type Static } from 'typebox';
import { EXAMPLE, Ghs, Nullable, Success, Text, Timestamp } from '../../lib/wire.js';

export const TOP_UP_MAX_GHS = 100_000;
export const TOP_UP_PAGE_DEFAULT = 20;
export const TOP_UP_PAGE_MAX = 100;

const TopUpStatus = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')], {
  description: 'pending until staff decide; approved (wallet credited once) or rejected',
});
const TopUpMethod = Type.Union([Type.Literal('momo'), Type.Literal('bank')], {
  description: 'How you paid: mobile money or bank transfer',
});

/** A top-up request (docs/api.md, "Top-ups"). */
export const TopUpRequestBody = Type.Object(
  {
    amount: Type.Number({
      exclusiveMinimum: 0,
      maximum: TOP_UP_MAX_GHS,
      description: 'GHS, more than 0, at most 100000, at most two decimals',
      examples: [500],
    }),
    method: TopUpMethod,
    reference: Type.String({
      maxLength: 200,
      description: "The payer's transaction reference (unique per profile)",
      examples: ['MOMO-2611240931'],
    }),
    note: Type.Optional(
      Nullable(Type.String({ maxLength: 500, description: 'Optional note for staff', examples: ['Sent from 0244000001'] })),
    ),
  },
  {
    additionalProperties: false,
    examples: [{ amount: 500, method: 'momo', reference: 'MOMO-2611240931', note: 'Sent from 0244000001' }],
  },
);
export type TopUpRequestBody = Static<typeof TopUpRequestBody>;

export const TopUpsQuery = Type.Object({
  status: Type.Optional({ ...TopUpStatus, description: 'Only top-ups with this status', examples: ['pending'] }),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      description: `Page size: default ${TOP_UP_PAGE_DEFAULT}; above ${TOP_UP_PAGE_MAX} is capped`,
      examples: [20],
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'continueCursor of a previous page' })),
});
export type TopUpsQuery = Static<typeof TopUpsQuery>;

const MomoNetwork = Type.Union([Type.Literal('MTN'), Type.Literal('TELECEL'), Type.Literal('AT')], {
  description: 'Mobile Money network',
  examples: ['MTN'],
});

/** The gateway's side of a Mobile Money top-up (docs/mobile-money.md). */
export const MomoPayment = Type.Object(
  {
    gateway: Type.Literal('paystack', { description: 'The payment gateway' }),
    status: Type.Union(
      [Type.Literal('pay_offline'), Type.Literal('send_otp'), Type.Literal('pending'), Type.Literal('success'), Type.Literal('failed')],
      { description: 'pay_offline: approve the prompt on the phone; send_otp: send the OTP; pending; success; failed', examples: ['pay_offline'] },
    ),
    displayText: Text('What to tell the payer', 'Please complete authorization process on your mobile phone'),
    phone: Text('The number charged, 233…', '233551234987'),
    network: MomoNetwork,
  },
  { description: 'Mobile Money top-ups: the charge at the gateway; null for a top-up request staff decide' },
);

export const TOP_UP_ID_MAX = 128;

export const MomoTopUpBody = Type.Object(
  {
    amount: Type.Number({
      exclusiveMinimum: 0,
      description: 'GHS, at least MOMO_TOPUP_MIN (1) and at most MOMO_TOPUP_MAX (5000), at most two decimals',
      examples: [100],
    }),
    phone: Type.String({ maxLength: 32, description: 'The Mobile Money number to charge', examples: ['0551234987'] }),
    network: Type.Optional({ ...MomoNetwork, description: "Needed only for a number outside its network's prefixes" }),
  },
  { additionalProperties: false, examples: [{ amount: 100, phone: '0551234987' }] },
);
export type MomoTopUpBody = Static<typeof MomoTopUpBody>;

export const OtpBody = Type.Object(
  { otp: Type.String({ minLength: 1, maxLength: 16, description: 'The OTP the payer received', examples: ['123456'] }) },
  { additionalProperties: false, examples: [{ otp: '123456' }] },
);
export type OtpBody = Static<typeof OtpBody>;

export const TopUpParams = Type.Object({
  topUpId: Type.String({ minLength: 1, maxLength: TOP_UP_ID_MAX, description: 'Top-up id', examples: ['tup_01kasqc4f6h8j2k4m6n8p0r2s4'] }),
});

export const TopUp = Type.Object({
  _id: Text('Top-up id', EXAMPLE.topUpId),
  amount: Ghs('GHS asked for', 500),
  currency: Type.Literal('GHS', { description: 'Always GHS' }),
  method: TopUpMethod,
  reference: Text("The payer's transaction reference", 'MOMO-2611240931'),
  note: Nullable(Text('Your note, if any', 'Sent from 0244000001')),
  status: TopUpStatus,
  createdAt: Timestamp('When it was asked for'),
  decidedAt: Nullable(Timestamp('When staff approved or rejected it; null while pending')),
  rejectionReason: Nullable(Text('Why staff rejected it; null otherwise', 'No matching MoMo transaction')),
  payment: Nullable(MomoPayment),
});
export type TopUp = Static<typeof TopUp>;

export const TopUpPage = Type.Object({
  topUps: Type.Array(TopUp, { description: "Your top-up requests in the key's mode, newest first" }),
  isDone: Type.Boolean({ description: 'true when there are no more pages', examples: [true] }),
  continueCursor: Text('Pass as cursor to get the next page', 'WzE3NjQwNjMwMDAwMDAsInR1cF8wMWthc3FjNGY2aCJd'),
});
export type TopUpPage = Static<typeof TopUpPage>;

export const TopUpResponse = Success(TopUp);
export const TopUpPageResponse = Success(TopUpPage);
