import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { buySingle, sandboxCalls, startWorker } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import type { CliProcess } from '../support/cli.js';
import { suiteProcesses } from '../support/ops.js';

/** `cli worker` as real child processes on the test's database (WORKER=off + cli worker: docs/cli.md, `worker`). */
describe(`worker processes (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();

  async function app(): Promise<TestApp> {
    const t = await createTestApp();
    apps.push(t);
    return t;
  }

  const worker = (t: TestApp, env: Record<string, string>): Promise<CliProcess> =>
    startWorker(t, { WORKER_IDLE_MS: '20', ...env }, children);

  const itemOf = (t: TestApp, orderId: string) =>
    t.database.db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();

  test('a worker killed between submit and settle, restarted, completes the order once', async () => {
    const t = await app();
    const orderId = (await buySingle(t, KEYS.agentLive, '0244700051')).body.data.orderId;
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });

    // The first worker submits; the sandbox answers 5 s after accepting, but the worker is killed the
    // moment it has recorded the sandbox's acceptance (it logs the answer after the commit), well
    // inside those 5 s even on a loaded machine.
    const first = await worker(t, { SANDBOX_SETTLE_MS: '5000' });
    await first.waitForOutput('"msg":"upstream answer"');
    first.child.kill('SIGKILL');
    await first.exited();
    const submitted = await itemOf(t, orderId);
    assert.equal(submitted.status, 'processing');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });

    const second = await worker(t, { SANDBOX_SETTLE_MS: '5000' });
    await waitFor('the restarted worker to settle the order', async () => {
      const item = await itemOf(t, orderId);
      return item.status === 'completed' ? item : undefined;
    }, PROCESS_BUDGET_MS);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 0 });
    const order = (await t.call('GET', `/api/v1/orders/${orderId}`, { key: KEYS.agentLive })).body.data;
    assert.equal(order.state, 'completed');
    assert.equal(order.submittedAt, Number(submitted.submitted_at));

    // One attempt, its reference taken once by the sandbox: the restarted worker only checked it.
    const attempts = await t.database.db.selectFrom('provider_attempts').select(['reference', 'status']).where('order_item_id', '=', submitted.id).execute();
    assert.deepEqual(attempts.map((a) => [a.reference, a.status]), [[submitted.provider_ref, 'completed']]);
    const calls = (await sandboxCalls(t)).filter((c) => c.msisdn === submitted.beneficiary_msisdn);
    assert.deepEqual(calls.map((c) => [c.idempotency_key, c.submit_calls]), [[submitted.provider_ref, 1]]);
    const entries = await t.database.db.selectFrom('ledger_entries').select('kind').where('order_id', '=', orderId).orderBy('id').execute();
    assert.deepEqual(entries.map((e) => e.kind), ['data_hold', 'data_settle']);
    assert.deepEqual(await ledgerProblems(t), []);

    // SIGTERM stops it cleanly.
    second.child.kill('SIGTERM');
    assert.equal(await second.exited(), 0, second.output());
  });

  test('two worker processes draining one outbox never submit an order twice', async () => {
    const t = await app();
    const env = { SANDBOX_SETTLE_MS: '150', WORKER_BATCH_SIZE: '1' };
    const [a, b] = await Promise.all([worker(t, env), worker(t, env)]);

    const orderIds: string[] = [];
    for (const [key, prefix] of [
      [KEYS.superLive, '02447150'],
      [KEYS.superTest, '02447250'],
    ] as const) {
      const res = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
        key,
        body: {
          operatorId: 'op_a',
          productId: 'prd_a',
          items: Array.from({ length: 20 }, (_, i) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: `${prefix}${String(i + 1).padStart(2, '0')}` })),
        },
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      orderIds.push(res.body.data.orderId);
    }
    for (let i = 1; i <= 5; i++) orderIds.push((await buySingle(t, KEYS.agentLive, `024473005${i}`)).body.data.orderId);

    await waitFor('every delivery to settle', async () => {
      const open = await t.database.db.selectFrom('order_items').select('id').where('status', 'in', ['pending', 'processing']).execute();
      return open.length === 0;
    }, PROCESS_BUDGET_MS);

    const items = await t.database.db.selectFrom('order_items').select(['id', 'attempt', 'status']).execute();
    assert.equal(items.length, 45);
    assert.ok(items.every((i) => i.status === 'completed' && i.attempt === 1));
    const calls = await sandboxCalls(t);
    assert.equal(calls.length, 45, 'one submission per delivery');
    const attempts = await t.database.db.selectFrom('provider_attempts').select('reference').execute();
    assert.equal(attempts.length, 45, 'one attempt per delivery');
    assert.deepEqual(new Set(calls.map((c) => c.idempotency_key)), new Set(attempts.map((a) => a.reference)));
    assert.deepEqual(calls.filter((c) => c.submit_calls !== 1), [], 'no delivery was submitted twice');
    const settles = await t.database.db.selectFrom('ledger_entries').select('order_item_id').where('kind', '=', 'data_settle').execute();
    assert.equal(new Set(settles.map((s) => s.order_item_id)).size, 45);
    assert.equal(settles.length, 45, 'each delivery settled once');
    for (const id of orderIds) assert.equal((await t.call('GET', `/api/v1/orders/${id}/status`, { key: id === orderIds[1] ? KEYS.superTest : id === orderIds[0] ? KEYS.superLive : KEYS.agentLive })).body.data.state, 'Completed');
    assert.deepEqual(await ledgerProblems(t), []);

    // Both processes took part: each logs the answer to every submission it made.
    const workersThatSubmitted = new Set(
      (a.output() + b.output())
        .split('\n')
        .filter((line) => line.includes('"msg":"upstream answer"'))
        .map((line) => JSON.parse(line) as { worker: string; call: string })
        .filter((answer) => answer.call === 'submit')
        .map((answer) => answer.worker),
    );
    // On PostgreSQL both claim side by side (SKIP LOCKED); SQLite's single writer may let one take all.
    if (TEST_DIALECT === 'postgres') assert.equal(workersThatSubmitted.size, 2, 'both workers submitted deliveries');
    else assert.ok(workersThatSubmitted.size >= 1);

    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    assert.equal(await a.exited(), 0);
    assert.equal(await b.exited(), 0);
  });
});
