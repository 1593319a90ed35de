import { CompiledQuery, type Insertable, type Kysely, type QueryResult, type Updateable } from 'kysely';
import type { Database, Executor } from './connection.js';
import { asOneStatement, dialectOf } from './dialect.js';
import type { DB } from './schema.js';

/**
 * Hot queries, built with Kysely once and then run as plain SQL with new parameters: the same
 * query text the builder would produce, minus the cost of building and compiling it on every call
 * (~10-25 µs, more than most of our statements take to run). Builders receive placeholder
 * arguments, so an argument must be used as a plain value (no `in` lists, no branching on it).
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

type Compilable<Row> = { compile(): CompiledQuery<Row> };

/** Every SQL text compiled here: a fixed, small set (see `isPrecompiled`). */
const precompiled = new Set<string>();

/**
 * True for SQL compiled once by this module: texts that recur unchanged with new parameters, so a
 * server may keep them prepared (PostgreSQL names them, see connection.ts). Other texts (built per
 * call, `in` lists of any length) are not, and must not accumulate on the server.
 */
export function isPrecompiled(sql: string): boolean {
  return precompiled.has(sql);
}

function compileWithSentinels<Row>(query: Compilable<Row>): Compiled {
  const compiled = query.compile();
  precompiled.add(compiled.sql);
  return {
    sql: compiled.sql,
    slots: compiled.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.startsWith(SENTINEL)) return { arg: Number(value.slice(SENTINEL.length)) };
      return { value };
    }),
  };
}

const placeholder = (index: number) => `${SENTINEL}${index}`;

function placeholders<Args extends unknown[]>(count: number): Args {
  return Array.from({ length: count }, (_, i) => placeholder(i)) as unknown as Args;
}

function bind(compiled: Compiled, args: readonly unknown[]): unknown[] {
  return compiled.slots.map((slot) => (slot.arg === undefined ? slot.value : args[slot.arg]));
}

/** Runs compiled SQL at once on one connection, with the result Kysely's driver would give. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown>;

const directRunners = new WeakMap<Executor, DirectRunner>();

/**
 * Lets the precompiled statements of this module skip Kysely's executor (a chain of promises and
 * plugin hooks, several µs a statement) on `handle`. SQLite's group commit registers the handle it
 * gives its units of work: their statements then run directly on the writer, which is the same
 * connection in the same transaction that Kysely would have used.
 */
export function runDirectlyOn(handle: Executor, run: DirectRunner): void {
  directRunners.set(handle, run);
}

function execute<Row>(executor: Executor, sql: string, parameters: readonly unknown[]): Promise<QueryResult<Row>> {
  const direct = directRunners.get(executor);
  if (!direct) return executor.executeQuery<Row>(CompiledQuery.raw(sql, [...parameters]));
  try {
    return Promise.resolve(direct(sql, parameters) as QueryResult<Row>);
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Reads on the database's read handle (see Database.readRows). */
export function prepared<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (database: Database, ...args: Args) => Promise<Row[]> {
  const byDatabase = new WeakMap<Database, Compiled>();
  return (database, ...args) => {
    let compiled = byDatabase.get(database);
    if (!compiled) {
      compiled = compileWithSentinels(build(database.read, ...placeholders<Args>(build.length - 1)));
      byDatabase.set(database, compiled);
    }
    return database.readRows<Row>(compiled.sql, bind(compiled, args));
  };
}

/**
 * The compiled SQL depends only on the dialect. Every Kysely instance, and each transaction or
 * connection handle taken from it, carries one dialect adapter: a stable key for it. (Kysely marks
 * getExecutor internal, but it is the one way to reach the dialect of a handle.)
 */
function dialectKey(executor: Executor): object {
  return executor.getExecutor().adapter;
}

/**
 * `prepared` for any handle, the unit of work's included: for the statements of the write path
 * (a purchase runs a handful of them per request). Runs through Kysely's executor, so results
 * have Kysely's shape (`rows`, `numAffectedRows`).
 */
export function preparedQuery<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (executor: Executor, ...args: Args) => Promise<QueryResult<Row>> {
  const statement = preparedStatement(build);
  return (executor, ...args) => {
    const { sql, parameters } = statement(executor, ...args);
    return execute<Row>(executor, sql, parameters);
  };
}

const byShape = new WeakMap<object, Map<string, Compiled>>();

/** The compiled statement of one shape (table, kind and columns) for the handle's dialect. */
function compiledShape(executor: Executor, shape: string, build: () => Compilable<unknown>): Compiled {
  const dialect = dialectKey(executor);
  let shapes = byShape.get(dialect);
  if (!shapes) byShape.set(dialect, (shapes = new Map()));
  let compiled = shapes.get(shape);
  if (!compiled) {
    compiled = compileWithSentinels(build());
    shapes.set(shape, compiled);
  }
  return compiled;
}

/** The row's columns, as Kysely's values() and set() take them: undefined means "not given". */
function givenColumns(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((column) => record[column] !== undefined);
}

/**
 * An insert of one row as a Statement, compiled once per table and set of columns (the row's own
 * keys, so no column can be left out by mistake).
 */
export function insertStatement<T extends keyof DB & string>(executor: Executor, table: T, row: Insertable<DB[T]>): Statement {
  const record = row as Record<string, unknown>;
  const columns = givenColumns(record);
  const compiled = compiledShape(executor, `insert ${table}(${columns.join(',')})`, () =>
    executor.insertInto(table).values(Object.fromEntries(columns.map((c, i) => [c, placeholder(i)])) as Insertable<DB[T]>),
  );
  return { sql: compiled.sql, parameters: bind(compiled, columns.map((c) => record[c] ?? null)) };
}

/** Inserts one row (see insertStatement). */
export async function insertRow<T extends keyof DB & string>(executor: Executor, table: T, row: Insertable<DB[T]>): Promise<void> {
  const statement = insertStatement(executor, table, row);
  await execute(executor, statement.sql, statement.parameters);
}

/**
 * `update <table> set <the given columns> where id = ?` as a Statement, compiled once per table and
 * set of columns.
 */
export function updateByIdStatement<T extends keyof DB & string>(
  executor: Executor,
  table: T,
  id: string,
  values: Updateable<DB[T]>,
): Statement {
  const record = values as Record<string, unknown>;
  const columns = givenColumns(record);
  const compiled = compiledShape(executor, `update ${table}(${columns.join(',')})`, () =>
    // Typed per table by the signature; the builder only needs the names to compile.
    (executor as unknown as Kysely<Record<string, Record<string, unknown>>>)
      .updateTable(table as string)
      .set(Object.fromEntries(columns.map((c, i) => [c, placeholder(i)])))
      .where('id', '=', placeholder(columns.length)),
  );
  return { sql: compiled.sql, parameters: bind(compiled, [...columns.map((c) => record[c] ?? null), id]) };
}

/** Runs updateByIdStatement; returns the number of rows changed. */
export async function updateById<T extends keyof DB & string>(
  executor: Executor,
  table: T,
  id: string,
  values: Updateable<DB[T]>,
): Promise<number> {
  const statement = updateByIdStatement(executor, table, id, values);
  const result = await execute(executor, statement.sql, statement.parameters);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * A write whose result nobody reads, compiled and bound, to be run with others by runTogether.
 * Statements made by this module are compiled once per shape; `statementOf` takes any other.
 */
export interface Statement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

/** Any compiled Kysely query as a Statement (compiled per call: for shapes that vary, like multi-row inserts). */
export function statementOf(query: Compilable<unknown>): Statement {
  const compiled = query.compile();
  return { sql: compiled.sql, parameters: compiled.parameters };
}

/** `preparedQuery` that returns the bound Statement instead of running it (see runTogether). */
export function preparedStatement<Args extends unknown[]>(
  build: (db: Kysely<DB>, ...args: Args) => Compilable<unknown>,
): (executor: Executor, ...args: Args) => Statement {
  const byDialect = new WeakMap<object, Compiled>();
  return (executor, ...args) => {
    const key = dialectKey(executor);
    let compiled = byDialect.get(key);
    if (!compiled) {
      compiled = compileWithSentinels(build(executor, ...placeholders<Args>(build.length - 1)));
      byDialect.set(key, compiled);
    }
    return { sql: compiled.sql, parameters: bind(compiled, args) };
  };
}

/**
 * Combined texts of recurring combinations (a handful: the purchases', the settlements'), found
 * part by part: each part is one of the compiled-once texts, whose string hash V8 keeps, so a
 * lookup never hashes or joins the whole SQL again.
 */
interface CombinedNode {
  text?: string;
  next: Map<string, CombinedNode>;
}
const combined: CombinedNode = { next: new Map() };

function combinedText(statements: readonly Statement[]): string {
  if (!statements.every((s) => precompiled.has(s.sql))) return asOneStatement(statements.map((s) => s.sql));
  let node = combined;
  for (const { sql } of statements) {
    let child = node.next.get(sql);
    if (!child) node.next.set(sql, (child = { next: new Map() }));
    node = child;
  }
  if (node.text === undefined) {
    node.text = asOneStatement(statements.map((s) => s.sql));
    // A recurring combination recurs itself: keep it prepared too.
    precompiled.add(node.text);
  }
  return node.text;
}

export async function runTogether(executor: Executor, statements: readonly Statement[]): Promise<void> {
  if (statements.length > 1 && !directRunners.has(executor) && dialectOf(executor) === 'postgres') {
    await execute(executor, combinedText(statements), statements.flatMap((s) => s.parameters));
    return;
  }
  for (const statement of statements) await execute(executor, statement.sql, statement.parameters);
}
