import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely, type SelectQueryBuilder } from 'kysely';

/**
 * Every difference between SQLite and PostgreSQL lives here; queries elsewhere are dialect-free.
 */
export type DialectName = 'sqlite' | 'postgres';

/** The engine behind a handle (a transaction's included), from the adapter Kysely gives it. */
export function dialectOf(db: { getExecutor(): { adapter: unknown } }): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * PostgreSQL: several writes, none of which returns rows, as one statement (every one but the last
 * in a WITH clause, where each still runs in full, in one snapshot). Their numbered parameters are
 * renumbered to follow each other: Kysely writes only placeholders, never literals containing "$n".
 * SQLite has no writes in WITH, and no round trips to save.
 */
export function asOneStatement(texts: readonly string[]): string {
  let offset = 0;
  const parts = texts.map((text) => {
    let count = 0;
    const renumbered = text.replace(/\$(\d+)/g, (_, n: string) => {
      count = Math.max(count, Number(n));
      return `$${Number(n) + offset}`;
    });
    offset += count;
    return renumbered;
  });
  const last = parts.pop() ?? '';
  return parts.length === 0 ? last : `with ${parts.map((p, i) => `w${i} as (${p})`).join(', ')} ${last}`;
}

/** An auto-incrementing integer primary key named `id`. */
export function autoIncrementId<T extends string>(
  builder: CreateTableBuilder<T, never>,
  dialect: DialectName,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? builder.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * Row locks for work queues. PostgreSQL: rows another worker holds are skipped.
 * SQLite has one writer at a time, which already serialises claimers.
 */
export function lockSkipLocked<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: DialectName,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/** Locks the selected rows until the transaction ends (PostgreSQL); a no-op on SQLite's single writer. */
export function lockForUpdate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: DialectName,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

export const beginImmediate = sql`begin immediate`;

/**
 * Unique indexes the services react to. PostgreSQL reports a violation by index name,
 * SQLite by its column list, so both spellings are kept here.
 */
const UNIQUE_INDEXES = {
  order_items_in_flight: 'order_items.mode, order_items.beneficiary_msisdn',
  orders_payment_reference: 'orders.profile_id, orders.mode, orders.payment_reference',
  orders_short_reference_key: 'orders.short_reference',
  top_ups_reference: 'top_ups.profile_id, top_ups.mode, top_ups.reference',
  ledger_entries_idempotency_key_key: 'ledger_entries.idempotency_key',
  rc_transactions_credential_id_key: 'rc_transactions.credential_id',
  rc_transactions_short_reference_key: 'rc_transactions.short_reference',
} as const;
export type UniqueIndex = keyof typeof UNIQUE_INDEXES;

/** True when the error is a unique-constraint violation, optionally of one named index. */
export function isUniqueViolation(error: unknown, index?: UniqueIndex): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: unknown; message?: unknown; constraint?: unknown };
  if (e.code === '23505') return index === undefined || e.constraint === index;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const message = typeof e.message === 'string' ? e.message : '';
    return index === undefined || message.endsWith(UNIQUE_INDEXES[index]);
  }
  return false;
}

/** True when a CHECK constraint refused the write (e.g. a balance would go below zero). */
export function isCheckViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23514' || code === 'SQLITE_CONSTRAINT_CHECK';
}

/**
 * After a bulk load, PostgreSQL plans with stale statistics until autovacuum runs (if it runs at
 * all): refresh them. SQLite keeps none unless asked, and frozen ones would do more harm than good.
 */
export async function refreshPlannerStatistics<T>(db: Kysely<T>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql`analyze`.execute(db);
}

/**
 * Columns an index also carries, past its key, so that a query reading only those is answered from
 * the index alone. SQLite: the columns are appended to the key; updating one rewrites the entry in
 * place in its leaf. PostgreSQL: none, because an update that changes any indexed column (an
 * INCLUDE column too) can no longer be a HOT update and must then add an entry to every index of
 * the table (the worker updates each order twice).
 */
export function coveringColumns(dialect: DialectName, columns: readonly string[]): string[] {
  return dialect === 'sqlite' ? [...columns] : [];
}
