import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Registry } from 'prom-client';
import { HttpError } from '../errors.js';

export interface MetricsRouteOptions {
  /** The registry to expose; null: metrics are off on this listener (404). */
  registry: Registry | null;
  /** Bearer token the caller must present; null: none asked (a listener of its own, METRICS_PORT). */
  token: string | null;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics, Prometheus text format. On the API listener only with METRICS_TOKEN (as a bearer
 * token); on the METRICS_PORT listener without one. Otherwise 404, as if it did not exist.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox<MetricsRouteOptions> = async (app, { registry, token }) => {
  app.get('/metrics', { schema: { hide: true, tags: ['ops'], response: { 200: Type.String() } } }, async (request, reply) => {
    if (registry === null) throw new HttpError(404, 'NOT_FOUND', 'No route GET /metrics');
    if (token !== null && !bearerMatches(request.headers.authorization, token)) {
      void reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new HttpError(401, 'UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    const body = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(body);
  });
};
