import type { Database } from '../../db/connection.js';
import type { WebhookDeliveryStatus } from '../../db/schema.js';
import { conflict, notFound } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { WebhookRepository } from './repository.js';
import { MAX_ENDPOINTS_PER_OWNER } from './schemas.js';
import { DELETED_BY_PARTNER } from './service.js';
import type { WebhookStaffRepository } from './staff-repository.js';


/** The window of an endpoint's delivery counts on its staff page. */
export const RECENT_DELIVERIES_MS = 7 * 86_400_000;
/** How many of an endpoint's latest deliveries its staff page lists. */
export const DELIVERIES_PER_ENDPOINT = 10;
export const FAILING_PAGE_SIZE = 50;

/** Where a delivery stands: `retrying` is pending after a failed attempt. */
export type DeliveryState = 'pending' | 'retrying' | 'succeeded' | 'failed';

/** A delivery as staff see it (the console, `cli webhooks deliveries --json`); times in ms since the epoch. */
export interface StaffDelivery {
  deliveryId: number;
  eventId: string;
  eventType: string;
  eventCreatedAt: number;
  endpointId: string;
  status: WebhookDeliveryStatus;
  state: DeliveryState;
  attempts: number;
  lastAttemptAt: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: number | null;
  createdAt: number;
}

export interface StaffEndpoint {
  _id: string;
  mode: Mode;
  url: string;
  events: string[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabledReason: string | null;
  failingSince: number | null;
  createdAt: number;
  /** Its deliveries of the last RECENT_DELIVERIES_MS. */
  recent: { delivered: number; failing: number };
  lastAttempt: { attemptedAt: number; statusCode: number | null; error: string | null } | null;
  deliveries: StaffDelivery[];
}

export interface FailingDelivery extends StaffDelivery {
  url: string;
  endpointStatus: 'enabled' | 'disabled';
  profileId: string;
  partnerName: string;
}

export interface FailingPage {
  mode: Mode;
  deliveries: FailingDelivery[];
  /** The `before` of the next page, or null on the last one. */
  next: number | null;
}

export interface DeliveryDetail extends FailingDelivery {
  mode: Mode;
  disabledReason: string | null;
  /** Whether the event is past EVENT_RETENTION_DAYS (the worker deletes it soon): it cannot be redelivered. */
  expired: boolean;
  attemptLog: { attemptedAt: number; statusCode: number | null; error: string | null; durationMs: number }[];
}

/** A partner's name as staff pages show it (as the profiles module writes it; importing it would make a module cycle). */
const fullName = (p: { first_name: string; middle_name: string; last_name: string }) =>
  [p.first_name, p.middle_name, p.last_name].filter((part) => part.trim() !== '').join(' ');

const num = (v: number | string) => Number(v);
const numOrNull = (v: number | string | null) => (v === null ? null : Number(v));

interface DeliveryRow {
  id: number | string;
  event_id: string;
  event_type: string;
  event_created_at: number | string;
  endpoint_id: string;
  status: WebhookDeliveryStatus;
  attempts: number | string;
  next_attempt_at: number | string | null;
  last_attempt_at: number | string | null;
  last_status_code: number | string | null;
  last_error: string | null;
  created_at: number | string;
}

function toDelivery(d: DeliveryRow): StaffDelivery {
  const attempts = num(d.attempts);
  return {
    deliveryId: num(d.id),
    eventId: d.event_id,
    eventType: d.event_type,
    eventCreatedAt: num(d.event_created_at),
    endpointId: d.endpoint_id,
    status: d.status,
    state: d.status === 'pending' && attempts > 0 ? 'retrying' : d.status,
    attempts,
    lastAttemptAt: numOrNull(d.last_attempt_at),
    lastStatusCode: numOrNull(d.last_status_code),
    lastError: d.last_error,
    nextAttemptAt: d.status === 'pending' ? numOrNull(d.next_attempt_at) : null,
    createdAt: num(d.created_at),
  };
}

/** A delivery id as typed (a positive integer), or null. */
export function parseDeliveryId(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return id > 0 ? id : null;
}

/**
 * Partners' webhooks as staff see and correct them (docs/webhooks.md, "For operators"): endpoints
 * with their recent deliveries, failing deliveries across partners, one delivery with its attempts,
 * a delivery queued again, an endpoint enabled again. Nothing here reads an endpoint's secret.
 */
export class WebhookStaffService {
  constructor(
    private readonly database: Database,
    private readonly rows: WebhookStaffRepository,
    private readonly webhooks: WebhookRepository,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    /** EVENT_RETENTION_DAYS: an older event is deleted by the worker, and is not redelivered meanwhile. */
    private readonly retentionMs: number,
  ) {}

  /** A profile's endpoints of one mode, each with its recent deliveries. */
  async endpointsOf(profileId: string, mode: Mode): Promise<StaffEndpoint[]> {
    const endpoints = await this.rows.endpointsOf(profileId, mode);
    const counts = await this.rows.deliveryCounts(
      endpoints.map((e) => e.id),
      this.clock() - RECENT_DELIVERIES_MS,
    );
    return Promise.all(
      endpoints.map(async (e) => {
        const [last, deliveries] = await Promise.all([
          this.rows.lastAttemptOf(e.id),
          this.rows.recentDeliveries(e.id, DELIVERIES_PER_ENDPOINT),
        ]);
        const count = counts.find((c) => c.endpointId === e.id);
        return {
          _id: e.id,
          mode: e.mode,
          url: e.url,
          events: e.events,
          description: e.description,
          status: e.status,
          disabledReason: e.disabled_reason,
          failingSince: numOrNull(e.failing_since),
          createdAt: num(e.created_at),
          recent: { delivered: count?.delivered ?? 0, failing: count?.failing ?? 0 },
          lastAttempt:
            last?.last_attempt_at === undefined || last.last_attempt_at === null
              ? null
              : { attemptedAt: num(last.last_attempt_at), statusCode: numOrNull(last.last_status_code), error: last.last_error },
          deliveries: deliveries.map(toDelivery),
        };
      }),
    );
  }

  /** An endpoint's latest deliveries, newest first (`cli webhooks deliveries`). */
  async deliveriesOf(endpointId: string, limit: number): Promise<StaffDelivery[]> {
    if (!(await this.webhooks.findEndpoint(endpointId))) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${endpointId}`);
    return (await this.rows.recentDeliveries(endpointId, limit)).map(toDelivery);
  }

  /** Failing deliveries of every partner in one mode, newest first, a page after `before` (a delivery id). */
  async failing(mode: Mode, before: number | null, limit = FAILING_PAGE_SIZE): Promise<FailingPage> {
    const rows = await this.rows.failing(mode, before, limit + 1);
    const page = rows.slice(0, limit).map((r) => ({
      ...toDelivery(r),
      url: r.url,
      endpointStatus: r.endpoint_status,
      profileId: r.profile_id,
      partnerName: fullName(r),
    }));
    return { mode, deliveries: page, next: rows.length > limit ? (page.at(-1)?.deliveryId ?? null) : null };
  }

  /** One delivery with every attempt; null when there is none (or its event was deleted after retention). */
  async delivery(deliveryId: number): Promise<DeliveryDetail | null> {
    const row = await this.rows.delivery(deliveryId);
    if (!row) return null;
    const attempts = await this.rows.attemptsOf(deliveryId);
    return {
      ...toDelivery(row),
      url: row.url,
      mode: row.mode,
      endpointStatus: row.endpoint_status,
      disabledReason: row.disabled_reason,
      profileId: row.profile_id,
      partnerName: fullName(row),
      expired: this.isExpired(num(row.event_created_at)),
      attemptLog: attempts.map((a) => ({
        attemptedAt: num(a.attempted_at),
        statusCode: numOrNull(a.status_code),
        error: a.error,
        durationMs: num(a.duration_ms),
      })),
    };
  }

  /**
   * Queues the delivery again, from the start of the retry schedule: the worker sends the event to
   * that endpoint once more (never from here). Refused for a disabled endpoint and for an event past
   * retention. The audit row commits with the queueing.
   */
  async redeliver(actor: Actor, deliveryId: number): Promise<{ deliveryId: number; eventId: string; endpointId: string }> {
    return this.database.unit(async (tx) => {
      const d = await this.rows.lockDelivery(tx, deliveryId);
      if (!d) throw notFound('NOT_FOUND', `no webhook delivery ${deliveryId} (events and their deliveries are deleted after ${this.retentionDays} days)`);
      if (d.endpoint_status !== 'enabled')
        throw conflict('INVALID_REQUEST', `webhook endpoint ${d.endpoint_id} is disabled: enable it first, then redeliver`);
      if (this.isExpired(num(d.event_created_at)))
        throw conflict('INVALID_REQUEST', `event ${d.event_id} is older than the ${this.retentionDays} days events are kept: it is not redelivered`);
      await this.rows.requeue(tx, deliveryId, this.clock());
      await this.audit.record(tx, actor, 'webhook.redeliver', { type: 'webhook_delivery', id: String(deliveryId) }, {
        eventId: d.event_id,
        endpointId: d.endpoint_id,
        profileId: d.profile_id,
        mode: d.mode,
      });
      return { deliveryId, eventId: d.event_id, endpointId: d.endpoint_id };
    });
  }

  /**
   * Enables a disabled endpoint again (its failed deliveries stay failed: redeliver those wanted).
   * Refused when the partner deleted it (the partner creates a new one), and when the partner has
   * MAX_ENDPOINTS_PER_OWNER enabled endpoints in its mode already.
   */
  async enable(actor: Actor, endpointId: string): Promise<{ profileId: string; mode: Mode }> {
    const found = await this.webhooks.findEndpoint(endpointId);
    if (!found) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${endpointId}`);
    return this.database.unit(async (tx) => {
      // The owner first, as creating an endpoint locks it: the count of enabled endpoints holds.
      await this.webhooks.lockOwner(tx, found.profile_id);
      const endpoint = await this.webhooks.lockEndpoint(tx, endpointId);
      if (!endpoint) throw notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `no webhook endpoint ${endpointId}`);
      if (endpoint.status === 'enabled') throw conflict('INVALID_REQUEST', `webhook endpoint ${endpointId} is already enabled`);
      if (endpoint.disabled_reason === DELETED_BY_PARTNER)
        throw conflict('INVALID_REQUEST', `webhook endpoint ${endpointId} was deleted by the partner: they create a new one`);
      const owner = { profileId: endpoint.profile_id, mode: endpoint.mode };
      if ((await this.webhooks.countEnabled(tx, owner)) >= MAX_ENDPOINTS_PER_OWNER)
        throw conflict('INVALID_REQUEST', `the partner has ${MAX_ENDPOINTS_PER_OWNER} enabled endpoints in ${owner.mode} mode already`);
      await this.rows.enable(tx, endpointId, this.clock());
      await this.audit.record(tx, actor, 'webhook.enable', { type: 'webhook_endpoint', id: endpointId }, {
        ...owner,
        wasDisabledBecause: endpoint.disabled_reason,
      });
      return owner;
    });
  }

  private get retentionDays(): number {
    return Math.round(this.retentionMs / 86_400_000);
  }

  private isExpired(eventCreatedAt: number): boolean {
    return eventCreatedAt < this.clock() - this.retentionMs;
  }
}
