import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppContext } from './context.js';
import { buildApp, type BuildAppOptions } from './app.js';
import { Lifecycle } from './ops/lifecycle.js';
import { startMetricsListener } from './ops/listeners.js';

/** Something that runs beside the HTTP server (the worker) and must stop cleanly. */
export interface BackgroundTask {
  name: string;
  stop(): Promise<void>;
}

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * Listens, and on SIGINT/SIGTERM shuts down gracefully: /readyz turns 503 at once; after
 * SHUTDOWN_GRACE_MS (time for a load balancer to notice) the listener stops accepting and the
 * requests in flight finish; then the background tasks (the worker) finish their batches and sends,
 * and the database is closed.
 */
/** Why the server could not listen, in words that say what to do. */
function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') {
    return new Error(
      `port ${port} on ${host} is already in use (EADDRINUSE): stop what listens there, or choose another port with PORT, e.g. PORT=${port === 65535 ? 8081 : port + 1}`,
    );
  }
  if (code === 'EACCES') return new Error(`no permission to listen on port ${port} of ${host} (EACCES): choose a port above 1023 with PORT`);
  return error instanceof Error ? error : new Error(String(error));
}

export async function startServer(
  ctx: AppContext,
  logger: Logger,
  background: BackgroundTask[] = [],
  onClosed: () => Promise<void> = async () => {},
  lifecycle: Lifecycle = new Lifecycle(),
  appOptions: Pick<BuildAppOptions, 'docsApiKey'> = {},
): Promise<RunningServer> {
  const app = await buildApp(ctx, { logger, lifecycle, ...appOptions });
  try {
    await app.listen({ port: ctx.config.port, host: ctx.config.host });
  } catch (error) {
    // Nothing may outlive a server that never listened: the worker stops (its heartbeat row goes
    // with it), the runtime closes.
    for (const task of background) await task.stop().catch(() => undefined);
    await app.close().catch(() => undefined);
    await onClosed().catch(() => undefined);
    throw listenError(error, ctx.config.host, ctx.config.port);
  }
  lifecycle.set('ready');
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.port;
  const shownHost = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? 'localhost' : ctx.config.host;
  const url = `http://${shownHost}:${port}`;
  const metrics = await startMetricsListener(ctx, logger);

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      lifecycle.set('stopping');
      const grace = ctx.config.operations.shutdownGraceMs;
      if (grace > 0) await new Promise((resolve) => setTimeout(resolve, grace));
      await app.close();
      logger.info({}, 'listener closed, requests in flight answered');
      for (const task of background) await task.stop();
      await metrics?.close();
      await onClosed();
    })();
    return closing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      close().then(
        () => {
          logger.info({}, 'shut down cleanly');
          process.exit(0);
        },
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { app, url, close };
}
