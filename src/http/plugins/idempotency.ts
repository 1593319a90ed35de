import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { fingerprintOf, type IdempotencyService } from '../../modules/idempotency/service.js';
import { JSON_TYPE } from '../body-cache.js';
import { HttpError } from '../errors.js';

/**
 * Idempotency-Key on every POST of the scope it is registered in (docs/errors.md, "Retrying
 * safely"). Runs after authentication and before the route's own checks; the outcome is kept for
 * every 2xx and every refusal the endpoint decides (402, 403, 404, 409, 422), never for a malformed
 * request (400), a rate limit (429) or a fault of ours (5xx).
 */

/** 1 to 255 printable ASCII characters. */
const VALID_KEY = /^[\x20-\x7e]{1,255}$/;
const KEPT_REFUSALS = new Set([402, 403, 404, 409, 422]);

/** A purchase's dry run (docs/api.md, "Dry runs: validateOnly") writes nothing, so it neither takes nor keeps a key. */
const isDryRun = (body: unknown) =>
  typeof body === 'object' && body !== null && (body as { validateOnly?: unknown }).validateOnly === true;

/** The status the route answers a success with (its one 2xx: 201 for a creation, 202 for a queued job, else 200). */
function successStatus(request: FastifyRequest): number {
  const responses = (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>;
  return (
    Object.keys(responses)
      .map(Number)
      .find((status) => status >= 200 && status < 300) ?? 200
  );
}

function replay(
  request: FastifyRequest,
  reply: FastifyReply,
  stored: { data: unknown; status: number | null; body: string | null },
) {
  void reply.header('idempotent-replayed', 'true');
  if (stored.body !== null)
    return reply
      .code(stored.status ?? 200)
      .type(JSON_TYPE)
      .send(stored.body);
  // The same data through the route's own serializer: the same bytes as the first answer.
  return reply.code(successStatus(request)).send({ success: true, data: stored.data });
}

export function idempotentPosts(app: FastifyInstance, keys: IdempotencyService): void {
  app.addHook('preValidation', async (request, reply) => {
    if (request.method !== 'POST') return;
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    if (typeof header !== 'string' || !VALID_KEY.test(header)) {
      throw new HttpError(
        400,
        'IDEMPOTENCY_KEY_INVALID',
        'Idempotency-Key must be 1 to 255 printable ASCII characters, sent once',
      );
    }
    if (isDryRun(request.body)) return;
    const path = request.url.split('?')[0] ?? request.url;
    const begun = await keys.begin(request.auth, header, fingerprintOf(request.method, path, request.body));
    switch (begun.kind) {
      case 'claimed':
        request.auth.idempotency = { key: header, recorded: false };
        return;
      case 'replay':
        return replay(request, reply, begun);
      case 'in_use':
        void reply.header('retry-after', '1');
        throw new HttpError(
          409,
          'IDEMPOTENCY_KEY_IN_USE',
          'A request with this Idempotency-Key is still being processed; retry in a moment',
        );
      case 'reused':
        throw new HttpError(
          422,
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different request (method, path or body)',
        );
    }
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.auth?.idempotency;
    if (!claim) return payload;
    const status = reply.statusCode;
    if (status >= 200 && status < 300) {
      // The unit of work that did the work has recorded it; a route that did not is kept here, after it.
      if (!claim.recorded) await keys.answered(request.auth, claim.key, status, String(payload));
    } else if (KEPT_REFUSALS.has(status)) {
      await keys.answered(request.auth, claim.key, status, String(payload));
    } else {
      await keys.release(request.auth, claim.key);
    }
    return payload;
  });
}
