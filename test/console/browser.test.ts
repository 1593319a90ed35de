import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openBrowser, offHostRequests, recordRequests, screenshot } from '../support/browser.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, deliverOrder } from '../support/orders.js';
import { totpCode } from '../../src/modules/console/totp.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD } from '../support/console.js';

/**
 * The console end to end in headless Chromium against a real listening server: sign in, approve a
 * top-up and see the balance change through the API, load PINs and see the stock rise, find an
 * order by its short reference and reverse it; a screenshot of each page goes to test-artifacts/.
 */
describe(`the console in a browser (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    await ensureStaff(t, 'admin@staff.example', 'admin');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  /** The API as a partner calls it, over the network. */
  async function api(path: string, init: { method?: string; body?: object } = {}) {
    const res = await fetch(`${origin}${path}`, {
      method: init.method ?? 'GET',
      headers: { 'x-api-key': KEYS.superLive, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  }

  async function signIn(page: Page, email = 'admin@staff.example', password = PASSWORD, lands = 'Dashboard') {
    await page.goto(`${origin}/console`);
    assert.match(page.url(), /\/console\/login$/, 'a page without a session sends to the sign-in form');
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: lands, exact: true }).waitFor();
  }

  /** After Back: what the page shows once htmx has restored or reloaded it, and what sessionStorage holds. */
  async function afterBack(page: Page) {
    await page.goBack();
    // Evaluated in the page (as source text: this project's TypeScript knows no DOM).
    await page.waitForFunction(
      `document.querySelector('#new-key, #new-password') !== null ||
        [...document.querySelectorAll('button')].some((b) => b.textContent === 'Sign in')`,
    );
    return {
      html: await page.content(),
      stored: await page.evaluate<string>('JSON.stringify(Object.entries(sessionStorage))'),
    };
  }

  async function newPage(browser: Browser, javaScriptEnabled = true, viewport = { width: 1366, height: 900 }) {
    const context = await browser.newContext({ javaScriptEnabled, viewport });
    const page = await context.newPage();
    const requests = recordRequests(page);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') violations.push(message.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    return { page, requests, violations };
  }

  test(
    'sign in, approve a top-up, load PINs, find and reverse an order; every page screenshotted',
    { timeout: 180_000 },
    async (c) => {
      const browser = await openBrowser(c);
      if (!browser) return;
      const { page, requests, violations } = await newPage(browser);

      // A partner asks for a live top-up: it waits for staff.
      const requested = await api('/api/v1/top-ups/request', {
        method: 'POST',
        body: { amount: 75, method: 'bank', reference: 'E2E-TOPUP-1' },
      });
      assert.equal(requested.status, 201);
      const topUpId = requested.body.data._id as string;
      const balanceBefore = (await api('/api/v1/wallet-balance')).body.data.availableBalance as number;

      await signIn(page);
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { htmx?: { version: string } }).htmx?.version.split('.')[0]),
        '2',
      );
      await screenshot(page, 'console-dashboard');

      // Approve the top-up: the partner's balance through the API rises by its amount.
      await page.getByRole('navigation').getByRole('link', { name: 'top-ups' }).click();
      const row = page.locator(`#topup-${topUpId}`);
      await row.waitFor();
      await screenshot(page, 'console-top-ups');
      await row.getByRole('button', { name: 'Approve' }).click();
      await page.getByText('Top-up approved').waitFor();
      assert.equal(await page.locator(`#topup-${topUpId}`).count(), 0, 'no longer pending');
      const balanceAfter = (await api('/api/v1/wallet-balance')).body.data.availableBalance as number;
      assert.equal(Math.round((balanceAfter - balanceBefore) * 100), 7500);

      // Load PINs: the stock shown rises by the new credentials.
      await page.getByRole('navigation').getByRole('link', { name: 'inventory' }).click();
      const stockCell = page.locator('td.stock[data-package="rcp_bece"]');
      const stockBefore = Number(await stockCell.textContent());
      await screenshot(page, 'console-inventory');
      await page.getByLabel('Package').selectOption('rcp_bece');
      await page.getByLabel('CSV file').setInputFiles({
        name: 'bece.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('username,password\nE2E-BECE-1,E2E-PIN-1\nE2E-BECE-2,E2E-PIN-2\nE2E-BECE-3,E2E-PIN-3\n'),
      });
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.getByText('added 3, skipped 0').waitFor();
      assert.equal(Number(await stockCell.textContent()), stockBefore + 3);
      assert.equal(await page.getByText('E2E-PIN-1').count(), 0, 'PINs are never shown');
      await screenshot(page, 'console-inventory-loaded');

      // An order completes; staff find it by its short reference and reverse it.
      const bought = await buySingle(t, KEYS.superLive, '0244840051');
      const { orderId, shortReference } = bought.body.data as { orderId: string; shortReference: string };
      await deliverOrder(t, KEYS.superLive, orderId);
      await page.getByRole('navigation').getByRole('link', { name: 'orders' }).click();
      await page.getByLabel('Reference, order id or number').fill(shortReference.toLowerCase());
      await page.getByRole('button', { name: 'Search' }).click();
      const found = page.getByRole('link', { name: shortReference });
      await found.waitFor();
      await screenshot(page, 'console-orders-search');
      await found.click();
      await page.getByRole('heading', { name: `Order ${shortReference}` }).waitFor();
      await screenshot(page, 'console-order');
      await page.getByLabel('Reason').fill('recipient never got the bundle');
      await page.getByRole('button', { name: 'Reverse order' }).click();
      await page.getByText('Order reversed').waitFor();
      assert.equal(await page.locator('dd.state').textContent(), 'reversed');
      const order = await api(`/api/v1/orders/${orderId}`);
      assert.equal(order.body.data.state, 'reversed');

      // The other pages.
      for (const [link, heading, name] of [
        ['staff', 'Staff', 'console-staff'],
        ['audit', 'Audit trail', 'console-audit'],
        ['partners', 'Partners', 'console-partners'],
      ] as const) {
        await page.getByRole('navigation').getByRole('link', { name: link }).click();
        await page.getByRole('heading', { name: heading, exact: true }).waitFor();
        await screenshot(page, name);
        if (link === 'audit') assert.equal(await page.getByRole('cell', { name: 'order.reverse', exact: true }).count(), 1);
      }
      await page.getByRole('link', { name: 'Ama Serwaa Mensah' }).first().click();
      await page.getByRole('heading', { name: /^Partner / }).waitFor();
      await screenshot(page, 'console-partner');

      assert.deepEqual(offHostRequests(requests, origin), [], 'nothing is loaded from another origin');
      assert.ok(requests.some((url) => url.endsWith('/console/assets/htmx.min.js')));
      assert.deepEqual(violations, [], 'no console errors (a CSP violation would be one)');
    },
  );

  test('on a 390 px phone screen no page scrolls sideways: the menu wraps, wide tables scroll inside their own box', { timeout: 120_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const { page, violations } = await newPage(browser, true, { width: 390, height: 844 });
    await signIn(page);
    const pages = ['/console', '/console/top-ups', '/console/orders', '/console/inventory', '/console/packages', '/console/partners',
      '/console/partners/usr_super', '/console/reconciliation', '/console/reports/margins', '/console/adjustments', '/console/webhooks',
      '/console/staff', '/console/audit', '/console/2fa', '/console/no-such-page'];
    for (const path of pages) {
      await page.goto(`${origin}${path}`);
      const widths = await page.evaluate<{ body: number; page: number; menu: number }>(
        `({ body: document.body.scrollWidth, page: document.documentElement.scrollWidth, menu: document.querySelector('header nav')?.scrollWidth ?? 0 })`,
      );
      assert.ok(widths.body <= 390 && widths.page <= 390 && widths.menu <= 390, `${path}: ${JSON.stringify(widths)}`);
    }
    // The partners table is wider than the screen: it scrolls in its own box.
    await page.goto(`${origin}/console/partners`);
    const table = await page.evaluate<{ scroll: number; client: number; overflow: string }>(
      `(() => { const t = document.querySelector('main table'); return { scroll: t.scrollWidth, client: t.clientWidth, overflow: getComputedStyle(t).overflowX }; })()`,
    );
    assert.equal(table.overflow, 'auto', JSON.stringify(table));
    assert.ok(table.client <= 390 && table.scroll > table.client, JSON.stringify(table));
    await screenshot(page, 'console-phone-partners');
    assert.deepEqual(violations.filter((v) => !v.includes('status of 404')), []);
  });

  test('without JavaScript the essential forms still work: sign in and approve a top-up', { timeout: 120_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const { page } = await newPage(browser, false);
    const requested = await api('/api/v1/top-ups/request', {
      method: 'POST',
      body: { amount: 5, method: 'momo', reference: 'E2E-NOJS-1' },
    });
    const topUpId = requested.body.data._id as string;
    const before = (await api('/api/v1/wallet-balance')).body.data.availableBalance as number;
    await signIn(page);
    await page.goto(`${origin}/console/top-ups`);
    await page.locator(`#topup-${topUpId}`).getByRole('button', { name: 'Approve' }).click();
    await page.getByText('Top-up approved').waitFor();
    assert.match(page.url(), /\/console\/top-ups\?notice=approved$/);
    const afterApproval = (await api('/api/v1/wallet-balance')).body.data.availableBalance as number;
    assert.equal(Math.round((afterApproval - before) * 100), 500);
    await screenshot(page, 'console-top-ups-no-js');
  });

  test(
    'secrets shown once stay gone: after sign-out, Back shows neither the new key nor the new password, and sessionStorage keeps no copy',
    { timeout: 120_000 },
    async (c) => {
      const browser = await openBrowser(c);
      if (!browser) return;
      const { page, violations } = await newPage(browser);
      await signIn(page);

      await page.goto(`${origin}/console/partners/usr_customer`);
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('#new-key').textContent()) ?? '';
      assert.match(key, /^service_live_/);
      await page.getByRole('navigation').getByRole('link', { name: 'staff' }).click();
      await page.getByRole('heading', { name: 'Staff', exact: true }).waitFor();
      await page.getByLabel('E-mail').fill('history@staff.example');
      await page.getByRole('button', { name: 'Create' }).click();
      const password = (await page.locator('#new-password').textContent()) ?? '';
      assert.ok(password.length >= 20);
      assert.equal(new URL(page.url()).pathname, '/console/staff', 'the address is the staff page, not the form');
      await screenshot(page, 'console-staff-created');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      for (const step of ['the staff page', 'the partner page']) {
        const { html, stored } = await afterBack(page);
        assert.ok(!html.includes(password), `${step}: the one-time password is not shown again`);
        assert.ok(!html.includes(key), `${step}: the key is not shown again`);
        assert.ok(!stored.includes(password) && !stored.includes(key), `${step}: sessionStorage holds ${stored.slice(0, 200)}`);
        assert.match(page.url(), /\/console\/login$/, `${step}: asked the server, which wants a sign-in`);
      }
      assert.deepEqual(violations, []);
    },
  );

  test('a one-time password: the first sign-in leads to the change-password page, the new password signs in', { timeout: 120_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    await ensureStaff(t, 'first-time@staff.example', 'operator', false);
    const { page, violations } = await newPage(browser);
    await signIn(page, 'first-time@staff.example', PASSWORD, 'Password');
    assert.match(page.url(), /\/console\/password$/);
    await page.getByText('You signed in with a one-time password').waitFor();
    await screenshot(page, 'console-password-required');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('a password I chose myself');
    await page.getByLabel('New password again').fill('a password I chose myself');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await signIn(page, 'first-time@staff.example', 'a password I chose myself');
    assert.deepEqual(violations, []);
  });

  test('two-factor sign-in: set up with a code, recovery codes shown once, then signed in with password and code', { timeout: 120_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    await ensureStaff(t, 'two-factor@staff.example', 'viewer');
    const { page, requests, violations } = await newPage(browser);
    await signIn(page, 'two-factor@staff.example');
    await page.getByRole('link', { name: '2fa' }).click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const shown = await page.locator('#totp-secret').textContent();
    const secret = (shown ?? '').replace(/\s+/g, '');
    assert.match(secret, /^[A-Z2-7]{32}$/);
    await screenshot(page, 'console-2fa-setup');
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByLabel('Code the app shows now').fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#recovery-codes').waitFor();
    assert.equal(await page.locator('#recovery-codes li').count(), 10);
    await screenshot(page, 'console-2fa-recovery-codes');
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    await page.getByLabel('E-mail').fill('two-factor@staff.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const code = page.getByLabel('Code from your authenticator app');
    await code.waitFor();
    assert.match(page.url(), /\/console\/login\/code$/);
    await code.fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Wrong code').waitFor();
    await screenshot(page, 'console-2fa-code-refused');
    // The step after the one the setup used: a code is never accepted twice.
    await page.getByLabel('Code from your authenticator app').fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.goto(`${origin}/console/2fa`);
    await page.getByText('Two-factor sign-in is on').waitFor();
    assert.equal(await page.locator('#recovery-codes').count(), 0, 'the recovery codes are not shown again');
    assert.deepEqual(offHostRequests(requests, origin), [], 'nothing is fetched from elsewhere');
    // The refused code's page is answered 401, which Chromium reports; nothing else may be.
    assert.deepEqual(violations.filter((v) => !v.includes('status of 401')), []);
  });
});
