import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import type { Providers } from '../../src/providers/index.js';
import type { AttemptHandle, CheckAnswer } from '../../src/providers/types.js';
import { buySingle, newWorker, providersWithSandbox, sandboxCalls } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';
import { staffActor } from '../support/actor.js';

const RETRY = '/api/v1/data-bundles/retry-recipient';

interface Recipient {
  beneficiaryMsisdn: string;
  status: string;
  errorMessage: string | null;
  submittedAt: number | null;
  completedAt: number | null;
  amount: number;
}

/**
 * An upstream standing in for the sandbox that fails a number ending in 0000 on its first
 * submission only (the first attempt of the first charge); every other delivery completes.
 */
function secondTimeLucky(t: TestApp): Providers {
  const seen = new Set<string>();
  const submissions = new Map<string, { msisdn: string; fails: boolean }>();
  const statusOf = (attempt: AttemptHandle): CheckAnswer => {
    const s = submissions.get(attempt.reference);
    if (!s) return { class: 'absent' };
    const transactionId = `lucky-${attempt.reference}`;
    return s.fails
      ? { class: 'failed', problem: 'number', transactionId, message: 'Sandbox: delivery failed' }
      : { class: 'completed', transactionId };
  };
  return providersWithSandbox(t, () => ({
    name: 'sandbox',
    async submit(request) {
      if (!submissions.has(request.reference)) {
        submissions.set(request.reference, { msisdn: request.msisdn, fails: request.msisdn.endsWith('0000') && !seen.has(request.msisdn) });
        seen.add(request.msisdn);
      }
      return { class: 'accepted', transactionId: `lucky-${request.reference}` };
    },
    check: async (attempt) => statusOf(attempt),
    lookup: async (attempt) => statusOf(attempt),
  }));
}

describe('bulk orders through the worker, and retry of a failed recipient (docs/order-lifecycle.md, "Bulk orders")', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '20' } });
  });
  after(() => t.close());

  const order = async (key: string, id: string) => (await t.call('GET', `/api/v1/orders/${id}`, { key })).body.data;
  const retry = (key: string, body: unknown) => t.call('POST', RETRY, { key, body });

  async function settled(worker: ReturnType<typeof newWorker>, key: string, id: string) {
    return waitFor(`bulk order ${id} to settle`, async () => {
      await worker.drain();
      const o = await order(key, id);
      return o.state === 'processing' ? undefined : o;
    });
  }

  test('one failing recipient: refunded alone, parent completed with counts; its retry charges, resubmits and settles again', async () => {
    const worker = newWorker(t);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    const bought = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244400051', '0244400000', '0244400052'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const id = bought.body.data.orderId;
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 7300, held: 2700 });

    let o = await settled(worker, KEYS.agentLive, id);
    assert.equal(o.state, 'completed');
    assert.equal(o.bulkCompletedCount, 2);
    assert.equal(o.bulkFailedCount, 1);
    assert.equal(typeof o.completedAt, 'number');
    assert.equal(typeof o.submittedAt, 'number');
    assert.equal(o.amount, 27, 'the parent keeps the total held at creation');
    const byNumber = new Map<string, Recipient>(o.bulkRecipients.map((r: Recipient) => [r.beneficiaryMsisdn, r]));
    assert.equal(byNumber.get('233244400000')?.status, 'failed');
    assert.equal(byNumber.get('233244400000')?.errorMessage, 'Sandbox: delivery failed');
    assert.equal(byNumber.get('233244400000')?.completedAt, null);
    for (const n of ['233244400051', '233244400052']) {
      assert.equal(byNumber.get(n)?.status, 'completed');
      assert.equal(typeof byNumber.get(n)?.completedAt, 'number');
      assert.equal(byNumber.get(n)?.errorMessage, null);
    }
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 8200, held: 0 });
    // The status projection of a partly failed bulk order says so, not only "Completed".
    const status = (await t.call('GET', `/api/v1/orders/${id}/status`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual(
      { state: status.state, isBulkOrder: status.isBulkOrder, completed: status.bulkCompletedCount, failed: status.bulkFailedCount },
      { state: 'Completed', isBulkOrder: true, completed: 2, failed: 1 },
    );

    // Refusals, none of which charges anything.
    const before = await t.wallet('usr_agent', 'live');
    const refusals: [string, unknown, number, string][] = [
      [KEYS.agentLive, { orderId: id, beneficiaryMsisdn: '0244400051' }, 409, 'BUY_DATA_BULK_FAILED'],
      [KEYS.agentLive, { orderId: id, beneficiaryMsisdn: '0244409999' }, 400, 'BUY_DATA_BULK_FAILED'],
      [KEYS.agentLive, { orderId: id, beneficiaryMsisdn: 'nope' }, 400, 'BUY_DATA_BULK_FAILED'],
      [KEYS.agentLive, { orderId: id }, 400, 'BUY_DATA_BULK_FAILED'],
      [KEYS.agentLive, { orderId: 'ord_unknown', beneficiaryMsisdn: '0244400000' }, 404, 'ORDER_NOT_FOUND'],
      [KEYS.superLive, { orderId: id, beneficiaryMsisdn: '0244400000' }, 404, 'ORDER_NOT_FOUND'],
      [KEYS.agentTest, { orderId: id, beneficiaryMsisdn: '0244400000' }, 404, 'ORDER_NOT_FOUND'],
      [KEYS.customerLive, { orderId: id, beneficiaryMsisdn: '0244400000' }, 403, 'BUY_DATA_BULK_FAILED'],
    ];
    for (const [key, body, status, code] of refusals) {
      const res = await retry(key, body);
      assert.equal(res.status, status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, code);
    }
    const single = await buySingle(t, KEYS.agentLive, '0244400009');
    const notBulk = await retry(KEYS.agentLive, { orderId: single.body.data.orderId, beneficiaryMsisdn: '0244400009' });
    assert.equal(notBulk.status, 400);
    await waitFor('the single order to settle', async () => {
      await worker.drain();
      return (await order(KEYS.agentLive, single.body.data.orderId)).state === 'completed';
    });
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: before.available - 900, held: 0 });

    // The retry itself.
    const res = await retry(KEYS.agentLive, { orderId: id, beneficiaryMsisdn: '+233 24 440 0000' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.data, {
      success: true,
      message: res.body.data.message,
      orderId: id,
      shortReference: o.shortReference,
      beneficiaryMsisdn: '233244400000',
      amountCharged: 9,
      previousAmount: 9,
      priceChanged: false,
      attempt: 2,
      status: 'processing',
      walletBalanceBefore: 73,
      walletBalanceAfter: 64,
    });
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 6400, held: 900 });
    o = await order(KEYS.agentLive, id);
    assert.equal(o.state, 'processing');
    assert.equal(o.completedAt, null);
    assert.equal(o.bulkCompletedCount, 2);
    assert.equal(o.bulkFailedCount, 0);
    const reopened = o.bulkRecipients.find((r: Recipient) => r.beneficiaryMsisdn === '233244400000');
    assert.deepEqual([reopened.status, reopened.errorMessage, reopened.submittedAt], ['pending', null, null]);
    // A second retry while it is open is refused.
    assert.equal((await retry(KEYS.agentLive, { orderId: id, beneficiaryMsisdn: '0244400000' })).status, 409);

    // The sandbox fails this number again: refunded again, the parent back to completed.
    o = await settled(worker, KEYS.agentLive, id);
    assert.equal(o.state, 'completed');
    assert.equal(o.bulkCompletedCount, 2);
    assert.equal(o.bulkFailedCount, 1);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 7300, held: 0 });

    const item = await t.database.db
      .selectFrom('order_items')
      .selectAll()
      .where('order_id', '=', id)
      .where('beneficiary_msisdn', '=', '233244400000')
      .executeTakeFirstOrThrow();
    assert.equal(item.attempt, 2);
    const entries = await t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'available_delta', 'held_delta', 'idempotency_key'])
      .where('order_item_id', '=', item.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      entries.map((e) => [e.kind, Number(e.available_delta), Number(e.held_delta), e.idempotency_key]),
      [
        ['data_hold', -900, 900, `hold:${item.id}:1`],
        ['data_release', 900, -900, `release:${item.id}:1`],
        ['data_hold', -900, 900, `hold:${item.id}:2`],
        ['data_release', 900, -900, `release:${item.id}:2`],
      ],
    );
    // One attempt per charge, each taken once by the sandbox under its own reference.
    const attempts = await t.database.db
      .selectFrom('provider_attempts')
      .select(['reference', 'item_attempt', 'status'])
      .where('order_item_id', '=', item.id)
      .orderBy('created_at')
      .orderBy('reference')
      .execute();
    assert.deepEqual(
      attempts.map((a) => [Number(a.item_attempt), a.status]),
      [
        [1, 'failed'],
        [2, 'failed'],
      ],
    );
    const references = attempts.map((a) => a.reference);
    const calls = (await sandboxCalls(t)).filter((c) => references.includes(c.idempotency_key));
    assert.deepEqual(
      calls.map((c) => [c.idempotency_key, c.submit_calls]).sort(),
      references.map((r) => [r, 1]).sort(),
    );
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('all recipients failing fails the parent; a successful retry completes it', async () => {
    const worker = newWorker(t, {}, secondTimeLucky(t));
    const start = await t.wallet('usr_super', 'live');
    const bought = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: [
          { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244410000' },
          { packageId: 'pkg_a_2gb', beneficiaryMsisdn: '0244420000' },
        ],
      },
    });
    const id = bought.body.data.orderId;
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: start.available - 2900, held: start.held + 2900 });
    let o = await settled(worker, KEYS.superLive, id);
    assert.equal(o.state, 'failed');
    assert.equal(o.completedAt, null);
    assert.match(o.errorMessage, /All 2 recipients failed: Sandbox: delivery failed/);
    assert.deepEqual([o.bulkCompletedCount, o.bulkFailedCount], [0, 2]);
    assert.deepEqual(await t.wallet('usr_super', 'live'), start);
    const status = (await t.call('GET', `/api/v1/orders/${id}/status`, { key: KEYS.superLive })).body.data;
    assert.equal(status.state, 'Failed');

    const res = await retry(KEYS.superLive, { orderId: id, beneficiaryMsisdn: '0244420000' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.amountCharged, 20.5);
    o = await order(KEYS.superLive, id);
    assert.deepEqual([o.state, o.errorMessage, o.bulkFailedCount], ['processing', null, 1]);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: start.available - 2050, held: start.held + 2050 });

    o = await settled(worker, KEYS.superLive, id);
    assert.equal(o.state, 'completed');
    assert.equal(typeof o.completedAt, 'number');
    assert.deepEqual([o.bulkCompletedCount, o.bulkFailedCount], [1, 1]);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: start.available - 2050, held: start.held });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a retry the wallet cannot afford is 402 and changes nothing', async () => {
    const worker = newWorker(t);
    const bought = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentTest,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244430000', '0244430051'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    const id = bought.body.data.orderId;
    await settled(worker, KEYS.agentTest, id);
    // GHS 50 - 9 (delivered) = 41; spend 36 more on singles, leaving 5 < 9.
    for (const n of ['0244430011', '0244430012', '0244430013', '0244430014']) {
      assert.equal((await buySingle(t, KEYS.agentTest, n)).status, 200);
    }
    const before = await t.wallet('usr_agent', 'test');
    assert.equal(before.available, 500);
    const res = await retry(KEYS.agentTest, { orderId: id, beneficiaryMsisdn: '0244430000' });
    assert.equal(res.status, 402, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'BUY_DATA_BULK_FAILED');
    assert.deepEqual(await t.wallet('usr_agent', 'test'), before);
    const o = await order(KEYS.agentTest, id);
    assert.equal(o.bulkRecipients[0].status, 'failed');
    assert.equal(o.state, 'completed');
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test("a price changed since the recipient's charge: the retry charges the current price and its answer says so", async () => {
    const worker = newWorker(t);
    const bought = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244450000', '0244450051'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const id = bought.body.data.orderId;
    await settled(worker, KEYS.agentLive, id);
    const admin = staffActor('admin@test');
    const pricing = { price: 1000, status: 'Active' as const, rolePrices: [{ role: 'SuperAgent' as const, price: 850 }, { role: 'Staff' as const, price: 725 }] };
    // The Agent price of the package goes from GHS 9.00 to GHS 9.40 after the recipient failed.
    await t.ctx.console.updatePackage(admin, 'pkg_a_1gb', { ...pricing, rolePrices: [...pricing.rolePrices, { role: 'Agent', price: 940 }] });
    try {
      const before = await t.wallet('usr_agent', 'live');
      const res = await retry(KEYS.agentLive, { orderId: id, beneficiaryMsisdn: '0244450000' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const { amountCharged, previousAmount, priceChanged, message, walletBalanceBefore, walletBalanceAfter } = res.body.data;
      assert.deepEqual({ amountCharged, previousAmount, priceChanged }, { amountCharged: 9.4, previousAmount: 9, priceChanged: true });
      assert.equal(message, "Recipient 233244450000 resubmitted (attempt 2) at the package's current price, GHS 9.40; its previous charge was GHS 9.00");
      assert.deepEqual([walletBalanceBefore, walletBalanceAfter], [before.available / 100, (before.available - 940) / 100]);
      assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: before.available - 940, held: before.held + 940 });
      const recipient = (await order(KEYS.agentLive, id)).bulkRecipients.find((r: Recipient) => r.beneficiaryMsisdn === '233244450000');
      assert.equal(recipient.amount, 9.4, 'the recipient shows what it was charged this time');
      await settled(worker, KEYS.agentLive, id);
      assert.deepEqual(await t.wallet('usr_agent', 'live'), before, 'failed again: refunded at the price charged');
    } finally {
      await t.ctx.console.updatePackage(admin, 'pkg_a_1gb', { ...pricing, rolePrices: [...pricing.rolePrices, { role: 'Agent', price: 900 }] });
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
