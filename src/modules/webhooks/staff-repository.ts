import type { ExpressionBuilder } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Mode } from '../../domain/types.js';
import { withSubscribedEvents } from './repository.js';

/**
 * What staff read and do about webhook deliveries (the console's webhook pages, `cli webhooks`):
 * deliveries across partners, one delivery with its attempts, a single delivery queued again, an
 * endpoint enabled again. The partners' own reads and the worker's claims are in ./repository.ts.
 */

/** A delivery that is failing: it failed for good, or its last attempt failed and it is still being retried. */
function isFailing(eb: ExpressionBuilder<DB & { d: DB['webhook_deliveries'] }, 'd'>) {
  return eb.or([eb('d.status', '=', 'failed'), eb.and([eb('d.status', '=', 'pending'), eb('d.attempts', '>', 0)])]);
}

const DELIVERY_COLUMNS = [
  'd.id',
  'd.event_id',
  'ev.type as event_type',
  'ev.created_at as event_created_at',
  'd.endpoint_id',
  'd.status',
  'd.attempts',
  'd.next_attempt_at',
  'd.last_attempt_at',
  'd.last_status_code',
  'd.last_error',
  'd.created_at',
] as const;

export class WebhookStaffRepository {
  constructor(private readonly database: Database) {}

  /** A profile's endpoints of one mode, newest first (no secret is read). */
  async endpointsOf(profileId: string, mode: Mode) {
    const endpoints = await this.database.read
      .selectFrom('webhook_endpoints')
      .select(['id', 'profile_id', 'mode', 'url', 'description', 'status', 'disabled_reason', 'failing_since', 'created_at'])
      .where('profile_id', '=', profileId)
      .where('mode', '=', mode)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return withSubscribedEvents(this.database, endpoints);
  }

  /** Per endpoint, its deliveries made since `since`: how many succeeded, how many are failing. */
  async deliveryCounts(endpointIds: readonly string[], since: number) {
    if (endpointIds.length === 0) return [];
    const rows = await this.database.read
      .selectFrom('webhook_deliveries as d')
      .select((eb) => [
        'd.endpoint_id',
        eb.fn.sum<number>(eb.case().when('d.status', '=', 'succeeded').then(1).else(0).end()).as('delivered'),
        eb.fn.sum<number>(eb.case().when(isFailing(eb)).then(1).else(0).end()).as('failing'),
      ])
      .where('d.endpoint_id', 'in', [...endpointIds])
      .where('d.created_at', '>=', since)
      .groupBy('d.endpoint_id')
      .execute();
    return rows.map((r) => ({ endpointId: r.endpoint_id, delivered: Number(r.delivered), failing: Number(r.failing) }));
  }

  /** The endpoint's latest attempt (of any of its deliveries), or undefined when none was made. */
  async lastAttemptOf(endpointId: string) {
    return this.database.read
      .selectFrom('webhook_deliveries as d')
      .select(['d.last_attempt_at', 'd.last_status_code', 'd.last_error'])
      .where('d.endpoint_id', '=', endpointId)
      .where('d.last_attempt_at', 'is not', null)
      .orderBy('d.last_attempt_at', 'desc')
      .orderBy('d.id', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The endpoint's latest deliveries, newest first. */
  async recentDeliveries(endpointId: string, limit: number) {
    return this.database.read
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .select(DELIVERY_COLUMNS)
      .where('d.endpoint_id', '=', endpointId)
      .orderBy('d.id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Failing deliveries of every partner's endpoints of one mode, newest first (by delivery id, so
   * that a page does not shift while retries go on), after the delivery `beforeId`.
   */
  async failing(mode: Mode, beforeId: number | null, limit: number) {
    let query = this.database.read
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .innerJoin('profiles as p', 'p.id', 'e.profile_id')
      .select(DELIVERY_COLUMNS)
      .select(['e.url', 'e.status as endpoint_status', 'e.profile_id', 'p.first_name', 'p.middle_name', 'p.last_name'])
      .where('e.mode', '=', mode)
      .where((eb) => isFailing(eb));
    if (beforeId !== null) query = query.where('d.id', '<', beforeId);
    return query.orderBy('d.id', 'desc').limit(limit).execute();
  }

  /** One delivery with its endpoint (never its secret), its event and the partner's name. */
  async delivery(deliveryId: number) {
    return this.database.read
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .innerJoin('profiles as p', 'p.id', 'e.profile_id')
      .select(DELIVERY_COLUMNS)
      .select([
        'e.url',
        'e.mode',
        'e.status as endpoint_status',
        'e.disabled_reason',
        'e.profile_id',
        'p.first_name',
        'p.middle_name',
        'p.last_name',
      ])
      .where('d.id', '=', deliveryId)
      .executeTakeFirst();
  }

  async attemptsOf(deliveryId: number) {
    return this.database.read
      .selectFrom('webhook_attempts')
      .select(['id', 'attempted_at', 'status_code', 'error', 'duration_ms'])
      .where('delivery_id', '=', deliveryId)
      .orderBy('id')
      .execute();
  }

  /** The delivery with its endpoint's state and its event's age, locked until the unit ends (PostgreSQL). */
  async lockDelivery(tx: Tx, deliveryId: number) {
    let query = tx.qb
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .select(['d.id', 'd.event_id', 'd.endpoint_id', 'e.status as endpoint_status', 'e.profile_id', 'e.mode', 'ev.created_at as event_created_at'])
      .where('d.id', '=', deliveryId);
    if (this.database.dialect === 'postgres') query = query.forUpdate(['d', 'e']);
    return (await tx.execute(query)).rows[0];
  }

  /**
   * The delivery is due now, from the start of the retry schedule: the worker's webhook lane sends
   * it again. A send in flight keeps its attempt in the log, but its outcome no longer decides the
   * delivery (the worker's finish is guarded by its lease, which this ends).
   */
  async requeue(tx: Tx, deliveryId: number, now: number): Promise<void> {
    await tx.execute(
      tx.qb
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', schedule_step: 0, next_attempt_at: now, locked_by: null, locked_until: null, updated_at: now })
        .where('id', '=', deliveryId),
    );
  }

  /** disabled → enabled, its failing streak forgotten. False if it was enabled already. */
  async enable(tx: Tx, endpointId: string, now: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('webhook_endpoints')
        .set({ status: 'enabled', disabled_reason: null, failing_since: null, updated_at: now })
        .where('id', '=', endpointId)
        .where('status', '=', 'disabled'),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }
}
