import { Type, type TSchema } from 'typebox';

/** TypeBox building blocks of the wire shapes (each module's schemas.ts). */

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{ success: true, data }` (spec §2.1). */
export const Success = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false });

/** Money at the wire edge: GHS with at most two decimals. */
export const Ghs = (description?: string) => Type.Number(description ? { description } : {});

export const Timestamp = (description?: string) => Type.Number({ description: description ?? 'Unix milliseconds' });

export const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, description });
