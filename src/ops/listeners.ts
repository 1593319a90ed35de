import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { metricsRoutes } from '../http/routes/metrics.js';
import { metricsFor } from './metrics.js';

export interface Listener {
  url: string;
  close(): Promise<void>;
}

function urlOf(app: FastifyInstance, host: string): string {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  return `http://${shownHost}:${port}`;
}

const STARTING = {
  success: false,
  error: { code: 'INTERNAL_ERROR', message: 'The service is starting: migrations are running' },
};

/**
 * What answers on PORT while `serve` runs its migrations, before the app exists: /readyz is
 * 503 `migrating`, everything else 503 in the error envelope. Closed right before the app listens.
 */
export async function startBootListener(config: Config): Promise<Listener> {
  const app = Fastify({ logger: false });
  app.get('/readyz', async (_request, reply) =>
    reply.code(503).header('cache-control', 'no-store').send({ status: 'migrating' }),
  );
  app.setNotFoundHandler(async (_request, reply) => reply.code(503).send(STARTING));
  await app.listen({ port: config.port, host: config.host });
  return { url: urlOf(app, config.host), close: () => app.close() };
}

/** The METRICS_PORT listener: GET /metrics alone (with the bearer token too when METRICS_TOKEN is set). */
export async function startMetricsListener(ctx: AppContext, logger: Logger): Promise<Listener | null> {
  const ops = ctx.config.operations;
  if (ops.metricsPort === null) return null;
  const app = Fastify({ logger: false });
  await app.register(metricsRoutes, { registry: metricsFor(ctx).registry, token: ops.metricsToken });
  await app.listen({ port: ops.metricsPort, host: ops.metricsHost });
  const url = urlOf(app, ops.metricsHost);
  logger.info({ url: `${url}/metrics` }, 'metrics listening');
  return { url, close: () => app.close() };
}
