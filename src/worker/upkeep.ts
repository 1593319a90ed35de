import type { Clock } from '../domain/types.js';
import type { FloatService } from '../modules/float/service.js';
import type { MarginService } from '../modules/margins/service.js';
import type { ReconciliationService } from '../modules/reconciliation/service.js';
import type { Providers } from '../providers/index.js';
import type { WorkerLogger } from './worker.js';

export interface UpkeepOptions {
  /** How often the floats are read (PROVIDER_BALANCE_EVERY_MS). */
  balanceEveryMs: number;
  /** How often the worker looks for a reconciliation to run (the daily one, or one asked for in the console). */
  reconcileCheckEveryMs: number;
}

export const DEFAULT_RECONCILE_CHECK_EVERY_MS = 30_000;

/**
 * What a worker process keeps an eye on beside the deliveries (docs/live-delivery.md, "Float
 * balances", "Reconciliation"): the upstreams' float, read on a schedule; and reconciliation runs:
 * the daily one of the day before is queued (once across all workers: a unique daily key) and any
 * queued run is claimed and run here. Each runs on its own timer, never inside the delivery loop: a
 * run of a whole day reads an upstream's list for a while and deliveries go on meanwhile.
 */
export class UpstreamUpkeep {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private stopped = true;
  /** stop() was called: a run in progress finishes, no other starts. */
  private closing = false;
  private reconciling = false;

  constructor(
    private readonly deps: {
      floats: FloatService;
      reconciliation: ReconciliationService;
      /** Closed days' margin sums are made here, so that no staff report waits for them. */
      margins?: MarginService;
      providers: Providers;
      log: WorkerLogger;
      clock: Clock;
      workerId: string;
    },
    private readonly options: UpkeepOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.closing = false;
    this.every('floats', this.options.balanceEveryMs, () => this.readFloats());
    this.every('reconciliation', this.options.reconcileCheckEveryMs, () => this.reconcile());
    this.every('margins', this.options.reconcileCheckEveryMs, async () => {
      const summed = await this.deps.margins?.prepare();
      if (summed) this.deps.log.info({ worker: this.deps.workerId, days: summed }, 'margin sums of closed days made');
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.closing = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  /** Reads every readable float now. */
  async readFloats(): Promise<number> {
    return this.deps.floats.readAll(this.deps.providers);
  }

  /** Queues the daily run when due, then runs queued runs one after another until none is left. */
  async reconcile(): Promise<number> {
    if (this.reconciling) return 0;
    this.reconciling = true;
    let ran = 0;
    try {
      await this.deps.reconciliation.scheduleDaily(this.deps.clock());
      while (!this.closing) {
        const result = await this.deps.reconciliation.runNext(this.deps.providers, this.deps.workerId);
        if (!result) break;
        ran++;
        const { run } = result;
        const fields = { worker: this.deps.workerId, run: run.id, provider: run.provider, status: run.status, attempts: run.attempts_checked, records: run.upstream_records, findings: run.findings };
        if (run.status === 'done') this.deps.log.info(fields, 'reconciliation run finished');
        else this.deps.log.warn({ ...fields, error: run.error }, 'reconciliation run did not finish');
      }
    } finally {
      this.reconciling = false;
    }
    return ran;
  }

  /** Runs `task` now and every `ms` after it ends (two workers may sum the same day at once: both write the same figures); a failure is logged and the task runs again next time. */
  private every(name: string, ms: number, task: () => Promise<unknown>): void {
    const tick = () => {
      if (this.stopped) return;
      const running = task()
        .catch((error: unknown) => this.deps.log.error({ err: error, worker: this.deps.workerId }, 'upstream upkeep failed'))
        .finally(() => {
          this.inFlight.delete(running);
          if (!this.stopped) this.timers.set(name, setTimeout(tick, ms));
        });
      this.inFlight.add(running);
    };
    tick();
  }
}
