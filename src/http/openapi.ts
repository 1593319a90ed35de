import type { FastifySchema, RouteOptions } from 'fastify';
import { Type } from 'typebox';

/**
 * What every route of /api/v1 shares, added to its OpenAPI description (not to its validation):
 * the Idempotency-Key header of every POST, and the refusals the platform adds to any route (rate
 * limits; an Idempotency-Key in use or reused).
 */

const errorRef = Type.Ref('ErrorEnvelope');

const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description:
        'Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with ' +
        'the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing ' +
        'runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 ' +
        'IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.',
    }),
  ),
});

export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): { schema: FastifySchema; url: string } {
  if (!url.startsWith('/api/v1/') || schema.hide === true) return { schema, url };
  const methods = [route.method].flat();
  const responses = { ...(schema.response as Record<string, unknown> | undefined), 429: errorRef };
  if (!methods.includes('POST')) return { schema: { ...schema, response: responses }, url };
  return {
    schema: { ...schema, headers: schema.headers ?? IdempotencyKeyHeader, response: { ...responses, 409: errorRef, 422: errorRef } },
    url,
  };
}
