import { Type, type Static } from 'typebox';
import { Ghs, Nullable, Success, Timestamp } from '../../lib/wire.js';

export const TOP_UP_MAX_GHS = 100_000;
export const TOP_UP_PAGE_DEFAULT = 20;
export const TOP_UP_PAGE_MAX = 100;

const TopUpStatus = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')]);
const TopUpMethod = Type.Union([Type.Literal('momo'), Type.Literal('bank')]);

/** decisions.md §7. */
export const TopUpRequestBody = Type.Object(
  {
    amount: Type.Number({ exclusiveMinimum: 0, maximum: TOP_UP_MAX_GHS, description: 'GHS, at most two decimals' }),
    method: TopUpMethod,
    reference: Type.String({ maxLength: 200, description: "The payer's transaction reference (unique per profile)" }),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { additionalProperties: false },
);
export type TopUpRequestBody = Static<typeof TopUpRequestBody>;

export const TopUpsQuery = Type.Object({
  status: Type.Optional(TopUpStatus),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `Default ${TOP_UP_PAGE_DEFAULT}; above ${TOP_UP_PAGE_MAX} is capped` }),
  ),
  cursor: Type.Optional(Type.String({ description: 'continueCursor of a previous page' })),
});
export type TopUpsQuery = Static<typeof TopUpsQuery>;

export const TopUp = Type.Object({
  _id: Type.String(),
  amount: Ghs(),
  currency: Type.Literal('GHS'),
  method: TopUpMethod,
  reference: Type.String(),
  note: Nullable(Type.String()),
  status: TopUpStatus,
  createdAt: Timestamp(),
  decidedAt: Nullable(Timestamp()),
  rejectionReason: Nullable(Type.String()),
});
export type TopUp = Static<typeof TopUp>;

export const TopUpPage = Type.Object({
  topUps: Type.Array(TopUp),
  isDone: Type.Boolean(),
  continueCursor: Type.String(),
});
export type TopUpPage = Static<typeof TopUpPage>;

export const TopUpResponse = Success(TopUp);
export const TopUpPageResponse = Success(TopUpPage);
