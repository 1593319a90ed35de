import { Type, type TSchema } from 'typebox';

/**
 * TypeBox building blocks of the wire shapes (each module's schemas.ts). Descriptions and examples
 * given here are the OpenAPI document's (GET /openapi.json, /docs): the schemas are its only source.
 */

export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** `{ success: true, data }` (docs/api.md, "Conventions"). */
export const Success = <T extends TSchema>(data: T) =>
  Type.Object({ success: Type.Literal(true), data }, { additionalProperties: false });

const annotations = (description?: string, example?: unknown) => ({
  ...(description ? { description } : {}),
  ...(example !== undefined ? { examples: [example] } : {}),
});

/** Money at the wire edge: GHS with at most two decimals. */
export const Ghs = (description?: string, example?: number) => Type.Number(annotations(description, example));

/** Unix milliseconds. */
export const Timestamp = (description?: string, example = 1764063000000) =>
  Type.Number(annotations(description ?? 'Unix milliseconds', example));

/** An id in a path, query or body: 1 to 128 characters. */
export const Id = (description: string, example?: string) =>
  Type.String({ minLength: 1, maxLength: 128, ...annotations(description, example) });

/** `"validateOnly": true` in a purchase's body (docs/api.md, "Dry runs: validateOnly"). */
export const ValidateOnly = () =>
  Type.Optional(
    Type.Boolean({
      description:
        'true: run every check of the purchase (key, role, catalog, numbers, network, in-flight, stock, wallet balance) and answer whether it would go through, without buying: nothing is held, charged, written or kept with an Idempotency-Key',
      examples: [true],
    }),
  );

/** The answer of a purchase's dry run that would go through: `amountCharged` or `totalAmount` besides these. */
export const dryRunFields = {
  validateOnly: Type.Literal(true, { description: 'This was a dry run: nothing was bought' }),
  valid: Type.Literal(true, { description: 'The purchase would go through now (one that would not answers its error instead)' }),
};

/** A string field of a record, described in the contract's words, with an example. */
export const Text = (description: string, example?: string) => Type.String(annotations(description, example));

/** An integer field, described, with an example. */
export const Count = (description: string, example?: number) => Type.Integer(annotations(description, example));

/** Example values shared by the schemas, so examples agree across operations. */
export const EXAMPLE = {
  profileId: 'usr_ama',
  orderId: 'ord_01kasq4d7mz8y3b2x6vw9n5r1t',
  bulkOrderId: 'ord_01kasq7h2c4e6g8j0k2m4p6r8s',
  rcTransactionId: 'rc_01kasqa1b3d5f7h9k1m3n5q7s9',
  topUpId: 'tup_01kasqc4f6h8k0m2p4r6t8v0x2',
  eventId: 'evt_01kasqd8j0m2p4r6t8w0y2a4c6',
  endpointId: 'we_01kasqe2c4f6h8k0m2p4r6t8v0',
  msisdn: '233244123456',
  shortReference: 'DB7KQ2M9XH',
  rcShortReference: 'RC4TN8W2QJ',
  createdAt: 1764063000000,
} as const;
