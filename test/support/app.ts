import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { TestContext } from 'node:test';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { loadConfig, type Config } from '../../src/config.js';
import { createContext, type AppContext } from '../../src/context.js';
import { connect, type Database } from '../../src/db/connection.js';
import { buildApp } from '../../src/app.js';
import { createLogger } from '../../src/logging.js';
import type { Mode } from '../../src/domain/types.js';
import type { ReferenceSource } from '../../src/lib/ids.js';
import { CredentialCipher } from '../../src/modules/result-checker/credential-crypto.js';
import { parseSeed } from '../../src/seed/import.js';
import { copySqliteTemplate, createPostgresTestDatabase } from './database-template.js';
import { responseViolation } from './openapi.js';
import { FIXTURE_SEED } from './seed.js';

/** Which engine this run tests: TEST_DB=postgres uses TEST_DATABASE_URL, anything else SQLite. */
export const TEST_DIALECT = process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

export interface TestDatabase {
  database: Database;
  /** Where a second connection (another process or worker) opens the same database. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database of its own: a temp SQLite file, or a new PostgreSQL database, each a
 * copy of a template migrated once per version of the migrations (test/support/database-template.ts).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DIALECT === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    const created = await createPostgresTestDatabase(serverUrl);
    const database = await connect(created.url, { poolSize: 12 });
    return {
      database,
      url: created.url,
      async drop() {
        await database.close();
        await created.drop();
      },
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-test-'));
  const file = path.join(dir, 'test.db');
  await copySqliteTemplate(file);
  const url = `sqlite:${file}`;
  const database = await connect(url);
  return {
    database,
    url,
    async drop() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestAppOptions {
  /** Seed to import: the fixture by default, null for none, or a path / parsed object. */
  seed?: string | object | null;
  /** Extra environment for the config (e.g. SANDBOX_SETTLE_MS). */
  env?: Record<string, string>;
  /** The services' short-reference source (default: the real one). */
  references?: ReferenceSource;
  /** The services' clock (default: Date.now). */
  clock?: () => number;
}

export interface CallResult {
  status: number;
  // Response bodies are whatever the API sent; tests assert on them field by field.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Record<string, unknown>;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  testDb: TestDatabase;
  database: Database;
  /** The credentials key (base64) the app seals with. */
  credentialsKey: string;
  /**
   * One request through the app (inject). The answer is checked against the OpenAPI document the
   * app serves (test/support/openapi.ts): an undocumented status or a body that breaks its schema
   * throws, failing the test that made the call.
   */
  call(
    method: InjectOptions['method'],
    url: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<CallResult>;
  /** Wallet balances in pesewas. */
  wallet(profileId: string, mode: Mode): Promise<{ available: number; held: number }>;
  close(): Promise<void>;
}

/** A logger that drops everything, for the services and workers a test builds in its own process. */
export const silentLog = { info() {}, warn() {}, error() {} };

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  // Suites send hundreds of bad keys from one address and poll in tight loops: both limits have tests of their own.
  const config = loadConfig({
    DATABASE_URL: testDb.url,
    LOG_LEVEL: 'silent',
    SANDBOX_SETTLE_MS: '50',
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_AUTH_FAILURES: '0',
    ...options.env,
  });
  // The key CLI processes of the test get too (cliEnv), so they can open what this app sealed.
  const credentialsKey = options.env?.CREDENTIALS_KEY ?? randomBytes(32).toString('base64');
  const cipher = new CredentialCipher(Buffer.from(credentialsKey, 'base64'));
  const ctx = createContext(config, testDb.database, silentLog, cipher, {
    ...(options.references ? { references: options.references } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const seed = options.seed === undefined ? FIXTURE_SEED : options.seed;
  if (seed !== null) {
    const text = typeof seed === 'string' ? fs.readFileSync(seed, 'utf8') : JSON.stringify(seed);
    await ctx.seeds.import(parseSeed(text));
  }
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    credentialsKey,
    ctx,
    config,
    testDb,
    database: testDb.database,
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key !== undefined) headers['x-api-key'] = opts.key;
      const res = await app.inject({
        method,
        url,
        headers,
        ...(opts.body === undefined ? {} : { payload: opts.body as InjectOptions['payload'] }),
      });
      let body: unknown = res.body;
      try {
        body = res.json();
      } catch {
        // not JSON; tests see the raw text
      }
      // Every answer the suite receives must match the OpenAPI document the app serves.
      const violation = await responseViolation(app.swagger(), {
        method: String(method),
        url,
        status: res.statusCode,
        contentType: res.headers['content-type'] as string | undefined,
        body,
      });
      if (violation) throw new Error(violation);
      return { status: res.statusCode, body, headers: res.headers };
    },
    async wallet(profileId, mode) {
      const row = await testDb.database.db
        .selectFrom('wallets')
        .select(['available', 'held'])
        .where('profile_id', '=', profileId)
        .where('mode', '=', mode)
        .executeTakeFirstOrThrow();
      return { available: row.available, held: row.held };
    },
    async close() {
      await app.close();
      await testDb.drop();
    },
  };
}

/**
 * createTestApp for one test, closed when it ends. For a suite sharing one app use
 * `before(async () => { t = await createTestApp(); }); after(() => t.close());`.
 */
export async function useTestApp(t: TestContext, options?: TestAppOptions) {
  const testApp = await createTestApp(options);
  t.after(() => testApp.close());
  return testApp;
}

/** An app on `t`'s context that logs at info into `lines` (JSON, redacted as the process logger does); the caller closes it. */
export async function appWithLogLines(t: TestApp): Promise<{ app: FastifyInstance; lines: string[] }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { app: await buildApp(t.ctx, { logger: createLogger('info', sink) }), lines };
}
