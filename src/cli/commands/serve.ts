import type { Command } from 'commander';
import { startServer, type BackgroundTask } from '../../server.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { backgroundTasks } from './worker.js';

export async function serve(rt: Runtime): Promise<{ url: string }> {
  const tasks: BackgroundTask[] = rt.ctx.config.worker === 'inline' ? backgroundTasks(rt) : [];
  const server = await startServer(rt.ctx, rt.logger, tasks, () => rt.close());
  rt.logger.info({ url: server.url, worker: rt.ctx.config.worker }, 'partner-api listening');
  return { url: server.url };
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('run pending migrations, then serve the API (and the worker unless WORKER=off)')
    .action(async () => {
      await serve(await openRuntime({ longRunning: true }));
    });
}
