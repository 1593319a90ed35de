import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { createProviders } from '../../src/providers/index.js';
import type { DataProvider } from '../../src/providers/legacy.js';
import { buySingle, newWorker, orderState, sandboxCalls } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

/** A provider whose submissions wait at a gate until the test opens it; it counts those waiting. */
function gatedProvider(t: TestApp) {
  const sandbox = createProviders(t.config, t.database).forMode('live');
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const state = { waiting: 0, most: 0, open: () => open() };
  const provider: DataProvider = {
    name: 'gated',
    async submit(request) {
      state.waiting++;
      state.most = Math.max(state.most, state.waiting);
      await gate;
      state.waiting--;
      return sandbox.submit(request);
    },
    poll: (ref) => sandbox.poll(ref),
  };
  return { state, registry: { forMode: () => provider } };
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
    const worker = newWorker(app, { batchSize: 2, batchesInFlight: 3 }, gated.registry);
    worker.start();
    try {
      await waitFor('three batches of two at the provider', async () => gated.state.waiting === 6);
      // Given time, it claims no fourth batch: the last two rows stay unleased.
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
    const calls = await sandboxCalls(app);
    assert.equal(calls.length, 8);
    assert.equal(new Set(calls.map((c) => c.idempotency_key)).size, 8);
    assert.equal((await app.database.db.selectFrom('outbox').select('id').execute()).length, 0);
    assert.deepEqual(await ledgerProblems(app), []);
  });

  test('stop() returns only after every batch in flight has finished its step', async () => {
    const app = t as TestApp;
    await buyEight(app);
    const gated = gatedProvider(app);
    const worker = newWorker(app, { batchSize: 2, batchesInFlight: 3 }, gated.registry);
    worker.start();
    await waitFor('three batches at the provider', async () => gated.state.waiting === 6);

    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    try {
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
    assert.equal((await leasedRows(app)).length, 0);
    assert.deepEqual(await ledgerProblems(app), []);
  });
});
