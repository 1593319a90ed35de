import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { OrdersQuery, OrdersResponse } from '../../src/modules/orders/schemas.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import type { OrderState, OrderType } from '../../src/db/schema.js';
import { orderRow } from '../../src/modules/orders/rows.js';
import type { Mode } from '../../src/domain/types.js';
import { newId, shortReference } from '../../src/lib/ids.js';
import { buySingle, newWorker } from '../support/orders.js';
import { waitFor } from '../support/wait.js';
import { staffActor } from '../support/actor.js';

const ORDER_FIELDS = [
  '_creationTime', '_id', 'amount', 'beneficiaryMsisdn', 'bulkCompletedCount', 'bulkFailedCount', 'bulkRecipients', 'completedAt',
  'createdAt', 'currency', 'errorMessage', 'isBulkOrder', 'operatorId', 'operatorName', 'orderType', 'packageId', 'packageLabel',
  'productId', 'productName', 'shortReference', 'state', 'submittedAt', 'updatedAt', 'walletBalanceAfter', 'walletBalanceBefore',
];

/** An order row as another module (result checker, future types) would write it. */
async function insertOrder(t: TestApp, o: { profileId: string; mode: Mode; type: OrderType; state?: OrderState; createdAt?: number }) {
  const now = o.createdAt ?? Date.now();
  const row = orderRow({
    id: newId('ord'),
    profileId: o.profileId,
    mode: o.mode,
    type: o.type,
    state: o.state ?? 'completed',
    shortReference: shortReference('RC'),
    beneficiaryMsisdn: '233244000000',
    packageId: 'rcp_wassce',
    packageLabel: 'WASSCE',
    amount: 1800,
    walletBalanceBefore: null,
    walletBalanceAfter: null,
    completedAt: now,
    createdAt: now,
  });
  await t.database.db.insertInto('orders').values(row).execute();
  return row.id;
}

interface Page {
  orders: { _id: string; createdAt: number; orderType: string; state: string }[];
  isDone: boolean;
  continueCursor: string;
}

describe('GET /orders, /orders/{id}, /orders/{id}/status', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '10' } });
  });
  after(() => t.close());

  const list = async (key: string, query = ''): Promise<{ status: number; body: { data: Page; error: { code: string } } }> =>
    t.call('GET', `/api/v1/orders${query}`, { key });

  test('pagination visits every order exactly once, newest first, while new orders keep arriving', async () => {
    const key = KEYS.superTest;
    const existing = new Set<string>();
    for (let i = 0; i < 14; i++) {
      const res = await buySingle(t, key, `02445005${String(i).padStart(2, '0')}`);
      assert.equal(res.status, 200);
      existing.add(res.body.data.orderId);
    }
    // Rows sharing one timestamp: the id breaks the tie, so none is skipped or repeated.
    const tied = Date.now() - 5_000;
    for (let i = 0; i < 6; i++) existing.add(await insertOrder(t, { profileId: 'usr_super', mode: 'test', type: 'result_checker', createdAt: tied }));

    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    let previous: { createdAt: number; id: string } | null = null;
    for (;;) {
      const res = await list(key, `?limit=4${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      pages++;
      for (const o of res.body.data.orders) {
        if (previous) {
          const newer = o.createdAt < previous.createdAt || (o.createdAt === previous.createdAt && o._id < previous.id);
          assert.ok(newer, 'strictly newest first');
        }
        previous = { createdAt: o.createdAt, id: o._id };
        seen.push(o._id);
      }
      // A new order between pages is newer than everything already listed: it never shows up later.
      const fresh = await buySingle(t, key, `02445105${String(pages).padStart(2, '0')}`);
      assert.equal(fresh.status, 200);
      if (res.body.data.isDone) break;
      cursor = res.body.data.continueCursor;
      assert.ok(cursor.length > 0);
      assert.ok(pages < 20, 'pagination must end');
    }
    assert.equal(pages, 5);
    assert.equal(seen.length, existing.size, 'no order twice');
    assert.deepEqual(new Set(seen), existing, 'every order once');
  });

  test('orderType: data + result_checker by default, one type, or all; anything else is 400 INVALID_ORDER_TYPE', async () => {
    const key = KEYS.agentTest;
    const data = (await buySingle(t, key, '0244520051')).body.data.orderId;
    const rc = await insertOrder(t, { profileId: 'usr_agent', mode: 'test', type: 'result_checker' });
    const airtime = await insertOrder(t, { profileId: 'usr_agent', mode: 'test', type: 'airtime' });
    const topUp = await insertOrder(t, { profileId: 'usr_agent', mode: 'test', type: 'top_up' });
    const ids = async (query: string) => (await list(key, query)).body.data.orders.map((o) => o._id).sort();

    assert.deepEqual(await ids(''), [data, rc].sort());
    assert.deepEqual(await ids('?orderType=all'), [data, rc, airtime, topUp].sort());
    assert.deepEqual(await ids('?orderType=airtime'), [airtime]);
    assert.deepEqual(await ids('?orderType=result_checker'), [rc]);
    assert.deepEqual(await ids('?orderType=data'), [data]);
    for (const bad of ['bundles', 'DATA', 'all,data']) {
      const res = await list(key, `?orderType=${bad}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'INVALID_ORDER_TYPE');
    }
  });

  test('state filter, and 400 for a bad state, limit or cursor; a limit above 100 is capped', async () => {
    const key = KEYS.agentTest;
    const processing = (await list(key, '?state=processing')).body.data.orders;
    assert.ok(processing.length >= 1 && processing.every((o) => o.state === 'processing'));
    const completed = (await list(key, '?state=completed&orderType=all')).body.data.orders;
    assert.ok(completed.length >= 1 && completed.every((o) => o.state === 'completed'));

    for (const query of ['?state=done', '?limit=0', '?limit=-1', '?limit=abc', '?limit=1.5', '?cursor=%25%25%25', '?cursor=bm90IGpzb24', `?cursor=${Buffer.from('["x",1]').toString('base64url')}`]) {
      const res = await list(key, query);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', query);
    }

    for (let i = 0; i < 105; i++) await insertOrder(t, { profileId: 'usr_customer', mode: 'test', type: 'result_checker', createdAt: 1_700_000_000_000 + i });
    const capped = await list(KEYS.customerTest, '?limit=500');
    assert.equal(capped.status, 200);
    assert.equal(capped.body.data.orders.length, 100);
    assert.equal(capped.body.data.isDone, false);
    const rest = await list(KEYS.customerTest, `?limit=500&cursor=${capped.body.data.continueCursor}`);
    assert.equal(rest.body.data.orders.length, 5);
    assert.equal(rest.body.data.isDone, true);
    const byDefault = await list(KEYS.customerTest);
    assert.equal(byDefault.body.data.orders.length, 20);
  });

  test('full record, status projection, and bulk recipients in both the read and the list', async () => {
    const worker = newWorker(t);
    const single = (await buySingle(t, KEYS.agentLive, '0244530051')).body.data.orderId;
    const bulk = (
      await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
        key: KEYS.agentLive,
        body: { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244530052' }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244530053' }] },
      })
    ).body.data.orderId;

    const full = (await t.call('GET', `/api/v1/orders/${single}`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual(Object.keys(full).sort(), ORDER_FIELDS);
    assert.equal(full._id, single);
    assert.equal(full._creationTime, full.createdAt);
    assert.equal(full.currency, 'GHS');
    assert.deepEqual([full.bulkRecipients, full.bulkCompletedCount, full.bulkFailedCount], [null, null, null]);

    const status = (await t.call('GET', `/api/v1/orders/${single}/status`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual(status, {
      orderId: single,
      _creationTime: full.createdAt,
      state: 'Processing',
      shortReference: full.shortReference,
      amount: 9,
      currency: 'GHS',
      errorMessage: null,
      createdAt: full.createdAt,
      submittedAt: null,
      completedAt: null,
      isBulkOrder: false,
      bulkCompletedCount: null,
      bulkFailedCount: null,
    });

    const bulkFull = (await t.call('GET', `/api/v1/orders/${bulk}`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual(Object.keys(bulkFull).sort(), ORDER_FIELDS);
    assert.equal(bulkFull.isBulkOrder, true);
    assert.equal(bulkFull.bulkRecipients.length, 2);
    assert.deepEqual(Object.keys(bulkFull.bulkRecipients[0]).sort(), [
      'amount', 'beneficiaryMsisdn', 'completedAt', 'errorMessage', 'packageId', 'packageLabel', 'reversalReason', 'reversedAt', 'status', 'submittedAt',
    ]);
    const listed = (await list(KEYS.agentLive)).body.data.orders as unknown as { _id: string; bulkRecipients: unknown[] | null }[];
    assert.equal(listed.find((o) => o._id === bulk)?.bulkRecipients?.length, 2);
    assert.equal(listed.find((o) => o._id === single)?.bulkRecipients, null);

    await waitFor('both orders to complete', async () => {
      await worker.drain();
      const states = await Promise.all([single, bulk].map(async (id) => (await t.call('GET', `/api/v1/orders/${id}/status`, { key: KEYS.agentLive })).body.data.state));
      return states.every((s) => s === 'Completed');
    });
    const done = (await t.call('GET', `/api/v1/orders/${bulk}`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual([done.state, done.bulkCompletedCount, done.bulkFailedCount], ['completed', 2, 0]);
    const doneStatus = (await t.call('GET', `/api/v1/orders/${bulk}/status`, { key: KEYS.agentLive })).body.data;
    assert.deepEqual([doneStatus.state, doneStatus.isBulkOrder, doneStatus.bulkCompletedCount, doneStatus.bulkFailedCount], ['Completed', true, 2, 0]);
    assert.ok(done.bulkRecipients.every((r: { status: string; completedAt: number | null }) => r.status === 'completed' && r.completedAt !== null));
  });

  test('the list shows each change of an order as it happens, exactly as the single read does', async () => {
    const worker = newWorker(t);
    const orderId = (await buySingle(t, KEYS.agentLive, '0244530009')).body.data.orderId as string;
    const listed = async () => {
      const orders = (await list(KEYS.agentLive, '?limit=100')).body.data.orders as unknown as { _id: string }[];
      const one = (await t.call('GET', `/api/v1/orders/${orderId}`, { key: KEYS.agentLive })).body.data;
      assert.deepEqual(orders.find((o) => o._id === orderId), one);
      return one as { state: string; submittedAt: number | null; completedAt: number | null };
    };
    const accepted = await listed();
    assert.deepEqual([accepted.state, accepted.submittedAt], ['processing', null]);

    await worker.runOnce(); // submits; the outcome comes SANDBOX_SETTLE_MS later
    const submitted = await listed();
    assert.equal(submitted.state, 'processing');
    assert.notEqual(submitted.submittedAt, null);

    await waitFor('the delivery to settle', async () => {
      await worker.drain();
      return (await listed()).state === 'completed';
    });
    assert.notEqual((await listed()).completedAt, null);

    await t.ctx.orders.reverse(staffActor(), orderId, 'test reversal');
    assert.equal((await listed()).state, 'reversed');
  });

  test('a page made of cached order JSON is byte for byte what the response schema serializes', async () => {
    await buySingle(t, KEYS.agentLive, '0244530021');
    await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentLive,
      body: { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244530022' }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244530023' }] },
    });
    await insertOrder(t, { profileId: 'usr_agent', mode: 'live', type: 'result_checker' });
    // The reference: the same page as objects, serialized whole by Fastify from OrdersResponse.
    const reference = Fastify().withTypeProvider<TypeBoxTypeProvider>();
    reference.get('/', { schema: { querystring: OrdersQuery, response: { 200: OrdersResponse } } }, async (request) => ({
      success: true as const,
      data: await t.ctx.orders.list({ profileId: 'usr_agent', mode: 'live' }, request.query),
    }));
    for (const query of ['?limit=5', '?limit=5', '?orderType=all&limit=100']) {
      const served = await t.app.inject({ method: 'GET', url: `/api/v1/orders${query}`, headers: { 'x-api-key': KEYS.agentLive } });
      const expected = await reference.inject({ method: 'GET', url: `/${query}` });
      assert.equal(served.statusCode, 200);
      assert.equal(served.body, expected.body, query);
      assert.equal(served.headers['content-type'], 'application/json; charset=utf-8');
    }
    await reference.close();
  });

  test("another owner's order, or the other mode's, is 404 ORDER_NOT_FOUND on every order path; nothing else exists under an order", async () => {
    const mine = (await buySingle(t, KEYS.superLive, '0244540051')).body.data.orderId;
    for (const key of [KEYS.agentLive, KEYS.customerLive, KEYS.superTest]) {
      for (const path of [`/api/v1/orders/${mine}`, `/api/v1/orders/${mine}/status`]) {
        const res = await t.call('GET', path, { key });
        assert.equal(res.status, 404, `${key} ${path}`);
        assert.equal(res.body.error.code, 'ORDER_NOT_FOUND');
        assert.doesNotMatch(res.body.error.message, /usr_super/);
      }
      const listed = (await list(key, '?orderType=all&limit=100')).body.data.orders.map((o) => o._id);
      assert.ok(!listed.includes(mine));
    }
    for (const path of ['/api/v1/orders/ord_does_not_exist', '/api/v1/orders/ord_does_not_exist/status']) {
      const res = await t.call('GET', path, { key: KEYS.superLive });
      assert.deepEqual([res.status, res.body.error.code], [404, 'ORDER_NOT_FOUND']);
    }
    for (const path of [`/api/v1/orders/${mine}/items`, `/api/v1/orders/${mine}/status/extra`, `/api/v1/orders/${mine}/retry`]) {
      const res = await t.call('GET', path, { key: KEYS.superLive });
      assert.deepEqual([res.status, res.body.error.code], [404, 'NOT_FOUND'], path);
      assert.equal((await t.call('GET', path)).status, 401, 'the key is checked first');
    }
    assert.equal((await t.call('POST', `/api/v1/orders/${mine}/retry`, { key: KEYS.superLive, body: {} })).status, 404);
    assert.equal((await t.call('GET', `/api/v1/orders/${mine}`)).status, 401);
    assert.equal((await t.call('GET', '/api/v1/orders')).status, 401);
  });
});
