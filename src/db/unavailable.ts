import fs from 'node:fs';
import path from 'node:path';
import type { DialectName } from './dialect.js';

/**
 * The database a URL names cannot be reached (PostgreSQL) or opened (SQLite). `shownUrl` is the URL
 * with its password hidden, `reason` the underlying cause in words.
 */
export class DatabaseUnavailableError extends Error {
  constructor(
    readonly engine: DialectName,
    readonly shownUrl: string,
    readonly reason: string,
  ) {
    super(`cannot ${engine === 'postgres' ? 'reach' : 'open'} the database ${shownUrl}: ${reason}`);
    this.name = 'DatabaseUnavailableError';
  }
}

const SECRET_PARAMETERS = ['password', 'sslpassword'];

/** The URL as given, with a password (in the user part or as a query parameter) replaced by ***. */
export function redactDatabaseUrl(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '(an unparseable URL)';
  }
  if (parsed.password) parsed.password = '***';
  for (const name of SECRET_PARAMETERS) {
    if (parsed.searchParams.has(name)) parsed.searchParams.set(name, '***');
  }
  return parsed.toString();
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

interface ErrorLike {
  message?: unknown;
  code?: unknown;
  errors?: unknown;
}

/** Why a PostgreSQL connection attempt failed, in one line. */
export function postgresConnectReason(error: unknown): string {
  const e = (error ?? {}) as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : undefined;
  let message = typeof e.message === 'string' ? e.message : String(error);
  // Node reports a host with several addresses (localhost: ::1 and 127.0.0.1) as an AggregateError without a message.
  if (!message && Array.isArray(e.errors)) message = e.errors.map((inner: ErrorLike) => String(inner.message)).join('; ');
  const words = code ? NETWORK_REASONS[code] : undefined;
  if (words) return `${words} (${message || code})`;
  return message.replace(/\s+/g, ' ').trim() || code || 'unknown error';
}

/**
 * A SQLite database's directory must exist: a typo in DATABASE_URL would otherwise create a new,
 * empty database somewhere unexpected. Only the default location's directory is created.
 */
export function ensureSqliteDirectory(shownUrl: string, file: string, create: boolean): void {
  const dir = path.dirname(file);
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch {
    stat = undefined;
  }
  if (stat?.isDirectory()) return;
  if (stat) throw new DatabaseUnavailableError('sqlite', shownUrl, `${dir} is not a directory`);
  if (!create) {
    throw new DatabaseUnavailableError(
      'sqlite',
      shownUrl,
      `directory ${dir} does not exist; create it first (only the default ./data is created automatically)`,
    );
  }
  try {
    // Only the service's user may enter it: it holds the database and the generated credentials key.
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DatabaseUnavailableError('sqlite', shownUrl, `cannot create directory ${dir} (${(error as Error).message})`);
  }
}

function canAccess(file: string, mode: number): boolean {
  try {
    fs.accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

/** Why SQLite could not open (or set up) `file`, in one line. */
export function sqliteOpenReason(file: string, error: unknown): string {
  const code = (error as ErrorLike | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) return `${file} is a directory, not a database file`;
  if (code === 'SQLITE_NOTADB') return `${file} is not a SQLite database (${message})`;
  if (fs.existsSync(file) && !canAccess(file, fs.constants.R_OK | fs.constants.W_OK)) {
    return `no permission to read and write ${file} (${message})`;
  }
  const dir = path.dirname(file);
  // WAL mode creates the -wal and -shm files beside the database.
  if (!canAccess(dir, fs.constants.W_OK)) return `no permission to write in ${dir} (${message})`;
  return typeof code === 'string' ? `${message} (${code})` : message;
}
