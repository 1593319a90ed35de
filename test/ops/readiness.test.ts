import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import type { Database } from '../../src/db/connection.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { Lifecycle } from '../../src/ops/lifecycle.js';
import { startBootListener } from '../../src/ops/listeners.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, spawnCli } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { freePort, suiteProcesses } from '../support/ops.js';

describe(`GET /readyz (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();
  async function app(): Promise<TestApp> {
    const t = await createTestApp({ seed: null });
    apps.push(t);
    return t;
  }

  test('ready while serving; 503 stopping once shutdown began, while /healthz (liveness) stays 200', async () => {
    const t = await app();
    const lifecycle = new Lifecycle();
    const server = await buildApp(t.ctx, { lifecycle });
    try {
      const ready = await server.inject({ method: 'GET', url: '/readyz' });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.json(), { status: 'ready' });
      assert.equal(ready.headers['cache-control'], 'no-store');
      lifecycle.set('stopping');
      const stopping = await server.inject({ method: 'GET', url: '/readyz' });
      assert.equal(stopping.statusCode, 503);
      assert.deepEqual(stopping.json(), { status: 'stopping' });
      assert.equal((await server.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      lifecycle.set('ready');
      assert.equal(
        (await server.inject({ method: 'GET', url: '/readyz' })).statusCode,
        503,
        'a stopping process never turns ready again',
      );
    } finally {
      await server.close();
    }
  });

  test('probes write no info line: /readyz and /healthz log only warnings, other requests still log', async () => {
    const t = await app();
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const server = await buildApp(t.ctx, { logger });
    try {
      for (const url of ['/readyz', '/healthz', '/readyz']) assert.equal((await server.inject({ method: 'GET', url })).statusCode, 200);
      assert.equal(lines.length, 0, `no request line for a probe: ${lines.join('')}`);
      await server.inject({ method: 'GET', url: '/openapi.json' });
      assert.ok(lines.some((l) => l.includes('/openapi.json')), `other requests are logged: ${lines.join('')}`);
    } finally {
      await server.close();
    }
  });

  test('503 database_unreachable while the database fails or does not answer at all', async () => {
    const t = await app();
    for (const ping of [() => Promise.reject(new Error('connection refused')), () => new Promise<void>(() => {})]) {
      const database: Database = { ...t.database, ping };
      const server = await buildApp({ ...t.ctx, database });
      try {
        const res = await server.inject({ method: 'GET', url: '/readyz' });
        assert.equal(res.statusCode, 503);
        assert.deepEqual(res.json(), { status: 'database_unreachable' });
      } finally {
        await server.close();
      }
    }
  });

  test('the boot listener answers 503 migrating on /readyz and 503 in the envelope elsewhere', async () => {
    const port = await freePort();
    const boot = await startBootListener(loadConfig({ PORT: String(port), HOST: '127.0.0.1' }));
    try {
      const res = await fetch(`${boot.url}/readyz`);
      assert.equal(res.status, 503);
      assert.deepEqual(await res.json(), { status: 'migrating' });
      for (const url of ['/healthz', '/api/v1/profile']) {
        const other = await fetch(`${boot.url}${url}`);
        assert.equal(other.status, 503, url);
        assert.equal(((await other.json()) as { error: { code: string } }).error.code, 'INTERNAL_ERROR');
      }
    } finally {
      await boot.close();
    }
  });

  // better-sqlite3 waits for a lock synchronously (the event loop with it), so on SQLite a migration
  // held by another writer cannot be watched from outside; the boot listener is tested above.
  test(
    'cli serve answers 503 migrating while its migrations wait, then 200 ready',
    { skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only' },
    async () => {
      const t = await app();
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = cliDatabaseEnv(t.testDb);
      // Hold PostgreSQL's migration lock (the advisory lock Kysely's migrator takes) while serve starts.
      const client = new pg.Client({ connectionString: t.testDb.url });
      await client.connect();
      await client.query('select pg_advisory_lock(3853314791062309107)');
      const release = async () => {
        await client.query('select pg_advisory_unlock(3853314791062309107)');
        await client.end();
      };
      const serve = spawnCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKER: 'off' });
      children.push(serve);
      try {
        await serve.waitForOutput('running migrations');
        const waiting = await fetch(`${url}/readyz`).catch((error: unknown) =>
          assert.fail(`${String(error)}: ${serve.output()}`),
        );
        assert.equal(waiting.status, 503);
        assert.deepEqual(await waiting.json(), { status: 'migrating' });
        const api = await fetch(`${url}/api/v1/profile`);
        assert.equal(api.status, 503);
        assert.equal(((await api.json()) as { success: boolean }).success, false);
        assert.equal((await fetch(`${url}/healthz`)).status, 503, 'not alive as the API until migrated (docs/deployment.md, "Probes")');
      } finally {
        await release();
      }
      await serve.waitForOutput('partner-api listening');
      const ready = await waitFor('readyz to answer 200', async () => {
        const res = await fetch(`${url}/readyz`).catch(() => null);
        return res?.status === 200 ? res : undefined;
      });
      assert.deepEqual(await ready.json(), { status: 'ready' });
      serve.child.kill('SIGTERM');
      assert.equal(await serve.exited(), 0, serve.output());
    },
  );
});
