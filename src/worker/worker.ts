import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Database } from '../db/connection.js';
import type { Tx } from '../db/unit-of-work.js';
import type { Clock } from '../domain/types.js';
import type { DeliveryService } from '../modules/deliveries/service.js';
import type { ClaimedRow, OutboxRepository } from '../modules/deliveries/outbox-repository.js';
import type { ItemWithOrder } from '../modules/orders/repository.js';
import {
  ProviderError,
  type PollResult,
  type ProviderOutcome,
  type ProviderRegistry,
  type SubmitResult,
} from '../providers/legacy.js';
import { backoffDelay, DEFAULT_WORKER_OPTIONS, type WorkerOptions } from './options.js';

export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

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
  providerError?(provider: string, step: 'submit' | 'poll', retryable: boolean): void;
  /** A delivery of `mode` reached its final state in this worker. */
  settled?(mode: string, outcome: 'completed' | 'failed'): void;
}

export interface WorkerDeps {
  database: Database;
  outbox: OutboxRepository;
  deliveries: DeliveryService;
  providers: ProviderRegistry;
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

/** Rejects with a retryable ProviderError when `work` takes longer than `ms`. */
function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError(`provider ${what} timed out after ${ms} ms`, true)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Drains the outbox: submits each pending delivery to its provider, then polls it until an outcome
 * is known and settles it. Exactly-once in effect:
 * - a row is claimed under a lease (PostgreSQL: FOR UPDATE SKIP LOCKED), so one worker works on it;
 * - provider calls happen outside any transaction and are idempotent per `<itemId>:<attempt>`, so a
 *   crash after submitting only leads to a re-submission the provider recognises;
 * - results are recorded in a transaction behind conditional updates (and unique ledger keys), so a
 *   late or duplicate result changes nothing;
 * - a crashed worker's lease expires and its rows are picked up again.
 */
export class OutboxWorker {
  readonly id: string;
  private readonly options: WorkerOptions;
  private readonly clock: () => number;
  private running: Promise<void> | null = null;
  private nextMaintenanceAt = 0;
  private stopping = false;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly deps: WorkerDeps,
    options: Partial<WorkerOptions> = {},
    id?: string,
  ) {
    this.options = { ...DEFAULT_WORKER_OPTIONS, ...options };
    this.clock = deps.clock ?? Date.now;
    this.id = id ?? `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  }

  /** Starts the loop in the background; stop() ends it. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Lets the batches in flight finish their steps, then resolves. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    this.running = null;
  }

  /** Ends the current idle sleep early (e.g. when new work was just queued in this process). */
  wake(): void {
    this.wakeUp?.();
  }

  /**
   * Claims due rows and keeps up to `batchesInFlight` claimed batches running at once: the next
   * batch is claimed while earlier ones wait on their provider calls and commits, so the outbox
   * drains at the rate those overlap instead of one batch's round trips at a time.
   */
  private async loop(): Promise<void> {
    this.deps.log.info({ worker: this.id }, 'outbox worker started');
    const inFlight = new Set<Promise<void>>();
    let failures = 0;
    while (!this.stopping) {
      let delay: number;
      try {
        if (this.clock() >= this.nextMaintenanceAt) await this.maintain();
        const now = this.clock();
        const next = await this.deps.outbox.nextDueAt();
        if (next !== null && next <= now) {
          const claimed = await this.claim();
          failures = 0;
          if (claimed.length > 0) {
            const batch: Promise<void> = this.processBatch(claimed).finally(() => {
              inFlight.delete(batch);
              // What it did may have made rows due (a submission schedules its poll): look again now.
              this.wakeUp?.();
            });
            inFlight.add(batch);
            if (inFlight.size >= this.options.batchesInFlight) await Promise.race(inFlight);
            continue;
          }
          // The due rows are held by another worker, or by this one's batches still running.
          if (inFlight.size > 0) {
            await Promise.race(inFlight);
            continue;
          }
          delay = 10;
        } else {
          failures = 0;
          delay = next === null ? this.options.idleMaxMs : Math.min(next - now, this.options.idleMaxMs);
        }
      } catch (error) {
        failures++;
        this.deps.log.error({ err: error, worker: this.id }, 'outbox worker step failed');
        delay = backoffDelay(failures, { backoffBaseMs: this.options.idleMaxMs, backoffMaxMs: 30_000 });
      }
      await this.sleep(Math.max(delay, 1));
    }
    await Promise.all(inFlight);
    this.deps.log.info({ worker: this.id }, 'outbox worker stopped');
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
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
    // One read for the whole batch (items as they are now, after the claim committed).
    const items = await this.deps.deliveries.itemsOf(claimed).catch((error: unknown) => {
      this.deps.log.error({ err: error, worker: this.id }, 'reading the claimed items failed');
      return null;
    });
    const began = process.hrtime.bigint();
    await Promise.all(claimed.map((row) => this.process(row, items)));
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

  /**
   * Entry point for a provider that reports outcomes itself (callback/webhook): settles the
   * delivery known by `providerRef` once; false if it is unknown or already settled.
   */
  async settleFromProvider(providerRef: string, outcome: ProviderOutcome): Promise<boolean> {
    return this.deps.deliveries.settleFromProvider(providerRef, outcome);
  }

  /** One claimed row; `batch` holds its item when the batch read succeeded (else it is read here). */
  private async process(row: ClaimedRow, batch: Map<string, Item> | null): Promise<void> {
    try {
      const item = batch ? batch.get(row.order_item_id) : await this.deps.deliveries.item(row.order_item_id);
      if (!item) {
        await this.write((tx) => this.deps.outbox.deleteOwned(tx, row.id, this.id));
        return;
      }
      if (row.kind === 'submit') await this.submit(row, item);
      else await this.poll(row, item);
    } catch (error) {
      this.deps.log.error({ err: error, worker: this.id, outboxId: row.id, itemId: row.order_item_id }, 'outbox step failed');
      await this.retryLater(row, describe(error)).catch(() => {
        // the lease expires and another step picks the row up
      });
    }
  }

  private async submit(row: ClaimedRow, item: Item): Promise<void> {
    const { outbox, deliveries } = this.deps;
    if (item.status !== 'pending') {
      // Nothing left to submit: keep polling a processing item, drop the row of a settled one.
      if (item.status === 'processing') await this.write((tx) => outbox.markSubmitted(tx, row.id, this.id, this.clock()));
      else await this.write((tx) => outbox.deleteOwned(tx, row.id, this.id));
      return;
    }
    const attempt = Number(item.attempt);
    const provider = this.deps.providers.forMode(item.mode);
    let accepted: SubmitResult;
    try {
      accepted = await withTimeout(
        provider.submit({
          idempotencyKey: `${item.id}:${attempt}`,
          msisdn: item.beneficiary_msisdn,
          packageId: item.package_id,
          amount: Number(item.amount),
          mode: item.mode,
        }),
        this.options.providerTimeoutMs,
        'submit',
      );
    } catch (error) {
      this.providerFailed(provider.name, 'submit', error);
      if (error instanceof ProviderError && !error.retryable) {
        // Refused outright: nothing was delivered, so the hold goes back to available.
        const settled = await deliveries.settle({
          itemId: item.id,
          orderId: item.order_id,
          attempt,
          outcome: { status: 'failed', errorMessage: error.customerMessage ?? `Provider refused the order: ${error.message}` },
          from: ['pending'],
          now: this.clock(),
        });
        if (settled) this.deps.observer?.settled?.(item.mode, 'failed');
        this.deps.log.warn({ worker: this.id, itemId: item.id, settled, reason: error.message }, 'submission refused');
        return;
      }
      await this.retryLater(row, describe(error));
      return;
    }
    const now = this.clock();
    const recorded = await deliveries.recordSubmission({
      outboxId: row.id,
      workerId: this.id,
      orderId: item.order_id,
      itemId: item.id,
      attempt,
      providerRef: accepted.providerRef,
      pollAt: accepted.pollAt ?? now + this.options.pollIntervalMs,
      now,
    });
    this.deps.log.info(
      { worker: this.id, orderId: item.order_id, itemId: item.id, attempt, providerRef: accepted.providerRef, recorded },
      'delivery submitted',
    );
  }

  private async poll(row: ClaimedRow, item: Item): Promise<void> {
    const { outbox, deliveries } = this.deps;
    if (item.status !== 'processing' || item.provider_ref === null) {
      await this.write((tx) => outbox.deleteOwned(tx, row.id, this.id));
      return;
    }
    const attempt = Number(item.attempt);
    let result: PollResult;
    const provider = this.deps.providers.forMode(item.mode);
    try {
      result = await withTimeout(provider.poll(item.provider_ref), this.options.providerTimeoutMs, 'poll');
    } catch (error) {
      this.providerFailed(provider.name, 'poll', error);
      // Even a permanent poll error proves nothing about delivery: keep asking (backoff), and
      // `cli orders stuck` reports the order if it never resolves.
      await this.retryLater(row, describe(error));
      return;
    }
    const now = this.clock();
    if (result.status === 'pending') {
      const runAt = Math.max(result.retryAt ?? now + this.options.pollIntervalMs, now + 10);
      await this.write((tx) => outbox.reschedule(tx, row.id, this.id, { runAt, error: null }));
      return;
    }
    const outcome: ProviderOutcome = result;
    const settled = await deliveries.settle({
      itemId: item.id,
      orderId: item.order_id,
      attempt,
      outcome,
      from: ['processing'],
      now,
    });
    if (settled) this.deps.observer?.settled?.(item.mode, outcome.status);
    this.deps.log.info(
      { worker: this.id, orderId: item.order_id, itemId: item.id, attempt, outcome: outcome.status, settled },
      'delivery settled',
    );
  }

  private providerFailed(provider: string, step: 'submit' | 'poll', error: unknown): void {
    this.deps.observer?.providerError?.(provider, step, !(error instanceof ProviderError) || error.retryable);
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
