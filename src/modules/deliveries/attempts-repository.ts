import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { AttemptStatus, DB, ProviderAttemptRow } from '../../db/schema.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { ProviderName, Route } from '../../providers/types.js';

/**
 * Provider attempts (docs/live-delivery.md, "One delivery, many attempts") and the routes they follow.
 * An attempt row is written before its call; its status moves only forward, behind guarded updates.
 */

export interface NewAttempt {
  reference: string;
  itemId: string;
  itemAttempt: number;
  routePosition: number | null;
  route: Route;
  now: number;
}

export interface AttemptChange {
  status: AttemptStatus;
  transactionId?: string | null;
  cost?: number | null;
  message?: string | null;
  submittedAt?: number;
  resolvedAt?: number;
  retryAt?: number | null;
  resolvedBy?: string | null;
  /** The attempt's count of proven absences, as it is now (a lookup proved it absent once more). */
  absences?: number;
  /** What ended a refused or failed attempt: the number or the route (migration 0024). */
  problem?: 'number' | 'route';
}

/** An open attempt past the attention threshold, with the order it belongs to. */
export interface AttentionRow {
  reference: string;
  provider: string;
  status: AttemptStatus;
  message: string | null;
  created_at: number;
  order_item_id: string;
  order_id: string;
  short_reference: string;
  beneficiary_msisdn: string;
  profile_id: string;
  mode: string;
}

export function routeOf(row: Pick<ProviderAttemptRow, 'route'>): Route {
  return JSON.parse(row.route) as Route;
}

const OPEN_ATTEMPT: AttemptStatus[] = ['pending', 'unknown'];

function attemptStatements(sql: Statements) {
  return {
    ofItemCharge: sql.prepare((qb, itemId: string, itemAttempt: number) =>
      qb
        .selectFrom('provider_attempts')
        .selectAll()
        .where('order_item_id', '=', itemId)
        .where('item_attempt', '=', itemAttempt)
        .orderBy('created_at')
        .orderBy('reference'),
    ),
  };
}

/**
 * Open attempts (pending or unknown) made before `before`, of deliveries still open, oldest first:
 * read through the partial index provider_attempts_open (test/db/query-plans.test.ts).
 */
export const unknownSinceQuery = (qb: Kysely<DB>, before: number) =>
  qb
    .selectFrom('provider_attempts as a')
    .innerJoin('order_items as i', (join) =>
      join.onRef('i.id', '=', 'a.order_item_id').onRef('i.attempt', '=', 'a.item_attempt'),
    )
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select([
      'a.reference',
      'a.provider',
      'a.status',
      'a.message',
      'a.created_at',
      'a.order_item_id',
      'i.order_id',
      'o.short_reference',
      'i.beneficiary_msisdn',
      'o.profile_id',
      'i.mode',
    ])
    // As literals: the partial index provider_attempts_open (migration 0021) holds exactly these.
    .where('a.status', 'in', OPEN_ATTEMPT.map((status) => sql.lit(status)))
    .where('a.created_at', '<', before)
    .where('i.status', 'in', ['pending', 'processing'])
    .orderBy('a.created_at')
    .limit(500);

/**
 * The attempt a callback names, by our reference or else by the upstream's transaction id (read
 * through the partial index provider_attempts_transaction: test/db/query-plans.test.ts); null when
 * it names neither.
 */
export function attemptNamedQuery(qb: Kysely<DB>, provider: ProviderName, subject: { reference: string | null; transactionId: string | null }) {
  const query = qb.selectFrom('provider_attempts').selectAll().where('provider', '=', provider);
  if (subject.reference) return query.where('reference', '=', subject.reference);
  if (subject.transactionId) return query.where('provider_transaction_id', '=', subject.transactionId);
  return null;
}

export class AttemptRepository {
  private readonly q: ReturnType<typeof attemptStatements>;

  constructor(private readonly database: Database) {
    this.q = attemptStatements(database.statements);
  }

  /** Every attempt of these items' current charges, oldest first, by item id. */
  async ofItems(items: readonly { id: string; attempt: number }[]): Promise<Map<string, ProviderAttemptRow[]>> {
    const result = new Map<string, ProviderAttemptRow[]>();
    if (items.length === 0) return result;
    const charge = new Map(items.map((i) => [i.id, i.attempt]));
    const rows = await this.database.readRows(
      this.database.statements.withList(
        'attempts of items',
        [],
        items.map((i) => i.id),
        (qb, _, ids) =>
          qb
            .selectFrom('provider_attempts')
            .selectAll()
            .where('order_item_id', 'in', ids as string[])
            .orderBy('created_at')
            .orderBy('reference'),
      ),
    );
    for (const row of rows) {
      if (Number(row.item_attempt) !== charge.get(row.order_item_id)) continue;
      const list = result.get(row.order_item_id) ?? [];
      list.push(normalise(row));
      result.set(row.order_item_id, list);
    }
    return result;
  }

  /** The attempts of one item's charge, in the unit (after its order is locked). */
  async ofItemInUnit(tx: Tx, itemId: string, itemAttempt: number): Promise<ProviderAttemptRow[]> {
    const { rows } = await tx.execute(this.q.ofItemCharge(itemId, itemAttempt));
    return rows.map(normalise);
  }

  insert(tx: Tx, attempts: readonly NewAttempt[]): void {
    const rows = this.database.statements.insertRows(
      'provider_attempts',
      attempts.map((a) => ({
        reference: a.reference,
        order_item_id: a.itemId,
        item_attempt: a.itemAttempt,
        route_position: a.routePosition,
        provider: a.route.provider,
        route: JSON.stringify(a.route),
        status: 'pending' as const,
        provider_transaction_id: null,
        cost: null,
        message: null,
        resolved_by: null,
        retry_at: null,
        created_at: a.now,
        submitted_at: null,
        resolved_at: null,
      })),
    );
    for (const row of rows) tx.write(row);
  }

  /** Moves an attempt on, only from one of `from`; false when it had already moved. */
  async change(tx: Tx, reference: string, from: readonly AttemptStatus[], change: AttemptChange): Promise<boolean> {
    const set: Record<string, unknown> = {
      status: change.status,
      ...(change.transactionId ? { provider_transaction_id: change.transactionId } : {}),
      ...(change.cost !== undefined ? { cost: change.cost } : {}),
      ...(change.message !== undefined ? { message: change.message === null ? null : change.message.slice(0, 500) } : {}),
      ...(change.submittedAt !== undefined ? { submitted_at: change.submittedAt } : {}),
      ...(change.resolvedAt !== undefined ? { resolved_at: change.resolvedAt } : {}),
      ...(change.retryAt !== undefined ? { retry_at: change.retryAt } : {}),
      ...(change.resolvedBy !== undefined ? { resolved_by: change.resolvedBy } : {}),
      ...(change.absences !== undefined ? { absences: change.absences } : {}),
      ...(change.problem !== undefined ? { problem: change.problem } : {}),
    };
    const columns = Object.keys(set);
    // Compiled once per set of columns and number of statuses left from (a handful of shapes).
    const statement = this.database.statements.shaped(
      `provider_attempts change ${columns.join(',')} from ${from.length}`,
      [...columns.map((c) => set[c]), reference, ...from],
      (qb, args) =>
        qb
          .updateTable('provider_attempts')
          .set(Object.fromEntries(columns.map((c, i) => [c, args[i]])))
          .where('reference', '=', args[columns.length] as string)
          // Equalities, not `status in (…)`: SQLite builds a temporary B-tree for an IN list of
          // more than two values on every run (its opcode OpenEphemeral), two per delivery here.
          .where((eb) => eb.or(args.slice(columns.length + 1).map((status) => eb('status', '=', status as AttemptStatus)))),
    );
    return Number((await tx.execute(statement)).numAffectedRows ?? 0) > 0;
  }

  /** The attempt a callback names: by our reference, or by the upstream's transaction id. */
  async find(provider: ProviderName, subject: { reference: string | null; transactionId: string | null }) {
    const query = attemptNamedQuery(this.database.read, provider, subject);
    if (!query) return undefined;
    const row = await query.executeTakeFirst();
    return row ? normalise(row) : undefined;
  }

  /** Attempts still unknown (or unanswered) since before `before`, of deliveries still open: needs attention. */
  async unknownSince(before: number): Promise<AttentionRow[]> {
    const rows = await unknownSinceQuery(this.database.read, before).execute();
    return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
  }

  /** The attempts of an order's items, oldest first (staff views). */
  async ofOrder(orderId: string): Promise<ProviderAttemptRow[]> {
    const rows = await this.database.read
      .selectFrom('provider_attempts as a')
      .innerJoin('order_items as i', 'i.id', 'a.order_item_id')
      .selectAll('a')
      .where('i.order_id', '=', orderId)
      .orderBy('a.created_at')
      .orderBy('a.reference')
      .execute();
    return rows.map(normalise);
  }
}

function normalise(row: ProviderAttemptRow): ProviderAttemptRow {
  const n = (v: number | null) => (v === null ? null : Number(v));
  return {
    ...row,
    item_attempt: Number(row.item_attempt),
    route_position: n(row.route_position),
    cost: n(row.cost),
    retry_at: n(row.retry_at),
    absences: Number(row.absences),
    created_at: Number(row.created_at),
    submitted_at: n(row.submitted_at),
    resolved_at: n(row.resolved_at),
  };
}
