import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS, liveKeyOf } from '../support/keys.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { ledgerEntries, ledgerProblems } from '../support/ledger.js';
import { stockOf } from '../support/result-checker.js';

const BUY = '/api/v1/result-checker/buy-single';
const status = (id: string) => `/api/v1/result-checker/orders/${id}/status`;
const PHONE = '0244123456';
const PHONE_INTL = '233244123456';

/** Fixture (WASSCE: 3 credentials, Agent 19 / SuperAgent 18; BECE: none, 15; OLD: inactive) plus a poor agent. */
const SEED = fixtureWith({ profiles: [agentProfile('usr_poor', { live: 5, test: 5 })] });

function assertError(res: { status: number; body: { success: boolean; error: { code: string; message: string } } }, httpStatus: number, code: string) {
  assert.equal(res.status, httpStatus, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, code);
  assert.equal(typeof res.body.error.message, 'string');
}

describe('POST /api/v1/result-checker/buy-single', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: SEED });
  });
  after(() => t.close());

  test('GET /result-checker/packages: active only, the price each role pays, unassigned live stock', async () => {
    const prices: Record<string, number> = {};
    for (const [role, key] of [['SuperAgent', KEYS.superLive], ['Agent', KEYS.agentLive], ['Customer', KEYS.customerLive]] as const) {
      const res = await t.call('GET', '/api/v1/result-checker/packages', { key });
      assert.equal(res.status, 200);
      const list = res.body.data as { _id: string; price: number; stockAvailable: number }[];
      assert.deepEqual(list.map((p) => p._id), ['rcp_wassce', 'rcp_bece']);
      prices[role] = list[0]?.price ?? -1;
      assert.deepEqual(list.map((p) => p.stockAvailable), [3, 0]);
    }
    assert.deepEqual(prices, { SuperAgent: 18, Agent: 19, Customer: 20 });
  });

  test('a SuperAgent buys at the role price: exact response, one credential, wallet debited, stock down', async () => {
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), 3);
    const res = await t.call('POST', BUY, { key: KEYS.superLive, body: { packageId: 'rcp_wassce', recipientPhone: PHONE } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    const data = res.body.data;
    assert.deepEqual(Object.keys(data).sort(), ['credential', 'shortReference', 'status', 'transactionId']);
    assert.equal(data.status, 'completed');
    assert.match(data.shortReference, /^RC[2-9A-HJKMNP-Z]{8}$/);
    // The oldest credential in stock goes first.
    assert.deepEqual(data.credential, { username: 'WAS001', password: '1111-0001' });
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 48200, held: 0 });
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), 2);

    const read = await t.call('GET', status(data.transactionId), { key: KEYS.superLive });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body.data, {
      _id: data.transactionId,
      shortReference: data.shortReference,
      state: 'completed',
      paymentGatewayStatus: null,
      amount: 18,
      currency: 'GHS',
      packageName: 'WASSCE Checker',
      buyerPhone: PHONE_INTL,
      credential: { username: 'WAS001', password: '1111-0001' },
      createdAt: read.body.data.createdAt,
      completedAt: read.body.data.completedAt,
    });
    assert.ok(read.body.data.completedAt >= read.body.data.createdAt);

    // The purchase is an order of type result_checker (listed by GET /orders) with the same id.
    const order = await t.database.db.selectFrom('orders').selectAll().where('id', '=', data.transactionId).executeTakeFirstOrThrow();
    assert.equal(order.order_type, 'result_checker');
    assert.equal(order.state, 'completed');
    assert.equal(order.profile_id, 'usr_super');
    assert.equal(order.mode, 'live');
    assert.equal(order.amount, 1800);
    assert.equal(order.beneficiary_msisdn, PHONE_INTL);
    assert.equal(order.package_id, 'rcp_wassce');
    assert.equal(order.package_label, 'WASSCE Checker');
    assert.equal(order.rc_transaction_id, data.transactionId);
    assert.equal(order.short_reference, data.shortReference);
    assert.equal(order.wallet_balance_before, 50000);
    assert.equal(order.wallet_balance_after, 48200);
    assert.equal(order.is_bulk, 0);
    assert.ok(order.completed_at !== null);

    assert.deepEqual(await ledgerEntries(t, 'usr_super', 'live'), [
      {
        kind: 'rc_debit',
        available_delta: -1800,
        held_delta: 0,
        order_id: data.transactionId,
        rc_transaction_id: data.transactionId,
        top_up_id: null,
        idempotency_key: `rc_debit:${data.transactionId}`,
      },
    ]);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('an Agent pays the Agent price; phone formats normalise', async () => {
    for (const [phone, username] of [['+233 24 412 3456', 'WAS002'], ['233244123456', 'WAS003']] as const) {
      const res = await t.call('POST', BUY, { key: KEYS.agentLive, body: { packageId: 'rcp_wassce', recipientPhone: phone } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.credential.username, username);
      const read = await t.call('GET', status(res.body.data.transactionId), { key: KEYS.agentLive });
      assert.equal(read.body.data.buyerPhone, PHONE_INTL);
      assert.equal(read.body.data.amount, 19);
    }
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 6200, held: 0 });
    assert.equal(await stockOf(t, KEYS.agentLive, 'rcp_wassce'), 0);
  });

  test('Customer and Staff keys are refused with 403 RC_WALLET_BUY_FAILED, even with a bad body', async () => {
    for (const key of [KEYS.customerLive, KEYS.customerTest, KEYS.staffLive]) {
      for (const body of [{ packageId: 'rcp_bece', recipientPhone: PHONE }, { nonsense: true }]) {
        assertError(await t.call('POST', BUY, { key, body }), 403, 'RC_WALLET_BUY_FAILED');
      }
    }
    assert.deepEqual(await t.wallet('usr_customer', 'live'), { available: 3000, held: 0 });
    assert.deepEqual(await t.wallet('usr_staff', 'live'), { available: 1000, held: 0 });
  });

  test('keys and suspension are checked first (401 / 403 PROFILE_SUSPENDED)', async () => {
    assertError(await t.call('POST', BUY, { body: { packageId: 'rcp_bece', recipientPhone: PHONE } }), 401, 'UNAUTHORIZED');
    assertError(await t.call('POST', BUY, { key: KEYS.superRevoked, body: { packageId: 'rcp_bece', recipientPhone: PHONE } }), 401, 'UNAUTHORIZED');
    assertError(await t.call('POST', BUY, { key: KEYS.suspendedLive, body: { packageId: 'rcp_bece', recipientPhone: PHONE } }), 403, 'PROFILE_SUSPENDED');
  });

  test('invalid parameters are 400 RC_WALLET_BUY_FAILED and charge nothing', async () => {
    const before = await t.wallet('usr_super', 'live');
    const bodies: unknown[] = [
      {},
      { packageId: 'rcp_bece' },
      { recipientPhone: PHONE },
      { packageId: '', recipientPhone: PHONE },
      { packageId: 'rcp_bece', recipientPhone: '' },
      { packageId: 'rcp_nope', recipientPhone: PHONE },
      { packageId: 'rcp_old', recipientPhone: PHONE },
      { packageId: 'rcp_bece', recipientPhone: '12345' },
      { packageId: 'rcp_bece', recipientPhone: '+44 20 7946 0958' },
      { packageId: 'rcp_bece', recipientPhone: 'not a phone' },
      { packageId: 'rcp_bece', recipientPhone: PHONE, extra: 1 },
      { packageId: ['rcp_bece'], recipientPhone: PHONE },
    ];
    for (const body of bodies) {
      assertError(await t.call('POST', BUY, { key: KEYS.superLive, body }), 400, 'RC_WALLET_BUY_FAILED');
    }
    const malformed = await t.call('POST', BUY, {
      key: KEYS.superLive,
      body: '{"packageId":',
      headers: { 'content-type': 'application/json' },
    });
    assertError(malformed, 400, 'INVALID_JSON');
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
  });

  test('insufficient balance is 402 and writes nothing, even when out of stock too', async () => {
    const count = async () => (await t.database.db.selectFrom('rc_transactions').select('id').execute()).length;
    const transactions = await count();
    for (const packageId of ['rcp_bece', 'rcp_wassce']) {
      assertError(
        await t.call('POST', BUY, { key: liveKeyOf('usr_poor'), body: { packageId, recipientPhone: PHONE } }),
        402,
        'RC_WALLET_BUY_FAILED',
      );
    }
    assert.deepEqual(await t.wallet('usr_poor', 'live'), { available: 500, held: 0 });
    assert.equal(await count(), transactions);
    assert.deepEqual(await ledgerEntries(t, 'usr_poor', 'live'), []);
  });

  test('out of stock: 409 RC_WALLET_BUY_FAILED, debit refunded, the failed attempt kept for audit', async () => {
    const before = await t.wallet('usr_super', 'live');
    for (const packageId of ['rcp_bece', 'rcp_wassce']) {
      const res = await t.call('POST', BUY, { key: KEYS.superLive, body: { packageId, recipientPhone: PHONE } });
      assertError(res, 409, 'RC_WALLET_BUY_FAILED');
      assert.match(res.body.error.message, /out of stock/i);
    }
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);

    const failed = await t.database.db
      .selectFrom('rc_transactions')
      .selectAll()
      .where('profile_id', '=', 'usr_super')
      .where('state', '=', 'failed')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    assert.equal(failed.length, 2);
    for (const f of failed) {
      assert.equal(f.credential_id, null);
      assert.equal(f.credential_secret, null);
      const read = await t.call('GET', status(f.id), { key: KEYS.superLive });
      assert.equal(read.status, 200);
      assert.equal(read.body.data.state, 'failed');
      assert.equal(read.body.data.credential, null);
      assert.equal(read.body.data.completedAt, null);
      const order = await t.database.db.selectFrom('orders').selectAll().where('id', '=', f.id).executeTakeFirstOrThrow();
      assert.equal(order.state, 'failed');
      assert.equal(order.order_type, 'result_checker');
      assert.equal(order.completed_at, null);
      assert.match(order.error_message ?? '', /out of stock/i);
      const entries = (await ledgerEntries(t, 'usr_super', 'live')).filter((e) => e.rc_transaction_id === f.id);
      assert.deepEqual(
        entries.map((e) => [e.kind, e.available_delta, e.order_id]),
        [
          ['rc_debit', -f.amount, f.id],
          ['rc_refund', f.amount, f.id],
        ],
      );
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('status read: unknown, another owner’s and the other mode’s transactions are 404 ORDER_NOT_FOUND', async () => {
    const mine = await t.database.db
      .selectFrom('rc_transactions')
      .select('id')
      .where('profile_id', '=', 'usr_super')
      .where('mode', '=', 'live')
      .where('state', '=', 'completed')
      .executeTakeFirstOrThrow();
    assert.equal((await t.call('GET', status(mine.id), { key: KEYS.superLive })).status, 200);
    for (const key of [KEYS.agentLive, KEYS.customerLive, KEYS.superTest]) {
      const res = await t.call('GET', status(mine.id), { key });
      assertError(res, 404, 'ORDER_NOT_FOUND');
      assert.ok(!JSON.stringify(res.body).includes('WAS0'));
    }
    assertError(await t.call('GET', status('rc_unknown'), { key: KEYS.superLive }), 404, 'ORDER_NOT_FOUND');
    assertError(await t.call('GET', status('x'.repeat(90)), { key: KEYS.superLive }), 404, 'ORDER_NOT_FOUND');
    assertError(await t.call('GET', status(mine.id), {}), 401, 'UNAUTHORIZED');
    assertError(await t.call('GET', `/api/v1/result-checker/orders/${mine.id}/other`, { key: KEYS.superLive }), 404, 'NOT_FOUND');
  });

  test('purchases appear in GET /api/v1/orders as orderType result_checker, own and mode only', async () => {
    const rows = await t.database.db
      .selectFrom('rc_transactions')
      .select(['id', 'state'])
      .where('profile_id', '=', 'usr_super')
      .where('mode', '=', 'live')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    assert.equal(rows.length, 3);
    const list = await t.call('GET', '/api/v1/orders?orderType=result_checker', { key: KEYS.superLive });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.data.orders.map((o: { _id: string; state: string; orderType: string }) => [o._id, o.state, o.orderType]),
      rows.map((r) => [r.id, r.state, 'result_checker']),
    );
    const byDefault = await t.call('GET', '/api/v1/orders', { key: KEYS.superLive });
    assert.ok(rows.every((r) => byDefault.body.data.orders.some((o: { _id: string }) => o._id === r.id)));
    const completed = rows.find((r) => r.state === 'completed');
    assert.ok(completed);
    const one = await t.call('GET', `/api/v1/orders/${completed.id}`, { key: KEYS.superLive });
    assert.equal(one.status, 200);
    assert.equal(one.body.data.orderType, 'result_checker');
    assert.equal(one.body.data.amount, 18);
    assert.equal(one.body.data.beneficiaryMsisdn, PHONE_INTL);
    assert.equal(one.body.data.walletBalanceBefore, 500);
    assert.equal(one.body.data.walletBalanceAfter, 482);
    assert.ok(!JSON.stringify(one.body).includes('WAS0'));
    for (const key of [KEYS.agentLive, KEYS.superTest]) {
      assertError(await t.call('GET', `/api/v1/orders/${completed.id}`, { key }), 404, 'ORDER_NOT_FOUND');
      const others = await t.call('GET', '/api/v1/orders?orderType=all', { key });
      assert.ok(!others.body.data.orders.some((o: { _id: string }) => rows.some((r) => r.id === o._id)));
    }
  });
});

describe('result-checker purchases in test mode (docs/api.md, "Live and test modes")', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: SEED });
  });
  after(() => t.close());

  test('a test key gets a sandbox credential from the test wallet; live stock and wallet untouched', async () => {
    const credentialsBefore = await t.database.db.selectFrom('rc_credentials').selectAll().orderBy('id').execute();
    const seen = new Set<string>();
    for (const packageId of ['rcp_wassce', 'rcp_bece', 'rcp_bece']) {
      const res = await t.call('POST', BUY, { key: KEYS.superTest, body: { packageId, recipientPhone: PHONE } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.data.status, 'completed');
      assert.match(res.body.data.credential.username, /^SBX\d{9}$/);
      assert.match(res.body.data.credential.password, /^\d{4}-\d{4}$/);
      seen.add(res.body.data.credential.username);
      const read = await t.call('GET', status(res.body.data.transactionId), { key: KEYS.superTest });
      assert.deepEqual(read.body.data.credential, res.body.data.credential);
      assertError(await t.call('GET', status(res.body.data.transactionId), { key: KEYS.superLive }), 404, 'ORDER_NOT_FOUND');
    }
    assert.equal(seen.size, 3);
    // 18 (WASSCE SuperAgent price) + 2 × 15 (BECE) out of 1000.
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: 100000 - 4800, held: 0 });
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000, held: 0 });
    assert.deepEqual(await t.database.db.selectFrom('rc_credentials').selectAll().orderBy('id').execute(), credentialsBefore);
    assert.equal(await stockOf(t, KEYS.superTest, 'rcp_wassce'), 3);

    const rows = await t.database.db.selectFrom('rc_transactions').selectAll().where('mode', '=', 'test').execute();
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.equal(row.credential_id, null);
      assert.ok(row.credential_secret && !row.credential_secret.includes('SBX'));
    }
    const orders = await t.database.db.selectFrom('orders').select(['mode', 'order_type', 'state']).execute();
    assert.deepEqual(orders, rows.map(() => ({ mode: 'test', order_type: 'result_checker', state: 'completed' })));
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('test mode applies the same rules: role, inactive package, phone, balance', async () => {
    assertError(await t.call('POST', BUY, { key: KEYS.customerTest, body: { packageId: 'rcp_bece', recipientPhone: PHONE } }), 403, 'RC_WALLET_BUY_FAILED');
    assertError(await t.call('POST', BUY, { key: KEYS.superTest, body: { packageId: 'rcp_old', recipientPhone: PHONE } }), 400, 'RC_WALLET_BUY_FAILED');
    assertError(await t.call('POST', BUY, { key: KEYS.superTest, body: { packageId: 'rcp_bece', recipientPhone: '0000' } }), 400, 'RC_WALLET_BUY_FAILED');
    // Agent test wallet: 50 GHS; WASSCE at 19 → two purchases, then 402.
    for (let i = 0; i < 2; i++) {
      const res = await t.call('POST', BUY, { key: KEYS.agentTest, body: { packageId: 'rcp_wassce', recipientPhone: PHONE } });
      assert.equal(res.status, 200);
    }
    assertError(await t.call('POST', BUY, { key: KEYS.agentTest, body: { packageId: 'rcp_wassce', recipientPhone: PHONE } }), 402, 'RC_WALLET_BUY_FAILED');
    assert.deepEqual(await t.wallet('usr_agent', 'test'), { available: 1200, held: 0 });
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    assert.equal(await stockOf(t, KEYS.agentLive, 'rcp_wassce'), 3);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
