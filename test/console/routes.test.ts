import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, useTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker, waitForState } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { CONSOLE_ENV, csrfOf, ensureStaff, inject, multipart, PASSWORD, signIn, type StaffClient } from '../support/console.js';

/** Route-level tests of every console page and action (issue 18), through inject. */

async function auditRows(t: TestApp, action: string) {
  return t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

async function requestTopUp(t: TestApp, reference: string, amount = 25) {
  const res = await t.call('POST', '/api/v1/top-ups/request', {
    key: KEYS.superLive,
    body: { amount, method: 'momo', reference },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data._id as string;
}

async function upload(t: TestApp, staff: StaffClient, packageId: string, content: string, csrf: string | null = staff.csrf) {
  const form = multipart(csrf === null ? { packageId } : { _csrf: csrf, packageId }, { name: 'pins.csv', content });
  const res = await t.app.inject({
    method: 'POST',
    url: '/console/inventory/upload',
    headers: { cookie: staff.cookie, 'content-type': form.contentType },
    payload: form.payload,
  });
  return { status: res.statusCode, body: res.body };
}

describe('the console is off unless CONSOLE_ENABLED=true', () => {
  test('no /console route without it', async (c) => {
    const t = await useTestApp(c);
    const res = await t.call('GET', '/console/login');
    assert.equal(res.status, 404);
    assert.equal((await t.call('GET', '/console')).status, 404);
  });
});

describe('console routes', () => {
  let t: TestApp;
  let admin: StaffClient;
  let operator: StaffClient;
  let viewer: StaffClient;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    [admin, operator, viewer] = await Promise.all([signIn(t, 'admin'), signIn(t, 'operator'), signIn(t, 'viewer')]);
  });
  after(() => t.close());

  describe('authentication and security', () => {
    test('without a session: pages redirect to the sign-in form, actions are 401', async () => {
      const page = await inject(t, 'GET', '/console/top-ups');
      assert.equal(page.status, 303);
      assert.equal(page.location, '/console/login');
      const action = await inject(t, 'POST', '/console/ledger/verify', { form: { _csrf: 'x' } });
      assert.equal(action.status, 401);
      assert.match(action.body, /sign in again/);
    });

    test('no partner API key authenticates the console', async () => {
      for (const key of [KEYS.superLive, KEYS.customerLive]) {
        const res = await inject(t, 'GET', '/console', { headers: { 'x-api-key': key } });
        assert.equal(res.status, 303, key);
        assert.equal(res.location, '/console/login');
        const post = await inject(t, 'POST', '/console/top-ups/tup_x/approve', {
          headers: { 'x-api-key': key },
          form: { _csrf: 'x' },
        });
        assert.equal(post.status, 401);
      }
    });

    test('no console session authenticates the API', async () => {
      for (const url of ['/api/v1/profile', '/api/v1/wallet-balance', '/api/v1/orders']) {
        const res = await t.call('GET', url, { headers: { cookie: admin.cookie } });
        assert.equal(res.status, 401, url);
        assert.equal(res.body.error.code, 'UNAUTHORIZED');
      }
      const top = await t.call('POST', '/api/v1/top-ups/request', {
        headers: { cookie: admin.cookie },
        body: { amount: 5, method: 'momo', reference: 'COOKIE-1' },
      });
      assert.equal(top.status, 401);
    });

    test('a forged or tampered session cookie is refused', async () => {
      const [name, value] = admin.cookie.split('=');
      const tampered = `${name}=${(value ?? '').replace(/^./, (ch) => (ch === 'A' ? 'B' : 'A'))}`;
      const res = await inject(t, 'GET', '/console', { cookie: tampered });
      assert.equal(res.status, 303);
      const unsigned = await inject(t, 'GET', '/console', { cookie: `${name}=${(value ?? '').split('.')[0]}` });
      assert.equal(unsigned.status, 303);
    });

    test('security headers: a CSP without inline scripts, no framing, no sniffing, no cross-origin reads', async () => {
      for (const url of ['/console', '/console/login']) {
        const res = url === '/console' ? await admin.get(url) : await inject(t, 'GET', url);
        assert.equal(res.status, 200);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /script-src 'self'/);
        assert.match(csp, /frame-ancestors 'none'/);
        assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
        assert.equal(res.headers['x-frame-options'], 'DENY');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['access-control-allow-origin'], undefined);
        assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)/, 'no inline script');
        assert.doesNotMatch(res.body, /\sstyle=|<style/, 'no inline style');
        assert.doesNotMatch(res.body, /https?:\/\/(?!127)/, 'nothing from another origin');
      }
    });

    test('an unknown path under /console is an HTML 404 page, signed in or not, the same for any method', async () => {
      const cases = [
        ['GET', '/console/no-such-page'],
        ['GET', '/console/orders/ord_1/nothing/here'],
        ['POST', '/console/no-such-action'],
        ['GET', '/console/logout'],
      ] as const;
      for (const [method, url] of cases) {
        const anonymous = await inject(t, method, url);
        const signedIn = await inject(t, method, url, { cookie: admin.cookie });
        for (const [who, res] of [['anonymous', anonymous], ['signed in', signedIn]] as const) {
          assert.equal(res.status, 404, `${who} ${method} ${url}`);
          assert.match(String(res.headers['content-type']), /^text\/html/, `${who} ${method} ${url}`);
          assert.match(res.body, /<!doctype html>[\s\S]*No such console page\./, `${who} ${method} ${url}`);
          assert.equal(res.headers['x-frame-options'], 'DENY', 'the console headers too');
        }
        assert.equal(anonymous.body, signedIn.body, 'a session tells nothing more about which pages exist');
      }
      assert.equal((await inject(t, 'GET', '/consolex')).status, 404, 'outside /console: the API\'s JSON 404');
      assert.match(String((await inject(t, 'GET', '/consolex')).headers['content-type']), /json/);
    });

    test('the error page’s Back link goes only to a console page of this origin, whatever Referer says', async () => {
      const backOf = async (referer: string) => {
        const res = await admin.get('/console/orders/ord_not_there', { referer });
        assert.equal(res.status, 404, referer);
        const href = /<a href="([^"]*)">Back<\/a>/.exec(res.body)?.[1] ?? '';
        return href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
      };
      assert.equal(await backOf('http://localhost/console/orders?q=abc'), '/console/orders?q=abc');
      assert.equal(await backOf('http://localhost/console'), '/console');
      for (const hostile of [
        '//evil.example/console',
        'https://evil.example/console',
        'https://evil.example/console/orders',
        'http://localhost.evil.example/console/top-ups',
        'http://evil.example@localhost/console/partners',
        'javascript:alert(1)//console',
        'data:text/html,/console',
        'http://localhost/consolex',
        'http://localhost/docs?next=/console',
        '/console/orders',
        'not a url /console',
      ]) {
        assert.equal(await backOf(hostile), '/console', hostile);
      }
    });

    test('htmx 2 is served from our own origin', async () => {
      const res = await inject(t, 'GET', '/console/assets/htmx.min.js');
      assert.equal(res.status, 200);
      assert.match(String(res.headers['content-type']), /javascript/);
      assert.match(res.body, /version:"2\.\d+\.\d+"/);
      const css = await inject(t, 'GET', '/console/assets/console.css');
      assert.equal(css.status, 200);
    });

    test('sign-in: wrong password refused and recorded; the form needs its CSRF token; throttled after five failures', async (c) => {
      let now = Date.parse('2030-01-01T10:00:05Z');
      const app = await useTestApp(c, { env: CONSOLE_ENV, clock: () => now });
      await ensureStaff(app, 'victim@staff.example', 'admin');
      const form = await inject(app, 'GET', '/console/login');
      const cookie = String(form.headers['set-cookie']).split(';')[0] ?? '';
      const csrf = csrfOf(form.body);
      const attempt = (password: string, token = csrf) =>
        inject(app, 'POST', '/console/login', { cookie, form: { _csrf: token, email: 'victim@staff.example', password } });

      const noToken = await attempt(PASSWORD, 'forged');
      assert.equal(noToken.status, 403);
      assert.match(noToken.body, /sign-in form expired/);
      for (let i = 0; i < 5; i++) {
        const wrong = await attempt('not the password');
        assert.equal(wrong.status, 401);
        assert.match(wrong.body, /Wrong e-mail or password/);
      }
      const blocked = await attempt(PASSWORD);
      assert.equal(blocked.status, 429, 'the right password is refused too while throttled');
      assert.match(blocked.body, /Too many failed sign-ins/);
      assert.deepEqual(await auditRows(app, 'staff.login'), [], 'counted until the minute is over');
      now += 60_000;
      const unknown = await inject(app, 'POST', '/console/login', {
        cookie,
        form: { _csrf: csrf, email: 'nobody@staff.example', password: PASSWORD },
      });
      assert.equal(unknown.status, 401, 'an unknown e-mail reads like a wrong password');
      const logins = await auditRows(app, 'staff.login');
      assert.deepEqual(
        logins.map((r) => [r.outcome, r.actor, r.address]),
        [['refused', 'anonymous', '127.0.0.1']],
      );
      assert.deepEqual(JSON.parse(logins[0]?.detail ?? '{}'), {
        failures: 6,
        minute: '2030-01-01T10:00:00.000Z',
        emails: ['victim@staff.example'],
        reasons: { 'Wrong e-mail or password': 5, 'Too many failed sign-ins; try again in 15 min': 1 },
      });
    });

    test('the session cookie is signed, HttpOnly, SameSite=Strict, scoped to /console and expires', async (c) => {
      let now = Date.now();
      const app = await useTestApp(c, { env: { ...CONSOLE_ENV, CONSOLE_SESSION_TTL_MINUTES: '30' }, clock: () => now });
      await ensureStaff(app, 'short@staff.example', 'viewer');
      const form = await inject(app, 'GET', '/console/login');
      const res = await inject(app, 'POST', '/console/login', {
        cookie: String(form.headers['set-cookie']).split(';')[0] ?? '',
        form: { _csrf: csrfOf(form.body), email: 'short@staff.example', password: PASSWORD },
      });
      const setCookie = ([] as string[])
        .concat(res.headers['set-cookie'] as string[])
        .find((s) => s.startsWith('console_session='));
      assert.match(
        setCookie ?? '',
        /^console_session=[\w-]+\.[\w+/=-]+; Max-Age=1800; Path=\/console; HttpOnly; SameSite=Strict$/,
      );
      const cookie = (setCookie ?? '').split(';')[0] ?? '';
      assert.equal((await inject(app, 'GET', '/console', { cookie })).status, 200);
      now += 30 * 60_000 + 1;
      const expired = await inject(app, 'GET', '/console', { cookie });
      assert.equal(expired.status, 303, 'the server ends the session, whatever the browser keeps');
      assert.equal(expired.location, '/console/login');
    });

    test('logout ends the session on the server', async () => {
      const leaving = await signIn(t, 'viewer', 'leaving@staff.example');
      const out = await leaving.post('/console/logout');
      assert.equal(out.status, 303);
      assert.equal(out.location, '/console/login');
      assert.equal((await leaving.get('/console')).status, 303, 'the old cookie no longer works');
      assert.equal((await auditRows(t, 'staff.logout')).at(-1)?.actor, 'leaving@staff.example');
    });
  });

  describe('pages', () => {
    test('every page renders for an admin; the staff page is for admins only', async () => {
      const pages = [
        '/console',
        '/console/top-ups',
        '/console/orders',
        '/console/inventory',
        '/console/partners',
        '/console/partners/usr_super',
        '/console/staff',
        '/console/audit',
      ];
      for (const url of pages) {
        const res = await admin.get(url);
        assert.equal(res.status, 200, `${url}: ${res.body.slice(0, 300)}`);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.match(res.body, /name="_csrf" value="[\w-]{43}"/, `${url} carries the CSRF token`);
      }
      for (const url of pages.filter((u) => u !== '/console/staff')) assert.equal((await viewer.get(url)).status, 200, url);
      const staff = await viewer.get('/console/staff');
      assert.equal(staff.status, 403);
      assert.match(staff.body, /needs the admin role; you are viewer/);
      assert.equal((await admin.get('/console/partners/usr_nobody')).status, 404);
    });

    test('a viewer sees no action buttons', async () => {
      await requestTopUp(t, 'VIEW-1');
      const page = await viewer.get('/console/top-ups');
      assert.match(page.body, /VIEW-1/);
      assert.doesNotMatch(page.body, />Approve</);
      const inventory = await viewer.get('/console/inventory');
      assert.doesNotMatch(inventory.body, /Upload/);
    });

    test('the dashboard: activity, pending top-ups, stock with a low mark, stuck deliveries, the ledger verify button', async () => {
      const page = await operator.get('/console');
      assert.match(page.body, /Orders per minute/);
      assert.match(page.body, /Pending top-ups<\/h2><p class="figure">\d+/);
      assert.match(page.body, /<tr class="low"><td>rcp_wassce<\/td><td>WASSCE Checker<\/td><td>\d+<\/td><td>LOW<\/td>/);
      assert.match(page.body, /Run ledger verify/);
      const run = await operator.post('/console/ledger/verify');
      assert.equal(run.status, 303);
      const after = await operator.get('/console');
      assert.match(
        after.body,
        /<p id="verify-result" class="ok">OK: \d+ wallets, \d+ entries — \S+ \S+ by operator@staff\.example<\/p>/,
      );
      const rows = await auditRows(t, 'ledger.verify');
      assert.equal(rows.at(-1)?.outcome, 'ok');
      const viewerRun = await viewer.post('/console/ledger/verify');
      assert.equal(viewerRun.status, 403);
    });
  });

  describe('top-ups', () => {
    test('a viewer cannot approve; nothing moves; the refusal is recorded', async () => {
      const id = await requestTopUp(t, 'ROLE-1');
      const before = await t.wallet('usr_super', 'live');
      const res = await viewer.post(`/console/top-ups/${id}/approve`);
      assert.equal(res.status, 403);
      assert.deepEqual(await t.wallet('usr_super', 'live'), before);
      const row = await t.database.db.selectFrom('top_ups').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'pending');
      const refused = (await auditRows(t, 'topup.approve')).filter((r) => r.actor === 'viewer@staff.example');
      assert.equal(refused.at(-1)?.outcome, 'refused');
      assert.match(refused.at(-1)?.detail ?? '', /role viewer may not/);
    });

    test('without the CSRF token (or with another session’s) an approval is refused before anything happens', async () => {
      const id = await requestTopUp(t, 'CSRF-1');
      const before = await t.wallet('usr_super', 'live');
      const missing = await operator.post(`/console/top-ups/${id}/approve`, { _csrf: null });
      assert.equal(missing.status, 403);
      assert.match(missing.body, /did not come from the console/);
      const foreign = await operator.post(`/console/top-ups/${id}/approve`, { _csrf: admin.csrf });
      assert.equal(foreign.status, 403);
      assert.deepEqual(await t.wallet('usr_super', 'live'), before);
      const rows = (await auditRows(t, 'topup.approve')).filter((r) => r.detail?.includes('CSRF'));
      assert.equal(rows.length, 2);
    });

    test('an operator approves once: the wallet is credited once, a second decision is refused, both recorded', async () => {
      const id = await requestTopUp(t, 'ONCE-1', 40);
      const before = await t.wallet('usr_super', 'live');
      const pending = await operator.get('/console/top-ups');
      assert.match(pending.body, new RegExp(`<tr id="topup-${id}">`));
      const ok = await operator.post(`/console/top-ups/${id}/approve`);
      assert.equal(ok.status, 303);
      assert.equal(ok.location, '/console/top-ups?notice=approved');
      assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 4000);
      const again = await admin.post(`/console/top-ups/${id}/approve`);
      assert.equal(again.status, 409);
      const reject = await operator.post(`/console/top-ups/${id}/reject`, { reason: 'late' });
      assert.equal(reject.status, 409);
      assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 4000);
      const decided = await t.database.db.selectFrom('top_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(decided.decided_by, 'operator@staff.example');
      const rows = (await auditRows(t, 'topup.approve')).filter((r) => r.record_id === id);
      assert.deepEqual(
        rows.map((r) => [r.actor, r.outcome]),
        [
          ['operator@staff.example', 'ok'],
          ['admin@staff.example', 'refused'],
        ],
      );
      assert.deepEqual(JSON.parse(rows[0]?.detail ?? '{}'), { amount: 40, profileId: 'usr_super', mode: 'live', reference: 'ONCE-1' });
      const page = await operator.get('/console/top-ups?notice=approved');
      assert.match(page.body, /Top-up approved/);
      assert.deepEqual(await ledgerProblems(t), []);
    });

    test('a rejection needs a reason and is final', async () => {
      const id = await requestTopUp(t, 'REJ-1');
      const blank = await operator.post(`/console/top-ups/${id}/reject`, { reason: '  ' });
      assert.equal(blank.status, 400);
      const ok = await operator.post(`/console/top-ups/${id}/reject`, { reason: 'no such payment <b>' });
      assert.equal(ok.status, 303);
      const page = await operator.get('/console/top-ups');
      assert.match(page.body, /rejected: no such payment &#60;b&#62;/, 'escaped');
      assert.equal((await operator.post(`/console/top-ups/${id}/approve`)).status, 409);
    });
  });

  describe('orders', () => {
    let completed: { orderId: string; shortReference: string };

    before(async () => {
      const bought = await buySingle(t, KEYS.superLive, '0244830051');
      assert.equal(bought.status, 200);
      completed = bought.body.data;
      // The worker runs until it has delivered: after the sandbox's acceptance the status check
      // comes a moment later (src/modules/deliveries/service.ts), not within one drain().
      const worker = newWorker(t);
      worker.start();
      try {
        await waitForState(t, KEYS.superLive, completed.orderId, ['completed']);
      } finally {
        await worker.stop();
      }
    });

    test('search by short reference, order id, beneficiary number, profile, state and date range', async () => {
      const day = new Date().toISOString().slice(0, 10);
      const searches = [
        `q=${completed.shortReference.toLowerCase()}`,
        `q=${completed.orderId}`,
        'q=0244830051',
        'q=233244830051',
        `profileId=usr_super&state=completed&from=${day}&to=${day}`,
      ];
      for (const query of searches) {
        const res = await viewer.get(`/console/orders?${query}`);
        assert.equal(res.status, 200, query);
        assert.match(
          res.body,
          new RegExp(`<a href="/console/orders/${completed.orderId}">${completed.shortReference}</a>`),
          query,
        );
      }
      const none = await viewer.get('/console/orders?q=DBNOPE2345');
      assert.match(none.body, /No order matches/);
      const otherState = await viewer.get(`/console/orders?q=${completed.orderId}&state=failed`);
      assert.match(otherState.body, /No order matches/);
      const past = await viewer.get(`/console/orders?q=${completed.orderId}&to=2020-01-01`);
      assert.match(past.body, /No order matches/);
      assert.equal((await viewer.get('/console/orders?state=sideways')).status, 400);
    });

    test('an order’s page shows its recipients, delivery attempts and ledger entries', async () => {
      const res = await viewer.get(`/console/orders/${completed.shortReference}`);
      assert.equal(res.status, 200);
      assert.match(res.body, /<dd class="state">completed<\/dd>/);
      assert.match(res.body, /<td>233244830051<\/td>/);
      assert.match(res.body, /<td>data_hold<\/td>/);
      assert.match(res.body, /<td>data_settle<\/td>/);
      assert.doesNotMatch(res.body, /Reverse order/, 'a viewer gets no reverse button');
    });

    test('reversal: admin only, with a reason, once; refunds through the service and is recorded', async () => {
      const before = await t.wallet('usr_super', 'live');
      const byOperator = await operator.post(`/console/orders/${completed.orderId}/reverse`, { reason: 'not delivered' });
      assert.equal(byOperator.status, 403);
      const noReason = await admin.post(`/console/orders/${completed.orderId}/reverse`, { reason: ' ' });
      assert.equal(noReason.status, 400);
      assert.deepEqual(await t.wallet('usr_super', 'live'), before);
      const ok = await admin.post(`/console/orders/${completed.orderId}/reverse`, { reason: 'not delivered' });
      assert.equal(ok.status, 303);
      const order = await t.call('GET', `/api/v1/orders/${completed.orderId}`, { key: KEYS.superLive });
      assert.equal(order.body.data.state, 'reversed');
      assert.ok((await t.wallet('usr_super', 'live')).available > before.available);
      const twice = await admin.post(`/console/orders/${completed.orderId}/reverse`, { reason: 'again' });
      assert.equal(twice.status, 409);
      const rows = (await auditRows(t, 'order.reverse')).filter((r) => r.record_id === completed.orderId);
      assert.deepEqual(
        rows.map((r) => [r.actor, r.outcome]),
        [
          ['operator@staff.example', 'refused'],
          ['admin@staff.example', 'refused'],
          ['admin@staff.example', 'ok'],
          ['admin@staff.example', 'refused'],
        ],
      );
      assert.deepEqual(await ledgerProblems(t), []);
    });

    test('retry of a stuck delivery makes its outbox row due now; refused when nothing is stuck', async () => {
      const bought = await buySingle(t, KEYS.superLive, '0244830052');
      const orderId = bought.body.data.orderId as string;
      const itemIds = t.database.db.selectFrom('order_items').select('id').where('order_id', '=', orderId);
      const notYet = await operator.post(`/console/orders/${orderId}/retry`);
      assert.equal(notYet.status, 409);
      const later = Date.now() + 3_600_000;
      await t.database.db
        .updateTable('order_items')
        .set({ updated_at: Date.now() - 3_600_000 })
        .where('order_id', '=', orderId)
        .execute();
      await t.database.db.updateTable('outbox').set({ run_at: later, tries: 4 }).where('order_item_id', 'in', itemIds).execute();
      const page = await operator.get(`/console/orders/${orderId}`);
      assert.match(page.body, /Retry stuck deliveries now/);
      const dashboard = await operator.get('/console');
      assert.match(dashboard.body, new RegExp(`<a href="/console/orders/${orderId}">`));
      assert.equal((await viewer.post(`/console/orders/${orderId}/retry`)).status, 403);
      const ok = await operator.post(`/console/orders/${orderId}/retry`);
      assert.equal(ok.status, 303);
      const row = await t.database.db
        .selectFrom('outbox')
        .selectAll()
        .where('order_item_id', 'in', itemIds)
        .executeTakeFirstOrThrow();
      assert.ok(Number(row.run_at) <= Date.now(), 'due now');
      const audit = (await auditRows(t, 'order.retry')).filter((r) => r.outcome === 'ok');
      assert.deepEqual(JSON.parse(audit.at(-1)?.detail ?? '{}'), { shortReference: bought.body.data.shortReference, stuck: 1, requeued: 0, hurried: 1 });
    });
  });

  describe('result-checker inventory', () => {
    test('an operator uploads a CSV: stock rises, duplicates are skipped and counted, PINs are never shown', async () => {
      const before = await t.ctx.resultChecker.stock('rcp_bece');
      const csv = 'username,password\nBECE-U-1,PIN-SECRET-1\nBECE-U-2,PIN-SECRET-2\nBECE-U-1,PIN-SECRET-1\n';
      const res = await upload(t, operator, 'rcp_bece', csv);
      assert.equal(res.status, 200, res.body);
      assert.match(res.body, /added 2, skipped 1 \(duplicates\); in stock now 2/);
      assert.equal(await t.ctx.resultChecker.stock('rcp_bece'), before + 2);
      assert.match(res.body, /<td class="stock" data-package="rcp_bece">2<\/td>/);
      for (const page of [res.body, (await admin.get('/console/inventory')).body, (await admin.get('/console/audit')).body]) {
        assert.doesNotMatch(page, /PIN-SECRET|BECE-U-/);
      }
      const rows = await auditRows(t, 'rc.import');
      assert.deepEqual(JSON.parse(rows.at(-1)?.detail ?? '{}'), { file: 'upload', added: 2, skipped: 1 });
    });

    test('a bad line rejects the whole file, naming the line; a viewer and a form without CSRF are refused', async () => {
      const before = await t.ctx.resultChecker.stock('rcp_bece');
      const bad = await upload(t, operator, 'rcp_bece', 'username,password\nBECE-U-9,PIN-9\nBECE-U-10,\n');
      assert.equal(bad.status, 400);
      assert.match(bad.body, /line 3/);
      assert.equal((await upload(t, viewer, 'rcp_bece', 'username,password\nV-1,P-1\n')).status, 403);
      assert.equal((await upload(t, operator, 'rcp_bece', 'username,password\nV-2,P-2\n', null)).status, 403);
      assert.equal((await upload(t, operator, 'rcp_nope', 'username,password\nV-3,P-3\n')).status, 400);
      assert.equal(await t.ctx.resultChecker.stock('rcp_bece'), before);
    });
  });

  describe('partners and keys', () => {
    test('profiles with role, status and balances per mode', async () => {
      const res = await viewer.get('/console/partners');
      assert.match(
        res.body,
        /<td><a href="\/console\/partners\/usr_super">Ama Serwaa Mensah<\/a><\/td><td>usr_super<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td>SuperAgent<\/td><td>Active<\/td><td>GHS \d+\.\d{2}<\/td><td>GHS \d+\.\d{2}<\/td>/,
      );
      assert.match(res.body, /<td>usr_suspended<\/td>.*<td>Suspended<\/td>/);
      assert.match(res.body, /<th>live available<\/th>/, 'the live wallets unless asked for test');
    });

    test('an admin creates a key (shown once, works at once) and revokes it; an operator cannot', async () => {
      assert.equal((await operator.post('/console/partners/usr_customer/keys', { mode: 'test' })).status, 403);
      const created = await admin.post('/console/partners/usr_customer/keys', { mode: 'test' });
      assert.equal(created.status, 200);
      const key = /<code id="new-key">(service_test_[^<]+)<\/code>/.exec(created.body)?.[1];
      assert.ok(key, created.body);
      assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key })).status, 200);
      const page = await admin.get('/console/partners/usr_customer');
      assert.ok(!page.body.includes(key), 'the key is shown once only');
      const keyId = /key id (key_\w+)/.exec(created.body)?.[1] ?? '';
      const audit = await auditRows(t, 'key.create');
      assert.ok(!JSON.stringify(audit).includes(key), 'the key is never recorded');
      assert.equal((await operator.post(`/console/keys/${keyId}/revoke`, { profileId: 'usr_customer' })).status, 403);
      const revoked = await admin.post(`/console/keys/${keyId}/revoke`, { profileId: 'usr_customer' });
      assert.equal(revoked.status, 303);
      assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key })).status, 401);
      assert.equal((await admin.post(`/console/keys/${keyId}/revoke`, { profileId: 'usr_customer' })).status, 409);
    });

    test('suspend and reactivate a profile: its keys are refused meanwhile', async () => {
      assert.equal((await operator.post('/console/partners/usr_agent/suspend')).status, 403);
      const suspended = await admin.post('/console/partners/usr_agent/suspend');
      assert.equal(suspended.status, 303);
      const agentKey = KEYS.agentLive;
      const refused = await t.call('GET', '/api/v1/wallet-balance', { key: agentKey });
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'PROFILE_SUSPENDED');
      assert.equal((await admin.post('/console/partners/usr_agent/suspend')).status, 409);
      assert.equal((await admin.post('/console/partners/usr_agent/reactivate')).status, 303);
      assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key: agentKey })).status, 200);
      const rows = await t.database.db
        .selectFrom('audit_log')
        .select(['action', 'outcome'])
        .where('record_id', '=', 'usr_agent')
        .orderBy('id')
        .execute();
      assert.deepEqual(rows, [
        { action: 'profile.suspend', outcome: 'refused' },
        { action: 'profile.suspend', outcome: 'ok' },
        { action: 'profile.suspend', outcome: 'refused' },
        { action: 'profile.reactivate', outcome: 'ok' },
      ]);
    });
  });

  describe('staff and audit', () => {
    test('an admin creates an account (one-time password shown once) and changes roles; nobody else may', async () => {
      assert.equal((await operator.post('/console/staff', { email: 'new@staff.example', role: 'admin' })).status, 403);
      const created = await admin.post('/console/staff', { email: 'new@staff.example', role: 'viewer' });
      assert.equal(created.status, 200);
      const password = /<code id="new-password">([^<]+)<\/code>/.exec(created.body)?.[1];
      assert.ok(password);
      await t.ctx.staff.login('new@staff.example', password, '127.0.0.1');
      const account = await t.ctx.staff.findByEmail('new@staff.example');
      const promoted = await admin.post(`/console/staff/${account?.id}`, { role: 'operator', status: 'active' });
      assert.equal(promoted.status, 303);
      assert.equal((await t.ctx.staff.findByEmail('new@staff.example'))?.role, 'operator');
      assert.ok(!JSON.stringify(await auditRows(t, 'staff.create')).includes(password), 'the password is never recorded');
    });

    test('the last active admin can be neither demoted nor disabled', async () => {
      const self = await t.ctx.staff.findByEmail(admin.email);
      const res = await admin.post(`/console/staff/${self?.id}`, { role: 'viewer', status: 'active' });
      assert.equal(res.status, 409);
      assert.match(res.body, /last active admin/);
    });

    test('a disabled account’s sessions end at once', async () => {
      const leaving = await signIn(t, 'operator', 'disabled@staff.example');
      const account = await t.ctx.staff.findByEmail('disabled@staff.example');
      assert.equal((await admin.post(`/console/staff/${account?.id}`, { role: 'operator', status: 'disabled' })).status, 303);
      assert.equal((await leaving.get('/console')).status, 303);
    });

    test('the audit list shows who did what, when, from where, on which record; the table is append-only', async () => {
      const res = await viewer.get('/console/audit?action=topup.approve');
      assert.equal(res.status, 200);
      assert.match(
        res.body,
        /<td>operator@staff\.example<\/td><td>127\.0\.0\.1<\/td><td>topup\.approve<\/td><td>top_up tup_\w+<\/td><td><a href="\/console\/partners\/usr_super" title="usr_super">Ama Serwaa Mensah<\/a><\/td><td>ok<\/td>/,
      );
      assert.doesNotMatch(res.body, /<td>ledger\.verify<\/td>/);
      await assert.rejects(t.database.db.deleteFrom('audit_log').execute(), /append-only/);
    });

    test('the audit page shows amounts in GHS, like every page of the console', async () => {
      // The approval of GHS 40.00 above (recorded in pesewas) and the reversal of a GHS order.
      const approvals = await viewer.get('/console/audit?action=topup.approve');
      assert.match(approvals.body, /<td>\{&#34;amount&#34;:&#34;GHS 40\.00&#34;,&#34;profileId&#34;:&#34;usr_super&#34;/);
      assert.doesNotMatch(approvals.body, /&#34;amount&#34;:\d/, 'no amount in pesewas');
      const reversals = await viewer.get('/console/audit?action=order.reverse');
      assert.match(reversals.body, /&#34;refunded&#34;:&#34;GHS \d+\.\d{2}&#34;/);
      assert.doesNotMatch(reversals.body, /&#34;refunded&#34;:\d/);
    });
  });
});

describe('console wording', () => {
  test('a result-checker order’s package has no leading separator; one order in the last hour is "1 order"', async (c) => {
    const t = await useTestApp(c, { env: CONSOLE_ENV });
    const viewer = await signIn(t, 'viewer');
    const bought = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244830077' },
    });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    const page = await viewer.get(`/console/orders/${bought.body.data.shortReference as string}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /<dt>Package<\/dt><dd>WASSCE Checker<\/dd>/);
    const dashboard = await viewer.get('/console');
    assert.match(dashboard.body, /<p>1 order in the last hour<\/p>/);
  });
});

describe('statement links', () => {
  test('a top-up in a partner’s statement links to that top-up’s own page', async (c) => {
    const t = await useTestApp(c, { env: CONSOLE_ENV });
    const [operator, viewer] = await Promise.all([signIn(t, 'operator'), signIn(t, 'viewer')]);
    const id = await requestTopUp(t, 'STATEMENT-LINK-1', 12);
    assert.equal((await operator.post(`/console/top-ups/${id}/approve`)).status, 303);
    const statement = await viewer.get('/console/partners/usr_super/statement?mode=live');
    assert.equal(statement.status, 200);
    assert.match(statement.body, new RegExp(`href="/console/top-ups/${id}"`));
    const page = await viewer.get(`/console/top-ups/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.body, new RegExp(`Top-up ${id}`));
  });
});
