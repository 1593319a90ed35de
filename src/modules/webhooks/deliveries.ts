import type { Database } from '../../db/connection.js';
import type { Clock } from '../../domain/types.js';
import type { Sealer } from '../../lib/sealer.js';
import type { DeliveryNext, DeliveryWork, WebhookRepository } from './repository.js';
import { postWebhook, type SendResult } from './sender.js';
import { signatureHeader } from './signing.js';

/** docs/webhooks.md, "Delivery": after a failed attempt, the next one comes this long later (then: failed). */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
] as const;

/** An endpoint whose every attempt has failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 3 * 86_400_000;
/** The longest wait a Retry-After can ask for. */
const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

export interface DeliverySettings {
  /** WEBHOOK_RETRY_SCALE: multiplies the schedule and the three days before an endpoint is disabled. */
  retryScale: number;
  timeoutMs: number;
  allowPrivateUrls: boolean;
}

export type AttemptResult = 'succeeded' | 'retrying' | 'failed';

export interface AttemptOutcome {
  deliveryId: number;
  eventId: string;
  endpointId: string;
  result: AttemptResult;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Why the endpoint was disabled by this attempt, if it was. */
  endpointDisabled: string | null;
}

/** ±10% so retries of many deliveries failed together do not arrive together. */
const jitter = (ms: number, random: () => number) => Math.round(ms * (0.9 + 0.2 * random()));

/**
 * The next state of a delivery after an attempt, by the rules of docs/webhooks.md, "Delivery": a 2xx succeeded; a 410 fails
 * it (and disables the endpoint); anything else is tried again after the next step of the schedule
 * (later if the endpoint's Retry-After asks for more), until the schedule is used up.
 */
export function nextAfter(
  sent: SendResult,
  failedBefore: number,
  now: number,
  settings: Pick<DeliverySettings, 'retryScale'>,
  random: () => number = Math.random,
): DeliveryNext {
  const code = sent.statusCode;
  if (code !== null && code >= 200 && code < 300) return { status: 'succeeded' };
  if (code === 410) return { status: 'failed' };
  const step = RETRY_SCHEDULE_MS[failedBefore];
  if (step === undefined) return { status: 'failed' };
  let delay = jitter(step * settings.retryScale, random);
  if (sent.retryAfterMs !== null && sent.retryAfterMs > delay) delay = Math.min(sent.retryAfterMs, MAX_RETRY_AFTER_MS);
  return { status: 'pending', nextAttemptAt: now + delay };
}

/** Sends claimed webhook deliveries and records each attempt (the worker's webhook lane drives it). */
export class WebhookDeliveryService {
  constructor(
    private readonly database: Database,
    private readonly webhooks: WebhookRepository,
    private readonly secrets: Sealer,
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
  ) {}

  /** Claims due deliveries for `workerId` and reads what sending them needs. */
  async claim(c: { workerId: string; limit: number; perEndpoint: number; leaseMs: number }): Promise<DeliveryWork[]> {
    const claimed = await this.database.unit((tx) => this.webhooks.claimDue(tx, { ...c, now: this.clock() }));
    return this.webhooks.workOf(claimed);
  }

  nextDueAt(): Promise<number | null> {
    return this.webhooks.nextDueAt(this.clock());
  }

  /** One attempt: signed POST, then its record and the delivery's next state in one unit. */
  async attempt(work: DeliveryWork, workerId: string): Promise<AttemptOutcome> {
    const now = this.clock();
    const body = work.payload;
    const timestamp = Math.floor(now / 1000);
    const headers = {
      'webhook-id': work.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(this.activeSecrets(work, now), work.event_id, timestamp, body),
    };
    // On SQLite a commit can be seen before it is on disk: nothing leaves about a change that may yet be lost.
    await this.database.whenDurable();
    const sent = await postWebhook(new URL(work.url), headers, body, {
      timeoutMs: this.settings.timeoutMs,
      allowPrivate: this.settings.allowPrivateUrls,
    });
    const attemptedAt = this.clock();
    const next = nextAfter(sent, work.schedule_step, attemptedAt, this.settings);
    const attempt = {
      deliveryId: work.id,
      workerId,
      leasedUntil: work.locked_until,
      attemptedAt,
      statusCode: sent.statusCode,
      error: sent.error,
      durationMs: sent.durationMs,
    };
    const endpointDisabled = await this.database.unit(async (tx) => {
      this.webhooks.recordAttempt(tx, attempt);
      await this.webhooks.finishAttempt(tx, attempt, next);
      if (sent.statusCode === 410) {
        const reason = 'the endpoint answered 410 Gone';
        return (await this.webhooks.disable(tx, work.endpoint_id, reason, attemptedAt)) ? reason : null;
      }
      const failingSince = await this.webhooks.noteEndpointResult(tx, work.endpoint_id, next.status === 'succeeded', attemptedAt);
      if (failingSince !== null && attemptedAt - failingSince >= DISABLE_AFTER_FAILING_MS * this.settings.retryScale) {
        const reason = 'every delivery has failed for three days';
        return (await this.webhooks.disable(tx, work.endpoint_id, reason, attemptedAt)) ? reason : null;
      }
      return null;
    });
    return {
      deliveryId: work.id,
      eventId: work.event_id,
      endpointId: work.endpoint_id,
      result: next.status === 'pending' ? 'retrying' : next.status,
      statusCode: sent.statusCode,
      error: sent.error,
      durationMs: sent.durationMs,
      endpointDisabled,
    };
  }

  /** The current secret, and during a rotation's overlap the previous one too. */
  private activeSecrets(work: DeliveryWork, now: number): string[] {
    const secrets = [this.secrets.open(work.secret)];
    if (work.previous_secret !== null && work.previous_secret_until !== null && work.previous_secret_until > now) {
      secrets.push(this.secrets.open(work.previous_secret));
    }
    return secrets;
  }
}
