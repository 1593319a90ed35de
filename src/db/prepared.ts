import { CompiledQuery, type Insertable, type Kysely, type QueryResult, type Updateable } from 'kysely';
import type { Database, Executor } from './connection.js';
import type { DB } from './schema.js';

/**
 * Hot read queries, built with Kysely once per database and then run as plain SQL with new
 * parameters: the same query text as the builder would produce, minus the cost of building and
 * compiling it on every request. Arguments must be used as plain values (no `in` lists).
 */

const SENTINEL = '\u0000arg:';

interface Slot {
  arg?: number;
  value?: unknown;
}

interface Compiled {
  sql: string;
  slots: Slot[];
}

export function prepared<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => { compile(): CompiledQuery<Row> },
): (database: Database, ...args: Args) => Promise<Row[]> {
  const byDatabase = new WeakMap<Database, Compiled>();
  const compile = (database: Database): Compiled => {
    const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `${SENTINEL}${i}`) as unknown as Args;
    const query = build(database.read, ...placeholders).compile();
    const slots = query.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.startsWith(SENTINEL)) return { arg: Number(value.slice(SENTINEL.length)) };
      return { value };
    });
    const compiled = { sql: query.sql, slots };
    byDatabase.set(database, compiled);
    return compiled;
  };
  return (database, ...args) => {
    const { sql, slots } = byDatabase.get(database) ?? compile(database);
    return database.readRows<Row>(
      sql,
      slots.map((slot) => (slot.arg === undefined ? slot.value : args[slot.arg])),
    );
  };
}

type Compilable<Row> = { compile(): CompiledQuery<Row> };

/** The compiled SQL depends only on the dialect, whose adapter every handle of one database shares. */
function dialectKey(executor: Executor): object {
  return executor.getExecutor().adapter;
}

function compileWithSentinels<Row>(query: Compilable<Row>): Compiled {
  const compiled = query.compile();
  return {
    sql: compiled.sql,
    slots: compiled.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.startsWith(SENTINEL)) return { arg: Number(value.slice(SENTINEL.length)) };
      return { value };
    }),
  };
}

/**
 * `prepared` for any handle, the unit of work's included: for the statements of the write path
 * (a purchase runs a handful of them per request). Runs through Kysely's executor, so results
 * have Kysely's shape (`rows`, `numAffectedRows`).
 */
export function preparedQuery<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (executor: Executor, ...args: Args) => Promise<QueryResult<Row>> {
  const byDialect = new WeakMap<object, Compiled>();
  return (executor, ...args) => {
    const key = dialectKey(executor);
    let compiled = byDialect.get(key);
    if (!compiled) {
      const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `${SENTINEL}${i}`) as unknown as Args;
      compiled = compileWithSentinels(build(executor, ...placeholders));
      byDialect.set(key, compiled);
    }
    const parameters = compiled.slots.map((slot) => (slot.arg === undefined ? slot.value : args[slot.arg]));
    return executor.executeQuery<Row>(CompiledQuery.raw(compiled.sql, parameters));
  };
}

const insertsByDialect = new WeakMap<object, Map<string, Compiled>>();

/**
 * Inserts one row with a statement compiled once per table and set of columns (the row's own
 * keys, so no column can be left out by mistake).
 */
export async function insertRow<T extends keyof DB & string>(executor: Executor, table: T, row: Insertable<DB[T]>): Promise<void> {
  const record = row as Record<string, unknown>;
  // As with Kysely's values(): a column given as undefined is left to its default.
  const columns = Object.keys(record).filter((column) => record[column] !== undefined);
  const key = `${table}(${columns.join(',')})`;
  const dialect = dialectKey(executor);
  let inserts = insertsByDialect.get(dialect);
  if (!inserts) insertsByDialect.set(dialect, (inserts = new Map()));
  let compiled = inserts.get(key);
  if (!compiled) {
    const values = Object.fromEntries(columns.map((column, i) => [column, `${SENTINEL}${i}`]));
    compiled = compileWithSentinels(executor.insertInto(table).values(values as Insertable<DB[T]>));
    inserts.set(key, compiled);
  }
  const parameters = compiled.slots.map((slot) => (slot.arg === undefined ? slot.value : (record[columns[slot.arg] ?? ''] ?? null)));
  await executor.executeQuery(CompiledQuery.raw(compiled.sql, parameters));
}

const updatesByDialect = new WeakMap<object, Map<string, Compiled>>();

/**
 * `update <table> set <the given columns> where id = ?` with a statement compiled once per table
 * and set of columns; returns the number of rows changed.
 */
export async function updateById<T extends keyof DB & string>(
  executor: Executor,
  table: T,
  id: string,
  values: Updateable<DB[T]>,
): Promise<number> {
  const record = values as Record<string, unknown>;
  const columns = Object.keys(record).filter((column) => record[column] !== undefined);
  const key = `${table}(${columns.join(',')})`;
  const dialect = dialectKey(executor);
  let updates = updatesByDialect.get(dialect);
  if (!updates) updatesByDialect.set(dialect, (updates = new Map()));
  let compiled = updates.get(key);
  if (!compiled) {
    const set = Object.fromEntries(columns.map((column, i) => [column, `${SENTINEL}${i}`]));
    // Typed per table by the signature; the builder only needs the names to compile.
    const query = (executor as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .updateTable(table as string)
      .set(set)
      .where('id', '=', `${SENTINEL}${columns.length}`);
    compiled = compileWithSentinels(query);
    updates.set(key, compiled);
  }
  const parameters = compiled.slots.map((slot) => {
    if (slot.arg === undefined) return slot.value;
    return slot.arg === columns.length ? id : (record[columns[slot.arg] ?? ''] ?? null);
  });
  const result = await executor.executeQuery(CompiledQuery.raw(compiled.sql, parameters));
  return Number(result.numAffectedRows ?? 0);
}
