import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Differences between SQLite and PostgreSQL in the schema and its upkeep. Statement plumbing lives
 * in statements.ts and unit-of-work.ts; repositories branch on their database's dialect themselves.
 */
export type DialectName = 'sqlite' | 'postgres';

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
