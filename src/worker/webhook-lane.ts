import type { DeliveryWork } from '../modules/webhooks/repository.js';
import type { WebhookDeliveryService } from '../modules/webhooks/deliveries.js';
import { Lane, type NextPass, type WorkerLogger } from './lane.js';

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
export class WebhookLane extends Lane {
  constructor(
    private readonly deliveries: WebhookDeliveryService,
    private readonly log: WorkerLogger,
    private readonly workerId: string,
    private readonly options: WebhookLaneOptions,
    private readonly clock: () => number = Date.now,
  ) {
    super({ log, workerId, failed: 'webhook lane step failed' });
  }

  /** Claims as many deliveries as there are free sends and sends them; stop() waits for the sends (each bounded by its timeout). */
  protected override async pass(): Promise<NextPass> {
    const free = this.options.concurrency - this.busy;
    if (free <= 0) {
      await this.untilOneEnds();
      return 'again';
    }
    const claimed = await this.deliveries.claim({
      workerId: this.workerId,
      limit: free,
      perEndpoint: this.options.perEndpoint,
      leaseMs: this.options.leaseMs,
    });
    this.resetBackoff();
    for (const work of claimed) this.track(this.send(work));
    if (claimed.length === free) return 'again';
    // Nothing more is claimable now: sleep until the next delivery is due (a finished send wakes the lane).
    const next = await this.deliveries.nextDueAt();
    const wait = next === null ? Infinity : next - this.clock();
    return wait > 0 ? Math.min(wait, this.options.idleMaxMs) : this.options.idleMaxMs;
  }

  protected override backoff(failures: number): number {
    return Math.min(30_000, this.options.idleMaxMs * 2 ** Math.min(failures, 7));
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
}
