import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { SqliteSynchronous } from '../config.js';
import type { DialectName } from './dialect.js';
import { BackgroundCheckpointer, WRITER_AUTOCHECKPOINT_PAGES } from './checkpointer.js';
import { GroupCommitter } from './group-commit.js';
import type { DB } from './schema.js';
import { withStatementCache } from './sqlite-statements.js';
import { Statements, type Bound } from './statements.js';
import { inUnit, type DirectRunner, type Tx } from './unit-of-work.js';
import { WalSync } from './wal-sync.js';
import {
  DatabaseUnavailableError,
  ensureSqliteDirectory,
  postgresConnectReason,
  redactDatabaseUrl,
  sqliteOpenReason,
} from './unavailable.js';

export { DatabaseUnavailableError } from './unavailable.js';

export interface Database {
  readonly dialect: DialectName;
  /** The SQL of this database's repositories, compiled once (see statements.ts). */
  readonly statements: Statements;
  /** Writer (and default) handle, for migrations and tests. Services work through units of work. */
  readonly db: Kysely<DB>;
  /** Read-only handle: a separate connection on SQLite (WAL readers never wait for the writer). */
  readonly read: Kysely<DB>;
  /** Path of the SQLite file, or null on PostgreSQL. */
  readonly sqlitePath: string | null;
  /** PostgreSQL schema the connection is confined to, when one was given. */
  readonly pgSchema: string | null;
  /**
   * Runs `work` as one atomic unit of work (see Tx) and settles after it is committed. SQLite:
   * group commit on the single writer (units arriving together share one transaction, each in its
   * own savepoint). PostgreSQL: a READ COMMITTED transaction each; the queries themselves lock what
   * they change.
   */
  unit<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * `unit` for a unit that runs exactly one statement, atomic by itself. PostgreSQL runs it
   * without BEGIN and COMMIT (one round trip instead of three); SQLite joins the group commit.
   */
  singleStatement<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /** Reads on one consistent snapshot (PostgreSQL: REPEATABLE READ, read only; SQLite: one read transaction). */
  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Runs a compiled read (see statements.ts) on the read connection, skipping Kysely's per-query
   * building: SQLite runs its cached statement, PostgreSQL a named prepared statement.
   */
  readRows<R>(statement: Bound<R>): Promise<R[]>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /**
   * null when every commit is on disk; otherwise a promise of that. SQLite's group commit lets reads
   * see a commit while its fsync is still running (see WalSync): nothing read may leave the process
   * before this settles. PostgreSQL makes a commit visible only once it is durable: always null.
   */
  whenDurable(): Promise<void> | null;
  /** Sets what is told of group commits and WAL syncs (SQLite; nothing on PostgreSQL). One observer at a time. */
  observe(observer: DatabaseObserver): void;
  /** PostgreSQL: the pool's connections now; null on SQLite. */
  poolUsage(): PoolUsage | null;
  close(): Promise<void>;
}

/** What the database reports for metrics (set from the composition root; no metrics library here). */
export interface DatabaseObserver {
  /** A group commit ran `units` units of work in one transaction, taking `seconds` from BEGIN to COMMIT. */
  groupCommit?(units: number, seconds: number): void;
  /** An fdatasync of the WAL took `seconds`. */
  walSync?(seconds: number): void;
}

export interface PoolUsage {
  /** Connections open (busy or idle), the idle ones, requests waiting for one, and the pool's maximum. */
  total: number;
  idle: number;
  waiting: number;
  max: number;
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
  // The writer's statement journal (the first image of each page a unit's savepoint changes, see
  // group-commit.ts) stays in memory instead of spilling to a temporary file past 64 KiB, two write
  // calls a page: docs/performance.md, "The statement journal in memory". It lives until the
  // transaction ends: at most the pages a group's units change, a few MB under load.
  if (!readonly) handle.pragma('temp_store = MEMORY');
  return handle;
}

/**
 * A new database file is created empty with mode 0600 before SQLite opens it: SQLite would create
 * it readable by everyone (0644 under the usual umask), and it gives its -wal and -shm files the
 * database file's mode. An existing file keeps its mode.
 */
function createPrivately(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch {
    // It exists, or cannot be created: SQLite's own open then says why not.
  }
}

function openSqliteHandles(url: string, file: string, synchronous: SqliteSynchronous): [SQLite.Database, SQLite.Database] {
  let writer: SQLite.Database | undefined;
  try {
    createPrivately(file);
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
    const checkpoint = options.backgroundCheckpoint;
    checkpointer = new BackgroundCheckpointer(path.resolve(file), (message) => checkpoint.onError(message));
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
  const observer: { current: DatabaseObserver } = { current: {} };
  const walSync =
    synchronous === 'FULL'
      ? new WalSync(`${path.resolve(file)}-wal`, undefined, (seconds) => observer.current.walSync?.(seconds))
      : null;
  const read = new Kysely<DB>({ dialect: new SqliteDialect({ database: readerStatements }) });
  const committer = new GroupCommitter(db, {
    maxBatch: (options.groupCommit ?? true) ? 256 : 1,
    inTransaction: () => writerHandle.inTransaction,
    direct: runOnWriter,
    ...(walSync ? { walSync } : {}),
    onBatch: (units, seconds) => observer.current.groupCommit?.(units, seconds),
  });
  const statements = new Statements(db, 'sqlite');
  // A unit's statements run directly on the writer: the same connection, in the same transaction.
  const unit = <T>(work: (tx: Tx) => Promise<T>) => committer.run((conn) => inUnit(conn, statements, runOnWriter, work));
  return {
    dialect: 'sqlite',
    statements,
    db,
    read,
    sqlitePath: path.resolve(file),
    pgSchema: null,
    unit,
    singleStatement: unit,
    snapshot: (work) => read.transaction().execute((trx) => inUnit(trx, statements, null, work)),
    // better-sqlite3 runs the statement synchronously, so it cannot interleave with Kysely's use of the handle.
    readRows: <R>(statement: Bound<R>) =>
      Promise.resolve(readerStatements.prepare(statement.sql).all(statement.parameters) as R[]),
    async ping() {
      await sql`select 1`.execute(read);
    },
    whenDurable: () => (walSync?.behind ? walSync.durable() : null),
    observe(next) {
      observer.current = next;
    },
    poolUsage: () => null,
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
    return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
  },
};

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
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const statements = new Statements(db, 'postgres');
  // Statements compiled once (statements.ts) run as named prepared statements: each connection
  // parses and plans one once instead of on every execution (~25 of them per purchase with the
  // worker's). Everything else runs unnamed, as Kysely sends it.
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Every form of client.query passes through (pg's own pool.query calls it with a callback).
    const named = (config: unknown, ...rest: unknown[]) => {
      if (typeof config !== 'string' || !statements.isPrecompiled(config)) return query(config, ...rest);
      const callback = rest.find((arg) => typeof arg === 'function');
      const values = typeof rest[0] === 'function' ? undefined : rest[0];
      const statement = { name: statements.nameOf(config), text: config, values };
      return callback === undefined ? query(statement) : query(statement, callback);
    };
    client.query = named as typeof client.query;
  });
  return {
    dialect: 'postgres',
    statements,
    db,
    read: db,
    sqlitePath: null,
    pgSchema: schema ?? null,
    unit: (work) => db.transaction().execute((trx) => inUnit(trx, statements, null, work)),
    singleStatement: (work) => inUnit(db, statements, null, work),
    snapshot: (work) =>
      db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((trx) => inUnit(trx, statements, null, work)),
    whenDurable: () => null,
    async readRows<R>(statement: Bound<R>) {
      const result = await pool.query({
        name: statements.nameOf(statement.sql),
        text: statement.sql,
        values: [...statement.parameters],
      });
      return result.rows as R[];
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    observe() {},
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
    async close() {
      await db.destroy();
    },
  };
}
