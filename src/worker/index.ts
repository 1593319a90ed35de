import type { AppContext } from '../context.js';
import { createProviders } from '../provider/index.js';
import { workerOptionsFrom, type WorkerOptions } from './options.js';
import { OutboxWorker } from './worker.js';

export { OutboxWorker } from './worker.js';

/** A worker over the context's database, with the providers the configuration selects. */
export function createWorker(ctx: AppContext, options: Partial<WorkerOptions> = {}): OutboxWorker {
  return new OutboxWorker(
    {
      database: ctx.database,
      outbox: ctx.repositories.outbox,
      deliveries: ctx.deliveries,
      providers: createProviders(ctx.config, ctx.database),
      log: ctx.log,
      clock: ctx.clock,
      maintenance: [{ name: 'purge expired idempotency keys', run: () => ctx.idempotency.purgeOlderThan(ctx.config.idempotencyTtlMs) }],
    },
    options,
  );
}

/**
 * The worker of a serve process (WORKER=inline), started. It wakes as soon as this process commits
 * a purchase, instead of after up to WORKER_IDLE_MS; work queued by other processes is found by its
 * polling. stop() unsubscribes and lets the batches in flight finish.
 */
export function startInlineWorker(ctx: AppContext): { stop(): Promise<void> } {
  const worker = createWorker(ctx, workerOptionsFrom(ctx.config.workerTuning));
  const unsubscribe = ctx.onDeliveriesQueued(() => worker.wake());
  worker.start();
  return {
    async stop() {
      unsubscribe();
      await worker.stop();
    },
  };
}
