import type { Database } from '../db/connection.js';
import type { Clock } from '../domain/types.js';
import type { OutboxRepository } from '../modules/deliveries/outbox-repository.js';
import type { WebhookRepository } from '../modules/webhooks/repository.js';
import type { WorkerRepository } from '../modules/workers/repository.js';
import type { WorkerLogger } from './worker.js';

export interface HeartbeatDeps {
  database: Database;
  workers: WorkerRepository;
  outbox: OutboxRepository;
  webhooks: WebhookRepository;
  log: WorkerLogger;
  clock?: Clock;
}

/**
 * A worker process's heartbeat, and the recovery of dead workers' claims. Every `timeoutMs / 4` it
 * refreshes its row in worker_heartbeats, and ends at once the leases (outbox rows, webhook
 * deliveries) of every other worker silent for longer than `timeoutMs`: a worker restarted after
 * kill -9, or a live one beside it, takes them over within seconds instead of after the lease.
 *
 * Taking over never delivers twice: a dead worker has no call in flight, and should a silent worker
 * still be alive (its event loop stalled past the timeout), a re-submission carries the same
 * provider idempotency key (`<itemId>:<attempt>`) and results are recorded behind conditional updates.
 */
export class Heartbeat {
  private timer: NodeJS.Timeout | null = null;
  private beating: Promise<void> = Promise.resolve();
  private readonly clock: Clock;

  constructor(
    private readonly deps: HeartbeatDeps,
    private readonly workerId: string,
    private readonly timeoutMs: number,
  ) {
    this.clock = deps.clock ?? Date.now;
  }

  /** Beats once now (so the worker is known before it claims anything), then every timeoutMs / 4. */
  async start(): Promise<void> {
    await this.tick();
    const every = Math.max(100, Math.floor(this.timeoutMs / 4));
    const loop = () => {
      this.timer = setTimeout(() => {
        this.beating = this.tick().finally(() => {
          if (this.timer) loop();
        });
      }, every);
    };
    loop();
  }

  /** Stops beating and removes this worker's row (call once its lanes have stopped: it holds nothing then). */
  async stop(): Promise<void> {
    const timer = this.timer;
    this.timer = null;
    if (timer) clearTimeout(timer);
    await this.beating;
    await this.deps.database
      .unit((tx) => this.deps.workers.forget(tx, [this.workerId]))
      .catch((error: unknown) => {
        this.deps.log.warn({ err: error, worker: this.workerId }, 'could not remove the heartbeat');
      });
  }

  /** One beat and one look for silent workers; a failure is logged and the next beat tries again. */
  async tick(): Promise<void> {
    try {
      const now = this.clock();
      const { dead, outbox, webhooks } = await this.deps.database.unit(async (tx) => {
        await this.deps.workers.beat(tx, this.workerId, now);
        const silent = await this.deps.workers.silentWorkers(tx, this.workerId, now - this.timeoutMs);
        if (silent.length === 0) return { dead: silent, outbox: 0, webhooks: 0 };
        const released = {
          dead: silent,
          outbox: await this.deps.outbox.releaseClaimsOf(tx, silent, now),
          webhooks: await this.deps.webhooks.releaseClaimsOf(tx, silent, now),
        };
        await this.deps.workers.forget(tx, silent);
        return released;
      });
      if (dead.length > 0) {
        this.deps.log.warn(
          { worker: this.workerId, deadWorkers: dead, outboxRows: outbox, webhookDeliveries: webhooks },
          'took over the claims of silent workers',
        );
      }
    } catch (error) {
      this.deps.log.error({ err: error, worker: this.workerId }, 'heartbeat failed');
    }
  }
}
