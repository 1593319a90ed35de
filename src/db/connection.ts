import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { SqliteSynchronous } from '../config.js';
import type { DialectName } from './dialect.js';
import { BackgroundCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './checkpointer.js';
import { GroupCommitter } from './group-commit.js';
import { isPrecompiled, type DirectRunner } from './prepared.js';
import { withStatementCache } from './sqlite-statements.js';
import { WalSync } from './wal-sync.js';
import type { DB } from './schema.js';
import { DatabaseUnavailableError, ensureSqliteDirectory, postgresConnectReason, redactDatabaseUrl, sqliteOpenReason } from './unavailable.js';

export { DatabaseUnavailableError } from './unavailable.js';

export type Executor = Kysely<DB> | Transaction<DB>;

export interface Database {
  readonly dialect: DialectName;
  /** Writer (and default) handle. Inside a unit of work always use the handle it passes. */
  readonly db: Kysely<DB>;
  /** Read-only handle: a separate connection on SQLite (WAL readers never wait for the writer). */
  readonly read: Kysely<DB>;
  /** Path of the SQLite file, or null on PostgreSQL. */
  readonly sqlitePath: string | null;
  /** PostgreSQL schema the connection is confined to, when one was given. */
  readonly pgSchema: string | null;
  /**
   * Runs `work` as one atomic unit and settles after it is committed. SQLite: group commit on the
   * single writer (units arriving together share one transaction, each in its own savepoint).
   * PostgreSQL: a READ COMMITTED transaction each; the queries themselves lock what they change.
   * Inside `work` use only the handle it is given.
   */
  transaction<T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * `transaction` for a unit that runs exactly one statement, atomic by itself. PostgreSQL runs it
   * without BEGIN and COMMIT (one round trip instead of three); SQLite joins the group commit.
   */
  singleStatement<T>(work: (db: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * Runs compiled read-only SQL (see prepared.ts) on the read connection, skipping Kysely's
   * per-query building: SQLite runs its cached statement, PostgreSQL a named prepared statement.
   */
  readRows<R>(sql: string, parameters: readonly unknown[]): Promise<R[]>;
  /**
   * null when every commit is on disk; otherwise a promise of that. SQLite's group commit lets reads
   * see a commit while its fsync is still running (see WalSync): nothing read may leave the process
   * before this settles. PostgreSQL makes a commit visible only once it is durable: always null.
   */
  whenDurable(): Promise<void> | null;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** PostgreSQL schema to use (tests isolate themselves in one); created if missing. */
  pgSchema?: string;
  poolSize?: number;
  sqliteSynchronous?: SqliteSynchronous;
  /** SQLite: batch concurrent units into one transaction (default). false: one transaction each. */
  groupCommit?: boolean;
  /** SQLite, long-running processes: checkpoint the WAL from a worker thread (see checkpointer.ts). */
  backgroundCheckpoint?: { onError(message: string): void };
  /** SQLite: create the file's directory when it is missing (default: refuse, see ensureSqliteDirectory). */
  createDirectory?: boolean;
  /** PostgreSQL: how long the first connection may take before the server counts as unreachable. */
  connectTimeoutMs?: number;
}

/**
 * Opens the database, or throws DatabaseUnavailableError when it cannot be reached or opened: the
 * PostgreSQL server is asked once before anything else is done with it.
 */
export async function connect(databaseUrl: string, options: ConnectOptions = {}): Promise<Database> {
  if (databaseUrl.startsWith('sqlite:')) {
    return connectSqlite(databaseUrl, options);
  }
  return connectPostgres(databaseUrl, options);
}

function openSqlite(file: string, synchronous: SqliteSynchronous, readonly: boolean): SQLite.Database {
  const handle = new SQLite(file, { readonly: readonly && fs.existsSync(file) });
  handle.pragma('journal_mode = WAL');
  handle.pragma(`synchronous = ${synchronous}`);
  handle.pragma('busy_timeout = 5000');
  handle.pragma('foreign_keys = ON');
  return handle;
}

function openSqliteHandles(url: string, file: string, synchronous: SqliteSynchronous): [SQLite.Database, SQLite.Database] {
  let writer: SQLite.Database | undefined;
  try {
    writer = openSqlite(file, synchronous, false);
    return [writer, openSqlite(file, synchronous, true)];
  } catch (error) {
    writer?.close();
    throw new DatabaseUnavailableError('sqlite', url, sqliteOpenReason(path.resolve(file), error));
  }
}

function connectSqlite(url: string, options: ConnectOptions): Database {
  const file = url.slice('sqlite:'.length);
  const synchronous = options.sqliteSynchronous ?? 'FULL';
  ensureSqliteDirectory(url, path.resolve(file), options.createDirectory ?? false);
  const [writerHandle, readerHandle] = openSqliteHandles(url, file, synchronous);
  let checkpointer: BackgroundCheckpointer | null = null;
  if (options.backgroundCheckpoint) {
    writerHandle.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
    checkpointer = new BackgroundCheckpointer(path.resolve(file), options.backgroundCheckpoint.onError);
  }
  const writerStatements = withStatementCache(writerHandle);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: writerStatements }) });
  // What Kysely's SQLite connection does with a compiled query, without its executor around it.
  const runOnWriter: DirectRunner = (text, parameters) => {
    const statement = writerStatements.prepare(text);
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  };
  const readerStatements = withStatementCache(readerHandle);
  // FULL is kept with the fsync off the event loop (see WalSync); other levels are SQLite's own.
  const walSync = synchronous === 'FULL' ? new WalSync(`${path.resolve(file)}-wal`) : null;
  const read = new Kysely<DB>({ dialect: new SqliteDialect({ database: readerStatements }) });
  const committer = new GroupCommitter(db, {
    maxBatch: (options.groupCommit ?? true) ? 256 : 1,
    inTransaction: () => writerHandle.inTransaction,
    direct: runOnWriter,
    ...(walSync ? { walSync } : {}),
  });
  return {
    dialect: 'sqlite',
    db,
    read,
    sqlitePath: path.resolve(file),
    pgSchema: null,
    transaction: (work) => committer.run(work),
    singleStatement: (work) => committer.run(work),
    // better-sqlite3 runs the statement synchronously, so it cannot interleave with Kysely's use of the handle.
    readRows: <R>(text: string, parameters: readonly unknown[]) =>
      Promise.resolve(readerStatements.prepare(text).all(parameters) as R[]),
    whenDurable: () => (walSync?.behind ? walSync.durable() : null),
    async close() {
      // Syncs still running finish first: the writer's close may checkpoint and delete the WAL.
      await walSync?.close();
      await checkpointer?.close();
      await read.destroy();
      await db.destroy();
    },
  };
}

const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // int8 (bigint): pesewas and unix ms fit comfortably in a double.
    if (oid === 20) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

const statementNames = new Map<string, string>();

/** A PostgreSQL prepared statement's name, the same for the same text in every connection. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `q_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * One connection before the pool is made: the pool connects lazily, so an unreachable server would
 * otherwise surface as the first query's failure (a migration's, say). Creates `schema` if given.
 */
async function probePostgres(url: string, schema: string | undefined, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  const started = Date.now();
  try {
    await client.connect();
  } catch (error) {
    const reason = Date.now() - started >= timeoutMs ? `no answer within ${timeoutMs / 1000} s` : postgresConnectReason(error);
    throw new DatabaseUnavailableError('postgres', redactDatabaseUrl(url), reason);
  }
  try {
    if (schema) await client.query(`create schema if not exists ${schema}`);
  } finally {
    await client.end();
  }
}

async function connectPostgres(url: string, options: ConnectOptions): Promise<Database> {
  const schema = options.pgSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  await probePostgres(url, schema, options.connectTimeoutMs ?? 10_000);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: pgTypes,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // Statements compiled once (prepared.ts) run as named prepared statements: each connection
  // parses and plans one once instead of on every execution (~25 of them per purchase with the
  // worker's). Everything else runs unnamed, as Kysely sends it.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Every form of client.query passes through (pg's own pool.query calls it with a callback).
    const named = (config: unknown, ...rest: unknown[]) => {
      if (typeof config !== 'string' || !isPrecompiled(config)) return query(config, ...rest);
      const callback = rest.find((arg) => typeof arg === 'function');
      const values = typeof rest[0] === 'function' ? undefined : rest[0];
      const statement = { name: statementName(config), text: config, values };
      return callback === undefined ? query(statement) : query(statement, callback);
    };
    client.query = named as typeof client.query;
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    dialect: 'postgres',
    db,
    read: db,
    sqlitePath: null,
    pgSchema: schema ?? null,
    transaction: (work) => db.transaction().execute(work),
    singleStatement: (work) => work(db),
    whenDurable: () => null,
    async readRows<R>(text: string, parameters: readonly unknown[]) {
      const result = await pool.query({ name: statementName(text), text, values: [...parameters] });
      return result.rows as R[];
    },
    async close() {
      await db.destroy();
    },
  };
}
