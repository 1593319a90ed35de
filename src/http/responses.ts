import { Type } from 'typebox';
import { ERROR_CODES } from '../domain/errors.js';

/** The error envelope (docs/errors.md), and the error responses each route declares (OpenAPI). */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      message: Type.String({
        description: 'What went wrong, for people (never a stack trace or SQL)',
        examples: ['Order ord_01kasq4d7mz8y3b2x6vw9n5r1t not found'],
      }),
      code: Type.Enum([...ERROR_CODES], {
        type: 'string',
        description: 'What went wrong, for programs: one of the documented codes (docs/errors.md)',
        examples: ['ORDER_NOT_FOUND'],
      }),
      orderId: Type.Optional(
        Type.String({
          description: 'The order the refusal is about (a repeated paymentReference)',
          examples: ['ord_01kasq4d7mz8y3b2x6vw9n5r1t'],
        }),
      ),
    }),
  },
  { $id: 'ErrorEnvelope', description: 'Every refusal: act on error.code, show error.message' },
);

const errorRef = Type.Ref('ErrorEnvelope');

/** Error responses every authenticated route can give. */
export const authErrors = {
  401: errorRef,
  403: errorRef,
  500: errorRef,
} as const;

export const withErrors = (...statuses: (400 | 402 | 404 | 409 | 413 | 422 | 502 | 503)[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorRef])) as Record<number, typeof errorRef>;
