import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Command } from 'commander';
import type { Config } from '../../config.js';
import { CliError, loadConfigOrExit } from '../runtime.js';
import type { CliIo } from '../io.js';

function sqlitePathOf(config: Config, command: string): string {
  if (!config.databaseUrl.startsWith('sqlite:')) {
    throw new CliError(
      `${command} replaces SQLite databases; on PostgreSQL restore a dump with pg_restore, with the CREDENTIALS_KEY it was taken with (docs/deployment.md)`,
    );
  }
  return path.resolve(config.databaseUrl.slice('sqlite:'.length));
}

/**
 * The directory whose credentials.key a database uses when CREDENTIALS_KEY is not set: the SQLite
 * file's, or ./data on PostgreSQL (as credentialsCipher in src/context.ts).
 */
function keyDirOf(config: Config): string {
  return config.databaseUrl.startsWith('sqlite:') ? path.dirname(path.resolve(config.databaseUrl.slice('sqlite:'.length))) : path.resolve('data');
}

/** The credentials key a database uses: CREDENTIALS_KEY, or credentials.key in `keyDir`. */
function credentialsKeyOf(config: Config, keyDir: string): { fingerprint: string; source: string } | null {
  let key: Buffer;
  let source: string;
  if (config.credentialsKey) {
    key = Buffer.from(config.credentialsKey, 'base64');
    source = 'CREDENTIALS_KEY';
  } else {
    const file = path.join(keyDir, 'credentials.key');
    if (!fs.existsSync(file)) return null;
    key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
    source = file;
  }
  return { fingerprint: `sha256:${createHash('sha256').update(key).digest('hex').slice(0, 16)}`, source };
}

function integrityOf(file: string): string {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return String(db.pragma('integrity_check', { simple: true }));
  } finally {
    db.close();
  }
}

/** A manifest written beside each backup: when, of what, and which credentials key it needs. */
interface Manifest {
  createdAt: string;
  source: string;
  credentialsKey: { fingerprint: string; source: string } | null;
}

/** The copy being written and SQLite's files beside it: none is left behind, whatever happens. */
function removePartial(partial: string): void {
  for (const f of [partial, `${partial}-wal`, `${partial}-shm`, `${partial}-journal`]) fs.rmSync(f, { force: true });
}

/**
 * Backs up the database of DATABASE_URL to `target` (mode 0600) with a manifest naming the
 * credentials key it needs. SQLite: an online copy (`pages` copied); PostgreSQL: `pg_dump -Fc`
 * (`pages` null). The copy is written under `<target>.partial` and renamed once complete and
 * checked; on any failure nothing is left (no `.partial`, `-wal`, `-shm` or `-journal` file).
 */
export async function backup(config: Config, target: string): Promise<{ file: string; manifest: Manifest; pages: number | null }> {
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw new CliError(`backup: ${file} exists; choose a new file`);
  const partial = `${file}.partial`;
  removePartial(partial);
  let source: string;
  let pages: number | null = null;
  try {
    if (config.databaseUrl.startsWith('sqlite:')) {
      source = sqlitePathOf(config, 'backup');
      pages = await sqliteCopy(source, partial);
    } else {
      source = shownUrl(config.databaseUrl);
      await pgDump(config.databaseUrl, partial);
    }
    fs.renameSync(partial, file);
  } finally {
    removePartial(partial);
  }
  const manifest: Manifest = { createdAt: new Date().toISOString(), source, credentialsKey: credentialsKeyOf(config, keyDirOf(config)) };
  fs.writeFileSync(`${file}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { file, manifest, pages };
}

/** A PostgreSQL URL without its password, as messages and the manifest show it. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

/** SQLite's online copy of `source` into `partial`, checked; the number of pages copied. */
async function sqliteCopy(source: string, partial: string): Promise<number> {
  if (!fs.existsSync(source)) throw new CliError(`backup: no database at ${source}`);
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  let pages: number;
  try {
    // The copy holds everything the database does: readable by the owner only (SQLite would create it 0644).
    fs.closeSync(fs.openSync(partial, 'wx', 0o600));
    db.pragma('busy_timeout = 5000');
    // One step copies every page inside one read transaction: a consistent snapshot even while the
    // service writes (a WAL reader never waits for the writer, and the copy is never restarted).
    const result = await db.backup(partial, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
    pages = result.totalPages;
  } catch (error) {
    throw new CliError(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    db.close();
  }
  // The copy says WAL like its source: opening it would leave -wal and -shm files beside it. A copy
  // in rollback-journal mode is one file (the service switches it back to WAL when it opens it).
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
  const integrity = integrityOf(partial);
  if (integrity !== 'ok') throw new CliError(`backup: the copy failed its integrity check: ${integrity}`);
  return pages;
}

/**
 * `pg_dump -Fc` of `url` into `partial`, created 0600 before pg_dump writes a byte (its own
 * --file would follow the umask). The connection is given to pg_dump by the PG* variables, so
 * the password is never on its command line.
 */
async function pgDump(url: string, partial: string): Promise<void> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError('backup: DATABASE_URL is not a valid postgres:// URL');
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: decodeURIComponent(u.hostname) || 'localhost',
    PGPORT: u.port || '5432',
    PGDATABASE: decodeURIComponent(u.pathname.replace(/^\//, '')),
    PGCONNECT_TIMEOUT: '10',
    ...(u.username ? { PGUSER: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { PGPASSWORD: decodeURIComponent(u.password) } : {}),
    ...(u.searchParams.get('sslmode') ? { PGSSLMODE: u.searchParams.get('sslmode') ?? '' } : {}),
  };
  const fd = fs.openSync(partial, 'wx', 0o600);
  try {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn('pg_dump', ['--format=custom', '--no-password'], { env, stdio: ['ignore', fd, 'pipe'] });
      let stderr = '';
      child.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()));
      child.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new CliError(
            error.code === 'ENOENT'
              ? 'backup: pg_dump was not found on the PATH: install the PostgreSQL client tools (the version of the server or newer)'
              : `backup: pg_dump could not start: ${error.message}`,
          ),
        ),
      );
      child.once('close', (exit) => resolve({ code: exit, stderr }));
    });
    if (code !== 0) throw new CliError(`backup failed: pg_dump exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' ')}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether another connection has the database open (switching it out of WAL needs it alone). */
function inUse(file: string): boolean {
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('journal_mode = DELETE');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

/**
 * The credentials key the restored data needs, checked before anything is replaced: CREDENTIALS_KEY,
 * or credentials.key beside the database, with the backup's fingerprint (its manifest's). Without a
 * key the service would make a new one beside the restored data, and nothing sealed with the
 * backup's (result-checker credentials, stored answers, webhook secrets) could be read again.
 */
function checkRestoreKey(config: Config, target: string, manifest: Manifest | null): { fingerprint: string; source: string } {
  const needed = manifest?.credentialsKey?.fingerprint ?? null;
  const have = credentialsKeyOf(config, path.dirname(target));
  const keyFile = path.join(path.dirname(target), 'credentials.key');
  if (!have) {
    throw new CliError(
      `restore: refused, nothing replaced: no credentials key. Set CREDENTIALS_KEY to the backup's key${needed ? ` (${needed})` : ''}, or put it in ${keyFile}; without it a new key would be made and the backup's sealed data (result-checker credentials) could not be read`,
    );
  }
  if (needed && have.fingerprint !== needed) {
    throw new CliError(
      `restore: refused, nothing replaced: the credentials key ${have.fingerprint} (from ${have.source}) is not the backup's ${needed}. Set CREDENTIALS_KEY (or ${keyFile}) to the key the backup was taken with`,
    );
  }
  return have;
}

export function restore(
  config: Config,
  backupFile: string,
): { file: string; manifest: Manifest | null; key: { fingerprint: string; source: string } } {
  const target = sqlitePathOf(config, 'restore');
  const from = path.resolve(backupFile);
  if (!fs.existsSync(from)) throw new CliError(`restore: no backup at ${from}`);
  const manifestFile = `${from}.manifest.json`;
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  const key = checkRestoreKey(config, target, manifest);
  const integrity = integrityOf(from);
  if (integrity !== 'ok') throw new CliError(`restore: ${from} failed its integrity check: ${integrity}`);
  if (fs.existsSync(target) && inUse(target)) {
    throw new CliError(`restore: ${target} is in use (a serve or worker process has it open); stop them first`);
  }
  const partial = `${target}.restoring`;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  fs.copyFileSync(from, partial);
  // copyFile gives the copy the backup's mode; the database is the owner's only, like a new one.
  fs.chmodSync(partial, 0o600);
  for (const stale of [`${target}-wal`, `${target}-shm`]) fs.rmSync(stale, { force: true });
  fs.renameSync(partial, target);
  return { file: target, manifest, key };
}

export function register(program: Command, io: CliIo): void {
  program
    .command('backup <file>')
    .description(
      'consistent online copy of the database, mode 0600 (SQLite: its backup API; PostgreSQL: pg_dump -Fc); names the credentials key it needs',
    )
    .action(async (target: string) => {
      const config = loadConfigOrExit(io.env);
      const { file, manifest, pages } = await backup(config, target);
      io.out(`backup: ${manifest.source} → ${file} (${pages === null ? 'pg_dump custom format' : `${pages} pages, integrity ok`})`);
      if (manifest.credentialsKey) {
        io.out(`credentials key: ${manifest.credentialsKey.fingerprint} (from ${manifest.credentialsKey.source})`);
        io.out('keep that key with the backup: without it the result-checker credentials in it cannot be decrypted');
      } else {
        io.out('credentials key: none found (no CREDENTIALS_KEY and no credentials.key beside the database)');
      }
      io.out(`manifest: ${file}.manifest.json`);
    });

  program
    .command('restore <backup>')
    .description(
      "SQLite: replace the database named by DATABASE_URL with a backup; refuses while a process has it open, and without the backup's credentials key",
    )
    .action((from: string) => {
      const config = loadConfigOrExit(io.env);
      const { file, manifest, key } = restore(config, from);
      io.out(`restore: ${path.resolve(from)} → ${file}`);
      io.out(
        manifest?.credentialsKey
          ? `the backup needs credentials key ${manifest.credentialsKey.fingerprint}; configured now: ${key.fingerprint} (from ${key.source})`
          : `the backup names no credentials key (no manifest, or none was found when it was taken); configured now: ${key.fingerprint} (from ${key.source})`,
      );
    });
}
