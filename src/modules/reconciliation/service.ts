import type { Database } from '../../db/connection.js';
import type { FindingKind, ReconciliationRunRow } from '../../db/schema.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import type { Clock } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import type { Providers } from '../../providers/index.js';
import { UPSTREAM_NAMES, UpstreamReadError, type UpstreamAdapter, type UpstreamBooks, type UpstreamName, type UpstreamRecord } from '../../providers/types.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import { differenceOf, expectedThere, ourSide, routeOfAttempt, theirSide } from './compare.js';
import type { FindingWithOrder, FoundDifference, OurAttempt, ReconciliationRepository } from './repository.js';

/**
 * Reconciliation (docs/live-delivery.md, "Reconciliation"): an upstream's own records of a window
 * against our attempts of that window. Reloadly and DT One by their paged transaction lists; Hubtel,
 * which has no list, by a status check of every attempt of the window. What differs is stored as a
 * finding with both sides, until an admin resolves it with a note; money is never moved here (the
 * order's reversal and the delivery's resolve do that, audited, as ever).
 *
 * A run is a row: the CLI runs one at once; the console and the worker's daily schedule queue one,
 * and a worker claims it (a lease, taken by a guarded update) and runs it off the delivery path. The
 * daily run's row carries `<provider>:<day>` under a unique index: one per day, whatever the number
 * of workers and processes.
 */

export const UPSTREAMS_RECONCILED: readonly UpstreamName[] = UPSTREAM_NAMES;

/** An upstream's record dated this long after the window's end may still be an attempt of the window's end. */
const LATE_MS = 15 * 60_000;
/** Hubtel's status checks in flight at once during a run. */
const CHECKS_IN_FLIGHT = 8;
/** How long a worker holds a run before another may take it over (the run is idempotent). */
export const RUN_LEASE_MS = 30 * 60_000;
/** The daily run of the day before starts this long after midnight UTC (late answers of the day are in). */
export const DAILY_AFTER_MS = 60 * 60_000;
const DAY_MS = 86_400_000;
/** The longest window a run may cover. */
const MAX_WINDOW_MS = 31 * DAY_MS;

export interface Finding {
  id: string;
  kind: FindingKind;
  provider: string;
  reference: string | null;
  transactionId: string | null;
  orderId: string | null;
  shortReference: string | null;
  ours: Record<string, unknown> | null;
  theirs: Record<string, unknown> | null;
  foundAt: number;
  lastSeenAt: number;
  resolvedAt: number | null;
  resolvedBy: string | null;
  note: string | null;
}

export interface RunResult {
  run: ReconciliationRunRow;
  /** What this run found (new and seen before), in the order found. */
  findings: Finding[];
}

interface Counts {
  attempts: number;
  records: number;
}

export class ReconciliationService {
  constructor(
    private readonly database: Database,
    private readonly rows: ReconciliationRepository,
    private readonly audit: AuditTrail,
    /** The upstreams this configuration enables. */
    private readonly enabled: ReadonlySet<string>,
    private readonly clock: Clock,
  ) {}

  /** A window as the CLI and the console give it: checked, in unix ms. */
  window(from: number, to: number): { from: number; to: number } {
    if (!Number.isFinite(from) || !Number.isFinite(to)) throw invalid('INVALID_REQUEST', 'from and to are times in ISO 8601 (2026-11-25T00:00:00Z)');
    if (to <= from) throw invalid('INVALID_REQUEST', 'to must be after from');
    if (to - from > MAX_WINDOW_MS) throw invalid('INVALID_REQUEST', 'a window covers at most 31 days');
    return { from, to };
  }

  /** Runs one reconciliation now, in this process (the CLI): the run and what it found. */
  async reconcileNow(providers: Providers, provider: UpstreamName, window: { from: number; to: number }, by: string): Promise<RunResult> {
    const adapter = this.booksOf(providers, provider);
    const now = this.clock();
    const id = newId('rcn');
    await this.database.unit((tx) =>
      this.rows.insertRun(
        tx,
        { id, provider, from: window.from, to: window.to, trigger: 'cli', requestedBy: by, dailyKey: null, now },
        'running',
        { by, until: now + RUN_LEASE_MS },
      ),
    );
    return this.execute(adapter, id);
  }

  /** An admin asks for a run from the console: queued for a worker, audited in the same unit. */
  async request(actor: Actor, provider: string, window: { from: number; to: number }): Promise<string> {
    if (!(UPSTREAMS_RECONCILED as readonly string[]).includes(provider)) throw invalid('INVALID_REQUEST', `no upstream named ${provider}`);
    if (!this.enabled.has(provider)) throw conflict('INVALID_REQUEST', `${provider} is not enabled in this configuration`);
    const id = newId('rcn');
    const now = this.clock();
    await this.database.unit(async (tx) => {
      await this.rows.insertRun(tx, { id, provider, from: window.from, to: window.to, trigger: 'console', requestedBy: actor.name, dailyKey: null, now }, 'queued', null);
      await this.audit.record(tx, actor, 'reconciliation.run', { type: 'reconciliation', id }, {
        provider,
        from: new Date(window.from).toISOString(),
        to: new Date(window.to).toISOString(),
      });
    });
    return id;
  }

  /**
   * Queues the daily run of the day before for each upstream, once the day is old enough: a second
   * worker (or process) finds the day's row there and queues nothing. Returns how many it queued.
   */
  async scheduleDaily(now: number = this.clock(), upstreams: readonly UpstreamName[] = this.upstreams()): Promise<number> {
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    if (now < today + DAILY_AFTER_MS) return 0;
    const day = new Date(today - DAY_MS).toISOString().slice(0, 10);
    let queued = 0;
    for (const provider of upstreams) {
      const run = { id: newId('rcn'), provider, from: today - DAY_MS, to: today, trigger: 'daily' as const, requestedBy: null, dailyKey: `${provider}:${day}`, now };
      if (await this.database.unit((tx) => this.rows.insertRun(tx, run, 'queued', null))) queued++;
    }
    return queued;
  }

  /** Claims one queued run (or one whose worker's lease ended) and runs it; null when none was taken. */
  async runNext(providers: Providers, workerId: string): Promise<RunResult | null> {
    const now = this.clock();
    for (const run of await this.rows.claimable(now, 10)) {
      if (!(await this.rows.claim(run, workerId, now, RUN_LEASE_MS))) continue;
      let adapter: UpstreamAdapter & UpstreamBooks;
      try {
        adapter = this.booksOf(providers, run.provider as UpstreamName);
      } catch (error) {
        await this.rows.fail(run.id, error instanceof Error ? error.message : String(error), { attempts: 0, records: 0 }, this.clock());
        continue;
      }
      return this.execute(adapter, run.id);
    }
    return null;
  }

  /** An admin marks a finding resolved with a note (audited in the same unit); money is settled elsewhere. */
  async resolve(actor: Actor, findingId: string, note: string): Promise<void> {
    const text = note.trim();
    if (text === '') throw invalid('INVALID_REQUEST', 'a note is required');
    await this.database.unit(async (tx) => {
      const finding = await this.rows.finding(tx, findingId);
      if (!finding) throw notFound('NOT_FOUND', `no finding ${findingId}`);
      if (!(await this.rows.resolve(tx, findingId, actor.name, text, this.clock()))) throw conflict('INVALID_REQUEST', `finding ${findingId} is already resolved`);
      await this.audit.record(tx, actor, 'reconciliation.resolve', { type: 'reconciliation_finding', id: findingId }, {
        provider: finding.provider,
        kind: finding.kind,
        reference: finding.reference,
        order: finding.order_id,
        note: text,
      });
    });
  }

  /** The upstreams this configuration enables, which a run may name. */
  upstreams(): UpstreamName[] {
    return UPSTREAMS_RECONCILED.filter((name) => this.enabled.has(name));
  }

  async latestRuns(): Promise<ReconciliationRunRow[]> {
    return this.rows.latestRuns(UPSTREAMS_RECONCILED);
  }

  async run(id: string): Promise<ReconciliationRunRow | undefined> {
    return this.rows.run(id);
  }

  async runs(filter: { dailyKey?: string; limit: number }): Promise<ReconciliationRunRow[]> {
    return this.rows.runs(filter);
  }

  async findings(filter: { runId?: string; unresolvedOnly?: boolean; limit: number }): Promise<Finding[]> {
    return (await this.rows.findings(filter)).map(toFinding);
  }

  async unresolvedCounts(): Promise<Map<string, number>> {
    return this.rows.unresolvedCounts();
  }

  private booksOf(providers: Providers, provider: UpstreamName): UpstreamAdapter & UpstreamBooks {
    const adapter: (UpstreamAdapter & UpstreamBooks) | undefined = providers.adapter(provider);
    if (!adapter) throw conflict('INVALID_REQUEST', `${provider} is not enabled in this configuration`);
    if (!adapter.transactions && !adapter.record) throw conflict('INVALID_REQUEST', `${provider} cannot be reconciled`);
    return adapter;
  }

  /** Compares the window of a claimed run, stores the findings and closes the run (failed, with why, when the upstream did not answer). */
  private async execute(adapter: UpstreamAdapter & UpstreamBooks, runId: string): Promise<RunResult> {
    const run = await this.rows.run(runId);
    if (!run) throw new Error(`reconciliation run ${runId} vanished`);
    const from = Number(run.window_from);
    const to = Number(run.window_to);
    const counts: Counts = { attempts: 0, records: 0 };
    let found: FoundDifference[];
    let unchecked = 0;
    let costs: CostFill[] = [];
    try {
      const ours = await this.rows.attemptsIn(run.provider, from, to);
      counts.attempts = ours.length;
      const result = adapter.transactions ? await this.byList(adapter, run.provider, ours, { from, to }, counts) : await this.byChecks(adapter, run.provider, ours, counts);
      found = result.found;
      unchecked = result.unchecked;
      costs = result.costs;
    } catch (error) {
      const message = error instanceof UpstreamReadError ? error.message : `reconciliation failed: ${error instanceof Error ? error.message : String(error)}`;
      await this.rows.fail(runId, message, counts, this.clock());
      const failed = await this.rows.run(runId);
      if (!failed) throw new Error(`reconciliation run ${runId} vanished`, { cause: error });
      return { run: failed, findings: [] };
    }
    const now = this.clock();
    await this.database.unit(async (tx) => {
      await this.rows.recordFindings(tx, runId, found, now);
      await this.rows.fillCosts(tx, costs);
      this.rows.finish(tx, runId, { ...counts, findings: found.length }, now);
    });
    if (unchecked > 0) {
      await this.rows.fail(runId, `${unchecked} attempts could not be checked (no answer from ${run.provider}): run it again`, counts, now);
    }
    const done = await this.rows.run(runId);
    if (!done) throw new Error(`reconciliation run ${runId} vanished`);
    const stored = new Map((await this.rows.findings({ runId, limit: 100_000 })).map((f) => [f.finding_key, f]));
    return { run: done, findings: found.flatMap((f) => (stored.has(f.key) ? [toFinding(stored.get(f.key) as FindingWithOrder)] : [])) };
  }

  /** Reloadly, DT One: the upstream's list of the window, page by page, matched by reference. */
  private async byList(
    adapter: UpstreamAdapter & UpstreamBooks,
    provider: string,
    ours: OurAttempt[],
    window: { from: number; to: number },
    counts: Counts,
  ): Promise<Checked> {
    const byReference = new Map(ours.map((a) => [a.reference, a]));
    const seen = new Set<string>();
    const found: FoundDifference[] = [];
    const costs: CostFill[] = [];
    const strangers: UpstreamRecord[] = [];
    if (!adapter.transactions) throw new Error(`${provider} has no transaction list`);
    for await (const page of adapter.transactions({ from: window.from, to: window.to + LATE_MS })) {
      counts.records += page.length;
      for (const record of page) {
        const attempt = record.reference === null ? undefined : byReference.get(record.reference);
        if (attempt) {
          seen.add(attempt.reference);
          costs.push(...costToFill(attempt, record));
          const kind = differenceOf(attempt, record);
          if (kind) found.push(difference(provider, kind, attempt, record));
        } else if (record.at === null || (record.at >= window.from && record.at < window.to)) {
          strangers.push(record);
        }
      }
    }
    // A reference of ours from another window belongs to that window's run.
    const known = await this.rows.knownReferences(strangers.flatMap((r) => (r.reference === null ? [] : [r.reference])));
    for (const record of strangers) if (record.reference === null || !known.has(record.reference)) found.push(difference(provider, 'unknown-here', null, record));
    // Not in the list: asked once more by reference before it is called missing (the list may date it otherwise).
    let unchecked = 0;
    for (const attempt of ours) {
      if (seen.has(attempt.reference) || !expectedThere(attempt)) continue;
      const answer = await adapter.lookup(handleOf(attempt));
      if (answer.class === 'unknown') {
        unchecked++;
        continue;
      }
      const record = answer.class === 'absent' ? null : recordOfAnswer(attempt.reference, answer);
      const kind = differenceOf(attempt, record);
      if (kind) found.push(difference(provider, kind, attempt, record));
    }
    return { found, unchecked, costs };
  }

  /** Hubtel: a status check of every attempt of the window, a few at a time. */
  private async byChecks(adapter: UpstreamAdapter & UpstreamBooks, provider: string, ours: OurAttempt[], counts: Counts): Promise<Checked> {
    const record = adapter.record?.bind(adapter);
    if (!record) throw new Error(`${provider} has no status check for reconciliation`);
    const found: FoundDifference[] = [];
    const costs: CostFill[] = [];
    let unchecked = 0;
    let next = 0;
    const worker = async () => {
      while (next < ours.length) {
        const attempt = ours[next++];
        if (!attempt) return;
        try {
          const theirs = await record(handleOf(attempt));
          if (theirs) counts.records++;
          costs.push(...costToFill(attempt, theirs));
          const kind = differenceOf(attempt, theirs);
          if (kind) found.push(difference(provider, kind, attempt, theirs));
        } catch (error) {
          if (!(error instanceof UpstreamReadError)) throw error;
          unchecked++;
        }
      }
    };
    await Promise.all(Array.from({ length: CHECKS_IN_FLIGHT }, worker));
    return { found, unchecked, costs };
  }
}

/** A completed attempt of ours without a cost, which the upstream's record of the delivery gives (margins). */
interface CostFill {
  reference: string;
  cost: number;
}

interface Checked {
  found: FoundDifference[];
  unchecked: number;
  costs: CostFill[];
}

function costToFill(attempt: OurAttempt, record: UpstreamRecord | null): CostFill[] {
  if (attempt.status !== 'completed' || attempt.cost !== null || record?.state !== 'delivered' || record.cost === null) return [];
  return [{ reference: attempt.reference, cost: record.cost }];
}

function handleOf(attempt: OurAttempt) {
  return {
    reference: attempt.reference,
    transactionId: attempt.provider_transaction_id,
    msisdn: '',
    route: routeOfAttempt(attempt),
    createdAt: attempt.created_at,
  };
}

/** A lookup's answer as a record (no amounts: the lookup answers a status). */
function recordOfAnswer(reference: string, answer: { class: 'accepted' | 'completed' | 'failed'; transactionId: string | null; cost?: number }): UpstreamRecord {
  return {
    reference,
    transactionId: answer.transactionId,
    state: answer.class === 'completed' ? 'delivered' : answer.class === 'failed' ? 'failed' : 'in-flight',
    status: answer.class,
    amount: null,
    cost: null,
    at: null,
  };
}

function difference(provider: string, kind: FindingKind, attempt: OurAttempt | null, record: UpstreamRecord | null): FoundDifference {
  const reference = attempt?.reference ?? record?.reference ?? null;
  const subject = attempt ? attempt.reference : `tx:${record?.transactionId ?? record?.reference ?? 'unknown'}`;
  return {
    key: `${provider}:${kind}:${subject}`,
    id: newId('fnd'),
    provider,
    kind,
    reference,
    transactionId: record?.transactionId ?? attempt?.provider_transaction_id ?? null,
    orderId: attempt?.order_id ?? null,
    orderItemId: attempt?.order_item_id ?? null,
    ours: attempt ? JSON.stringify(ourSide(attempt)) : null,
    theirs: JSON.stringify(theirSide(record)),
  };
}

function parse(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}

function toFinding(row: FindingWithOrder): Finding {
  return {
    id: row.id,
    kind: row.kind,
    provider: row.provider,
    reference: row.reference,
    transactionId: row.transaction_id,
    orderId: row.order_id,
    shortReference: row.short_reference,
    ours: parse(row.ours),
    theirs: parse(row.theirs),
    foundAt: Number(row.found_at),
    lastSeenAt: Number(row.last_seen_at),
    resolvedAt: row.resolved_at === null ? null : Number(row.resolved_at),
    resolvedBy: row.resolved_by,
    note: row.resolution_note,
  };
}
