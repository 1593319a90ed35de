import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { createProviders } from '../../src/providers/index.js';
import type { UpstreamAdapter, UpstreamAnswer } from '../../src/providers/types.js';
import type { AttemptCall } from '../../src/modules/deliveries/service.js';
import { routeOf } from '../../src/modules/deliveries/attempts-repository.js';
import { buySingle, FAST, newWorker, providersWithSandbox, sandboxCalls } from '../support/orders.js';
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
  const attemptsOf = (itemId: string) =>
    t.database.db.selectFrom('provider_attempts').selectAll().where('order_item_id', '=', itemId).orderBy('created_at').orderBy('reference').execute();
  const outboxOf = (itemId: string) => t.database.db.selectFrom('outbox').selectAll().where('order_item_id', '=', itemId).execute();
  const entriesOf = async (orderId: string) =>
    (await t.database.db.selectFrom('ledger_entries').selectAll().where('order_id', '=', orderId).orderBy('id').execute()).map(
      (e) => [e.kind, Number(e.available_delta), Number(e.held_delta)],
    );
  /** The real sandbox adapter of this app (its memory is the app's sandbox_submissions). */
  const realSandbox = (): UpstreamAdapter => {
    const sandbox = createProviders(t.config, t.database).adapter('sandbox');
    if (!sandbox) throw new Error('the sandbox adapter is missing');
    return sandbox;
  };

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
    // The item carries the reference of the attempt the upstream accepted (docs/live-delivery.md, "One delivery, many attempts").
    const [submitted] = await attemptsOf(item.id);
    assert.ok(submitted);
    assert.equal(item.provider_ref, submitted.reference);
    assert.match(submitted.reference, /^PA[0-9A-Z]{26}$/);
    assert.deepEqual([submitted.provider, submitted.status], ['sandbox', 'accepted']);
    assert.ok(submitted.provider_transaction_id);
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
    // One attempt, submitted once under its reference, completed.
    const attempts = await attemptsOf(item.id);
    assert.deepEqual(
      attempts.map((a) => [a.reference, a.status]),
      [[submitted.reference, 'completed']],
    );
    assert.notEqual(attempts[0]?.resolved_at ?? null, null);
    const calls = (await sandboxCalls(t)).filter((c) => c.idempotency_key === submitted.reference);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.submit_calls, 1);
    assert.equal(calls[0]?.provider_ref, submitted.provider_transaction_id);
    assert.equal((await outboxOf(item.id)).length, 0);
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
    assert.deepEqual(
      (await attemptsOf((await itemOf(orderId)).id)).map((a) => [a.status, a.message]),
      [['failed', 'Sandbox: delivery failed']],
    );
    // The number is free again.
    assert.equal((await buySingle(t, KEYS.agentLive, '0244310000')).status, 200);
    await settle(worker, KEYS.agentLive, (await t.database.db.selectFrom('orders').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a settled delivery is never settled twice: a repeated or late answer, or a late callback, changes nothing', async () => {
    const worker = newWorker(t);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300011')).body.data.orderId;
    await settle(worker, KEYS.superLive, orderId);
    const item = await itemOf(orderId);
    const [attempt] = await attemptsOf(item.id);
    assert.ok(attempt);
    assert.equal(attempt.status, 'completed');
    const walletAfter = await t.wallet('usr_super', 'live');

    // The answers a slow worker (its lease lost) or a repeated status check could still hand in.
    const call: AttemptCall = {
      call: 'check',
      reference: attempt.reference,
      provider: 'sandbox',
      route: routeOf(attempt),
      transactionId: attempt.provider_transaction_id,
      createdAt: Number(attempt.created_at),
      cost: attempt.cost,
      submittedAt: attempt.submitted_at,
      absences: attempt.absences,
      itemId: item.id,
      orderId,
      itemAttempt: Number(item.attempt),
      msisdn: item.beneficiary_msisdn,
      packageId: item.package_id,
      price: Number(item.amount),
      mode: 'live',
    };
    const record = (answer: UpstreamAnswer) =>
      t.ctx.deliveries.record({ attempt: call, answer, outboxId: -1, workerId: worker.id, checkEveryMs: 10, retryInMs: 10 });
    assert.deepEqual(await record({ class: 'completed', transactionId: attempt.provider_transaction_id }), { kind: 'stale' });
    assert.deepEqual(await record({ class: 'completed', transactionId: attempt.provider_transaction_id, cost: 1 }), { kind: 'stale' });
    assert.deepEqual(
      await record({ class: 'failed', problem: 'number', transactionId: attempt.provider_transaction_id, message: 'late' }),
      { kind: 'stale' },
    );
    assert.deepEqual(await record({ class: 'accepted', transactionId: attempt.provider_transaction_id }), { kind: 'stale' });
    // A late callback only wakes a status check; the delivery has none left.
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: attempt.reference, transactionId: null }), true);
    assert.equal((await outboxOf(item.id)).length, 0);
    await worker.drain();

    assert.deepEqual(await t.wallet('usr_super', 'live'), walletAfter);
    assert.equal((await entriesOf(orderId)).length, 2);
    const [after] = await attemptsOf(item.id);
    assert.deepEqual([after?.status, after?.cost, after?.message], [attempt.status, attempt.cost, attempt.message]);
    assert.equal((await itemOf(orderId)).status, 'completed');
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a callback is a wake-up: it makes the status check due now, and the status check settles', async () => {
    // An upstream that reports by callback: status checks say "in flight, ask again in a minute"
    // until it has delivered; then the real sandbox answers.
    let delivered = false;
    const checks: string[] = [];
    const providers = providersWithSandbox(t, (sandbox) => ({
      name: 'sandbox',
      submit: async (request) => {
        const answer = await sandbox.submit(request);
        return answer.class === 'accepted' ? { ...answer, checkAfterMs: 60_000 } : answer;
      },
      check: async (attempt) => {
        checks.push(attempt.reference);
        if (!delivered) return { class: 'accepted', transactionId: attempt.transactionId, checkAfterMs: 60_000 };
        return sandbox.check(attempt);
      },
      lookup: (attempt) => sandbox.lookup(attempt),
    }));
    const worker = newWorker(t, {}, providers);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300021')).body.data.orderId;
    await worker.drain();
    const item = await itemOf(orderId);
    assert.equal(item.status, 'processing');
    const [attempt] = await attemptsOf(item.id);
    assert.ok(attempt?.provider_transaction_id);
    const [row] = await outboxOf(item.id);
    assert.ok(row && Number(row.run_at) > Date.now() + 30_000, 'the next status check is a minute away');
    await worker.drain();
    assert.deepEqual(checks, [], 'nothing is due before the callback');

    // A callback that comes before the upstream has finished: the check it wakes finds it in flight.
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: null, transactionId: attempt.provider_transaction_id }), true);
    await worker.drain();
    assert.deepEqual(checks, [attempt.reference], 'the wake-up made the check due now');
    assert.equal((await status(KEYS.superLive, orderId)).state, 'Processing', 'a callback is never the verdict');

    // The callback that says it is done (named by our reference this time): the check settles it.
    delivered = true;
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: attempt.reference, transactionId: null }), true);
    const s = await settle(worker, KEYS.superLive, orderId);
    assert.equal(s.state, 'Completed');
    assert.ok(checks.length >= 2);
    assert.equal((await outboxOf(item.id)).length, 0);
    // A callback about a transaction we never made wakes nothing.
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: null, transactionId: 'sbx_unknown' }), false);
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: 'PA_UNKNOWN', transactionId: null }), false);
    assert.equal(await t.ctx.deliveries.wake('sandbox', { reference: null, transactionId: null }), false);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('an upstream error or timeout is followed by a lookup of the same reference, retried with backoff; resubmitted only once proved absent', async () => {
    const calls: string[] = [];
    const references: string[] = [];
    let submits = 0;
    const providers = providersWithSandbox(t, (sandbox) => ({
      name: 'sandbox',
      async submit(request) {
        calls.push('submit');
        references.push(request.reference);
        submits++;
        // The upstream answered 503 before taking it.
        if (submits === 1) return { class: 'unknown', message: 'the upstream answered 503' };
        if (submits === 2) {
          // Taken, but the answer did not come within the adapter's timeout.
          await sandbox.submit(request);
          return { class: 'unknown', message: 'no answer within 2000 ms' };
        }
        return sandbox.submit(request);
      },
      check: (attempt) => {
        calls.push('check');
        return sandbox.check(attempt);
      },
      lookup: (attempt) => {
        calls.push('lookup');
        references.push(attempt.reference);
        return sandbox.lookup(attempt);
      },
    }));
    const worker = newWorker(t, {}, providers);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300031')).body.data.orderId;
    const item = await itemOf(orderId);
    const failedFrom = Date.now();
    await worker.runOnce();
    const failedBy = Date.now();
    const [afterError] = await outboxOf(item.id);
    assert.ok(afterError);
    assert.equal(afterError.tries, 1);
    assert.match(afterError.last_error ?? '', /503/);
    assert.equal(afterError.locked_by, null);
    // Rescheduled one backoff after the failure (FAST: at most backoffMaxMs), however long the step took.
    const runAt = Number(afterError.run_at);
    assert.ok(runAt >= failedFrom && runAt <= failedBy + (FAST.backoffMaxMs ?? 0), `run_at ${runAt} not within [${failedFrom}, ${failedBy} + backoff]`);
    assert.equal((await itemOf(orderId)).status, 'pending');
    assert.deepEqual((await attemptsOf(item.id)).map((a) => [a.status, a.message]), [['unknown', 'the upstream answered 503']]);

    const s = await settle(worker, KEYS.superLive, orderId);
    assert.equal(s.state, 'Completed');
    // 503 → lookup: absent → the same reference again → no answer → lookup: found, followed to the end.
    assert.deepEqual(calls.slice(0, 4), ['submit', 'lookup', 'submit', 'lookup']);
    assert.equal(submits, 2, 'never submitted again once the upstream had it');
    const attempts = await attemptsOf(item.id);
    assert.equal(attempts.length, 1, 'one attempt: every call under its reference');
    assert.ok(attempts[0]);
    assert.deepEqual(new Set(references), new Set([attempts[0].reference]));
    assert.equal(attempts[0].status, 'completed');
    const taken = (await sandboxCalls(t)).filter((c) => c.idempotency_key === attempts[0]?.reference);
    assert.deepEqual(taken.map((c) => c.submit_calls), [1], 'one delivery');
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a refusal on submit fails the delivery (no route left) and returns the hold', async () => {
    for (const [problem, msisdn] of [
      ['number', '0244300041'],
      ['route', '0244300042'],
    ] as const) {
      const refusing: UpstreamAdapter = {
        name: 'sandbox',
        submit: async () => ({ class: 'refused', problem, message: `unsupported package (${problem})` }),
        check: async () => assert.fail('not reached'),
        lookup: async () => assert.fail('not reached'),
      };
      const worker = newWorker(t, {}, providersWithSandbox(t, () => refusing));
      const before = await t.wallet('usr_super', 'live');
      const orderId = (await buySingle(t, KEYS.superLive, msisdn)).body.data.orderId;
      await worker.drain();
      const s = await status(KEYS.superLive, orderId);
      assert.equal(s.state, 'Failed', problem);
      assert.equal(s.errorMessage, `unsupported package (${problem})`);
      assert.deepEqual(await t.wallet('usr_super', 'live'), before);
      const item = await itemOf(orderId);
      assert.deepEqual((await attemptsOf(item.id)).map((a) => a.status), ['refused']);
      assert.equal((await outboxOf(item.id)).length, 0);
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('crash after the upstream took a recorded attempt but before its answer was recorded: the lookup finds it, one delivery', async () => {
    const orderId = (await buySingle(t, KEYS.superLive, '0244300051')).body.data.orderId;
    const item = await itemOf(orderId);
    // What the crashed worker did before dying: claimed the row, recorded the attempt (pending),
    // and the upstream took it; no answer of it was recorded.
    const claimed = await t.database.unit((tx) =>
      t.ctx.repositories.outbox.claimDue(tx, { workerId: 'crashed-worker', now: Date.now(), leaseMs: 300, limit: 100 }),
    );
    const row = claimed.find((r) => r.order_item_id === item.id);
    assert.ok(row);
    const found = (await t.ctx.deliveries.itemsOf([row])).get(item.id);
    assert.ok(found);
    const plan = (await t.ctx.deliveries.plan([{ row, item: found }], { enabled: createProviders(t.config, t.database).enabled, resting: new Map() })).get(row.id);
    assert.ok(plan?.kind === 'call' && plan.attempt.call === 'submit', JSON.stringify(plan));
    const { attempt } = plan;
    const lost = await realSandbox().submit({
      reference: attempt.reference,
      msisdn: attempt.msisdn,
      route: attempt.route,
      packageId: attempt.packageId,
      price: attempt.price,
      mode: attempt.mode,
      callbackUrl: null,
    });
    assert.equal(lost.class, 'accepted');
    assert.ok(lost.class === 'accepted' && lost.transactionId);
    assert.equal((await itemOf(orderId)).status, 'pending');
    assert.deepEqual((await attemptsOf(item.id)).map((a) => [a.reference, a.status]), [[attempt.reference, 'pending']]);

    // Another worker takes the row over once the lease expires.
    const worker = newWorker(t);
    await settle(worker, KEYS.superLive, orderId);
    const settled = await itemOf(orderId);
    assert.equal(settled.status, 'completed');
    assert.equal(settled.provider_ref, attempt.reference);
    assert.equal(typeof (await status(KEYS.superLive, orderId)).submittedAt, 'number');
    const attempts = await attemptsOf(item.id);
    assert.deepEqual(attempts.map((a) => [a.reference, a.status, a.provider_transaction_id]), [[attempt.reference, 'completed', lost.transactionId]]);
    const calls = (await sandboxCalls(t)).filter((c) => c.msisdn === item.beneficiary_msisdn && c.idempotency_key === attempt.reference);
    assert.equal(calls.length, 1, 'one delivery');
    assert.equal(calls[0]?.submit_calls, 1, 'found by lookup, never submitted again');
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
    let release: () => void = () => {};
    let entered: () => void = () => {};
    const inSubmit = new Promise<void>((resolve) => (entered = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const providers = providersWithSandbox(t, (sandbox) => ({
      name: 'sandbox',
      async submit(request) {
        entered();
        await released;
        return sandbox.submit(request);
      },
      check: (attempt) => sandbox.check(attempt),
      lookup: (attempt) => sandbox.lookup(attempt),
    }));
    const worker = newWorker(t, {}, providers);
    const orderId = (await buySingle(t, KEYS.superLive, '0244300071')).body.data.orderId;
    worker.start();
    await inSubmit;
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    // An observation window, not a wait for a condition: stop() must not resolve within it.
    await new Promise((r) => setTimeout(r, 30));
    assert.equal(stopped, false, 'stop waits for the submission in progress');
    release();
    await stopping;
    const item = await itemOf(orderId);
    assert.equal(item.status, 'processing', 'the submission was recorded before stopping');
    assert.deepEqual((await attemptsOf(item.id)).map((a) => a.status), ['accepted']);
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
    assert.deepEqual((await attemptsOf((await itemOf(orderId)).id)).map((a) => [a.provider, a.status]), [['sandbox', 'completed']]);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
