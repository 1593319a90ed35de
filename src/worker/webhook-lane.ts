import type { DeliveryWork } from '../modules/webhooks/repository.js';
import type { WebhookDeliveryService } from '../modules/webhooks/deliveries.js';
import type { WorkerLogger } from './worker.js';

export interface WebhookLaneOptions {
  /** Deliveries sent at once by this process. */
  concurrency: number;
  /** Of those, at most this many (counting every worker's leases) to one endpoint. */
  perEndpoint: number;
  /** How long a claim is exclusive: longer than a delivery's timeout, so no live send is taken over. */
  leaseMs: number;
  /** Longest sleep when nothing is due. */
  idleMaxMs: number;
  /** Told each attempt's result (metrics, set at the composition root): succeeded, retrying, failed or error (not recorded). */
  onResult?(result: 'succeeded' | 'retrying' | 'failed' | 'error'): void;
}

/**
 * The worker's second lane: webhook deliveries, apart from the order outbox so a slow or dead
 * endpoint (10 s timeouts) never delays a settlement. Keeps up to `concurrency` sends running and
 * claims more as each finishes; the per-endpoint cap keeps one endpoint from taking every slot,
 * so other partners' webhooks go on. At least once: a crash mid-send leaves the lease to expire
 * and the delivery is sent again (same webhook-id).
 */
export class WebhookLane {
  private running: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly deliveries: WebhookDeliveryService,
    private readonly log: WorkerLogger,
    private readonly workerId: string,
    private readonly options: WebhookLaneOptions,
    private readonly clock: () => number = Date.now,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Stops claiming; resolves when the sends in flight have finished (each is bounded by its timeout). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    this.running = null;
  }

  private async loop(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    let failures = 0;
    while (!this.stopping) {
      let delay = this.options.idleMaxMs;
      try {
        const free = this.options.concurrency - inFlight.size;
        if (free <= 0) {
          await Promise.race(inFlight);
          continue;
        }
        const claimed = await this.deliveries.claim({
          workerId: this.workerId,
          limit: free,
          perEndpoint: this.options.perEndpoint,
          leaseMs: this.options.leaseMs,
        });
        failures = 0;
        for (const work of claimed) {
          const send: Promise<void> = this.send(work).finally(() => {
            inFlight.delete(send);
            this.wakeUp?.();
          });
          inFlight.add(send);
        }
        if (claimed.length === free) continue;
        // Nothing more is claimable now: sleep until the next delivery is due (a finished send wakes the lane).
        const next = await this.deliveries.nextDueAt();
        const wait = next === null ? Infinity : next - this.clock();
        if (wait > 0) delay = Math.min(wait, this.options.idleMaxMs);
      } catch (error) {
        failures++;
        this.log.error({ err: error, worker: this.workerId }, 'webhook lane step failed');
        delay = Math.min(30_000, this.options.idleMaxMs * 2 ** Math.min(failures, 7));
      }
      await this.sleep(Math.max(delay, 1));
    }
    await Promise.all(inFlight);
  }

  private async send(work: DeliveryWork): Promise<void> {
    try {
      const outcome = await this.deliveries.attempt(work, this.workerId);
      this.options.onResult?.(outcome.result);
      const entry = { worker: this.workerId, ...outcome };
      if (outcome.endpointDisabled !== null) this.log.warn(entry, 'webhook endpoint disabled');
      else if (outcome.result === 'succeeded') this.log.info(entry, 'webhook delivered');
      else
        this.log.warn(
          entry,
          outcome.result === 'failed' ? 'webhook delivery failed for good' : 'webhook delivery will be retried',
        );
    } catch (error) {
      this.options.onResult?.('error');
      // The lease runs out and the delivery is tried again.
      this.log.error({ err: error, worker: this.workerId, deliveryId: work.id }, 'webhook attempt could not be recorded');
    }
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
}
