import { sql } from 'kysely';
import type { TestApp } from './app.js';

/**
 * The number of rows of every table of the test's database (its own schema on PostgreSQL), by
 * table: compare two of these to show that a request wrote nothing anywhere.
 */
export async function rowCounts(t: TestApp): Promise<Record<string, number>> {
  const db = t.database.db;
  const schema = t.testDb.pgSchema;
  // On PostgreSQL, this schema's tables alone: Kysely's introspector reads every schema of the
  // database, and another test file dropping its own schema meanwhile failed it ("schema … does not exist").
  const tables =
    schema === undefined
      ? (await db.introspection.getTables()).filter((table) => !table.isView)
      : (
          await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE' order by table_name`.execute(db)
        ).rows;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const name = t.testDb.pgSchema === undefined ? sql.table(table.name) : sql.table(`${t.testDb.pgSchema}.${table.name}`);
    const row = (await sql<{ n: number | string }>`select count(*) as n from ${name}`.execute(db)).rows[0];
    counts[table.name] = Number(row?.n ?? 0);
  }
  if (Object.keys(counts).length < 10) throw new Error(`only ${Object.keys(counts).length} tables found: is the schema filter right?`);
  return counts;
}
