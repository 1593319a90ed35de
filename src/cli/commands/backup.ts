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
      `${command} copies SQLite databases; on PostgreSQL use pg_dump / pg_restore and keep CREDENTIALS_KEY with the dump (docs/deployment.md)`,
    );
  }
  return path.resolve(config.databaseUrl.slice('sqlite:'.length));
}

/** The credentials key a database of `databaseFile` uses: CREDENTIALS_KEY, or credentials.key beside it. */
function credentialsKeyOf(config: Config, databaseFile: string): { fingerprint: string; source: string } | null {
  let key: Buffer;
  let source: string;
  if (config.credentialsKey) {
    key = Buffer.from(config.credentialsKey, 'base64');
    source = 'CREDENTIALS_KEY';
  } else {
    const file = path.join(path.dirname(databaseFile), 'credentials.key');
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

export async function backup(config: Config, target: string): Promise<{ file: string; manifest: Manifest; pages: number }> {
  const source = sqlitePathOf(config, 'backup');
  if (!fs.existsSync(source)) throw new CliError(`backup: no database at ${source}`);
  const file = path.resolve(target);
  if (fs.existsSync(file)) throw new CliError(`backup: ${file} exists; choose a new file`);
  const partial = `${file}.partial`;
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  let pages = 0;
  try {
    // The copy holds everything the database does: readable by the owner only (SQLite would create it 0644).
    fs.rmSync(partial, { force: true });
    fs.closeSync(fs.openSync(partial, 'wx', 0o600));
    db.pragma('busy_timeout = 5000');
    // One step copies every page inside one read transaction: a consistent snapshot even while the
    // service writes (a WAL reader never waits for the writer, and the copy is never restarted).
    const result = await db.backup(partial, { progress: ({ remainingPages }) => Math.max(remainingPages, 1) });
    pages = result.totalPages;
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw new CliError(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    db.close();
  }
  const integrity = integrityOf(partial);
  if (integrity !== 'ok') {
    fs.rmSync(partial, { force: true });
    throw new CliError(`backup: the copy failed its integrity check: ${integrity}`);
  }
  fs.renameSync(partial, file);
  const manifest: Manifest = { createdAt: new Date().toISOString(), source, credentialsKey: credentialsKeyOf(config, source) };
  fs.writeFileSync(`${file}.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return { file, manifest, pages };
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

export function restore(config: Config, backupFile: string): { file: string; manifest: Manifest | null } {
  const target = sqlitePathOf(config, 'restore');
  const from = path.resolve(backupFile);
  if (!fs.existsSync(from)) throw new CliError(`restore: no backup at ${from}`);
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
  const manifestFile = `${from}.manifest.json`;
  const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : null;
  return { file: target, manifest };
}

export function register(program: Command, io: CliIo): void {
  program
    .command('backup <file>')
    .description(
      'SQLite: consistent online copy of the database (safe while the service runs); names the credentials key it needs',
    )
    .action(async (target: string) => {
      const config = loadConfigOrExit(io.env);
      const { file, manifest, pages } = await backup(config, target);
      io.out(`backup: ${manifest.source} → ${file} (${pages} pages, integrity ok)`);
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
    .description('SQLite: replace the database named by DATABASE_URL with a backup; refuses while a process has it open')
    .action((from: string) => {
      const config = loadConfigOrExit(io.env);
      const { file, manifest } = restore(config, from);
      io.out(`restore: ${path.resolve(from)} → ${file}`);
      const now = credentialsKeyOf(config, file);
      if (manifest?.credentialsKey) {
        io.out(
          `the backup needs credentials key ${manifest.credentialsKey.fingerprint}; configured now: ${now?.fingerprint ?? 'none'}`,
        );
        if (now && now.fingerprint !== manifest.credentialsKey.fingerprint) {
          io.out(
            "WARNING: the configured key is not the backup's: set CREDENTIALS_KEY (or credentials.key) to the backup's key",
          );
        }
      }
    });
}
