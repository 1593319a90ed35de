import { sql } from 'kysely';
import type { TestApp } from './app.js';

/**
 * The number of rows of every table of the test's database, by table: compare two of these to
 * show that a request wrote nothing anywhere.
 */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const db = t.database.db;
  const tables = (await db.introspection.getTables()).filter((table) => !table.isView);
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = (await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table.name)}`.execute(db)).rows[0];
    counts[table.name] = Number(row?.n ?? 0);
  }
  if (Object.keys(counts).length < 10) throw new Error(`only ${Object.keys(counts).length} tables found`);
  return counts;
}
