import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { deliveryInvariants, freePort, loadTestApp, openOrders, purchaseLoad, suiteProcesses } from '../support/ops.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIMIT = 1000;

/**
 * The deployment of docs/deployment.md on one machine: two API processes and two workers on one
 * PostgreSQL database and one Redis, under purchase load for a bounded time (about 20 s).
 */
describe(`several API processes and workers on one database (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();

  test(
    'two APIs and two workers: no double submission, every acknowledged order final, ledger clean, rate limits shared',
    { skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only (SQLite is one machine, one process)' },
    async (ctx) => {
      const t = await loadTestApp();
      apps.push(t);
      const env = cliEnv(t, {
        SANDBOX_SETTLE_MS: '200',
        WORKER_IDLE_MS: '20',
        WORKER_BATCH_SIZE: '10',
        REDIS_URL,
        REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:`,
        RATE_LIMIT_MAX: String(LIMIT),
        RATE_LIMIT_WINDOW_S: '300',
        WORKER: 'off',
        DATABASE_POOL_SIZE: '5',
      });
      const ports = [await freePort(), await freePort()];
      const urls = ports.map((p) => `http://127.0.0.1:${p}`);
      const apis = ports.map((port) => spawnCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' }));
      const workers = [spawnCli(['worker'], env), spawnCli(['worker'], env)];
      children.push(...apis, ...workers);
      await Promise.all([
        ...apis.map((a) => a.waitForOutput('partner-api listening')),
        ...workers.map((w) => w.waitForOutput('outbox worker started')),
      ]);

      // Purchase load across both APIs, until 400 orders are acknowledged or 20 s have passed.
      const started = Date.now();
      const load = purchaseLoad(urls, { concurrency: 8 });
      await waitFor('the load to run its course', async () => load.acknowledged.length >= 400 || Date.now() - started > 20_000);
      await load.stop();
      assert.ok(load.acknowledged.length > 0);
      await waitFor(
        'every acknowledged order to be final',
        async () => (await openOrders(t, load.acknowledged)).length === 0,
        PROCESS_BUDGET_MS,
      );
      assert.deepEqual(await deliveryInvariants(t), []);
      const submitters = new Set(
        workers.flatMap((w) =>
          w
            .output()
            .split('\n')
            .filter((l) => l.includes('"msg":"upstream answer"') && l.includes('"call":"submit"'))
            .map((l) => (JSON.parse(l) as { worker: string }).worker),
        ),
      );
      assert.equal(submitters.size, 2, 'both workers submitted deliveries');

      // One key's limit is counted across both processes (Redis): exactly LIMIT requests pass in the window.
      let passed = 0;
      let limited = 0;
      const perProcess = [0, 0];
      for (let i = 0; i < LIMIT + 100; i += 20) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, j) =>
            fetch(`${urls[(i + j) % 2]}/api/v1/profile`, { headers: { 'x-api-key': KEYS.agentLive } }).then((r) => ({
              status: r.status,
              api: (i + j) % 2,
            })),
          ),
        );
        for (const a of answers) {
          if (a.status === 200) {
            passed++;
            perProcess[a.api] = (perProcess[a.api] ?? 0) + 1;
          } else if (a.status === 429) limited++;
        }
      }
      assert.equal(passed, LIMIT, `200s: ${passed}, 429s: ${limited}`);
      assert.equal(limited, 100);
      assert.ok((perProcess[0] ?? 0) > 0 && (perProcess[1] ?? 0) > 0);

      for (const p of [...apis, ...workers]) p.child.kill('SIGTERM');
      for (const p of [...apis, ...workers]) assert.equal(await p.exited(), 0, p.output());
      ctx.diagnostic(
        `${load.acknowledged.length} orders acknowledged in ${Date.now() - started} ms across 2 APIs; refused ${JSON.stringify([...load.refused])}`,
      );
    },
  );
});
