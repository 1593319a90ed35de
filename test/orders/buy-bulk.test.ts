import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';

const URL = '/api/v1/data-bundles/buy-bulk';

function items(...numbers: string[]) {
  return numbers.map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn }));
}

function numbers(count: number, prefix = '02441') {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(100 + i).padStart(5, '0')}`.slice(0, 10));
}

describe('POST /data-bundles/buy-bulk', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '20' } });
  });
  after(() => t.close());

  const bulk = (key: string, body: unknown) => t.call('POST', URL, { key, body });

  async function unchanged(profileId: string, mode: 'live' | 'test', attempt: () => Promise<void>) {
    const walletBefore = await t.wallet(profileId, mode);
    const ordersBefore = await t.database.db.selectFrom('orders').select('id').execute();
    await attempt();
    assert.deepEqual(await t.wallet(profileId, mode), walletBefore, 'wallet must not change');
    const ordersAfter = await t.database.db.selectFrom('orders').select('id').execute();
    assert.equal(ordersAfter.length, ordersBefore.length, 'no order may be written');
  }

  function expectError(res: { status: number; body: { success: boolean; error: { code: string; message: string } } }, status: number) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, 'BUY_DATA_BULK_FAILED');
  }

  test('Customer and Staff are refused with 403 before their body is even judged', async () => {
    for (const [key, profile] of [
      [KEYS.customerLive, 'usr_customer'],
      [KEYS.staffLive, 'usr_staff'],
    ] as const) {
      await unchanged(profile, 'live', async () => {
        expectError(await bulk(key, { operatorId: 'op_a', productId: 'prd_a', items: items('0244200051', '0244200052') }), 403);
        expectError(await bulk(key, { nonsense: true }), 403);
      });
    }
  });

  test('an item count outside 2..20 is 422', async () => {
    await unchanged('usr_agent', 'live', async () => {
      for (const count of [0, 1, 21]) {
        const res = await bulk(KEYS.agentLive, { operatorId: 'op_a', productId: 'prd_a', items: items(...numbers(count, '02442')) });
        expectError(res, 422);
      }
    });
  });

  test('malformed bodies are 400', async () => {
    await unchanged('usr_agent', 'live', async () => {
      for (const body of [
        {},
        { operatorId: 'op_a', productId: 'prd_a' },
        { operatorId: 'op_a', productId: 'prd_a', items: 'many' },
        { operatorId: 'op_a', items: items('0244200011', '0244200012') },
        { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb' }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244200013' }] },
      ]) {
        expectError(await bulk(KEYS.agentLive, body), 400);
      }
    });
  });

  test('every recipient is prevalidated: catalog, number and duplicates are 400 naming the item; nothing is written', async () => {
    const base = { operatorId: 'op_a', productId: 'prd_a' };
    const cases: [unknown, RegExp][] = [
      [{ ...base, operatorId: 'op_b', items: items('0244200021', '0244200022') }, /does not belong to operator/],
      [{ ...base, items: [...items('0244200021'), { packageId: 'pkg_b_1gb', beneficiaryMsisdn: '0244200022' }] }, /items\[1\].*does not belong/],
      [{ ...base, items: [...items('0244200021'), { packageId: 'pkg_a_inactive', beneficiaryMsisdn: '0244200022' }] }, /items\[1\].*not active/],
      [{ ...base, items: items('0244200021', '0244200022', '12345') }, /items\[2\].*not a valid Ghana mobile number/],
      [{ ...base, items: items('0244200021', '0244200022', '+233 24 420 0021') }, /items\[2\].*items\[0\]/],
      [{ operatorId: 'op_off', productId: 'prd_off', items: [{ packageId: 'pkg_off_1gb', beneficiaryMsisdn: '0244200021' }, { packageId: 'pkg_off_1gb', beneficiaryMsisdn: '0244200022' }] }, /not active/],
    ];
    await unchanged('usr_agent', 'live', async () => {
      for (const [body, message] of cases) {
        const res = await bulk(KEYS.agentLive, body);
        expectError(res, 400);
        assert.match(res.body.error.message, message);
      }
    });
  });

  test('a recipient already in flight (any caller, same mode) is 409 and nothing is charged', async () => {
    assert.equal((await buySingle(t, KEYS.customerLive, '0244200031')).status, 200);
    await unchanged('usr_agent', 'live', async () => {
      const res = await bulk(KEYS.agentLive, { operatorId: 'op_a', productId: 'prd_a', items: items('0244200030', '0244200031') });
      expectError(res, 409);
      assert.match(res.body.error.message, /items\[1\]/);
      assert.doesNotMatch(res.body.error.message, /usr_customer|Efua/);
    });
  });

  test('a total the wallet cannot cover is 402 and nothing is charged', async () => {
    // Agent test wallet: GHS 50; six recipients at GHS 9 = GHS 54.
    await unchanged('usr_agent', 'test', async () => {
      const res = await bulk(KEYS.agentTest, { operatorId: 'op_a', productId: 'prd_a', items: items(...numbers(6, '02443')) });
      expectError(res, 402);
    });
  });

  test('accepted: one parent order, one hold per recipient, exactly the 4.10 response fields', async () => {
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000, held: 0 });
    const body = {
      operatorId: 'op_a',
      productId: 'prd_a',
      items: [
        { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244200041' },
        { packageId: 'pkg_a_2gb', beneficiaryMsisdn: '+233 24 420 0042' },
        { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '244200043' },
      ],
    };
    const res = await bulk(KEYS.superLive, body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const data = res.body.data;
    assert.deepEqual(Object.keys(data).sort(), [
      'message', 'orderId', 'recipientCount', 'shortReference', 'status', 'success', 'totalAmount', 'walletBalanceAfter', 'walletBalanceBefore',
    ]);
    assert.equal(data.success, true);
    assert.equal(data.status, 'processing');
    assert.equal(data.recipientCount, 3);
    assert.equal(data.totalAmount, 8.5 + 20.5 + 8.5);
    assert.equal(data.walletBalanceBefore, 500);
    assert.equal(data.walletBalanceAfter, 500 - 37.5);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000 - 3750, held: 3750 });

    const order = (await t.call('GET', `/api/v1/orders/${data.orderId}`, { key: KEYS.superLive })).body.data;
    assert.equal(order.isBulkOrder, true);
    assert.equal(order.state, 'processing');
    assert.equal(order.amount, 37.5);
    assert.equal(order.bulkCompletedCount, 0);
    assert.equal(order.bulkFailedCount, 0);
    assert.deepEqual(
      order.bulkRecipients.map((r: { beneficiaryMsisdn: string; packageId: string; amount: number; status: string }) => [
        r.beneficiaryMsisdn, r.packageId, r.amount, r.status,
      ]),
      [
        ['233244200041', 'pkg_a_1gb', 8.5, 'pending'],
        ['233244200042', 'pkg_a_2gb', 20.5, 'pending'],
        ['233244200043', 'pkg_a_1gb', 8.5, 'pending'],
      ],
    );
    const holds = await t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'held_delta', 'order_item_id'])
      .where('order_id', '=', data.orderId)
      .execute();
    assert.equal(holds.length, 3);
    assert.ok(holds.every((h) => h.kind === 'data_hold' && h.order_item_id !== null));
    const outbox = await t.database.db
      .selectFrom('outbox as x')
      .innerJoin('order_items as i', 'i.id', 'x.order_item_id')
      .select('x.kind')
      .where('i.order_id', '=', data.orderId)
      .execute();
    assert.deepEqual(outbox.map((x) => x.kind), ['submit', 'submit', 'submit']);
    // Its recipients are now in flight for everyone.
    expectError(await bulk(KEYS.agentLive, { operatorId: 'op_a', productId: 'prd_a', items: items('0244200099', '0244200043') }), 409);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('20 recipients is the maximum that is accepted', async () => {
    const res = await bulk(KEYS.superTest, { operatorId: 'op_a', productId: 'prd_a', items: items(...numbers(20, '02444')) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.recipientCount, 20);
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: 100000 - 20 * 850, held: 20 * 850 });
  });
});
