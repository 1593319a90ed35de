import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB, WebhookDeliveryStatus } from '../../db/schema.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { EventType } from '../../domain/event-types.js';
import type { Mode } from '../../domain/types.js';

/**
 * Webhook endpoints, their subscriptions, and the deliveries of events to them: one row per event
 * and endpoint, drained by the worker like the order outbox (a claim carries a lease; an expired
 * lease is claimable again), with every attempt kept.
 */

export interface NewEndpoint {
  id: string;
  profileId: string;
  mode: Mode;
  url: string;
  description: string | null;
  sealedSecret: string;
  /** Event types, or ['*']. */
  events: readonly string[];
  now: number;
}

export interface ClaimedDelivery {
  id: number;
  event_id: string;
  endpoint_id: string;
  schedule_step: number;
  /** The claim's lease expiry: with the worker's id, it tells this claim from a later one. */
  locked_until: number;
}

/** A claimed delivery with what sending it needs. */
export interface DeliveryWork extends ClaimedDelivery {
  payload: string;
  url: string;
  endpoint_status: 'enabled' | 'disabled';
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
}

export interface AttemptRecord {
  deliveryId: number;
  workerId: string;
  leasedUntil: number;
  attemptedAt: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** The delivery's next state after an attempt. */
export type DeliveryNext = { status: 'succeeded' } | { status: 'failed' } | { status: 'pending'; nextAttemptAt: number };

/** Enabled endpoints of the owner that subscribe to `type` (directly or with '*'). */
function subscribedEndpoints(qb: Kysely<DB>, profileId: string, mode: Mode, type: EventType) {
  // Each endpoint once, however many of its subscriptions match: an `exists`, where a join would
  // need a `distinct` (on SQLite a temporary B-tree built for every event of a settlement).
  return qb
    .selectFrom('webhook_endpoints as e')
    .where('e.profile_id', '=', profileId)
    .where('e.mode', '=', mode)
    .where('e.status', '=', 'enabled')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('webhook_subscriptions as s')
          .select(sql.lit(1).as('one'))
          .whereRef('s.endpoint_id', '=', 'e.id')
          .where('s.event_type', 'in', [type, '*']),
      ),
    );
}

/**
 * The columns of a new pending delivery of `eventId` to endpoint `e`, for an insert … select.
 * Parameters in a select list carry no type PostgreSQL can infer: each is cast.
 */
function deliveryColumns(eb: ExpressionBuilder<DB & { e: DB['webhook_endpoints'] }, 'e'>, eventId: string, now: number) {
  return [
    eb.cast<string>(eb.val(eventId), 'text').as('event_id'),
    'e.id',
    eb.cast<'pending'>(eb.val('pending'), 'text').as('status'),
    eb.cast<number>(eb.val(now), 'bigint').as('next_attempt_at'),
    eb.cast<number>(eb.val(now), 'bigint').as('created_at'),
    eb.cast<number>(eb.val(now), 'bigint').as('updated_at'),
  ] as const;
}

function webhookStatements(statements: Statements) {
  return {
    /** A delivery for each endpoint that wants the event (none: nothing written). */
    fanOut: statements.prepare((qb, eventId: string, profileId: string, mode: Mode, type: EventType, now: number) =>
      qb
        .insertInto('webhook_deliveries')
        .columns(['event_id', 'endpoint_id', 'status', 'next_attempt_at', 'created_at', 'updated_at'])
        .expression(
          subscribedEndpoints(qb, profileId, mode, type)
            .select((eb) => deliveryColumns(eb, eventId, now)),
        ),
    ),
    firstDue: statements.prepare((qb, now: number) =>
      qb
        .selectFrom('webhook_deliveries')
        .select('next_attempt_at')
        .where('status', '=', 'pending')
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
        .orderBy('next_attempt_at')
        .limit(1),
    ),
  };
}

/** Endpoints with the event types each is subscribed to, in one read (the staff's reads use it too). */
export async function withSubscribedEvents<E extends { id: string }>(database: Database, endpoints: E[]): Promise<(E & { events: string[] })[]> {
  if (endpoints.length === 0) return [];
  const subscriptions = await database.read
    .selectFrom('webhook_subscriptions')
    .selectAll()
    .where(
      'endpoint_id',
      'in',
      endpoints.map((e) => e.id),
    )
    .orderBy('event_type')
    .execute();
  return endpoints.map((e) => ({ ...e, events: subscriptions.filter((s) => s.endpoint_id === e.id).map((s) => s.event_type) }));
}

export class WebhookRepository {
  private readonly q: ReturnType<typeof webhookStatements>;

  constructor(private readonly database: Database) {
    this.q = webhookStatements(database.statements);
  }

  /** Ends now every delivery lease held by `workerIds` (dead workers): those deliveries are claimable at once. */
  async releaseClaimsOf(tx: Tx, workerIds: readonly string[], now: number): Promise<number> {
    if (workerIds.length === 0) return 0;
    const query = tx.qb
      .updateTable('webhook_deliveries')
      .set({ locked_until: now })
      .where('locked_by', 'in', [...workerIds])
      .where('locked_until', '>', now);
    return Number((await tx.execute(query)).numAffectedRows ?? 0);
  }

  // ---- endpoints ----

  /** Serialises endpoint changes of one profile (PostgreSQL: its row lock; SQLite's writer already does). */
  async lockOwner(tx: Tx, profileId: string): Promise<void> {
    if (this.database.dialect === 'postgres') {
      await tx.execute(tx.qb.selectFrom('profiles').select('id').where('id', '=', profileId).forUpdate());
    }
  }

  async countEnabled(tx: Tx, owner: Owner): Promise<number> {
    const { rows } = await tx.execute(
      tx.qb
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('profile_id', '=', owner.profileId)
        .where('mode', '=', owner.mode)
        .where('status', '=', 'enabled'),
    );
    return Number(rows[0]?.n ?? 0);
  }

  async insertEndpoint(tx: Tx, e: NewEndpoint): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('webhook_endpoints').values({
        id: e.id,
        profile_id: e.profileId,
        mode: e.mode,
        url: e.url,
        description: e.description,
        status: 'enabled',
        secret: e.sealedSecret,
        created_at: e.now,
        updated_at: e.now,
      }),
    );
    await tx.execute(
      tx.qb.insertInto('webhook_subscriptions').values(e.events.map((type) => ({ endpoint_id: e.id, event_type: type }))),
    );
  }

  /** The owner's endpoints (or one of them), newest first, with the event types each receives. */
  async listOwned(owner: Owner, endpointId?: string) {
    let query = this.database.read
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode);
    if (endpointId !== undefined) query = query.where('id', '=', endpointId);
    const endpoints = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return this.withEvents(endpoints);
  }

  /** Every endpoint of a profile (both modes), for staff. */
  async listForProfile(profileId: string) {
    const endpoints = await this.database.read
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('profile_id', '=', profileId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return this.withEvents(endpoints);
  }

  private withEvents<E extends { id: string }>(endpoints: E[]): Promise<(E & { events: string[] })[]> {
    return withSubscribedEvents(this.database, endpoints);
  }

  /** The endpoint, locked until the unit ends (PostgreSQL). */
  async lockEndpoint(tx: Tx, endpointId: string) {
    let query = tx.qb.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId);
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    return (await tx.execute(query)).rows[0];
  }

  async findEndpoint(endpointId: string) {
    return this.database.read.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
  }

  /** enabled → disabled with the reason; its pending deliveries fail. False if it was disabled already. */
  async disable(tx: Tx, endpointId: string, reason: string, now: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('webhook_endpoints')
        .set({ status: 'disabled', disabled_reason: reason, updated_at: now })
        .where('id', '=', endpointId)
        .where('status', '=', 'enabled'),
    );
    if (Number(result.numAffectedRows ?? 0) === 0) return false;
    await tx.execute(
      tx.qb
        .updateTable('webhook_deliveries')
        .set({
          status: 'failed',
          next_attempt_at: null,
          locked_by: null,
          locked_until: null,
          last_error: `endpoint disabled: ${reason}`,
          updated_at: now,
        })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pending'),
    );
    return true;
  }

  async rotateSecret(
    tx: Tx,
    endpointId: string,
    r: { sealedSecret: string; previousSealed: string; previousUntil: number; now: number },
  ) {
    await tx.execute(
      tx.qb
        .updateTable('webhook_endpoints')
        .set({
          secret: r.sealedSecret,
          previous_secret: r.previousSealed,
          previous_secret_until: r.previousUntil,
          updated_at: r.now,
        })
        .where('id', '=', endpointId),
    );
  }

  // ---- deliveries ----

  /** Queues a delivery of the event to each of the owner's endpoints that want it. */
  fanOut(tx: Tx, event: { id: string; profileId: string; mode: Mode; type: EventType; now: number }): void {
    tx.write(this.q.fanOut(event.id, event.profileId, event.mode, event.type, event.now));
  }

  /**
   * Redelivery: the event is due again, from the start of the retry schedule, to each of the
   * owner's enabled endpoints that want it (a delivery that exists is reset, the others are made).
   * Returns how many endpoints it is queued to.
   */
  async requeue(tx: Tx, event: { id: string; profileId: string; mode: Mode; type: EventType }, now: number): Promise<number> {
    const result = await tx.execute(
      tx.qb
        .insertInto('webhook_deliveries')
        .columns(['event_id', 'endpoint_id', 'status', 'next_attempt_at', 'created_at', 'updated_at'])
        .expression(
          subscribedEndpoints(tx.qb, event.profileId, event.mode, event.type)
            .select((eb) => deliveryColumns(eb, event.id, now)),
        )
        // A send in flight keeps its attempt in the log, but its outcome no longer decides this
        // delivery (finishAttempt is guarded by the lease): the redelivery asked for still goes.
        .onConflict((oc) =>
          oc.columns(['event_id', 'endpoint_id']).doUpdateSet({
            status: 'pending',
            schedule_step: 0,
            next_attempt_at: now,
            locked_by: null,
            locked_until: null,
            updated_at: now,
          }),
        ),
    );
    return Number(result.numAffectedRows ?? 0);
  }

  /** The deliveries of events, with their attempts in order. */
  async deliveriesOf(eventIds: readonly string[]) {
    if (eventIds.length === 0) return [];
    const deliveries = await this.database.read
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('event_id', 'in', eventIds)
      .orderBy('id')
      .execute();
    if (deliveries.length === 0) return [];
    const attempts = await this.database.read
      .selectFrom('webhook_attempts')
      .selectAll()
      .where(
        'delivery_id',
        'in',
        deliveries.map((d) => d.id),
      )
      .orderBy('delivery_id')
      .orderBy('id')
      .execute();
    return deliveries.map((d) => ({ ...d, attemptLog: attempts.filter((a) => Number(a.delivery_id) === Number(d.id)) }));
  }

  /**
   * Claims up to `limit` due deliveries for `workerId`, oldest first, leaving out endpoints that
   * already have `perEndpoint` deliveries under lease (by any worker), so one slow endpoint cannot
   * take every slot. PostgreSQL skips rows another worker is claiming at that moment.
   */
  async claimDue(
    tx: Tx,
    c: { workerId: string; now: number; leaseMs: number; limit: number; perEndpoint: number },
  ): Promise<ClaimedDelivery[]> {
    // Deliveries under lease now, per endpoint: a full endpoint is left out of the candidates, so
    // one endpoint's backlog cannot fill the window while others wait behind it.
    const busy = await tx.execute(
      tx.qb
        .selectFrom('webhook_deliveries')
        .select((eb) => ['endpoint_id', eb.fn.countAll<number>().as('n')])
        .where('status', '=', 'pending')
        .where('locked_until', '>', c.now)
        .groupBy('endpoint_id'),
    );
    const inFlight = new Map(busy.rows.map((r) => [r.endpoint_id, Number(r.n)]));
    const full = [...inFlight].filter(([, n]) => n >= c.perEndpoint).map(([id]) => id);
    let candidates = tx.qb
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select(['d.id', 'd.endpoint_id'])
      .where('e.status', '=', 'enabled')
      .where('d.status', '=', 'pending')
      .where('d.next_attempt_at', '<=', c.now)
      .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', c.now)]))
      .orderBy('d.next_attempt_at')
      .orderBy('d.id')
      .limit(c.limit * c.perEndpoint);
    if (full.length > 0) candidates = candidates.where('d.endpoint_id', 'not in', full);
    if (this.database.dialect === 'postgres') candidates = candidates.forUpdate(['d']).skipLocked();
    const { rows } = await tx.execute(candidates);
    const picked: number[] = [];
    for (const row of rows) {
      if (picked.length >= c.limit) break;
      const taken = inFlight.get(row.endpoint_id) ?? 0;
      if (taken >= c.perEndpoint) continue;
      inFlight.set(row.endpoint_id, taken + 1);
      picked.push(Number(row.id));
    }
    if (picked.length === 0) return [];
    const claimed = await tx.execute(
      tx.qb
        .updateTable('webhook_deliveries')
        .set({ locked_by: c.workerId, locked_until: c.now + c.leaseMs })
        .where('id', 'in', picked)
        .where('status', '=', 'pending')
        .returning(['id', 'event_id', 'endpoint_id', 'schedule_step']),
    );
    return claimed.rows
      .map((r) => ({ ...r, id: Number(r.id), schedule_step: Number(r.schedule_step), locked_until: c.now + c.leaseMs }))
      .sort((a, b) => a.id - b.id);
  }

  /** When a delivery is next due (now or later), or null when none is pending and free. */
  async nextDueAt(now: number): Promise<number | null> {
    const [row] = await this.database.readRows(this.q.firstDue(now));
    return row?.next_attempt_at === undefined || row.next_attempt_at === null ? null : Number(row.next_attempt_at);
  }

  /** What sending the claimed deliveries needs: the event's payload, the endpoint's URL and secrets. */
  async workOf(claimed: readonly ClaimedDelivery[]): Promise<DeliveryWork[]> {
    if (claimed.length === 0) return [];
    const leases = new Map(claimed.map((d) => [d.id, d.locked_until]));
    const rows = await this.database.read
      .selectFrom('webhook_deliveries as d')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .select([
        'd.id',
        'd.event_id',
        'd.endpoint_id',
        'd.schedule_step',
        'ev.payload',
        'e.url',
        'e.status as endpoint_status',
        'e.secret',
        'e.previous_secret',
        'e.previous_secret_until',
      ])
      .where(
        'd.id',
        'in',
        claimed.map((d) => d.id),
      )
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      locked_until: leases.get(Number(r.id)) ?? 0,
      schedule_step: Number(r.schedule_step),
      previous_secret_until: r.previous_secret_until === null ? null : Number(r.previous_secret_until),
    }));
  }

  /** Queues the attempt's row (kept even when the lease was lost meanwhile: it happened). */
  recordAttempt(tx: Tx, a: AttemptRecord): void {
    tx.write(
      this.database.statements.once(
        tx.qb.insertInto('webhook_attempts').values({
          delivery_id: a.deliveryId,
          attempted_at: a.attemptedAt,
          status_code: a.statusCode,
          error: a.error === null ? null : a.error.slice(0, 500),
          duration_ms: a.durationMs,
        }),
      ),
    );
  }

  /**
   * The delivery after an attempt under the claim (`workerId`, `leasedUntil`); false (nothing
   * changed) when that claim no longer holds it: its lease ran out and another worker took it, or
   * a redelivery reset it.
   */
  async finishAttempt(tx: Tx, a: AttemptRecord, next: DeliveryNext): Promise<boolean> {
    const status: WebhookDeliveryStatus = next.status;
    const result = await tx.execute(
      tx.qb
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status,
          attempts: eb('attempts', '+', 1),
          schedule_step: next.status === 'pending' ? eb('schedule_step', '+', 1) : eb.ref('schedule_step'),
          next_attempt_at: next.status === 'pending' ? next.nextAttemptAt : null,
          locked_by: null,
          locked_until: null,
          last_attempt_at: a.attemptedAt,
          last_status_code: a.statusCode,
          last_error: a.error === null ? null : a.error.slice(0, 500),
          updated_at: a.attemptedAt,
        }))
        .where('id', '=', a.deliveryId)
        .where('locked_by', '=', a.workerId)
        .where('locked_until', '=', a.leasedUntil),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /**
   * After an attempt: a success clears the endpoint's failing streak; a failure starts it if none
   * runs. Returns since when the endpoint has been failing (null: it is not).
   */
  async noteEndpointResult(tx: Tx, endpointId: string, succeeded: boolean, now: number): Promise<number | null> {
    const { rows } = await tx.execute(
      tx.qb
        .updateTable('webhook_endpoints')
        .set((eb) => ({ failing_since: succeeded ? null : eb.fn.coalesce('failing_since', eb.val(now)) }))
        .where('id', '=', endpointId)
        .returning('failing_since'),
    );
    const since = rows[0]?.failing_since;
    return since === undefined || since === null ? null : Number(since);
  }

  /** Failed deliveries of a profile's endpoints, newest first (staff). */
  async recentFailures(profileId: string, limit: number) {
    return (
      this.database.read
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
        .innerJoin('events as ev', 'ev.id', 'd.event_id')
        .select([
          'd.id',
          'd.event_id',
          'ev.type as event_type',
          'd.endpoint_id',
          'e.url',
          'e.mode',
          'd.attempts',
          'd.last_attempt_at',
          'd.last_status_code',
          'd.last_error',
        ])
        .select('d.status')
        .where('e.profile_id', '=', profileId)
        // Failed for good, or failing and still to be retried.
        .where((eb) => eb.or([eb('d.status', '=', 'failed'), eb.and([eb('d.status', '=', 'pending'), eb('d.attempts', '>', 0)])]))
        .orderBy('d.updated_at', 'desc')
        .orderBy('d.id', 'desc')
        .limit(limit)
        .execute()
    );
  }
}
