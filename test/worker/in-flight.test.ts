import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker, orderState, providersWithSandbox, sandboxCalls } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

/** The sandbox behind a gate: its submissions wait until the test opens it; it counts those waiting. */
function gatedProvider(t: TestApp) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { waiting: 0, most: 0, open: () => open() };
  const providers = providersWithSandbox(t, (sandbox) => ({
    name: 'sandbox',
    async submit(request) {
      state.waiting++;
      state.most = Math.max(state.most, state.waiting);
      await gate;
      state.waiting--;
      return sandbox.submit(request);
    },
    check: (attempt) => sandbox.check(attempt),
    lookup: (attempt) => sandbox.lookup(attempt),
  }));
  return { state, providers };
}

describe('worker: several claimed batches in flight', () => {
  let t: TestApp | undefined;
  beforeEach(async () => {
    await t?.close();
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '0' } });
  });
  after(() => t?.close());

  async function buyEight(app: TestApp): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await buySingle(app, KEYS.superLive, `024450005${i + 1}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      ids.push(res.body.data.orderId as string);
    }
    return ids;
  }

  const leasedRows = (app: TestApp) =>
    app.database.db.selectFrom('outbox').select('id').where('locked_by', 'is not', null).execute();

  test('the next batch is claimed while earlier ones wait on the provider, up to batchesInFlight; each delivery happens once', async () => {
    const app = t as TestApp;
    const orderIds = await buyEight(app);
    const gated = gatedProvider(app);
    const worker = newWorker(app, { batchSize: 2, batchesInFlight: 3 }, gated.providers);
    worker.start();
    try {
      await waitFor('three batches of two at the provider', async () => gated.state.waiting === 6);
      // Given time (an observation window, not a wait for a condition), it claims no fourth batch: the last two rows stay unleased.
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(gated.state.waiting, 6);
      assert.equal((await leasedRows(app)).length, 6);

      gated.state.open();
      await waitFor('every order delivered', async () => {
        const states = await Promise.all(orderIds.map((id) => orderState(app, KEYS.superLive, id)));
        return states.every((s) => s === 'completed');
      });
    } finally {
      gated.state.open();
      await worker.stop();
    }
    assert.equal(gated.state.most, 6);
    // Eight attempts, each taken once by the sandbox under its own reference.
    const calls = await sandboxCalls(app);
    assert.equal(calls.length, 8);
    assert.deepEqual(calls.map((c) => c.submit_calls), Array<number>(8).fill(1));
    const attempts = await app.database.db.selectFrom('provider_attempts').select(['reference', 'status']).orderBy('reference').execute();
    assert.deepEqual(attempts.map((a) => a.reference), calls.map((c) => c.idempotency_key));
    assert.deepEqual(attempts.map((a) => a.status), Array<string>(8).fill('completed'));
    assert.equal((await app.database.db.selectFrom('outbox').select('id').execute()).length, 0);
    assert.deepEqual(await ledgerProblems(app), []);
  });

  test('stop() returns only after every batch in flight has finished its step', async () => {
    const app = t as TestApp;
    await buyEight(app);
    const gated = gatedProvider(app);
    const worker = newWorker(app, { batchSize: 2, batchesInFlight: 3 }, gated.providers);
    worker.start();
    await waitFor('three batches at the provider', async () => gated.state.waiting === 6);

    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    try {
      // An observation window, not a wait for a condition: stop() must not return within it.
      await new Promise((r) => setTimeout(r, 100));
      assert.equal(stopped, false, 'stop() returned with submissions still waiting on the provider');
    } finally {
      gated.state.open();
      await stopping;
    }
    // The six claimed items were submitted and recorded; the other two were never claimed.
    const items = await app.database.db.selectFrom('order_items').select(['status', 'provider_ref']).execute();
    assert.deepEqual(items.map((i) => i.status).sort(), ['pending', 'pending', ...Array<string>(6).fill('processing')]);
    assert.equal(items.filter((i) => i.provider_ref !== null).length, 6);
    // Each of the six under the attempt the sandbox accepted; none recorded for the two unclaimed.
    const attempts = await app.database.db.selectFrom('provider_attempts').select(['reference', 'status']).execute();
    assert.deepEqual(attempts.map((a) => a.status), Array<string>(6).fill('accepted'));
    assert.deepEqual(
      new Set(items.flatMap((i) => (i.provider_ref === null ? [] : [i.provider_ref]))),
      new Set(attempts.map((a) => a.reference)),
    );
    assert.equal((await leasedRows(app)).length, 0);
    assert.deepEqual(await ledgerProblems(app), []);
  });
});
