import { Type, type TSchema } from 'typebox';

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{ success: true, data }` — spec §2.1. */
export const Success = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false });

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({ message: Type.String(), code: Type.String() }),
  },
  { $id: 'ErrorEnvelope' },
);

const errorRef = Type.Ref('ErrorEnvelope');

/** Error responses every authenticated route can give, for the OpenAPI document. */
export const authErrors = {
  401: errorRef,
  403: errorRef,
  500: errorRef,
} as const;

export const withErrors = (...statuses: (400 | 402 | 404 | 409 | 413 | 422)[]) =>
  Object.fromEntries(statuses.map((s) => [s, errorRef])) as Record<number, typeof errorRef>;

/** Money at the wire edge: GHS with at most two decimals. */
export const Ghs = (description?: string) => Type.Number(description ? { description } : {});

export const Timestamp = (description?: string) => Type.Number({ description: description ?? 'Unix milliseconds' });

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });
