import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker, sandboxCalls } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

/**
 * Each test number of the sandbox (docs/api.md, "Sandbox test numbers"), end to end through the
 * worker's real paths (submission, timeouts and retries, polling, settlement), with its one outcome
 * and its money.
 */
test('every sandbox test number ends in exactly one outcome with the right money', async (c) => {
  const settleMs = 40;
  const t = await useTestApp(c, {
    // The worker gives up on a provider call after 300 ms: the "timed out" number hangs longer.
    env: { SANDBOX_SETTLE_MS: String(settleMs), PROVIDER_TIMEOUT_MS: '300', WORKER_LEASE_MS: '5000' },
  });
  const worker = newWorker(t, { providerTimeoutMs: 300, leaseMs: 5000 });
  worker.start();
  c.after(() => worker.stop());

  const before = await t.wallet('usr_super', 'live');
  const numbers = {
    normal: '0244940009',
    fails: '0244940000',
    slow: '0244940001',
    refused: '0244940002',
    timesOut: '0244940003',
    pollError: '0244940004',
  };
  const orders: Record<string, string> = {};
  for (const [name, msisdn] of Object.entries(numbers)) {
    const res = await buySingle(t, KEYS.superLive, msisdn);
    assert.equal(res.status, 200, `${name}: ${JSON.stringify(res.body)}`);
    orders[name] = res.body.data.orderId as string;
  }
  const status = async (orderId: string) =>
    (await t.call('GET', `/api/v1/orders/${orderId}/status`, { key: KEYS.superLive })).body.data;
  const final = await waitFor('every order to reach its outcome', async () => {
    const all = await Promise.all(Object.entries(orders).map(async ([name, id]) => [name, await status(id)] as const));
    return all.every(([, s]) => s.state === 'Completed' || s.state === 'Failed') ? Object.fromEntries(all) : undefined;
  });

  assert.equal(final.normal?.state, 'Completed');
  assert.deepEqual([final.fails?.state, final.fails?.errorMessage], ['Failed', 'Sandbox: delivery failed']);
  assert.equal(final.slow?.state, 'Completed');
  // Measured from the sandbox's own acceptance: the order's submittedAt is recorded after it, later under load.
  const slowAccepted = (await sandboxCalls(t)).find((s) => s.msisdn.endsWith(numbers.slow.slice(1)));
  assert.ok(slowAccepted, 'the slow number was submitted');
  assert.ok(
    final.slow.completedAt - Number(slowAccepted.accepted_at) >= 10 * settleMs,
    'the slow delivery took ten settle delays',
  );
  assert.deepEqual(
    [final.refused?.state, final.refused?.errorMessage, final.refused?.submittedAt],
    ['Failed', 'Sandbox: number not eligible for this bundle', null],
  );
  assert.equal(final.timesOut?.state, 'Completed');
  assert.equal(final.pollError?.state, 'Completed');

  const submissions = await t.database.db.selectFrom('sandbox_submissions').selectAll().execute();
  const byNumber = new Map(submissions.map((s) => [s.msisdn, s]));
  // The answer timed out after the sandbox took it: the worker looked the reference up and found it,
  // so it never submitted again (docs/live-delivery.md, "One delivery, many attempts").
  assert.equal(byNumber.get('233244940003')?.submit_calls, 1, 'taken once, found by lookup: one delivery');
  assert.ok(Number(byNumber.get('233244940004')?.poll_calls) >= 2, 'a 5xx on the first poll, then the outcome');
  assert.equal(byNumber.has('233244940002'), false, 'a refused number is never taken');

  // The money: completed orders are spent, failed ones returned; nothing stays held.
  const spent = 850 * 4;
  assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available - spent, held: before.held });
  const entries = await t.database.db
    .selectFrom('ledger_entries')
    .select(['order_id', 'kind'])
    .where('order_id', 'in', Object.values(orders))
    .orderBy('id')
    .execute();
  const kindsOf = (name: string) => entries.filter((e) => e.order_id === orders[name]).map((e) => e.kind);
  for (const name of ['normal', 'slow', 'timesOut', 'pollError'])
    assert.deepEqual(kindsOf(name), ['data_hold', 'data_settle'], name);
  for (const name of ['fails', 'refused']) assert.deepEqual(kindsOf(name), ['data_hold', 'data_release'], name);
  assert.deepEqual(await ledgerProblems(t), []);
});
