import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { DB, FindingKind, ReconciliationFindingRow, ReconciliationRunRow, ReconciliationTrigger } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';

const ATTEMPTS_PAGE = 5_000;

/**
 * A page of an upstream's attempts made in [from, to), after `after`, oldest first: read through
 * the partial index provider_attempts_window, which holds no sandbox attempt (migration 0022; the
 * sandbox is never reconciled) and so must see its condition as a literal
 * (test/db/query-plans.test.ts).
 */
export function attemptWindowQuery(
  qb: Kysely<DB>,
  provider: string,
  window: { from: number; to: number; after: { at: number; reference: string } | null },
) {
  const { after } = window;
  return qb
    .selectFrom('provider_attempts as a')
    .innerJoin('order_items as i', 'i.id', 'a.order_item_id')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select(['a.reference', 'a.status', 'a.provider_transaction_id', 'a.cost', 'a.route', 'a.created_at', 'a.order_item_id', 'i.order_id', 'o.short_reference'])
    .where('a.provider', '=', provider)
    .where(sql<boolean>`a.provider <> 'sandbox'`)
    .where('a.created_at', '>=', window.from)
    .where('a.created_at', '<', window.to)
    .$if(after !== null, (q) => q.where((eb) => eb.or([eb('a.created_at', '>', after?.at ?? window.from), eb('a.reference', '>', after?.reference ?? '')])))
    .orderBy('a.created_at')
    .orderBy('a.reference')
    .limit(ATTEMPTS_PAGE);
}

/** An attempt as read (bigint columns may come back as strings on PostgreSQL). */
type AttemptRow = Omit<OurAttempt, 'cost' | 'created_at'> & { cost: number | string | null; created_at: number | string };

/** One of our attempts as reconciliation compares it, with its order. */
export interface OurAttempt {
  reference: string;
  status: string;
  provider_transaction_id: string | null;
  cost: number | null;
  route: string;
  created_at: number;
  order_item_id: string;
  order_id: string;
  short_reference: string;
}

export interface NewRun {
  id: string;
  provider: string;
  from: number;
  to: number;
  trigger: ReconciliationTrigger;
  requestedBy: string | null;
  dailyKey: string | null;
  now: number;
}

export interface FoundDifference {
  key: string;
  id: string;
  provider: string;
  kind: FindingKind;
  reference: string | null;
  transactionId: string | null;
  orderId: string | null;
  orderItemId: string | null;
  ours: string | null;
  theirs: string | null;
}

export interface FindingWithOrder extends ReconciliationFindingRow {
  short_reference: string | null;
}

/** Reconciliation runs and findings (reconciliation_runs, reconciliation_findings), and the attempts they compare. */
export class ReconciliationRepository {
  constructor(private readonly database: Database) {}

  /**
   * Our attempts of `provider` made in [from, to), oldest first, read 5 000 at a time: SQLite reads
   * on the process's one thread, and a day of 100 000 in one read would hold up the deliveries.
   */
  async attemptsIn(provider: string, from: number, to: number): Promise<OurAttempt[]> {
    const all: OurAttempt[] = [];
    let after: { at: number; reference: string } | null = null;
    for (;;) {
      const cursor: { at: number; reference: string } | null = after;
      const rows: AttemptRow[] = await attemptWindowQuery(this.database.read, provider, { from: cursor === null ? from : cursor.at, to, after: cursor }).execute();
      for (const r of rows) all.push({ ...r, cost: r.cost === null ? null : Number(r.cost), created_at: Number(r.created_at) });
      const last: AttemptRow | undefined = rows.at(-1);
      if (!last || rows.length < ATTEMPTS_PAGE) return all;
      after = { at: Number(last.created_at), reference: last.reference };
      // Let the deliveries' callbacks run between pages.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Which of `references` are attempts of ours (any time, any upstream). */
  async knownReferences(references: readonly string[]): Promise<Set<string>> {
    const known = new Set<string>();
    for (let i = 0; i < references.length; i += 500) {
      const chunk = references.slice(i, i + 500);
      const rows = await this.database.read.selectFrom('provider_attempts').select('reference').where('reference', 'in', chunk).execute();
      for (const row of rows) known.add(row.reference);
    }
    return known;
  }

  async insertRun(tx: Tx, run: NewRun, status: 'queued' | 'running', lock: { by: string; until: number } | null): Promise<boolean> {
    const query = tx.qb
      .insertInto('reconciliation_runs')
      .values({
        id: run.id,
        provider: run.provider,
        window_from: run.from,
        window_to: run.to,
        trigger: run.trigger,
        requested_by: run.requestedBy,
        daily_key: run.dailyKey,
        status,
        locked_by: lock?.by ?? null,
        locked_until: lock?.until ?? null,
        attempts_checked: 0,
        upstream_records: 0,
        findings: 0,
        created_at: run.now,
        started_at: status === 'running' ? run.now : null,
      })
      .onConflict((oc) => oc.column('daily_key').doNothing());
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** Runs waiting for a worker: queued ones, and running ones whose worker's lease ended. */
  async claimable(now: number, limit: number): Promise<ReconciliationRunRow[]> {
    return this.database.read
      .selectFrom('reconciliation_runs')
      .selectAll()
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)])]))
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Takes a run for `workerId` if nobody took it since it was read. */
  async claim(run: ReconciliationRunRow, workerId: string, now: number, leaseMs: number): Promise<boolean> {
    return this.database.singleStatement(async (tx) => {
      const query = tx.qb
        .updateTable('reconciliation_runs')
        .set({ status: 'running', locked_by: workerId, locked_until: now + leaseMs, started_at: now })
        .where('id', '=', run.id)
        .where('status', '=', run.status)
        .where((eb) => (run.locked_by === null ? eb('locked_by', 'is', null) : eb('locked_by', '=', run.locked_by)));
      return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
    });
  }

  finish(tx: Tx, id: string, counts: { attempts: number; records: number; findings: number }, now: number): void {
    tx.write(
      this.database.statements.once(
        tx.qb
          .updateTable('reconciliation_runs')
          .set({ status: 'done', locked_until: null, attempts_checked: counts.attempts, upstream_records: counts.records, findings: counts.findings, finished_at: now, error: null })
          .where('id', '=', id),
      ),
    );
  }

  async fail(id: string, error: string, counts: { attempts: number; records: number }, now: number): Promise<void> {
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .updateTable('reconciliation_runs')
          .set({ status: 'failed', locked_until: null, error: error.slice(0, 1000), attempts_checked: counts.attempts, upstream_records: counts.records, finished_at: now })
          .where('id', '=', id),
      ),
    );
  }

  /**
   * The upstream's cost of completed attempts that had none (docs/live-delivery.md, "Margins"): a
   * cost already known is never replaced here (a difference is a finding).
   */
  async fillCosts(tx: Tx, costs: readonly { reference: string; cost: number }[]): Promise<void> {
    for (const c of costs) {
      await tx.execute(
        tx.qb.updateTable('provider_attempts').set({ cost: c.cost }).where('reference', '=', c.reference).where('status', '=', 'completed').where('cost', 'is', null),
      );
    }
  }

  /**
   * Records what a run found: a difference seen before (same key) takes the run and both sides as
   * they are now and keeps its resolution; a new one is inserted. Returns how many were new.
   */
  async recordFindings(tx: Tx, runId: string, found: readonly FoundDifference[], now: number): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < found.length; i += 200) {
      const chunk = found.slice(i, i + 200);
      const { rows } = await tx.execute(
        tx.qb.selectFrom('reconciliation_findings').select(['finding_key']).where('finding_key', 'in', chunk.map((f) => f.key)),
      );
      const existing = new Set(rows.map((r) => r.finding_key));
      for (const f of chunk) {
        if (existing.has(f.key)) {
          await tx.execute(
            tx.qb
              .updateTable('reconciliation_findings')
              .set({ last_run_id: runId, last_seen_at: now, ours: f.ours, theirs: f.theirs, order_id: f.orderId, order_item_id: f.orderItemId })
              .where('finding_key', '=', f.key),
          );
        } else {
          inserted++;
          await tx.execute(
            tx.qb.insertInto('reconciliation_findings').values({
              id: f.id,
              finding_key: f.key,
              provider: f.provider,
              kind: f.kind,
              reference: f.reference,
              transaction_id: f.transactionId,
              order_id: f.orderId,
              order_item_id: f.orderItemId,
              ours: f.ours,
              theirs: f.theirs,
              first_run_id: runId,
              last_run_id: runId,
              found_at: now,
              last_seen_at: now,
            }),
          );
        }
      }
    }
    return inserted;
  }

  async run(id: string): Promise<ReconciliationRunRow | undefined> {
    return this.database.read.selectFrom('reconciliation_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The latest run of each provider (by creation). */
  async latestRuns(providers: readonly string[]): Promise<ReconciliationRunRow[]> {
    const runs: ReconciliationRunRow[] = [];
    for (const provider of providers) {
      const run = await this.database.read
        .selectFrom('reconciliation_runs')
        .selectAll()
        .where('provider', '=', provider)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      if (run) runs.push(run);
    }
    return runs;
  }

  async runs(filter: { dailyKey?: string; limit: number }): Promise<ReconciliationRunRow[]> {
    let query = this.database.read.selectFrom('reconciliation_runs').selectAll();
    if (filter.dailyKey !== undefined) query = query.where('daily_key', '=', filter.dailyKey);
    return query.orderBy('created_at', 'desc').limit(filter.limit).execute();
  }

  /** Findings: unresolved first (oldest first), then the latest resolved; with the order's short reference. */
  async findings(filter: { runId?: string; unresolvedOnly?: boolean; limit: number }): Promise<FindingWithOrder[]> {
    let query = this.database.read
      .selectFrom('reconciliation_findings as f')
      .leftJoin('orders as o', 'o.id', 'f.order_id')
      .selectAll('f')
      .select('o.short_reference');
    if (filter.runId !== undefined) query = query.where('f.last_run_id', '=', filter.runId);
    if (filter.unresolvedOnly) query = query.where('f.resolved_at', 'is', null);
    const rows = await query.orderBy('f.resolved_at', 'desc').orderBy('f.found_at').limit(filter.limit).execute();
    // NULLs sort first descending on PostgreSQL and last on SQLite: put the unresolved first on both.
    return [...rows.filter((r) => r.resolved_at === null), ...rows.filter((r) => r.resolved_at !== null)];
  }

  async finding(tx: Tx, id: string): Promise<ReconciliationFindingRow | undefined> {
    const { rows } = await tx.execute(tx.qb.selectFrom('reconciliation_findings').selectAll().where('id', '=', id));
    return rows[0];
  }

  async resolve(tx: Tx, id: string, by: string, note: string, now: number): Promise<boolean> {
    const query = tx.qb
      .updateTable('reconciliation_findings')
      .set({ resolved_at: now, resolved_by: by, resolution_note: note })
      .where('id', '=', id)
      .where('resolved_at', 'is', null);
    return Number((await tx.execute(query)).numAffectedRows ?? 0) > 0;
  }

  /** Unresolved findings per provider. */
  async unresolvedCounts(): Promise<Map<string, number>> {
    const rows = await this.database.read
      .selectFrom('reconciliation_findings')
      .select(['provider', (eb) => eb.fn.countAll<number>().as('n')])
      .where('resolved_at', 'is', null)
      .groupBy('provider')
      .execute();
    return new Map(rows.map((r) => [r.provider, Number(r.n)]));
  }
}
