import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { consoleRoutes } from '../../src/modules/console/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { seedFinding } from '../support/reconciliation.js';
import { buySingle, newWorker, waitForState } from '../support/orders.js';
import {
  clientOf,
  CONSOLE_ENV,
  CONSOLE_ROUTES,
  consoleRouteKey,
  enrolTwoFactor,
  ensureStaff,
  fillConsolePath,
  inject,
  login,
  multipart,
  ROLES,
  signIn,
  type ConsoleRecords,
  type ConsoleRouteCase,
  type Page,
  type StaffClient,
} from '../support/console.js';

/**
 * Security tests generated for every console route of the table in ./support.ts (as
 * test/http/route-security.test.ts does for the API): no session, each role below the one needed,
 * a missing or another session's CSRF token, a session that must first choose its password; each
 * refused without changing anything, and every answer `Cache-Control: no-store`. The table must
 * name exactly the routes the console serves.
 */

describe('generated console route security tests (every route of test/support/console.ts)', () => {
  let t: TestApp;
  let records: ConsoleRecords;
  const sessions = new Map<string, StaffClient>();
  let otherAdmin: StaffClient;
  let mustChange: StaffClient;
  /** Signed in with the password, the code still to come. */
  let codePending: StaffClient;
  let calls = 0;

  before(async () => {
    // DT One enabled (never called: no worker runs here) so that an admin may queue a reconciliation of it.
    t = await createTestApp({ env: { ...CONSOLE_ENV, DTONE_API_KEY: 'route-test-key', DTONE_API_SECRET: 'route-test-secret', DTONE_API_URL: 'http://127.0.0.1:9/v1' } });
    const topUp = async (reference: string) => {
      const res = await t.call('POST', '/api/v1/top-ups/request', {
        key: KEYS.superLive,
        body: { amount: 12.5, method: 'momo', reference },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data._id as string;
    };
    const momoTopUp = async () => {
      const res = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superTest, body: { amount: 12.5, phone: '0551870051' } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data._id as string;
    };
    const completed = await buySingle(t, KEYS.superLive, '0244870051');
    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244870061', '0244870062'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    const rcSale = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superTest,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244870071' },
    });
    assert.equal(rcSale.status, 200, JSON.stringify(rcSale.body));
    // The worker runs until it has delivered: after the sandbox's acceptance the status check
    // comes a moment later (src/modules/deliveries/service.ts), not within one drain().
    const worker = newWorker(t);
    worker.start();
    try {
      await waitForState(t, KEYS.superLive, completed.body.data.orderId, ['completed']);
      await waitForState(t, KEYS.superLive, bulk.body.data.orderId, ['completed']);
    } finally {
      await worker.stop();
    }
    const stuck = await buySingle(t, KEYS.superLive, '0244870052');
    const stuckOrder = stuck.body.data.orderId as string;
    await t.database.db
      .updateTable('order_items')
      .set({ updated_at: Date.now() - 3_600_000 })
      .where('order_id', '=', stuckOrder)
      .execute();
    for (const role of ROLES) sessions.set(role, await signIn(t, role));
    otherAdmin = await signIn(t, 'admin', 'other-admin@staff.example');
    await ensureStaff(t, 'must-change@staff.example', 'admin', false);
    mustChange = await clientOf(t, 'must-change@staff.example', 'admin', await login(t, 'must-change@staff.example'), '/console/password');
    const pendingId = await ensureStaff(t, 'code-pending@staff.example', 'admin');
    await enrolTwoFactor(t, pendingId, Date.now());
    codePending = await clientOf(t, 'code-pending@staff.example', 'admin', await login(t, 'code-pending@staff.example'), '/console/login/code');
    const twoFactorAccount = await ensureStaff(t, 'two-factor@staff.example', 'viewer');
    await enrolTwoFactor(t, twoFactorAccount, Date.now());
    const actor = { staffId: null, name: 'cli:test', address: null };
    records = {
      topUpToApprove: await topUp('SEC-CONSOLE-1'),
      topUpToReject: await topUp('SEC-CONSOLE-2'),
      topUpToBulkApprove: await topUp('SEC-CONSOLE-3'),
      momoTopUp: await momoTopUp(),
      completedOrder: completed.body.data.orderId,
      stuckOrder,
      bulkOrder: bulk.body.data.orderId,
      bulkRecipient: '233244870061',
      rcSale: rcSale.body.data.transactionId,
      key: (await t.ctx.console.createKey(actor, 'usr_customer', 'test')).id,
      staffAccount: await ensureStaff(t, 'target@staff.example', 'viewer'),
      finding: await seedFinding(t),
      ...(await pendingAdjustments()),
      ...(await pendingStaffRequests()),
      twoFactorAccount,
      ...(await webhookRecords()),
    };
  });

  /** Three live endpoints of usr_super (nothing listens: no worker sends here), one disabled, and a delivery to another. */
  async function webhookRecords() {
    const endpoint = async (n: number, events: string[]) => {
      const res = await t.call('POST', '/api/v1/webhook-endpoints', {
        key: KEYS.superLive,
        body: { url: `http://127.0.0.1:9/route-security/${n}`, events },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data._id as string;
    };
    const receiving = await endpoint(1, ['topup.approved']);
    const toDisable = await endpoint(2, ['order.failed']);
    const toEnable = await endpoint(3, ['order.failed']);
    await t.ctx.webhookEndpoints.disableForStaff({ staffId: null, name: 'cli:test', address: null }, toEnable, 'security test');
    const topUp = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.superLive, body: { amount: 3, method: 'momo', reference: 'SEC-WEBHOOK-1' } });
    assert.equal(topUp.status, 201, JSON.stringify(topUp.body));
    await t.ctx.topUps.approve({ staffId: null, name: 'cli:test', address: null }, topUp.body.data._id as string);
    const delivery = await t.database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('endpoint_id', '=', receiving)
      .executeTakeFirstOrThrow();
    return { webhookDelivery: String(delivery.id), webhookEndpointToDisable: toDisable, webhookEndpointToEnable: toEnable };
  }
  after(() => t.close());

  /** Two adjustments above ADJUSTMENT_APPROVAL_ABOVE, requested by an admin who is not the one the tests decide with. */
  async function pendingAdjustments() {
    const requester = { staffId: await ensureStaff(t, 'requester@staff.example', 'admin'), name: 'requester@staff.example', address: null };
    const request = async () => {
      const done = await t.ctx.console.requestAdjustment(requester, {
        profileId: 'usr_super',
        mode: 'live',
        direction: 'credit',
        amount: t.ctx.config.adjustmentApprovalAbove / 100 + 1,
        reason: 'security test',
      });
      assert.equal(done.status, 'pending');
      return done.id;
    };
    return { adjustmentToApprove: await request(), adjustmentToReject: await request() };
  }

  /** Two requests for a new admin, by an admin who is not the one the tests decide with. */
  async function pendingStaffRequests() {
    const requester = { staffId: await ensureStaff(t, 'requester@staff.example', 'admin'), name: 'requester@staff.example', address: null };
    const request = async (n: number) => {
      const { request: pending } = await t.ctx.console.createStaff(requester, `requested-admin-${n}@staff.example`, 'admin');
      assert.ok(pending, 'a new admin is a request');
      return pending.id;
    };
    return { staffRequestToApprove: await request(1), staffRequestToReject: await request(2) };
  }

  /** Everything a console action could change, but the audit trail's refusals. */
  async function state() {
    const db = t.database.db;
    const [wallets, topUps, orders, items, sales, outbox, keys, profiles, staff, sessionCount, credentials, done, packages, prices, routes, runs, findings, adjustments] = await Promise.all([
      db.selectFrom('wallets').select(['id', 'available', 'held']).orderBy('id').execute(),
      db.selectFrom('top_ups').select(['id', 'status']).orderBy('id').execute(),
      db.selectFrom('orders').select(['id', 'state']).orderBy('id').execute(),
      db.selectFrom('order_items').select(['id', 'status', 'reversed_at']).orderBy('id').execute(),
      db.selectFrom('rc_transactions').select(['id', 'refunded_at']).orderBy('id').execute(),
      db.selectFrom('outbox').select(['id', 'run_at', 'tries']).orderBy('id').execute(),
      db.selectFrom('api_keys').select(['id', 'revoked']).orderBy('id').execute(),
      db.selectFrom('profiles').select(['id', 'status', 'first_name', 'last_name', 'email', 'role']).orderBy('id').execute(),
      db
        .selectFrom('staff_accounts')
        .select(['id', 'role', 'status', 'password_hash', 'password_change_required', 'totp_secret', 'totp_pending_secret', 'totp_last_step'])
        .orderBy('id')
        .execute(),
      db.selectFrom('staff_sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      db.selectFrom('rc_credentials').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
      db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('outcome', '=', 'ok')
        .executeTakeFirstOrThrow(),
      db.selectFrom('data_packages').select(['id', 'price', 'status']).orderBy('id').execute(),
      db.selectFrom('data_package_prices').selectAll().orderBy('package_id').orderBy('role').execute(),
      db.selectFrom('package_routes').selectAll().orderBy('package_id').orderBy('position').execute(),
      db.selectFrom('reconciliation_runs').select(['id', 'status']).orderBy('id').execute(),
      db.selectFrom('reconciliation_findings').select(['id', 'resolved_at', 'resolution_note']).orderBy('id').execute(),
      db.selectFrom('wallet_adjustments').select(['id', 'status']).orderBy('id').execute(),
    ]);
    const webhooks = await Promise.all([
      db.selectFrom('webhook_endpoints').select(['id', 'status', 'disabled_reason']).orderBy('id').execute(),
      db.selectFrom('webhook_deliveries').select(['id', 'status', 'schedule_step', 'next_attempt_at', 'updated_at']).orderBy('id').execute(),
      db.selectFrom('staff_requests').select(['id', 'status']).orderBy('id').execute(),
    ]);
    return JSON.stringify({ wallets, topUps, orders, items, sales, outbox, keys, profiles, staff, sessionCount, credentials, done, packages, prices, routes, runs, findings, adjustments, webhooks });
  }

  /** The route's valid call (its params and form), as `who` sends it; `csrf`: the token sent (null: none). */
  async function send(
    route: ConsoleRouteCase,
    who: { cookie?: string } | null,
    csrf: string | null,
    extra: Record<string, string> = {},
  ): Promise<Page> {
    const url = fillConsolePath(route.url, route.params?.(records) ?? {});
    const cookie = who?.cookie;
    const n = calls++;
    if (route.upload) {
      const { fields, file } = route.upload(records, n);
      const form = multipart(csrf === null ? fields : { _csrf: csrf, ...fields }, file);
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': form.contentType, ...(cookie ? { cookie } : {}) },
        payload: form.payload,
      });
      return { status: res.statusCode, body: res.body, headers: res.headers, location: res.headers.location };
    }
    if (route.method === 'GET') return inject(t, 'GET', url, cookie ? { cookie } : {});
    const form = { ...(route.form?.(records, n) ?? {}), ...extra, ...(csrf === null ? {} : { _csrf: csrf }) };
    return inject(t, 'POST', url, { form, ...(cookie ? { cookie } : {}) });
  }

  function noStore(res: Page, what: string) {
    assert.equal(res.headers['cache-control'], 'no-store', `${what}: Cache-Control`);
  }

  /** `attempt` must be refused with `status` (and a redirect to `location`) and change nothing. */
  async function refused(what: string, attempt: () => Promise<Page>, status: number, location?: string) {
    const before = await state();
    const res = await attempt();
    assert.equal(res.status, status, `${what}: ${res.status} ${res.location ?? ''} ${res.body.slice(0, 300)}`);
    if (location !== undefined) assert.equal(res.location, location, what);
    noStore(res, what);
    assert.equal(await state(), before, `${what} changed something`);
  }

  test('the table names every console route the app serves, and only those', () => {
    const served = t.app.routeIndex
      .list()
      .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/console'))
      .map(consoleRouteKey)
      .sort();
    assert.deepEqual(served, CONSOLE_ROUTES.map(consoleRouteKey).sort(), 'a console route was added or removed: update test/support/console.ts');
  });

  test('a console route that declares no role is refused at start-up', async () => {
    const app = Fastify();
    app.register(async (scope) => {
      await consoleRoutes(scope, {
        operations: t.ctx.console,
        staff: t.ctx.staff,
        audit: t.ctx.audit,
        cookieSecret: Buffer.alloc(32, 1),
        secureCookie: false,
        sessionTtlMs: 60_000,
        orderStuckAfterMs: 60_000,
        clock: Date.now,
      });
      scope.get('/console/forgotten', async () => 'anyone may read this');
    });
    await assert.rejects(async () => {
      await app.ready();
    }, /console route GET \/console\/forgotten declares no role/);
    await app.close();
  });

  for (const route of CONSOLE_ROUTES) {
    describe(consoleRouteKey(route), () => {
      if (route.role === 'public') {
        test('open without a session, Cache-Control: no-store', async () => {
          const res = await send(route, null, 'x');
          assert.ok(res.status < 500, `${res.status}`);
          assert.notEqual(res.status, 401);
          noStore(res, 'public');
        });
        return;
      }
      const needed = route.role;

      test(
        route.method === 'GET'
          ? 'without a session: a redirect to the sign-in form'
          : 'without a session: 401, nothing changes',
        async () => {
          if (route.method === 'GET') await refused('no session', () => send(route, null, null), 303, '/console/login');
          else await refused('no session', () => send(route, null, 'x'), 401);
          await refused('a partner key', () => inject(t, route.method, fillConsolePath(route.url, route.params?.(records) ?? {}), {
            headers: { 'x-api-key': KEYS.superLive },
          }), route.method === 'GET' ? 303 : 401);
        },
      );

      const below = ROLES.slice(0, ROLES.indexOf(needed));
      if (below.length > 0) {
        test(`${below.join(' and ')}: 403, nothing changes`, async () => {
          for (const role of below) {
            const session = sessions.get(role);
            assert.ok(session);
            await refused(role, () => send(route, session, session.csrf), 403);
          }
        });
      }

      if (route.method === 'POST') {
        test('without the CSRF token, or with another session’s: 403, nothing changes', async () => {
          const admin = sessions.get('admin');
          assert.ok(admin);
          await refused('no token', () => send(route, admin, null), 403);
          await refused('another session’s token', () => send(route, admin, otherAdmin.csrf), 403);
        });
      }

      if (!route.duringPasswordChange) {
        test(
          route.method === 'GET'
            ? 'a one-time password not yet changed: a redirect to the change-password page'
            : 'a one-time password not yet changed: 403, nothing changes',
          async () => {
            if (route.method === 'GET') await refused('must change', () => send(route, mustChange, null), 303, '/console/password');
            else await refused('must change', () => send(route, mustChange, mustChange.csrf), 403);
          },
        );
      }

      if (!route.duringSecondFactor) {
        test(
          route.method === 'GET'
            ? 'a sign-in still waiting for its code: a redirect to the code form'
            : 'a sign-in still waiting for its code: 403, nothing changes',
          async () => {
            if (route.method === 'GET') await refused('code pending', () => send(route, codePending, null), 303, '/console/login/code');
            else await refused('code pending', () => send(route, codePending, codePending.csrf), 403);
          },
        );
      }

      test(`${needed} with a valid form: done, Cache-Control: no-store`, async () => {
        let session = sessions.get(needed);
        let extra: Record<string, string> = {};
        if (route.ownAccount) {
          const email = `own-${calls}@staff.example`;
          const id = await ensureStaff(t, email, needed);
          session = await clientOf(t, email, needed, await login(t, email));
          extra = (await route.prepare?.(t, id)) ?? {};
        }
        assert.ok(session);
        const res = await send(route, session, session.csrf, extra);
        assert.ok(res.status === 200 || res.status === 303, `${res.status}: ${res.body.slice(0, 300)}`);
        noStore(res, 'done');
      });
    });
  }
});
