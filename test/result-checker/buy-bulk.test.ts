import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestApp, type TestApp } from '../support/app.js';
import { KEYS, liveKeyOf } from '../support/keys.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { ledgerEntries, ledgerProblems } from '../support/ledger.js';
import { stockOf } from '../support/result-checker.js';

const BULK = '/api/v1/result-checker/buy-bulk';
const status = (id: string) => `/api/v1/result-checker/orders/${id}/status`;
const PHONE = '0244123456';
const SMALL = liveKeyOf('usr_small');

// Fixture: WASSCE 3 credentials (SuperAgent 18, Agent 19); BECE none (15); OLD inactive.
const SEED = fixtureWith({ profiles: [agentProfile('usr_small', { live: 40 })] });
const item = (packageId: string, recipientPhone = PHONE) => ({ packageId, recipientPhone });

function assertError(res: { status: number; body: { success: boolean; error: { code: string } } }, httpStatus: number, code: string) {
  assert.equal(res.status, httpStatus, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, code);
}

async function counts(t: TestApp) {
  const n = async (table: 'rc_transactions' | 'orders' | 'ledger_entries') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { transactions: await n('rc_transactions'), orders: await n('orders'), entries: await n('ledger_entries') };
}

describe('POST /api/v1/result-checker/buy-bulk (docs/api.md, "Result checkers")', () => {
  test('all items bought with one debit for the total: exact response, credentials distinct, stock and wallet', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const res = await t.call('POST', BULK, {
      key: KEYS.superLive,
      body: { items: [item('rcp_wassce', '+233 24 412 3456'), item('rcp_wassce', '0554000052')] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data;
    assert.deepEqual(Object.keys(data).sort(), ['failures', 'status', 'totalAmount', 'transactions']);
    assert.equal(data.status, 'completed');
    assert.equal(data.totalAmount, 36);
    assert.deepEqual(data.failures, []);
    assert.deepEqual(
      data.transactions.map((x: { recipientPhone: string; credential: unknown }) => [x.recipientPhone, x.credential]),
      [
        ['233244123456', { username: 'WAS001', password: '1111-0001' }],
        ['233554000052', { username: 'WAS002', password: '1111-0002' }],
      ],
    );
    for (const x of data.transactions) {
      assert.deepEqual(Object.keys(x).sort(), ['credential', 'recipientPhone', 'transactionId']);
      const read = await t.call('GET', status(x.transactionId), { key: KEYS.superLive });
      assert.equal(read.body.data.state, 'completed');
      assert.deepEqual(read.body.data.credential, x.credential);
      assert.equal(read.body.data.amount, 18);
    }
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000 - 3600, held: 0 });
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), 1);

    const entries = await ledgerEntries(t, 'usr_super', 'live');
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.kind, 'rc_debit');
    assert.equal(entries[0]?.available_delta, -3600);
    assert.match(entries[0]?.idempotency_key ?? '', /^rc_bulk_debit:/);

    // One order per credential; the balances chain as if charged one after another.
    const orders = await t.database.db
      .selectFrom('orders')
      .select(['id', 'order_type', 'state', 'amount', 'wallet_balance_before', 'wallet_balance_after', 'beneficiary_msisdn', 'is_bulk'])
      .orderBy('wallet_balance_before', 'desc')
      .execute();
    assert.deepEqual(orders, [
      { id: data.transactions[0].transactionId, order_type: 'result_checker', state: 'completed', amount: 1800, wallet_balance_before: 50000, wallet_balance_after: 48200, beneficiary_msisdn: '233244123456', is_bulk: 0 },
      { id: data.transactions[1].transactionId, order_type: 'result_checker', state: 'completed', amount: 1800, wallet_balance_before: 48200, wallet_balance_after: 46400, beneficiary_msisdn: '233554000052', is_bulk: 0 },
    ]);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('partial failure: invalid items listed and never charged, out-of-stock items refunded, the rest sold', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const items = [
      item('rcp_wassce'), // 0 ok
      item('rcp_bece'), // 1 out of stock → refunded
      item('rcp_wassce'), // 2 ok
      item('rcp_nope'), // 3 unknown package → not charged
      item('rcp_old'), // 4 inactive → not charged
      item('rcp_wassce', '12345'), // 5 bad phone → not charged
      item('rcp_wassce'), // 6 ok (last credential)
      item('rcp_wassce'), // 7 out of stock → refunded
    ];
    const res = await t.call('POST', BULK, { key: KEYS.superLive, body: { items } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data;
    assert.equal(data.transactions.length, 3);
    assert.deepEqual(
      data.transactions.map((x: { credential: { username: string } }) => x.credential.username),
      ['WAS001', 'WAS002', 'WAS003'],
    );
    assert.deepEqual(
      data.failures.map((f: { index: number; packageId: string; recipientPhone: string; error: { code: string } }) => [
        f.index,
        f.packageId,
        f.recipientPhone,
        f.error.code,
      ]),
      [
        [1, 'rcp_bece', PHONE, 'RC_WALLET_BULK_BUY_FAILED'],
        [3, 'rcp_nope', PHONE, 'RC_WALLET_BULK_BUY_FAILED'],
        [4, 'rcp_old', PHONE, 'RC_WALLET_BULK_BUY_FAILED'],
        [5, 'rcp_wassce', '12345', 'RC_WALLET_BULK_BUY_FAILED'],
        [7, 'rcp_wassce', PHONE, 'RC_WALLET_BULK_BUY_FAILED'],
      ],
    );
    assert.match(data.failures[0].error.message, /out of stock/i);
    assert.match(data.failures[1].error.message, /does not exist/);
    assert.match(data.failures[2].error.message, /not active/);
    assert.match(data.failures[3].error.message, /phone/i);
    assert.equal(data.totalAmount, 54);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000 - 5400, held: 0 });

    // One debit for the 5 valid items (4 × 18 + 15), a refund per out-of-stock item.
    const entries = await ledgerEntries(t, 'usr_super', 'live');
    assert.deepEqual(
      entries.map((e) => [e.kind, e.available_delta]),
      [
        ['rc_debit', -8700],
        ['rc_refund', 1500],
        ['rc_refund', 1800],
      ],
    );
    const failedRows = await t.database.db.selectFrom('rc_transactions').select(['id', 'state', 'package_id']).where('state', '=', 'failed').execute();
    assert.equal(failedRows.length, 2);
    for (const f of failedRows) {
      const read = await t.call('GET', status(f.id), { key: KEYS.superLive });
      assert.equal(read.body.data.state, 'failed');
      assert.equal(read.body.data.credential, null);
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('every item failing is 409 RC_WALLET_BULK_BUY_FAILED with everything refunded', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const res = await t.call('POST', BULK, { key: KEYS.agentLive, body: { items: [item('rcp_bece'), item('rcp_bece', '0201000053'), item('rcp_old')] } });
    assertError(res, 409, 'RC_WALLET_BULK_BUY_FAILED');
    assert.match(res.body.error.message, /out of stock/i);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    assert.deepEqual(
      (await ledgerEntries(t, 'usr_agent', 'live')).map((e) => [e.kind, e.available_delta]),
      [
        ['rc_debit', -3000],
        ['rc_refund', 1500],
        ['rc_refund', 1500],
      ],
    );
    const rows = await t.database.db.selectFrom('orders').select(['state', 'order_type']).execute();
    assert.deepEqual(rows, [
      { state: 'failed', order_type: 'result_checker' },
      { state: 'failed', order_type: 'result_checker' },
    ]);

    // Nothing valid at all: 409 too, and nothing is written.
    const before = await counts(t);
    const invalid = await t.call('POST', BULK, { key: KEYS.agentLive, body: { items: [item('rcp_nope'), item('rcp_wassce', 'abc')] } });
    assertError(invalid, 409, 'RC_WALLET_BULK_BUY_FAILED');
    assert.deepEqual(await counts(t), before);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('403 for other roles, 400 for 0 or more than 20 items and malformed items, 402 for the total — nothing written', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const before = await counts(t);
    for (const key of [KEYS.customerLive, KEYS.customerTest, KEYS.staffLive]) {
      assertError(await t.call('POST', BULK, { key, body: { items: [item('rcp_wassce')] } }), 403, 'RC_WALLET_BULK_BUY_FAILED');
      assertError(await t.call('POST', BULK, { key, body: { items: [] } }), 403, 'RC_WALLET_BULK_BUY_FAILED');
    }
    const bad: unknown[] = [
      { items: [] },
      { items: Array.from({ length: 21 }, () => item('rcp_wassce')) },
      {},
      { items: 'rcp_wassce' },
      { items: [{ packageId: 'rcp_wassce' }] },
      { items: [{ recipientPhone: PHONE }] },
      { items: [item('rcp_wassce')], extra: true },
    ];
    for (const body of bad) {
      assertError(await t.call('POST', BULK, { key: KEYS.superLive, body }), 400, 'RC_WALLET_BULK_BUY_FAILED');
    }
    // usr_small has 40 GHS: two WASSCE at the Agent price (38) fit, three (57) do not.
    assertError(
      await t.call('POST', BULK, { key: SMALL, body: { items: [item('rcp_wassce'), item('rcp_wassce'), item('rcp_wassce')] } }),
      402,
      'RC_WALLET_BULK_BUY_FAILED',
    );
    // Invalid items do not count towards the total.
    assertError(
      await t.call('POST', BULK, { key: SMALL, body: { items: [item('rcp_wassce'), item('rcp_wassce'), item('rcp_bece'), item('rcp_nope')] } }),
      402,
      'RC_WALLET_BULK_BUY_FAILED',
    );
    assert.deepEqual(await counts(t), before);
    assert.deepEqual(await t.wallet('usr_small', 'live'), { available: 4000, held: 0 });
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), 3);

    const ok = await t.call('POST', BULK, { key: SMALL, body: { items: [item('rcp_wassce'), item('rcp_wassce'), item('rcp_nope')] } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.totalAmount, 38);
    assert.deepEqual(await t.wallet('usr_small', 'live'), { available: 200, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('test mode: sandbox credentials from the test wallet, live stock untouched, isolated from live', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const res = await t.call('POST', BULK, {
      key: KEYS.superTest,
      body: { items: [item('rcp_wassce'), item('rcp_bece'), item('rcp_bece'), item('rcp_old')] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.transactions.length, 3);
    for (const x of res.body.data.transactions) assert.match(x.credential.username, /^SBX\d{9}$/);
    assert.deepEqual(res.body.data.failures.map((f: { index: number }) => f.index), [3]);
    assert.equal(res.body.data.totalAmount, 48);
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: 100000 - 4800, held: 0 });
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000, held: 0 });
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), 3);
    const assigned = await t.database.db.selectFrom('rc_credentials').select('id').where('assigned_transaction_id', 'is not', null).execute();
    assert.deepEqual(assigned, []);
    for (const x of res.body.data.transactions) {
      assertError(await t.call('GET', status(x.transactionId), { key: KEYS.superLive }), 404, 'ORDER_NOT_FOUND');
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
