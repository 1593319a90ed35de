import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Database } from '../../db/connection.js';
import { Lifecycle } from '../../ops/lifecycle.js';
import { HttpError } from '../errors.js';

const Readiness = Type.Object({
  status: Type.Union(
    [Type.Literal('ready'), Type.Literal('migrating'), Type.Literal('stopping'), Type.Literal('database_unreachable')],
    { description: 'ready, or why not: migrating, stopping, database_unreachable', examples: ['ready'] },
  ),
});

/** A PostgreSQL pool waits for a connection without limit: readiness must answer while the server is gone. */
const PING_BUDGET_MS = 2_000;

function pingWithin(database: Database, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([database.ping(), late]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz, no key (liveness): 200 once migrations are done (the app is built after them) and
 * the database answers. GET /readyz, no key (readiness): 200 only while the process takes traffic;
 * 503 while migrations run (the boot listener answers then: startBootListener in
 * src/ops/listeners.ts), while the database does not answer, and from the shutdown signal on.
 */
export const healthRoutes: FastifyPluginAsyncTypebox<{ database: Database; lifecycle?: Lifecycle }> = async (
  app,
  { database, lifecycle = new Lifecycle() },
) => {
  const healthz = {
    tags: ['ops'],
    summary: 'Liveness: 200 once migrations are done and the database answers',
    security: [],
    response: {
      200: Type.Object({ status: Type.Literal('ok', { description: 'The service is up and its database answers' }) }),
      503: Type.Ref('ErrorEnvelope'),
    },
  };
  // Probes come every few seconds from load balancers and orchestrators: their request lines would
  // drown the log, so these routes log only warnings and errors.
  app.get('/healthz', { schema: healthz, logLevel: 'warn' }, async () => {
    try {
      await database.ping();
    } catch {
      throw new HttpError(503, 'INTERNAL_ERROR', 'Database is not answering');
    }
    return { status: 'ok' as const };
  });

  const readyz = {
    tags: ['ops'],
    summary: 'Readiness: 200 only while the process takes traffic (503 while migrating, stopping, or without its database)',
    security: [],
    response: { 200: Readiness, 503: Readiness },
  };
  app.get('/readyz', { schema: readyz, logLevel: 'warn' }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    const phase = lifecycle.phase;
    if (phase !== 'ready') return reply.code(503).send({ status: phase });
    try {
      await pingWithin(database, PING_BUDGET_MS);
    } catch {
      return reply.code(503).send({ status: 'database_unreachable' as const });
    }
    return { status: 'ready' as const };
  });
};
