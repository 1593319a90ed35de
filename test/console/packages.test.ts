import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { readRouteList } from '../../src/modules/package-routes/schemas.js';
import { startDtoneSimulator, type DtoneSimulator } from '../../src/providers/dtone/simulator.js';
import { staffActor } from '../support/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { offHostRequests, openBrowser, recordRequests, screenshot } from '../support/browser.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD, signIn } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { waitFor } from '../support/wait.js';

/**
 * The console's data packages (docs/console.md, "Pages"): an admin changes a package's price, role
 * prices and routes in Chromium against a listening server; the API shows the new price at once,
 * the audit trail has both changes in GHS; an operator sees the page but no form, and is refused a
 * change. With NODE_ENV=production and no LIVE_SANDBOX, a package is not activated without a usable
 * route.
 */
describe(`the console's data packages in a browser (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    await ensureStaff(t, 'admin@staff.example', 'admin');
    await ensureStaff(t, 'operator@staff.example', 'operator');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  async function priceFor(key: string, packageId: string): Promise<number> {
    const res = await fetch(`${origin}/api/v1/packages/${packageId}`, { headers: { 'x-api-key': key } });
    assert.equal(res.status, 200);
    return ((await res.json()) as { data: { price: number } }).data.price;
  }

  async function newPage(browser: Browser) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const requests = recordRequests(page);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    return { page, requests, violations };
  }

  async function signInAs(page: Page, email: string) {
    await page.goto(`${origin}/console`);
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
  }

  const storedRoutes = () => t.ctx.packageRoutes.routesOf('pkg_a_1gb');

  async function networkOf(operatorId: string): Promise<string | null | undefined> {
    const res = await fetch(`${origin}/api/v1/operators`, { headers: { 'x-api-key': KEYS.agentTest } });
    return ((await res.json()) as { data: { _id: string; network: string | null }[] }).data.find((o) => o._id === operatorId)?.network;
  }

  test('an admin changes the price, a role price and the routes; the API and the audit trail show them', { timeout: 180_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const { page, requests, violations } = await newPage(browser);
    assert.equal(await priceFor(KEYS.customerLive, 'pkg_a_1gb'), 10);

    await signInAs(page, 'admin@staff.example');
    await page.getByRole('navigation').getByRole('link', { name: 'packages' }).click();
    await page.getByRole('heading', { name: 'Data packages', exact: true }).waitFor();
    assert.equal(await page.locator('#enabled-upstreams').first().textContent(), 'sandbox');
    await screenshot(page, 'console-packages');

    // An operator's network: the API checks numbers against it from the next request; audited; cleared again.
    await page.getByLabel('Network of op_b', { exact: true }).selectOption('TELECEL');
    await page.locator('#operator-op_b').getByRole('button', { name: 'Save' }).click();
    await page.getByText("Operator's network saved").waitFor();
    assert.equal(await networkOf('op_b'), 'TELECEL');
    const mismatch = await fetch(`${origin}/api/v1/data-bundles/buy-single`, {
      method: 'POST',
      headers: { 'x-api-key': KEYS.agentTest, 'content-type': 'application/json' },
      body: JSON.stringify({ operatorId: 'op_b', productId: 'prd_b', packageId: 'pkg_b_1gb', beneficiaryMsisdn: '0244123456' }),
    });
    assert.equal(mismatch.status, 400);
    assert.match(((await mismatch.json()) as { error: { message: string } }).error.message, /^0244123456 is an MTN number by its prefix; this is a Telecel bundle\./);
    await page.getByLabel('Network of op_b', { exact: true }).selectOption('');
    await page.locator('#operator-op_b').getByRole('button', { name: 'Save' }).click();
    await waitFor('the network of op_b cleared', async () => (await networkOf('op_b')) === null);
    const changes = await t.ctx.audit.list({ action: 'operator.network', limit: 2 });
    assert.deepEqual(
      changes.map((e) => [e.actor, e.recordId, e.detail]),
      [
        ['admin@staff.example', 'op_b', { before: 'TELECEL', after: null }],
        ['admin@staff.example', 'op_b', { before: null, after: 'TELECEL' }],
      ],
    );

    await page.getByRole('link', { name: 'pkg_a_1gb', exact: true }).click();
    await page.getByRole('heading', { name: 'Package pkg_a_1gb' }).waitFor();
    assert.equal(await page.locator('#unrouted').textContent(), 'No usable route: its live orders go to the sandbox');

    // Price and role price: the partner API shows them on its next request.
    await page.getByLabel('Price (GHS)', { exact: true }).fill('12.75');
    await page.getByLabel('Agent price (GHS; empty: the package price)', { exact: true }).fill('11.5');
    await page.getByRole('button', { name: 'Save price and status' }).click();
    await page.getByText('Saved.').waitFor();
    assert.equal(await priceFor(KEYS.customerLive, 'pkg_a_1gb'), 12.75);
    assert.equal(await priceFor(KEYS.agentLive, 'pkg_a_1gb'), 11.5);

    // Routes: two rows filled in; a third row's stale fields of another provider are ignored.
    await page.getByLabel('Route 1 provider', { exact: true }).selectOption('hubtel');
    await page.getByLabel('Route 1 serviceId', { exact: true }).fill('b230733cd56b4a0fad820e39f66bc27c');
    await page.getByLabel('Route 1 bundle', { exact: true }).fill('DATA10');
    await page.getByLabel('Route 1 amount', { exact: true }).fill('10');
    await page.getByLabel('Route 2 provider', { exact: true }).selectOption('reloadly');
    await page.getByLabel('Route 2 operatorId', { exact: true }).fill('643');
    await page.getByLabel('Route 2 amount', { exact: true }).fill('10.00');
    await page.getByLabel('Route 2 cost', { exact: true }).fill('9.35');
    await page.getByLabel('Route 2 bundle', { exact: true }).fill('ignored for reloadly');
    await page.getByLabel('Route 3 provider', { exact: true }).selectOption('sandbox');
    await screenshot(page, 'console-package-routes-form');
    // The Hubtel route's amount (GHS 10.00) is more than the SuperAgent and Staff prices: the second confirmation.
    await page.locator('#below-cost-routes').check();
    await page.getByRole('button', { name: 'Save routes' }).click();
    await page.getByText('Routes saved below cost, as you confirmed').waitFor();
    assert.deepEqual(await storedRoutes(), [
      { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 1000 },
      { provider: 'reloadly', operatorId: 643, amount: 1000, cost: 935 },
      { provider: 'sandbox' },
    ]);
    // Each route says whether its upstream is enabled here.
    assert.equal(await page.locator('#route-0 .upstream').textContent(), 'not enabled: its variables are not set');
    assert.equal(await page.locator('#route-2 .upstream').textContent(), 'enabled');
    assert.equal(await page.locator('#unrouted').count(), 0, 'the sandbox route is usable here');
    await screenshot(page, 'console-package');

    // Reorder by the order field, and remove a route by emptying its provider.
    await page.getByLabel('Route 1 order', { exact: true }).fill('5');
    await page.getByLabel('Route 3 provider', { exact: true }).selectOption('');
    await page.locator('#below-cost-routes').check();
    await page.getByRole('button', { name: 'Save routes' }).click();
    // The notice was there already: wait for the page that lists the new order.
    await page.locator('#route-0', { hasText: 'reloadly' }).waitFor();
    assert.deepEqual(
      (await storedRoutes()).map((r) => r.provider),
      ['reloadly', 'hubtel'],
    );

    // A bad route is refused naming its row; nothing changes.
    await page.getByLabel('Route 1 amount', { exact: true }).fill('10.005');
    await page.getByRole('button', { name: 'Save routes' }).click();
    await page.getByText('route 1 field amount: must be a GHS amount with at most two decimals (got 10.005)').waitFor();
    assert.deepEqual(
      (await storedRoutes()).map((r) => r.provider),
      ['reloadly', 'hubtel'],
    );
    await screenshot(page, 'console-package-routes-refused');

    // The audit trail: both changes, by the admin, amounts in GHS.
    await page.goto(`${origin}/console/audit?action=package.update`);
    await page.getByRole('cell', { name: 'package.update', exact: true }).first().waitFor();
    await page.getByText('"price":"GHS 12.75"').waitFor();
    const [update] = await t.ctx.audit.list({ action: 'package.update', limit: 1 });
    assert.equal(update?.actor, 'admin@staff.example');
    assert.deepEqual(update?.detail, {
      before: { price: 10, rolePrices: { Agent: 9, SuperAgent: 8.5, Staff: 7.25 }, status: 'Active' },
      after: { price: 12.75, rolePrices: { Agent: 11.5, SuperAgent: 8.5, Staff: 7.25 }, status: 'Active' },
    });
    const sets = await t.ctx.audit.list({ action: 'package.routes.set', limit: 10 });
    assert.equal(sets.filter((e) => e.outcome === 'ok').length, 2);
    assert.ok(Array.isArray(sets[0]?.detail?.belowCostConfirmed), 'saved below cost, as confirmed');
    assert.deepEqual(sets[0]?.detail?.after, [
      { provider: 'reloadly', operatorId: 643, amount: 10, cost: 9.35 },
      { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 10 },
    ]);
    await screenshot(page, 'console-audit-packages');

    assert.deepEqual(offHostRequests(requests, origin), []);
    // The refused route form answered 400, which Chromium reports as a console error; nothing else may.
    assert.deepEqual(
      violations.filter((v) => !v.includes('status of 400')),
      [],
      'no console errors (a CSP violation would be one)',
    );
    assert.equal(violations.length, 1, violations.join('\n'));
  });

  test('an operator sees the package but no form, and a change is refused (403) and recorded', { timeout: 120_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const { page } = await newPage(browser);
    await signInAs(page, 'operator@staff.example');
    await page.goto(`${origin}/console/packages`);
    await page.locator('#operator-op_b .network', { hasText: 'none (not checked)' }).waitFor();
    assert.equal(await page.getByLabel('Network of op_b').count(), 0, 'no network form for an operator');
    await page.goto(`${origin}/console/packages/pkg_a_2gb`);
    await page.getByRole('heading', { name: 'Package pkg_a_2gb' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Save price and status' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Save routes' }).count(), 0);

    // The same form an admin would send, sent from the operator's session.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const status = await page.evaluate<number, string>(
      `fetch('/console/packages/pkg_a_2gb', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ _csrf: ${JSON.stringify(csrf)}, price: '1.00', status: 'Active' }) }).then((r) => r.status)`,
      csrf,
    );
    assert.equal(status, 403);
    assert.equal(await priceFor(KEYS.customerLive, 'pkg_a_2gb'), 20.5);
    const [refusal] = await t.ctx.audit.list({ action: 'package.update', limit: 1 });
    assert.equal(refusal?.outcome, 'refused');
    assert.equal(refusal?.actor, 'operator@staff.example');
  });
});

describe(`the console in production without LIVE_SANDBOX: no package active without a usable route (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let dtone: DtoneSimulator;
  before(async () => {
    // Saving a DT One route reads its product there: the simulator stands in for DT One.
    dtone = await startDtoneSimulator();
    t = await createTestApp({
      env: { ...CONSOLE_ENV, NODE_ENV: 'production', CREDENTIALS_KEY: randomBytes(32).toString('base64'), ...dtone.env },
    });
  });
  after(async () => {
    await t.close();
    await dtone.close();
  });

  test('activating is refused with the reason until the package has a route to an enabled upstream', async () => {
    const admin = await signIn(t, 'admin');
    const activate = { price: '40.00', status: 'Active' };
    const refused = await admin.post('/console/packages/pkg_a_inactive', activate);
    assert.equal(refused.status, 409, refused.body.slice(0, 300));
    assert.match(refused.body, /pkg_a_inactive cannot be activated: it has no usable route \(upstreams enabled: dtone\)/);
    const page = await admin.get('/console/packages/pkg_a_inactive');
    assert.match(page.body, /No usable route: it cannot be activated until it has one/);
    assert.match(page.body, /Upstreams enabled here: <strong id="enabled-upstreams">dtone<\/strong>/);

    const routes = await admin.post('/console/packages/pkg_a_inactive/routes', { r0_provider: 'dtone', r0_productId: '35211' });
    assert.equal(routes.status, 303, routes.body.slice(0, 300));
    const done = await admin.post('/console/packages/pkg_a_inactive', activate);
    assert.equal(done.status, 303, done.body.slice(0, 300));
    const row = await t.database.db.selectFrom('data_packages').select('status').where('id', '=', 'pkg_a_inactive').executeTakeFirstOrThrow();
    assert.equal(row.status, 'Active');

    // Its last usable route may not be taken away while it is active.
    const emptied = await admin.post('/console/packages/pkg_a_inactive/routes', { r0_provider: 'sandbox' });
    assert.equal(emptied.status, 409, emptied.body.slice(0, 300));
    assert.match(emptied.body, /pkg_a_inactive is active and would have no usable route/);
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_inactive'), [{ provider: 'dtone', productId: 35211 }]);
    const refusals = (await t.ctx.audit.list({ limit: 20 })).filter((e) => e.outcome === 'refused' && e.recordId === 'pkg_a_inactive');
    assert.deepEqual(refusals.map((e) => e.action).sort(), ['package.routes.set', 'package.update']);
  });

  test('a bad form is refused naming the field, 400, nothing changed', async () => {
    const admin = await signIn(t, 'admin', 'admin-2@staff.example');
    await t.ctx.packageRoutes.replace(staffActor(), 'pkg_b_1gb', readRouteList([{ provider: 'dtone', productId: 35212 }]));
    for (const [url, form, message] of [
      ['/console/packages/pkg_b_1gb', { price: '6.005', status: 'Active' }, 'price: &#34;6.005&#34; is not a GHS amount (like 10 or 9.50)'],
      ['/console/packages/pkg_b_1gb', { price: '0', status: 'Active' }, 'the price must be more than GHS 0'],
      ['/console/packages/pkg_b_1gb/routes', { r0_provider: 'reloadly', r0_amount: '5' }, 'route 1: missing field operatorId (a reloadly route needs them)'],
      [
        '/console/packages/pkg_b_1gb/routes',
        { r0_provider: 'dtone', r0_productId: '7', r1_provider: 'dtone', r1_productId: '7' },
        'route 2: the same route as route 1',
      ],
    ] as const) {
      const res = await admin.post(url, form);
      assert.equal(res.status, 400, `${url} ${JSON.stringify(form)}: ${res.body.slice(0, 300)}`);
      assert.ok(res.body.includes(message), `${message} in ${res.body.slice(0, 2000)}`);
    }
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_b_1gb'), [{ provider: 'dtone', productId: 35212 }]);
    const row = await t.database.db.selectFrom('data_packages').select('price').where('id', '=', 'pkg_b_1gb').executeTakeFirstOrThrow();
    assert.equal(Number(row.price), 600);
  });

  test('the packages page names what happens here to a package without a usable route', async () => {
    const viewer = await signIn(t, 'viewer');
    const page = await viewer.get('/console/packages');
    assert.equal(page.status, 200);
    assert.match(page.body, /Production without LIVE_SANDBOX: an active package needs a usable route/);
    assert.match(page.body, /<tr id="package-pkg_a_legacy">.*No usable route: the service refuses to start while this package is active/);
  });
});
