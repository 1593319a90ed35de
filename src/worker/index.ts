import type { AppContext } from '../context.js';
import { createProviders } from '../provider/index.js';
import type { WorkerOptions } from './options.js';
import { OutboxWorker } from './worker.js';

export { OutboxWorker } from './worker.js';

/** A worker over the context's database, with the providers the configuration selects. */
export function createWorker(ctx: Pick<AppContext, 'config' | 'database' | 'log'>, options: Partial<WorkerOptions> = {}): OutboxWorker {
  return new OutboxWorker(
    { database: ctx.database, providers: createProviders(ctx.config, ctx.database), log: ctx.log },
    options,
  );
}
