import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { connect } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ROOT } from './repo.js';

/**
 * A migrated database is made once per version of the migrations and copied for each test, instead
 * of running every migration for each of the suite's few hundred databases: SQLite copies a
 * migrated file, PostgreSQL creates each test's database from a migrated template database
 * (`CREATE DATABASE … TEMPLATE`, a copy of its files). Both are named by a hash of the migration
 * code (src/db/migrate.ts and src/db/migrations/), so a changed migration makes a new template.
 */

/** A hash of everything that decides the migrated schema. */
function migrationsHash(): string {
  const hash = createHash('sha256');
  const dir = path.join(ROOT, 'src/db/migrations');
  for (const file of [path.join(ROOT, 'src/db/migrate.ts'), ...fs.readdirSync(dir).sort().map((name) => path.join(dir, name))]) {
    hash.update(path.basename(file)).update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

let hashOfThisRun: string | undefined;
const templateHash = () => (hashOfThisRun ??= migrationsHash());

/** Where the SQLite template of the current migrations is kept (os.tmpdir(): it outlives a run). */
export function sqliteTemplatePath(): string {
  return path.join(os.tmpdir(), `partner-api-test-template-${templateHash()}.db`);
}

/**
 * The SQLite template, made if missing: migrated in a scratch file, written out whole by VACUUM
 * INTO (one file, no WAL beside it) and renamed into place, so a test file running at the same
 * time sees either no template or a complete one.
 */
async function sqliteTemplate(): Promise<string> {
  const template = sqliteTemplatePath();
  if (fs.existsSync(template)) return template;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-template-'));
  try {
    const database = await connect(`sqlite:${path.join(scratch, 'migrating.db')}`);
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
    const whole = path.join(scratch, 'template.db');
    const handle = new SQLite(path.join(scratch, 'migrating.db'));
    try {
      handle.prepare('vacuum into ?').run(whole);
    } finally {
      handle.close();
    }
    fs.renameSync(whole, template);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return template;
}

/** A copy of the migrated SQLite template as `file` (mode 0600, as connect() creates a new database). */
export async function copySqliteTemplate(file: string): Promise<void> {
  fs.copyFileSync(await sqliteTemplate(), file);
  fs.chmodSync(file, 0o600);
}

/** The test databases of this run are named with this prefix (scripts/run-tests.mjs drops any left behind). */
export function postgresTestDatabasePrefix(): string {
  const run = (process.env.TEST_RUN_ID ?? 'adhoc').replace(/[^a-z0-9]/g, '');
  return `partner_api_t_${run}_`;
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

/** One connection to the server's maintenance database (TEST_DATABASE_URL's), for CREATE and DROP DATABASE. */
async function withAdmin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The PostgreSQL template of the current migrations, made if missing: under an advisory lock (one
 * test process makes it, the others wait for it), migrated under a scratch name and renamed, so
 * that it exists only complete; connections to it are then refused (a template must have none).
 */
async function postgresTemplate(admin: pg.Client, url: string): Promise<string> {
  const name = `partner_api_template_${templateHash()}`;
  const exists = async () => (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (await exists()) return name;
  const lock = 720_400; // any number of this suite's own
  await admin.query('select pg_advisory_lock($1)', [lock]);
  try {
    if (await exists()) return name;
    const scratch = `${name}_making`;
    await admin.query(`drop database if exists ${scratch} with (force)`);
    await admin.query(`create database ${scratch}`);
    const database = await connect(withDatabase(url, scratch), { poolSize: 2 });
    try {
      await migrateToLatest(database);
    } finally {
      await database.close();
    }
    await admin.query(`alter database ${scratch} rename to ${name}`);
    await admin.query(`alter database ${name} with allow_connections false`);
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [lock]);
  }
}

/**
 * Drops a test's database once its connections are gone. A closed pool has sent each connection
 * its Terminate without waiting for the server to end it (pg-pool's end()), so the server may still
 * count them for a moment: the drop waits for them (2 s at most) rather than kill them, as a
 * connection killed while its client ends may throw in the test's process. Whatever is still
 * connected then (a process the test started, still running) is ended by WITH (FORCE).
 */
async function dropDatabase(admin: pg.Client, name: string): Promise<void> {
  const connected = async () =>
    Number((await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name])).rows[0]?.n ?? 0);
  const until = Date.now() + 2_000;
  while ((await connected()) > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  await admin.query(`drop database if exists ${name} with (force)`);
}

/**
 * A new PostgreSQL database for one test, a copy of the migrated template, with its commits
 * acknowledged before they are flushed (synchronous_commit off: a test database only, set on it
 * alone). Returns its URL and its drop.
 */
export async function createPostgresTestDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${postgresTestDatabasePrefix()}${randomBytes(6).toString('hex')}`;
  await withAdmin(url, async (admin) => {
    const template = await postgresTemplate(admin, url);
    await admin.query(`create database ${name} template ${template}`);
    await admin.query(`alter database ${name} set synchronous_commit = off`);
  });
  return {
    url: withDatabase(url, name),
    // WITH (FORCE): a process the test started (a CLI worker) may still be connected.
    drop: () => withAdmin(url, (admin) => dropDatabase(admin, name)),
  };
}
