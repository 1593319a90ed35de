import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/connection.js';
import type { Tx } from '../db/unit-of-work.js';
import type { Clock } from '../domain/types.js';
import type { AnswerEffect, AttemptCall, DeliveryPlan, DeliveryService } from '../modules/deliveries/service.js';
import type { ClaimedRow, OutboxRepository } from '../modules/deliveries/outbox-repository.js';
import type { ItemWithOrder } from '../modules/orders/repository.js';
import type { Providers } from '../providers/index.js';
import { UPSTREAM_NAMES, type AttemptRequest, type ProviderName, type UpstreamAnswer } from '../providers/types.js';
import { UpstreamGate, type GateOptions } from './upstream-gate.js';
import { backoffDelay, DEFAULT_WORKER_OPTIONS, type WorkerOptions } from './options.js';
import { Lane, type NextPass, type WorkerLogger } from './lane.js';

export type { WorkerLogger } from './lane.js';

/** Upkeep the worker runs every so often beside the outbox (purges of expired records). */
export interface MaintenanceTask {
  name: string;
  run(): Promise<number>;
}

/** What the worker reports for metrics (set at the composition root; no metrics library here). */
export interface WorkerObserver {
  /** A claimed batch of `rows` finished its steps after `seconds`. */
  batch?(rows: number, seconds: number): void;
  /** A provider call failed (`retryable`: it will be tried again). */
  providerError?(provider: string, step: 'submit' | 'check' | 'lookup', retryable: boolean): void;
  /** A delivery of `mode` reached its final state in this worker. */
  settled?(mode: string, outcome: 'completed' | 'failed'): void;
}

export interface WorkerDeps {
  database: Database;
  outbox: OutboxRepository;
  deliveries: DeliveryService;
  providers: Providers;
  /** Per-upstream concurrency and breaker (PROVIDER_CONCURRENCY, PROVIDER_BREAKER_*). */
  gate?: GateOptions;
  /** Where each upstream calls back, or null (docs/live-delivery.md, "Callbacks"). */
  callbackUrl?: (provider: ProviderName) => string | null;
  /** A purchase was refused for insufficient float (recorded for staff: docs/live-delivery.md, "Float balances"). */
  onLowFloat?: (provider: ProviderName) => void;
  log: WorkerLogger;
  clock?: Clock;
  maintenance?: MaintenanceTask[];
  observer?: WorkerObserver;
}

/** How often the maintenance tasks run. */
const MAINTENANCE_EVERY_MS = 10 * 60_000;

type Item = ItemWithOrder;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Drains the outbox: for each due delivery it asks the delivery module what to call (submit a new
 * attempt, check one the upstream has, look one up by reference), makes that call through the
 * upstream's gate, and hands the answer back to be recorded. The worker schedules and calls; the
 * delivery module decides (src/modules/deliveries/service.ts). Exactly-once in effect:
 * - a row is claimed under a lease (PostgreSQL: FOR UPDATE SKIP LOCKED), so one worker works on it;
 * - every attempt is recorded before its call, under the reference the upstream's idempotency
 *   field receives, so a crash after a call leads to a lookup, never to a second delivery;
 * - answers are recorded in a transaction behind conditional updates (and unique ledger keys), so a
 *   late or duplicate answer changes nothing;
 * - a crashed worker's lease expires and its rows are picked up again.
 */
export class OutboxWorker extends Lane {
  readonly id: string;
  private readonly options: WorkerOptions;
  private readonly clock: () => number;
  private nextMaintenanceAt = 0;
  private readonly gate: UpstreamGate;
  private readonly gateOptions: GateOptions;

  constructor(
    private readonly deps: WorkerDeps,
    options: Partial<WorkerOptions> = {},
    id?: string,
  ) {
    const workerId = id ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    super({ log: deps.log, workerId, failed: 'outbox worker step failed', started: 'outbox worker started', stopped: 'outbox worker stopped' });
    this.id = workerId;
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.clock = deps.clock ?? Date.now;
    this.gateOptions = deps.gate ?? { concurrency: 32, failures: 5, coolMs: 60_000 };
    const upstreams = UPSTREAM_NAMES.filter((name) => deps.providers.adapter(name) !== undefined).length;
    this.batchLimit = this.options.batchesInFlight + Math.ceil((upstreams * this.gateOptions.concurrency) / this.options.batchSize);
    this.gate = new UpstreamGate(this.gateOptions, this.clock, (provider, until, why) =>
      deps.log.warn({ worker: this.id, provider, until: new Date(until).toISOString(), why }, 'upstream resting: new submissions skip it'),
    );
  }

  /** Calls in flight to `provider` from this worker now. */
  inFlight(provider: ProviderName): number {
    return this.gate.inFlight(provider);
  }

  /**
   * Claimed batches this worker runs at once: `batchesInFlight`, and as many more as the upstreams'
   * call slots fill. A row whose call waits on a slow upstream holds its batch for the call's
   * length (a 300 ms upstream: 50 rows, 300 ms): with the batches alone, 4 batches of 50 would cap
   * every upstream together at ~670 calls a second whatever PROVIDER_CONCURRENCY allows, and a slow
   * upstream would hold up the sandbox's and the others' deliveries. The extra batches are at most
   * what the slots can take, so no more rows wait at a gate than before (their leases hold).
   */
  private readonly batchLimit: number;

  /**
   * Claims due rows and keeps up to batchLimit claimed batches running at once: the next batch is
   * claimed while earlier ones wait on their provider calls and commits, so the outbox drains at the
   * rate those overlap instead of one batch's round trips at a time. A finished batch wakes the lane:
   * what it did may have made rows due (a submission schedules its poll).
   */
  protected override async pass(): Promise<NextPass> {
    if (this.clock() >= this.nextMaintenanceAt) await this.maintain();
    const now = this.clock();
    const next = await this.deps.outbox.nextDueAt();
    if (next === null || next > now) {
      this.resetBackoff();
      return next === null ? this.options.idleMaxMs : Math.min(next - now, this.options.idleMaxMs);
    }
    const claimed = await this.claim();
    this.resetBackoff();
    if (claimed.length > 0) {
      this.track(this.processBatch(claimed));
      if (this.busy >= this.batchLimit) await this.untilOneEnds();
      return 'again';
    }
    // The due rows are held by another worker, or by this one's batches still running.
    if (this.busy > 0) {
      await this.untilOneEnds();
      return 'again';
    }
    return 10;
  }

  protected override backoff(failures: number): number {
    return backoffDelay(failures, { backoffBaseMs: this.options.idleMaxMs, backoffMaxMs: 30_000 });
  }

  /** Claims one batch of due rows and processes it; returns how many rows were claimed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length > 0) await this.processBatch(claimed);
    return claimed.length;
  }

  private claim(): Promise<ClaimedRow[]> {
    return this.write((tx) =>
      this.deps.outbox.claimDue(tx, {
        workerId: this.id,
        now: this.clock(),
        leaseMs: this.options.leaseMs,
        limit: this.options.batchSize,
      }),
    );
  }

  /** Every row of a claimed batch, concurrently; never rejects (a failed step is retried later). */
  private async processBatch(claimed: ClaimedRow[]): Promise<void> {
    const began = process.hrtime.bigint();
    try {
      // One read for the whole batch (items as they are now, after the claim committed), one plan.
      const items = await this.deps.deliveries.itemsOf(claimed);
      const inputs: { row: ClaimedRow; item: Item }[] = [];
      const gone: ClaimedRow[] = [];
      for (const row of claimed) {
        const item = items.get(row.order_item_id);
        if (item) inputs.push({ row, item });
        else gone.push(row);
      }
      for (const row of gone) await this.write((tx) => this.deps.outbox.deleteOwned(tx, row.id, this.id));
      const plans = await this.deps.deliveries.plan(inputs, { enabled: this.deps.providers.enabled, resting: this.gate.resting() });
      await Promise.all(inputs.map(({ row, item }) => this.process(row, item, plans.get(row.id))));
    } catch (error) {
      this.deps.log.error({ err: error, worker: this.id }, 'planning a claimed batch failed');
      await Promise.all(claimed.map((row) => this.retryLater(row, describe(error)).catch(() => undefined)));
    }
    this.deps.observer?.batch?.(claimed.length, Number(process.hrtime.bigint() - began) / 1e9);
  }

  /** Runs every maintenance task once (a failing one is logged and tried again next time). */
  async maintain(): Promise<void> {
    this.nextMaintenanceAt = this.clock() + MAINTENANCE_EVERY_MS;
    for (const task of this.deps.maintenance ?? []) {
      try {
        const done = await task.run();
        if (done > 0) this.deps.log.info({ worker: this.id, task: task.name, done }, 'maintenance');
      } catch (error) {
        this.deps.log.error({ err: error, worker: this.id, task: task.name }, 'maintenance task failed');
      }
    }
  }

  /** Runs steps until nothing is due now (tests and one-shot use). */
  async drain(maxSteps = 1000): Promise<void> {
    for (let step = 0; step < maxSteps; step++) {
      const next = await this.deps.outbox.nextDueAt();
      if (next === null || next > this.clock()) return;
      if ((await this.runOnce()) === 0) return;
    }
  }

  /** One claimed row and its plan; never rejects (a failed step is retried later). */
  private async process(row: ClaimedRow, item: Item, plan: DeliveryPlan | undefined): Promise<void> {
    try {
      if (!plan || plan.kind === 'done') {
        if (plan?.settled) this.deps.observer?.settled?.(plan.mode, plan.settled);
        await this.write((tx) => this.deps.outbox.deleteOwned(tx, row.id, this.id));
        return;
      }
      if (plan.kind === 'wait') {
        await this.write((tx) => this.deps.outbox.reschedule(tx, row.id, this.id, { runAt: plan.until, error: null }));
        return;
      }
      const answer = await this.call(plan.attempt);
      const effect = await this.deps.deliveries.record({
        attempt: plan.attempt,
        answer,
        outboxId: row.id,
        workerId: this.id,
        checkEveryMs: this.options.pollIntervalMs,
        retryInMs: backoffDelay(row.tries + 1, this.options),
      });
      this.report(plan.attempt, answer, effect, item);
    } catch (error) {
      this.deps.log.error({ err: error, worker: this.id, outboxId: row.id, itemId: row.order_item_id }, 'outbox step failed');
      await this.retryLater(row, describe(error)).catch(() => {
        // the lease expires and another step picks the row up
      });
    }
  }

  /** The call the plan asks for, through the upstream's gate; never rejects for the upstream's sake. */
  private async call(attempt: AttemptCall): Promise<UpstreamAnswer> {
    const adapter = this.deps.providers.adapter(attempt.provider);
    if (!adapter) {
      // Taken by an upstream this configuration no longer enables: it cannot be followed from here.
      return { class: 'unknown', message: `${attempt.provider} is not enabled in this configuration; the attempt cannot be followed` };
    }
    const handle = { reference: attempt.reference, transactionId: attempt.transactionId, msisdn: attempt.msisdn, route: attempt.route, createdAt: attempt.createdAt };
    const request: AttemptRequest = {
      reference: attempt.reference,
      msisdn: attempt.msisdn,
      route: attempt.route,
      packageId: attempt.packageId,
      price: attempt.price,
      mode: attempt.mode,
      callbackUrl: this.deps.callbackUrl?.(attempt.provider) ?? null,
    };
    const run = (): Promise<UpstreamAnswer> =>
      attempt.call === 'submit' ? adapter.submit(request) : attempt.call === 'check' ? adapter.check(handle) : adapter.lookup(handle);
    try {
      return attempt.provider === 'sandbox' ? await run() : await this.gate.call(attempt.provider, run);
    } catch (error) {
      // An adapter bug, not an answer: nothing is known of the upstream's side.
      this.deps.log.error({ err: error, worker: this.id, provider: attempt.provider, reference: attempt.reference }, 'adapter failed');
      return { class: 'unknown', message: `adapter error: ${describe(error)}` };
    }
  }

  private report(attempt: AttemptCall, answer: UpstreamAnswer, effect: AnswerEffect, item: Item): void {
    if (answer.class === 'unknown') this.deps.observer?.providerError?.(attempt.provider, attempt.call, true);
    if (answer.class === 'refused') this.deps.observer?.providerError?.(attempt.provider, attempt.call, false);
    if (answer.class === 'refused' && answer.lowFloat) this.deps.onLowFloat?.(attempt.provider);
    if (effect.kind === 'settled') this.deps.observer?.settled?.(item.mode, effect.outcome);
    const fields = {
      worker: this.id,
      orderId: item.order_id,
      itemId: item.id,
      provider: attempt.provider,
      reference: attempt.reference,
      call: attempt.call,
      answer: answer.class,
      effect: effect.kind,
    };
    if (answer.class === 'unknown' || answer.class === 'refused' || answer.class === 'failed') {
      this.deps.log.warn({ ...fields, message: answer.message }, 'upstream answer');
    } else {
      this.deps.log.info(fields, 'upstream answer');
    }
  }

  /** A one-statement write (on SQLite it joins a group commit like every unit of work). */
  private write<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.deps.database.singleStatement(work);
  }

  private async retryLater(row: ClaimedRow, error: string): Promise<void> {
    const tries = row.tries + 1;
    const runAt = this.clock() + backoffDelay(tries, this.options);
    this.deps.log.warn(
      { worker: this.id, outboxId: row.id, itemId: row.order_item_id, tries, error },
      'provider step will be retried',
    );
    await this.write((tx) => this.deps.outbox.reschedule(tx, row.id, this.id, { runAt, error }));
  }
}
