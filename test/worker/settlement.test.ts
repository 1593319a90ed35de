import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { createProviders } from '../../src/providers/index.js';
import { SandboxProvider } from '../../src/providers/sandbox/adapter.js';
import { ProviderError, type DataProvider, type ProviderRegistry } from '../../src/providers/legacy.js';
import { SandboxStore } from '../../src/providers/sandbox/store.js';
import { buySingle, FAST, newWorker, sandboxCalls } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

describe('worker: submission and settlement through the sandbox (docs/order-lifecycle.md, "The money at each step")', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '30' } });
  });
  after(() => t.close());

  const status = async (key: string, id: string) => (await t.call('GET', `/api/v1/orders/${id}/status`, { key })).body.data;
  const itemOf = (orderId: string) =>
    t.database.db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
  const entriesOf = async (orderId: string) =>
    (await t.database.db.selectFrom('ledger_entries').selectAll().where('order_id', '=', orderId).orderBy('id').execute()).map(
      (e) => [e.kind, Number(e.available_delta), Number(e.held_delta)],
    );

  /** Steps the worker until the order leaves processing. */
  async function settle(worker: ReturnType<typeof newWorker>, key: string, orderId: string) {
    return waitFor(`order ${orderId} to settle`, async () => {
      await worker.drain();
      const s = await status(key, orderId);
      return s.state === 'Processing' ? undefined : s;
    });
  }

  test('completion: held at purchase, submitted (submittedAt), then spent (completedAt); balances at each step', async () => {
    const worker = newWorker(t);
    const bought = await buySingle(t, KEYS.agentLive, '0244300051');
    const orderId = bought.body.data.orderId;
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });
    let s = await status(KEYS.agentLive, orderId);
    assert.deepEqual([s.state, s.submittedAt, s.completedAt], ['Processing', null, null]);

    assert.equal(await worker.runOnce(), 1);
    const item = await itemOf(orderId);
    assert.equal(item.status, 'processing');
    assert.ok(item.provider_ref);
    s = await status(KEYS.agentLive, orderId);
    assert.equal(s.state, 'Processing');
    assert.equal(typeof s.submittedAt, 'number');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });

    s = await settle(worker, KEYS.agentLive, orderId);
    assert.deepEqual(Object.keys(s).sort(), [
      '_creationTime', 'amount', 'bulkCompletedCount', 'bulkFailedCount', 'completedAt', 'createdAt', 'currency', 'errorMessage', 'isBulkOrder', 'orderId', 'shortReference', 'state', 'submittedAt',
    ]);
    assert.equal(s.state, 'Completed');
    assert.equal(s.errorMessage, null);
    assert.ok(s.completedAt >= s.submittedAt);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 0 });
    const full = (await t.call('GET', `/api/v1/orders/${orderId}`, { key: KEYS.agentLive })).body.data;
    assert.equal(full.state, 'completed');
    assert.deepEqual(await entriesOf(orderId), [
      ['data_hold', -900, 900],
      ['data_settle', 0, -900],
    ]);
    const calls = (await sandboxCalls(t)).filter((c) => c.idempotency_key === `${item.id}:1`);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.submit_calls, 1);
    assert.equal(calls[0]?.provider_ref, item.provider_ref);
    assert.equal((await t.database.db.selectFrom('outbox').select('id').where('order_item_id', '=', item.id).execute()).length, 0);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('failure: a number ending in 0000 fails with the sandbox message and the hold returns to available', async () => {
    const worker = newWorker(t);
    const before = await t.wallet('usr_agent', 'live');
    const bought = await buySingle(t, KEYS.agentLive, '0244310000');
    const orderId = bought.body.data.orderId;
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: before.available - 900, held: before.held + 900 });
    assert.equal(await worker.runOnce(), 1);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: before.available - 900, held: before.held + 900 });
    const s = await settle(worker, KEYS.agentLive, orderId);
    assert.equal(s.state, 'Failed');
    assert.equal(s.errorMessage, 'Sandbox: delivery failed');
    assert.equal(s.completedAt, null);
    assert.equal(typeof s.submittedAt, 'number');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), before);
    assert.deepEqual(await entriesOf(orderId), [
      ['data_hold', -900, 900],
      ['data_release', 900, -900],
    ]);
    // The number is free again.
    assert.equal((await buySingle(t, KEYS.agentLive, '0244310000')).status, 200);
    await settle(worker, KEYS.agentLive, (await t.database.db.selectFrom('orders').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a settled delivery is never settled twice: a late callback or repeated outcome changes nothing', async () => {
    const worker = newWorker(t);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300011')).body.data.orderId;
    await settle(worker, KEYS.superLive, orderId);
    const item = await itemOf(orderId);
    const walletAfter = await t.wallet('usr_super', 'live');
    assert.equal(await worker.settleFromProvider(item.provider_ref!, { status: 'completed' }), false);
    assert.equal(await worker.settleFromProvider(item.provider_ref!, { status: 'failed', errorMessage: 'late' }), false);
    assert.deepEqual(await t.wallet('usr_super', 'live'), walletAfter);
    assert.equal((await entriesOf(orderId)).length, 2);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a callback-style provider can report the outcome through the worker', async () => {
    const sandbox = new SandboxProvider(new SandboxStore(t.database), 60_000); // never resolves by polling within the test
    const providers: ProviderRegistry = { forMode: () => sandbox };
    const worker = newWorker(t, {}, providers);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300021')).body.data.orderId;
    await worker.drain();
    const item = await itemOf(orderId);
    assert.equal(item.status, 'processing');
    assert.equal(await worker.settleFromProvider(item.provider_ref!, { status: 'completed' }), true);
    assert.equal((await status(KEYS.superLive, orderId)).state, 'Completed');
    assert.equal((await t.database.db.selectFrom('outbox').select('id').where('order_item_id', '=', item.id).execute()).length, 0);
    assert.equal(await worker.settleFromProvider('sbx_unknown', { status: 'completed' }), false);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('provider errors and timeouts are retried with backoff, with the same idempotency key', async () => {
    const sandbox = createProviders(t.config, t.database).forMode('live');
    const keys: string[] = [];
    let calls = 0;
    const flaky: DataProvider = {
      name: 'flaky',
      async submit(request) {
        keys.push(request.idempotencyKey);
        calls++;
        if (calls === 1) throw new ProviderError('provider answered 503', true);
        if (calls === 2) return new Promise(() => {}); // hangs: the worker's timeout must fire
        return sandbox.submit(request);
      },
      poll: (ref) => sandbox.poll(ref),
    };
    // The hung call costs the whole timeout, so keep it short, but far above what a real call takes
    // on a loaded machine: a third call (a database write) cut off too would be a fourth attempt.
    const worker = newWorker(t, { providerTimeoutMs: 2_000 }, { forMode: () => flaky });
    const orderId = (await buySingle(t, KEYS.superLive, '0244300031')).body.data.orderId;
    const item = await itemOf(orderId);
    const failedFrom = Date.now();
    await worker.runOnce();
    const failedBy = Date.now();
    const afterError = await t.database.db.selectFrom('outbox').selectAll().where('order_item_id', '=', item.id).executeTakeFirstOrThrow();
    assert.equal(afterError.tries, 1);
    assert.match(afterError.last_error ?? '', /503/);
    assert.equal(afterError.locked_by, null);
    // Rescheduled one backoff after the failure (FAST: at most backoffMaxMs), however long the step took.
    const runAt = Number(afterError.run_at);
    assert.ok(runAt >= failedFrom && runAt <= failedBy + (FAST.backoffMaxMs ?? 0), `run_at ${runAt} not within [${failedFrom}, ${failedBy} + backoff]`);
    assert.equal((await itemOf(orderId)).status, 'pending');

    const s = await settle(worker, KEYS.superLive, orderId);
    assert.equal(s.state, 'Completed');
    assert.equal(calls, 3);
    assert.deepEqual(keys, [`${item.id}:1`, `${item.id}:1`, `${item.id}:1`]);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a permanent refusal on submit fails the delivery and returns the hold', async () => {
    const refusing: DataProvider = {
      name: 'refusing',
      async submit() {
        throw new ProviderError('unsupported package', false);
      },
      async poll() {
        throw new Error('not reached');
      },
    };
    const worker = newWorker(t, {}, { forMode: () => refusing });
    const before = await t.wallet('usr_super', 'live');
    const orderId = (await buySingle(t, KEYS.superLive, '0244300041')).body.data.orderId;
    await worker.drain();
    const s = await status(KEYS.superLive, orderId);
    assert.equal(s.state, 'Failed');
    assert.match(s.errorMessage, /refused.*unsupported package/);
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('crash after the provider accepted but before it was recorded: the re-submission is recognised, one delivery', async () => {
    const sandbox = new SandboxProvider(new SandboxStore(t.database), 30);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300051')).body.data.orderId;
    const item = await itemOf(orderId);
    // What the crashed worker did before dying: the provider has the submission, we have no record of it.
    const lost = await sandbox.submit({ idempotencyKey: `${item.id}:1`, msisdn: item.beneficiary_msisdn, packageId: item.package_id, amount: item.amount, mode: 'live' });
    assert.equal((await itemOf(orderId)).status, 'pending');

    const worker = newWorker(t);
    await settle(worker, KEYS.superLive, orderId);
    const settled = await itemOf(orderId);
    assert.equal(settled.status, 'completed');
    assert.equal(settled.provider_ref, lost.providerRef);
    const calls = (await sandboxCalls(t)).filter((c) => c.idempotency_key.startsWith(item.id));
    assert.equal(calls.length, 1, 'one delivery');
    assert.equal(calls[0]?.submit_calls, 2, 'the second call was deduplicated by the provider');
    assert.deepEqual((await entriesOf(orderId)).map((e) => e[0]), ['data_hold', 'data_settle']);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a crashed worker\'s lease blocks others until it expires, then the row is picked up', async () => {
    const orderId = (await buySingle(t, KEYS.superLive, '0244300061')).body.data.orderId;
    const claimed = await t.database.unit((tx) =>
      t.ctx.repositories.outbox.claimDue(tx, { workerId: 'crashed-worker', now: Date.now(), leaseMs: 300, limit: 100 }),
    );
    assert.ok(claimed.length >= 1);
    const worker = newWorker(t);
    assert.equal(await worker.runOnce(), 0, 'leased rows are not claimable');
    assert.equal((await status(KEYS.superLive, orderId)).state, 'Processing');
    const s = await settle(worker, KEYS.superLive, orderId);
    assert.equal(s.state, 'Completed');
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('stop() lets the step in progress finish, then resolves', async () => {
    const sandbox = createProviders(t.config, t.database).forMode('live');
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inSubmit = new Promise<void>((resolve) => (entered = resolve));
    const slow: DataProvider = {
      name: 'slow',
      async submit(request) {
        entered();
        await new Promise<void>((resolve) => (release = resolve));
        return sandbox.submit(request);
      },
      poll: (ref) => sandbox.poll(ref),
    };
    const worker = newWorker(t, {}, { forMode: () => slow });
    const orderId = (await buySingle(t, KEYS.superLive, '0244300071')).body.data.orderId;
    worker.start();
    await inSubmit;
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(stopped, false, 'stop waits for the submission in progress');
    release();
    await stopping;
    const item = await itemOf(orderId);
    assert.equal(item.status, 'processing', 'the submission was recorded before stopping');
    // Another worker finishes it.
    const s = await settle(newWorker(t), KEYS.superLive, orderId);
    assert.equal(s.state, 'Completed');
  });

  test('test-mode orders go to the sandbox and settle in their own wallet', async () => {
    const worker = newWorker(t);
    const liveBefore = await t.wallet('usr_customer', 'live');
    const orderId = (await buySingle(t, KEYS.customerTest, '0244300081')).body.data.orderId;
    const s = await settle(worker, KEYS.customerTest, orderId);
    assert.equal(s.state, 'Completed');
    assert.deepEqual(await t.wallet('usr_customer', 'test'), { available: 2000, held: 0 });
    assert.deepEqual(await t.wallet('usr_customer', 'live'), liveBefore);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
