import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { A_1GB, A_2GB, buySingle, newWorker, waitForState } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';

const URL = '/api/v1/data-bundles/buy-single';

describe('POST /data-bundles/buy-single', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '20' } });
  });
  after(() => t.close());

  /** Runs `attempt`, which must be refused without a trace: balances, orders and ledger entries as they were. */
  async function unchanged(profileId: string, mode: 'live' | 'test', attempt: () => Promise<void>) {
    const count = async (table: 'orders' | 'ledger_entries') =>
      Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await t.wallet(profileId, mode);
    const [ordersBefore, entriesBefore] = [await count('orders'), await count('ledger_entries')];
    await attempt();
    assert.deepEqual(await t.wallet(profileId, mode), before, 'wallet must not change');
    assert.equal(await count('orders'), ordersBefore, 'no order may be written');
    assert.equal(await count('ledger_entries'), entriesBefore, 'no ledger entry may be written');
  }

  function expectError(res: { status: number; body: { success: boolean; error: { code: string } } }, status: number, code = 'BUY_DATA_FAILED') {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, code);
  }

  test('a purchase holds the role price and answers with exactly the 4.9 fields', async () => {
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    const res = await buySingle(t, KEYS.agentLive, '0244123456');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    const data = res.body.data;
    assert.deepEqual(Object.keys(data).sort(), [
      'amountCharged', 'message', 'orderId', 'shortReference', 'status', 'success', 'walletBalanceAfter', 'walletBalanceBefore',
    ]);
    assert.equal(data.success, true);
    assert.equal(data.status, 'processing');
    assert.equal(data.amountCharged, 9);
    assert.equal(data.walletBalanceBefore, 100);
    assert.equal(data.walletBalanceAfter, 91);
    assert.match(data.shortReference, /^[A-Z0-9-]{6,}$/);
    assert.equal(typeof data.message, 'string');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });

    const order = (await t.call('GET', `/api/v1/orders/${data.orderId}`, { key: KEYS.agentLive })).body.data;
    assert.equal(order.state, 'processing');
    assert.equal(order.beneficiaryMsisdn, '233244123456');
    assert.equal(order.amount, 9);
    assert.equal(order.orderType, 'data');
    assert.equal(order.packageId, 'pkg_a_1gb');
    assert.equal(order.operatorName, 'Alpha Mobile');
    assert.equal(order.walletBalanceBefore, 100);
    assert.equal(order.walletBalanceAfter, 91);
    assert.equal(order.isBulkOrder, false);
    assert.equal(order.bulkRecipients, null);
    assert.equal(order.submittedAt, null);
    assert.equal(order.completedAt, null);
    // One order, one item, one outbox row, one hold entry.
    const items = await t.database.db.selectFrom('order_items').selectAll().where('order_id', '=', data.orderId).execute();
    assert.equal(items.length, 1);
    assert.equal(items[0]?.status, 'pending');
    assert.equal(items[0]?.attempt, 1);
    const outbox = await t.database.db.selectFrom('outbox').selectAll().where('order_item_id', '=', String(items[0]?.id)).execute();
    assert.equal(outbox.length, 1);
    assert.equal(outbox[0]?.kind, 'submit');
    const entries = await t.database.db.selectFrom('ledger_entries').selectAll().where('order_id', '=', data.orderId).execute();
    assert.deepEqual(entries.map((e) => [e.kind, Number(e.available_delta), Number(e.held_delta), e.idempotency_key]), [
      ['data_hold', -900, 900, `hold:${String(items[0]?.id)}:1`],
    ]);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('role-aware price: Customer, SuperAgent and Staff each pay their own price', async () => {
    const cases = [
      { key: KEYS.customerLive, profile: 'usr_customer', msisdn: '0244123401', price: 1000 },
      { key: KEYS.superLive, profile: 'usr_super', msisdn: '0244123402', price: 850 },
      { key: KEYS.staffLive, profile: 'usr_staff', msisdn: '0244123403', price: 725 },
    ];
    for (const c of cases) {
      const before = await t.wallet(c.profile, 'live');
      const res = await buySingle(t, c.key, c.msisdn);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.amountCharged, c.price / 100);
      assert.equal(res.body.data.walletBalanceBefore, before.available / 100);
      assert.equal(res.body.data.walletBalanceAfter, (before.available - c.price) / 100);
      assert.deepEqual(await t.wallet(c.profile, 'live'), { available: before.available - c.price, held: before.held + c.price });
    }
  });

  test('body validation: missing, mistyped or unknown fields are 400 BUY_DATA_FAILED; bad JSON is INVALID_JSON', async () => {
    await unchanged('usr_agent', 'live', async () => {
      for (const body of [
        {},
        { ...A_1GB },
        { productId: 'prd_a', operatorId: 'op_a', beneficiaryMsisdn: '0244123410' },
        { ...A_1GB, beneficiaryMsisdn: '' },
        { ...A_1GB, beneficiaryMsisdn: { n: 1 } },
        { ...A_1GB, beneficiaryMsisdn: '0244123410', surprise: true },
        [],
      ]) {
        expectError(await t.call('POST', URL, { key: KEYS.agentLive, body }), 400);
      }
      const res = await t.call('POST', URL, {
        key: KEYS.agentLive,
        body: '{"packageId": ',
        headers: { 'content-type': 'application/json' },
      });
      expectError(res, 400, 'INVALID_JSON');
    });
  });

  test('rule 1: operator, product and package must exist, belong together and be on sale', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ ...A_1GB, operatorId: 'op_nope' }, /Operator op_nope not found/],
      [{ ...A_1GB, productId: 'prd_nope' }, /Product prd_nope not found/],
      [{ ...A_1GB, packageId: 'pkg_nope' }, /pkg_nope not found/],
      [{ ...A_1GB, productId: 'prd_b' }, /does not belong to operator/],
      [{ ...A_1GB, packageId: 'pkg_b_1gb' }, /does not belong to product/],
      [{ operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_inactive' }, /not active/],
      [{ operatorId: 'op_a', productId: 'prd_a_off', packageId: 'pkg_a_legacy' }, /not available/],
      [{ operatorId: 'op_off', productId: 'prd_off', packageId: 'pkg_off_1gb' }, /not active/],
    ];
    await unchanged('usr_agent', 'live', async () => {
      for (const [pkg, message] of cases) {
        const res = await buySingle(t, KEYS.agentLive, '0244123411', {}, pkg);
        expectError(res, 400);
        assert.match(res.body.error.message, message, JSON.stringify(pkg));
      }
      // The catalog is judged before the number (rule 1 before rule 2).
      const res = await buySingle(t, KEYS.agentLive, 'not a number', {}, { ...A_1GB, packageId: 'pkg_a_inactive' });
      assert.match(res.body.error.message, /not active/);
    });
  });

  test('rule 2: the number is normalised; anything that is not a Ghana mobile number is 400', async () => {
    await unchanged('usr_agent', 'live', async () => {
      for (const bad of ['12345', 'abc', '02441234', '+44 20 7946 0958', '0302123456', '0244123456789']) {
        const res = await buySingle(t, KEYS.agentLive, bad);
        expectError(res, 400);
        assert.match(res.body.error.message, /not a valid Ghana mobile number/, bad);
      }
    });
    const res = await buySingle(t, KEYS.agentLive, '+233 24 412 3420');
    assert.equal(res.status, 200);
    const order = await t.call('GET', `/api/v1/orders/${res.body.data.orderId}`, { key: KEYS.agentLive });
    assert.equal(order.body.data.beneficiaryMsisdn, '233244123420');
    // Every spelling of the same number is the same number (and now in flight).
    await unchanged('usr_agent', 'live', async () => {
      for (const spelling of ['0244123420', '244123420', '233244123420', '+233244123420']) {
        expectError(await buySingle(t, KEYS.agentLive, spelling), 409);
      }
    });
  });

  test('rule 3: an open order for the number blocks any caller in the same mode (409), without naming who', async () => {
    const first = await buySingle(t, KEYS.superLive, '0554123430');
    assert.equal(first.status, 200);
    await unchanged('usr_customer', 'live', async () => {
      const res = await buySingle(t, KEYS.customerLive, '0554123430');
      expectError(res, 409);
      assert.doesNotMatch(res.body.error.message, /usr_super|Ama|Mensah|SUPER|ord_/i);
    });
    // The same number in test mode is another world.
    const testMode = await buySingle(t, KEYS.customerTest, '0554123430');
    assert.equal(testMode.status, 200, JSON.stringify(testMode.body));
  });

  test('rule 3 (in-flight) is checked before the balance; the balance before nothing else', async () => {
    await buySingle(t, KEYS.superLive, '0554123431');
    await unchanged('usr_staff', 'live', async () => {
      // Staff cannot afford a 20.50 package, but the in-flight block answers first.
      expectError(await buySingle(t, KEYS.staffLive, '0554123431', {}, A_2GB), 409);
      expectError(await buySingle(t, KEYS.staffLive, '0554123432', {}, A_2GB), 402);
    });
    // Before a repeated paymentReference too.
    assert.equal((await buySingle(t, KEYS.agentTest, '0554123433', { paymentReference: 'INV-3301' })).status, 200);
    await unchanged('usr_agent', 'test', async () => {
      const both = await buySingle(t, KEYS.agentTest, '0554123433', { paymentReference: 'INV-3301' });
      expectError(both, 409);
      assert.match(both.body.error.message, /in progress/);
    });
  });

  test('paymentReference: a repeat is 409 and charges nothing; it is unique per profile and mode only', async () => {
    const first = await buySingle(t, KEYS.agentTest, '0244123440', { paymentReference: 'INV-1001' });
    assert.equal(first.status, 200);
    await unchanged('usr_agent', 'test', async () => {
      const again = await buySingle(t, KEYS.agentTest, '0244123441', { paymentReference: 'INV-1001' });
      expectError(again, 409);
      assert.match(again.body.error.message, /paymentReference/);
    });
    const otherMode = await buySingle(t, KEYS.agentLive, '0244123442', { paymentReference: 'INV-1001' });
    assert.equal(otherMode.status, 200);
    const otherProfile = await buySingle(t, KEYS.superTest, '0244123443', { paymentReference: 'INV-1001' });
    assert.equal(otherProfile.status, 200);
    const stored = await t.database.db
      .selectFrom('orders')
      .select(['payment_reference', 'anonymous_id'])
      .where('id', '=', first.body.data.orderId)
      .executeTakeFirstOrThrow();
    assert.equal(stored.payment_reference, 'INV-1001');
  });

  test('rule 5: a wallet that cannot pay is 402, charges nothing and writes nothing; it can be spent to exactly zero', async () => {
    const before = await t.wallet('usr_customer', 'test');
    assert.deepEqual(before, { available: 2000, held: 1000 });
    const res = await buySingle(t, KEYS.customerTest, '0244123451', {}, A_2GB);
    expectError(res, 402);
    assert.match(res.body.error.message, /Insufficient wallet balance/);
    assert.deepEqual(await t.wallet('usr_customer', 'test'), before);
    const written = await t.database.db.selectFrom('order_items').select('id').where('beneficiary_msisdn', '=', '233244123451').execute();
    assert.equal(written.length, 0);

    assert.equal((await buySingle(t, KEYS.customerTest, '0244123452')).status, 200);
    const last = await buySingle(t, KEYS.customerTest, '0244123453');
    assert.equal(last.status, 200);
    assert.equal(last.body.data.walletBalanceAfter, 0);
    assert.deepEqual(await t.wallet('usr_customer', 'test'), { available: 0, held: 3000 });
    expectError(await buySingle(t, KEYS.customerTest, '0244123454'), 402);
    assert.deepEqual(await t.wallet('usr_customer', 'test'), { available: 0, held: 3000 });
  });

  test('401 without a valid key, 403 for a suspended profile; nothing is charged', async () => {
    await unchanged('usr_suspended', 'live', async () => {
      expectError(await t.call('POST', URL, { body: { ...A_1GB, beneficiaryMsisdn: '0244123460' } }), 401, 'UNAUTHORIZED');
      expectError(await buySingle(t, 'service_live_nobodyHasThisKey01', '0244123460'), 401, 'UNAUTHORIZED');
      expectError(await buySingle(t, KEYS.suspendedLive, '0244123460'), 403, 'PROFILE_SUSPENDED');
    });
  });

  test('once the order settles the number can be bought again; the ledger verifies', async () => {
    const worker = newWorker(t);
    worker.start();
    try {
      const first = await buySingle(t, KEYS.agentLive, '0244123470');
      await waitForState(t, KEYS.agentLive, first.body.data.orderId, ['completed']);
      const second = await buySingle(t, KEYS.agentLive, '0244123470');
      assert.equal(second.status, 200);
      await waitForState(t, KEYS.agentLive, second.body.data.orderId, ['completed']);
    } finally {
      await worker.stop();
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
