import type { Command } from 'commander';
import type { BuildAppOptions } from '../../app.js';
import { Lifecycle } from '../../ops/lifecycle.js';
import type { BackgroundTask } from '../../server.js';
import { checkRoutesBeforeStart } from '../route-check.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { backgroundTasks } from './worker.js';
import type { CliIo } from '../io.js';

export async function serve(
  rt: Runtime,
  lifecycle: Lifecycle = new Lifecycle(),
  appOptions: Pick<BuildAppOptions, 'docsApiKey'> = {},
): Promise<{ url: string }> {
  await checkRoutesBeforeStart(rt);
  // Loaded here, not at the CLI's start (see ./worker.ts).
  const { startServer } = await import('../../server.js');
  const tasks: BackgroundTask[] = rt.ctx.config.worker === 'inline' ? await backgroundTasks(rt) : [];
  const server = await startServer(rt.ctx, rt.logger, tasks, () => rt.close(), lifecycle, appOptions);
  rt.logger.info({ url: server.url, worker: rt.ctx.config.worker }, 'partner-api listening');
  return { url: server.url };
}

export function register(program: Command, io: CliIo): void {
  program
    .command('serve')
    .description(
      'run pending migrations (GET /readyz answers 503 meanwhile), then serve the API (and the worker unless WORKER=off)',
    )
    .action(async () => {
      const lifecycle = new Lifecycle('migrating');
      const rt = await openRuntime(io, {
        longRunning: true,
        async whileMigrating(config, logger) {
          const { startBootListener } = await import('../../ops/listeners.js');
          const boot = await startBootListener(config);
          logger.info({ url: boot.url }, 'running migrations; /readyz answers 503 until they are done');
          return () => boot.close();
        },
      });
      await serve(rt, lifecycle);
    });
}
