import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppContext } from './context.js';
import { buildApp } from './app.js';

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

/** Listens, and on SIGINT/SIGTERM stops taking requests, lets background work finish, then closes. */
export async function startServer(
  ctx: AppContext,
  logger: Logger,
  background: BackgroundTask[] = [],
  onClosed: () => Promise<void> = async () => {},
): Promise<RunningServer> {
  const app = await buildApp(ctx, { logger });
  await app.listen({ port: ctx.config.port, host: ctx.config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : ctx.config.port;
  const shownHost = ctx.config.host === '0.0.0.0' || ctx.config.host === '::' ? 'localhost' : ctx.config.host;
  const url = `http://${shownHost}:${port}`;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await app.close();
      for (const task of background) await task.stop();
      await onClosed();
    })();
    return closing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'shutting down');
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
  return { app, url, close };
}
