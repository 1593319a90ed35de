import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import { EVENT_TYPES, isEventType, type EventType } from '../../domain/event-types.js';
import type { Clock, Mode } from '../../domain/types.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { newId } from '../../lib/ids.js';
import type { Database } from '../../db/connection.js';
import type { WebhookRepository } from '../webhooks/repository.js';
import type { EventRepository } from './repository.js';
import { EVENT_PAGE_DEFAULT, EVENT_PAGE_MAX, type EventDelivery, type EventsQuery } from './schemas.js';

/** What an event carries: the record as its GET endpoint returns it, and for a bulk recipient its entry. */
export interface EventData<R = unknown> {
  object: R;
  recipient?: unknown;
}

/** The event object (docs/webhooks.md, "Event types"), as sent in webhooks and listed. */
export interface EventObject<R = unknown> {
  _id: string;
  type: EventType;
  createdAt: number;
  mode: Mode;
  data: EventData<R>;
}

export interface EventPage {
  events: EventObject[];
  isDone: boolean;
  continueCursor: string;
}

/**
 * Records events in the unit of work of the change they report, and queues their webhook
 * deliveries with them: an event exists exactly when its change committed.
 */
export class EventRecorder {
  constructor(
    private readonly events: EventRepository,
    private readonly webhooks: WebhookRepository,
  ) {}

  record<R>(tx: Tx, owner: Owner, type: EventType, data: EventData<R>, now: number): EventObject<R> {
    const event: EventObject<R> = { _id: newId('evt'), type, createdAt: now, mode: owner.mode, data };
    this.events.insert(tx, {
      id: event._id,
      profileId: owner.profileId,
      mode: owner.mode,
      type,
      payload: JSON.stringify(event),
      createdAt: now,
    });
    this.webhooks.fanOut(tx, { id: event._id, profileId: owner.profileId, mode: owner.mode, type, now });
    return event;
  }
}

/** An event as stored: its payload is the event object it was sent as. */
function parsed(payload: string): EventObject {
  return JSON.parse(payload) as EventObject;
}

/** The caller's events, one with its deliveries, and redelivery (docs/webhooks.md, "Event types"). */
export class EventService {
  constructor(
    private readonly database: Database,
    private readonly events: EventRepository,
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  async list(owner: Owner, query: EventsQuery): Promise<EventPage> {
    let type: EventType | null = null;
    if (query.type !== undefined && query.type.trim() !== '') {
      const wanted = query.type.trim();
      if (!isEventType(wanted)) throw invalid('INVALID_REQUEST', `type must be one of ${EVENT_TYPES.join(', ')}`);
      type = wanted;
    }
    let limit = EVENT_PAGE_DEFAULT;
    if (query.limit !== undefined && query.limit !== '') {
      const raw = query.limit.trim();
      const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(value) || value < 1)
        throw invalid('INVALID_REQUEST', `limit must be an integer from 1 to ${EVENT_PAGE_MAX}`);
      limit = Math.min(value, EVENT_PAGE_MAX);
    }
    const after = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
    if (query.cursor && !after) throw invalid('INVALID_REQUEST', 'cursor is not a continueCursor returned by this endpoint');

    const rows = await this.events.listOwned(owner, { type, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      events: page.map((row) => parsed(row.payload)),
      isDone: rows.length <= limit,
      continueCursor: last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : (query.cursor ?? ''),
    };
  }

  async get(owner: Owner, eventId: string): Promise<EventObject & { deliveries: EventDelivery[] }> {
    const row = await this.owned(owner, eventId);
    const deliveries = await this.webhooks.deliveriesOf([row.id]);
    return {
      ...parsed(row.payload),
      deliveries: deliveries.map((d) => ({
        endpointId: d.endpoint_id,
        status: d.status,
        attempts: d.attemptLog.map((a) => ({
          attemptedAt: Number(a.attempted_at),
          statusCode: a.status_code === null ? null : Number(a.status_code),
          error: a.error,
          durationMs: Number(a.duration_ms),
        })),
        lastAttemptAt: d.last_attempt_at === null ? null : Number(d.last_attempt_at),
        lastStatusCode: d.last_status_code === null ? null : Number(d.last_status_code),
        nextAttemptAt: d.status === 'pending' && d.next_attempt_at !== null ? Number(d.next_attempt_at) : null,
      })),
    };
  }

  /** Queues the event again to every enabled endpoint of the caller that wants its type. */
  async redeliver(owner: Owner, eventId: string): Promise<{ eventId: string; endpoints: number }> {
    const row = await this.owned(owner, eventId);
    const endpoints = await this.database.unit((tx) =>
      this.webhooks.requeue(tx, { id: row.id, profileId: owner.profileId, mode: owner.mode, type: row.type }, this.clock()),
    );
    return { eventId: row.id, endpoints };
  }

  /** Deletes events older than `retentionMs` in batches; how many went. */
  async purgeExpired(retentionMs: number): Promise<number> {
    const before = this.clock() - retentionMs;
    let total = 0;
    for (;;) {
      const removed = await this.events.purge(before, 1000);
      total += removed;
      if (removed < 1000) return total;
    }
  }

  private async owned(owner: Owner, eventId: string) {
    const row = await this.events.findOwned(owner, eventId);
    if (!row) throw notFound('EVENT_NOT_FOUND', `Event ${eventId} not found`);
    return row;
  }
}
