import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type CallResult, type TestApp } from '../support/app.js';
import { momoTopUpAwaitingOtp, startRoutesPaystack } from '../support/momo.js';
import type { RunningPaystackSimulator } from '../../src/providers/paystack/simulator.js';
import { KEYS } from '../support/keys.js';
import { fillPath, routeKey, ROUTES, type Records, type RouteCase } from '../support/api-routes.js';
import { newWorker } from '../support/orders.js';
import { waitFor } from '../support/wait.js';

/**
 * Security tests generated for every route of the table (unkey's runCommonRouteTests): keys,
 * suspension, and records of another profile or of the other mode. What a refused call must
 * never do is also checked: move money.
 */

const BAD_KEYS: [string, string | undefined][] = [
  ['no key', undefined],
  ['an empty key', ''],
  ['a malformed key', 'service_prod_abcdefghij'],
  ['a key without a secret', 'service_live_'],
  ['an unknown key', 'service_live_unknownKey123456'],
  ['a revoked key', KEYS.superRevoked],
];

describe('generated route security tests (every route of test/support/api-routes.ts)', () => {
  let t: TestApp;
  let records: Records;
  let paystack: RunningPaystackSimulator;
  let calls = 0;

  before(async () => {
    paystack = await startRoutesPaystack();
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '0', ...paystack.env } });
    const key = KEYS.superLive;
    const single = await t.call('POST', '/api/v1/data-bundles/buy-single', {
      key,
      body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244600051' },
    });
    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244600052', '0244600000'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    const rc = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244600053' },
    });
    assert.deepEqual([single.status, bulk.status, rc.status], [200, 200, 200]);
    const endpoint = await t.call('POST', '/api/v1/webhook-endpoints', {
      key,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
    });
    assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
    const bulkOrder = bulk.body.data.orderId as string;
    // The sandbox fails numbers ending in 0000: the bulk order gets the failed recipient a retry needs.
    const worker = newWorker(t);
    await waitFor(
      'the bulk order to settle',
      async () => {
        await worker.drain();
        const order = await t.call('GET', `/api/v1/orders/${bulkOrder}`, { key });
        return order.body.data.state === 'completed' && order.body.data.bulkFailedCount === 1;
      },
      60_000,
    );
    const events = await t.call('GET', '/api/v1/events?type=order.completed', { key });
    assert.equal(events.status, 200, JSON.stringify(events.body));
    records = {
      order: single.body.data.orderId,
      bulkOrder,
      bulkFailedMsisdn: '0244600000',
      rcTransaction: rc.body.data.transactionId,
      event: events.body.data.events[0]._id,
      endpoint: endpoint.body.data._id,
      momoTopUp: await momoTopUpAwaitingOtp(t),
    };
  });
  after(async () => {
    await t.close();
    await paystack.close();
  });

  async function wallets() {
    return t.database.db.selectFrom('wallets').select(['id', 'available', 'held']).orderBy('id').execute();
  }

  function call(
    route: RouteCase,
    key: string | undefined,
    params?: Record<string, string>,
    body?: Record<string, unknown>,
  ): Promise<CallResult> {
    const url = fillPath(route.url, params ?? route.params?.(records) ?? {});
    const payload = body ?? route.body?.(records, 1000 + calls++);
    const headers: Record<string, string> = key === undefined ? {} : { 'x-api-key': key };
    return t.call(route.method, url, { headers, ...(payload === undefined ? {} : { body: payload }) });
  }

  /** Runs `attempt`, which must be refused with `status` and `code`, and checks no wallet moved. */
  async function refusedWithoutCharge(what: string, attempt: () => Promise<CallResult>, status: number, code: string) {
    const before = await wallets();
    const res = await attempt();
    assert.equal(res.status, status, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.success, false, what);
    assert.equal(res.body.error.code, code, what);
    assert.equal(typeof res.body.error.message, 'string', what);
    assert.deepEqual(await wallets(), before, `${what} moved money`);
  }

  test('the table names every route the app serves, and only those', () => {
    const served = t.app.routeIndex
      .list()
      .filter((r) => r.method !== 'HEAD')
      .map(routeKey)
      .sort();
    assert.deepEqual(served, ROUTES.map(routeKey).sort(), 'a route was added or removed: update test/support/api-routes.ts');
  });

  for (const route of ROUTES.filter((r) => r.kind !== 'public')) {
    describe(routeKey(route), () => {
      test('missing, empty, malformed, unknown and revoked keys are 401 UNAUTHORIZED, nothing charged', async () => {
        for (const [what, key] of BAD_KEYS) await refusedWithoutCharge(what, () => call(route, key), 401, 'UNAUTHORIZED');
      });

      test('a suspended profile is 403 PROFILE_SUSPENDED with its live and its test key, nothing charged', async () => {
        for (const key of [KEYS.suspendedLive, KEYS.suspendedTest]) {
          await refusedWithoutCharge(key, () => call(route, key), 403, 'PROFILE_SUSPENDED');
        }
      });

      const owned = route.ownedParam ?? route.ownedBodyField;
      const notFound = route.notFoundCode ?? 'ORDER_NOT_FOUND';
      if (owned) {
        test(`${owned} of another profile, or of the caller's other mode, is 404 ${notFound}, nothing charged`, async () => {
          // The records belong to usr_super in live mode: the agent is another profile, the test key the other mode.
          for (const key of [KEYS.agentLive, KEYS.agentTest, KEYS.superTest]) {
            await refusedWithoutCharge(`${key} on ${owned}`, () => call(route, key), 404, notFound);
          }
          if (route.ownedBodyField) {
            const own = await call(route, KEYS.superLive, undefined, {
              orderId: 'ord_not_there',
              beneficiaryMsisdn: records.bulkFailedMsisdn,
            });
            assert.equal(own.status, 404, JSON.stringify(own.body));
          } else {
            const own = await call(route, KEYS.superLive);
            assert.ok(own.status >= 200 && own.status < 300, JSON.stringify(own.body));
          }
        });
      }
    });
  }

  test("lists show only the caller's records of the key's mode", async () => {
    const topUp = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { amount: 10, method: 'bank', reference: 'SEC-1' },
    });
    assert.equal(topUp.status, 201);
    const mine = [records.order, records.bulkOrder, records.rcTransaction];
    for (const key of [KEYS.agentLive, KEYS.superTest]) {
      const orders = await t.call('GET', '/api/v1/orders?orderType=all&limit=100', { key });
      assert.equal(orders.status, 200);
      const ids = (orders.body.data.orders as { _id: string }[]).map((o) => o._id);
      assert.deepEqual(
        ids.filter((id) => mine.includes(id)),
        [],
        key,
      );
      const topUps = await t.call('GET', '/api/v1/top-ups?limit=100', { key });
      assert.equal(topUps.status, 200);
      assert.ok(!(topUps.body.data.topUps as { _id: string }[]).some((u) => u._id === topUp.body.data._id), key);
    }
  });
});
