import type { AppContext } from '../context.js';
import { metricsFor } from '../ops/metrics.js';
import { callbackUrlFor, createProviders } from '../providers/index.js';
import { WorkerRepository } from '../modules/workers/repository.js';
import { Heartbeat } from './heartbeat.js';
import { workerOptionsFrom, type WorkerOptions } from './options.js';
import { WebhookLane, type WebhookLaneOptions } from './webhook-lane.js';
import { MomoLane } from './momo-lane.js';
import { OutboxWorker } from './worker.js';
import { DEFAULT_RECONCILE_CHECK_EVERY_MS, UpstreamUpkeep, type UpkeepOptions } from './upkeep.js';

export { OutboxWorker } from './worker.js';
export { WebhookLane } from './webhook-lane.js';
export { UpstreamUpkeep } from './upkeep.js';

/** A worker over the context's database, with the providers the configuration selects. */
export function createWorker(ctx: AppContext, options: Partial<WorkerOptions> = {}): OutboxWorker {
  return new OutboxWorker(
    {
      database: ctx.database,
      outbox: ctx.repositories.outbox,
      deliveries: ctx.deliveries,
      providers: createProviders(ctx.config, ctx.database, ctx.clock),
      gate: {
        concurrency: ctx.config.upstreams.concurrency,
        failures: ctx.config.upstreams.breakerFailures,
        coolMs: ctx.config.upstreams.breakerCoolMs,
      },
      callbackUrl: (provider) => callbackUrlFor(ctx.config, provider),
      onLowFloat: (provider) => {
        ctx.floats.refused(provider).catch((error: unknown) => ctx.log.warn({ err: error, provider }, 'an insufficient-float refusal could not be recorded'));
      },
      log: ctx.log,
      clock: ctx.clock,
      maintenance: [
        { name: 'purge expired idempotency keys', run: () => ctx.idempotency.purgeOlderThan(ctx.config.idempotencyTtlMs) },
        { name: 'purge expired events', run: () => ctx.events.purgeExpired(ctx.config.webhooks.eventRetentionMs) },
      ],
      ...(metricsExposed(ctx) ? { observer: metricsFor(ctx).worker } : {}),
    },
    options,
  );
}

/** The float reading and reconciliation of a worker process (docs/live-delivery.md, "Float balances", "Reconciliation"). */
export function createUpkeep(ctx: AppContext, workerId: string, options: Partial<UpkeepOptions> = {}): UpstreamUpkeep {
  return new UpstreamUpkeep(
    {
      floats: ctx.floats,
      reconciliation: ctx.reconciliation,
      margins: ctx.margins,
      providers: createProviders(ctx.config, ctx.database, ctx.clock),
      log: ctx.log,
      clock: ctx.clock,
      workerId,
    },
    { balanceEveryMs: ctx.config.upstreams.balanceEveryMs, reconcileCheckEveryMs: DEFAULT_RECONCILE_CHECK_EVERY_MS, ...options },
  );
}

/** Whether this process exposes metrics (METRICS_TOKEN or METRICS_PORT): only then are they counted. */
function metricsExposed(ctx: AppContext): boolean {
  return ctx.config.operations.metricsToken !== null || ctx.config.operations.metricsPort !== null;
}

/** The webhook options of a configuration: the lease outlasts a send's timeout. */
export function webhookLaneOptions(ctx: AppContext, overrides: Partial<WebhookLaneOptions> = {}): WebhookLaneOptions {
  const { webhooks } = ctx.config;
  return {
    concurrency: webhooks.concurrency,
    perEndpoint: webhooks.perEndpoint,
    leaseMs: webhooks.timeoutMs + 5_000,
    idleMaxMs: 250,
    ...(metricsExposed(ctx) ? { onResult: (result: string) => metricsFor(ctx).webhookResult(result) } : {}),
    ...overrides,
  };
}

export function createWebhookLane(ctx: AppContext, workerId: string, overrides: Partial<WebhookLaneOptions> = {}): WebhookLane {
  return new WebhookLane(ctx.webhookDeliveries, ctx.log, workerId, webhookLaneOptions(ctx, overrides), ctx.clock);
}

/** A running worker process's lanes: the order outbox and the webhook deliveries. */
export interface RunningWorker {
  id: string;
  /** Ends the current idle sleep of the outbox lane (work was just queued in this process). */
  wake(): void;
  /** Lets the batches and sends in flight finish, then resolves. */
  stop(): Promise<void>;
}

/**
 * The lanes of a worker process, started once its first heartbeat is recorded (so a worker that dies
 * is known to the others, who take its claims over; see heartbeat.ts). stop() lets batches and sends
 * in flight finish, then removes the heartbeat.
 */
export function startWorker(ctx: AppContext): RunningWorker {
  const outbox = createWorker(ctx, workerOptionsFrom(ctx.config.workerTuning));
  const webhooks = createWebhookLane(ctx, outbox.id);
  const upkeep = createUpkeep(ctx, outbox.id);
  // Due Mobile Money checks are looked for at least once a second (each charge is checked every MOMO_POLL_MS).
  const momo = new MomoLane(ctx.momo, ctx.log, outbox.id, Math.min(ctx.config.momo.pollMs, 1_000));
  const heartbeat = new Heartbeat(
    {
      database: ctx.database,
      workers: new WorkerRepository(ctx.database),
      outbox: ctx.repositories.outbox,
      webhooks: ctx.repositories.webhooks,
      log: ctx.log,
      clock: ctx.clock,
    },
    outbox.id,
    ctx.config.operations.heartbeatTimeoutMs,
  );
  let stopping = false;
  const started = heartbeat.start().then(() => {
    if (stopping) return;
    outbox.start();
    webhooks.start();
    upkeep.start();
    momo.start();
  });
  return {
    id: outbox.id,
    wake: () => outbox.wake(),
    async stop() {
      stopping = true;
      await started;
      await Promise.all([outbox.stop(), webhooks.stop(), upkeep.stop(), momo.stop()]);
      await heartbeat.stop();
    },
  };
}

/**
 * The worker of a serve process (WORKER=inline), started. It wakes as soon as this process commits
 * a purchase, instead of after up to WORKER_IDLE_MS; work queued by other processes is found by its
 * polling. stop() unsubscribes and lets the batches and sends in flight finish.
 */
export function startInlineWorker(ctx: AppContext): { stop(): Promise<void> } {
  const worker = startWorker(ctx);
  const unsubscribe = ctx.onDeliveriesQueued(() => worker.wake());
  return {
    async stop() {
      unsubscribe();
      await worker.stop();
    },
  };
}
