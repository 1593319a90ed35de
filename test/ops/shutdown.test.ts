import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, spawnCli } from '../support/cli.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { deliveryInvariants, freePort, LOAD_PROFILE, loadTestApp, openOrders, purchaseLoad, suiteProcesses } from '../support/ops.js';

/** `cli serve` (API and inline worker) as a real process, stopped with SIGTERM in the middle of purchase load. */
describe(`graceful shutdown under load (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();

  test('SIGTERM: /readyz turns 503, requests in flight are answered, the worker ends its batches, every acknowledged order ends final', async (ctx) => {
    const t = await loadTestApp();
    apps.push(t);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = cliEnv(t, {
      PORT: String(port),
      HOST: '127.0.0.1',
      SANDBOX_SETTLE_MS: '300',
      SHUTDOWN_GRACE_MS: '1500',
      WORKER_IDLE_MS: '20',
    });
    const serve = spawnCli(['serve'], env);
    children.push(serve);
    await serve.waitForOutput('partner-api listening');
    await serve.waitForOutput('outbox worker started');
    const workerId = (
      JSON.parse(
        serve
          .output()
          .split('\n')
          .find((l) => l.includes('outbox worker started')) ?? '{}',
      ) as { worker?: string }
    ).worker;
    assert.ok(workerId, serve.output());

    const load = purchaseLoad([url], { concurrency: 8 });
    await waitFor('some orders to be acknowledged and settled', async () => {
      if (load.acknowledged.length < 30) return false;
      const settled = await t.database.db
        .selectFrom('order_items')
        .select('id')
        .where('status', '=', 'completed')
        .limit(1)
        .execute();
      return settled.length > 0;
    });
    const acknowledgedBefore = load.acknowledged.length;
    serve.child.kill('SIGTERM');

    // During the grace period the listener still answers: not ready, still alive.
    const readiness = await waitFor('/readyz to answer 503 stopping', async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      if (!res) return { refused: true } as const;
      const body = (await res.json()) as { status: string };
      return res.status === 503 ? ({ refused: false, body } as const) : undefined;
    });
    assert.equal(readiness.refused, false, 'the listener closed before /readyz could say it was stopping');
    if (!readiness.refused) assert.deepEqual(readiness.body, { status: 'stopping' });
    assert.equal((await fetch(`${url}/healthz`)).status, 200, 'still alive while draining');

    assert.equal(await serve.exited(PROCESS_BUDGET_MS), 0, serve.output());
    await load.stop();
    assert.match(serve.output(), /shut down cleanly/);
    assert.ok(load.acknowledged.length > acknowledgedBefore, 'purchases went on being acknowledged during the grace period');
    // The worker finished its batches: it holds no lease.
    const held = await t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('locked_by', '=', workerId)
      .where('locked_until', '>', Date.now())
      .execute();
    assert.deepEqual(held, [], 'a stopped worker holds no claim');

    // Every acknowledged order is intact: it exists, holds its money, and ends final once a worker runs again.
    const known = await t.database.db.selectFrom('orders').select('id').where('profile_id', '=', LOAD_PROFILE).execute();
    const knownIds = new Set(known.map((o) => o.id));
    assert.deepEqual(
      load.acknowledged.filter((id) => !knownIds.has(id)),
      [],
      'every acknowledged order was stored',
    );

    const worker = spawnCli(['worker'], { ...env, PORT: '0' });
    children.push(worker);
    await waitFor(
      'every acknowledged order to be final',
      async () => (await openOrders(t, load.acknowledged)).length === 0,
      PROCESS_BUDGET_MS,
    );
    worker.child.kill('SIGTERM');
    assert.equal(await worker.exited(), 0, worker.output());
    assert.match(worker.output(), /worker stopped cleanly/);

    assert.deepEqual(await deliveryInvariants(t), []);
    assert.deepEqual(await t.wallet(LOAD_PROFILE, 'live').then((w) => w.held), 0);
    ctx.diagnostic(
      `${load.acknowledged.length} orders acknowledged (${load.acknowledged.length - acknowledgedBefore} after SIGTERM); refused: ${JSON.stringify([...load.refused])}`,
    );
  });
});
