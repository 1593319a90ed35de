import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, screenshot } from '../support/browser.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle } from '../support/orders.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD } from '../support/console.js';

/**
 * Issue 29 item 5 in Chromium: the dashboard switched to test mode, an order found by its number
 * written the international way, several pending top-ups approved with one form (one of them
 * rejected by someone else meanwhile), a partner found by name. Screenshots go to test-artifacts/.
 */
describe(`finding things in the console, in a browser (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    await ensureStaff(t, 'operator@staff.example', 'operator');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  test('mode switch, order search by number, bulk approval, partner search', { timeout: 180_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('dialog', (d) => void d.accept());

    const bought = await buySingle(t, KEYS.superLive, '0244581234', { paymentReference: 'INV-BROWSER-1' });
    assert.equal(bought.status, 200);
    const { orderId, shortReference } = bought.body.data as { orderId: string; shortReference: string };
    assert.equal((await buySingle(t, KEYS.superTest, '0244581299')).status, 200);
    const topUps: string[] = [];
    for (const [reference, amount] of [['E2E-BULK-1', 10], ['E2E-BULK-2', 15], ['E2E-BULK-3', 20]] as const) {
      const res = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.superLive, body: { amount, method: 'bank', reference } });
      assert.equal(res.status, 201);
      topUps.push(res.body.data._id as string);
    }

    await page.goto(`${origin}/console/login`);
    await page.getByLabel('E-mail').fill('operator@staff.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#figures-live').waitFor();
    await page.locator('#mode-switch').getByRole('link', { name: 'test' }).click();
    await page.locator('#figures-test').waitFor();
    const testOrders = await t.database.db.selectFrom('orders').select('id').where('mode', '=', 'test').execute();
    assert.match((await page.locator('#figures-test').textContent()) ?? '', new RegExp(`${testOrders.length} orders? in the last hour`));
    await screenshot(page, 'console-find-dashboard-test');

    await page.getByRole('navigation').getByRole('link', { name: 'orders' }).click();
    await page.getByLabel('Reference, order id or number').fill('+233 24 458 1234');
    await page.getByRole('button', { name: 'Search' }).click();
    // The unfiltered list may already show the row waited for below: wait for the search's own page.
    await page.waitForURL((url) => url.searchParams.get('q') === '+233 24 458 1234');
    await page.locator(`#order-${orderId}`).getByRole('link', { name: shortReference }).waitFor();
    assert.equal(await page.locator('#results tbody tr').count(), 1);
    assert.equal(await page.locator(`#order-${orderId}`).getByRole('link', { name: 'Ama Serwaa Mensah' }).count(), 1);
    await screenshot(page, 'console-find-orders-by-number');

    await page.goto(`${origin}/console/top-ups?status=pending`);
    for (const id of topUps) await page.locator(`#topup-${id} input[type=checkbox]`).check();
    await t.ctx.console.rejectTopUp({ staffId: null, name: 'someone-else', address: null }, topUps[2] ?? '', 'no such transfer');
    const before = await t.wallet('usr_super', 'live');
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.locator('#bulk-result, p.error').first().waitFor();
    if ((await page.locator('p.error').count()) > 0) assert.fail(`refused: ${(await page.locator('p.error').textContent()) ?? ''}`);
    assert.match((await page.locator(`#bulk-${topUps[0]}`).textContent()) ?? '', /approved: GHS 10\.00 credited to Ama Serwaa Mensah \(live\)/);
    assert.match((await page.locator(`#bulk-${topUps[1]}`).textContent()) ?? '', /approved: GHS 15\.00/);
    assert.match((await page.locator(`#bulk-${topUps[2]}`).textContent()) ?? '', /not approved: .*already rejected/);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available + 2500, held: before.held });
    await screenshot(page, 'console-find-bulk-approval');

    await page.getByRole('navigation').getByRole('link', { name: 'partners' }).click();
    await page.getByLabel('Name, e-mail, phone or profile id').fill('boateng');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => url.searchParams.get('q') === 'boateng');
    await page.locator('#partner-usr_agent').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);
    await screenshot(page, 'console-find-partners');
    assert.deepEqual(errors, [], 'no console errors (a CSP violation would be one)');
  });
});
