import type { Command } from 'commander';
import type { BackgroundTask } from '../../server.js';
import { checkRoutesBeforeStart } from '../route-check.js';
import { openRuntime, type Runtime } from '../runtime.js';
import type { CliIo } from '../io.js';

/*
 * The worker and the HTTP listeners (Fastify, prom-client) are imported by the commands that run
 * them, when they run: every other command starts without loading them (a CLI start went from
 * ~1.2 to ~0.7 s of CPU, and the tests start the CLI a few hundred times).
 */

/** Background tasks the serve process runs inline (WORKER=inline): the worker and its lanes. */
export async function backgroundTasks(rt: Runtime): Promise<BackgroundTask[]> {
  const { startInlineWorker } = await import('../../worker/index.js');
  const worker = startInlineWorker(rt.ctx);
  return [{ name: 'worker', stop: () => worker.stop() }];
}

export function register(program: Command, io: CliIo): void {
  program
    .command('worker')
    .description(
      'run the worker alone, no HTTP (use with WORKER=off on serve): the outbox, webhook deliveries, Mobile Money checks and upstream upkeep (float balances, reconciliation, margins); SIGINT/SIGTERM stop it cleanly',
    )
    .action(async () => {
      const rt = await openRuntime(io, { longRunning: true });
      await checkRoutesBeforeStart(rt);
      const [{ startWorker }, { startMetricsListener }] = await Promise.all([
        import('../../worker/index.js'),
        import('../../ops/listeners.js'),
      ]);
      const worker = startWorker(rt.ctx);
      const metrics = await startMetricsListener(rt.ctx, rt.logger);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      rt.logger.info({ signal, worker: worker.id }, 'stopping worker');
      try {
        await worker.stop();
        await metrics?.close();
      } finally {
        await rt.close();
      }
      rt.logger.info({ worker: worker.id }, 'worker stopped cleanly');
    });
}
