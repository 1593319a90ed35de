import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, offHostRequests, recordRequests, screenshot } from '../support/browser.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { approvedTopUp, createEndpoint, verified } from '../support/webhooks.js';
import { createWebhookLane } from '../../src/worker/index.js';

/**
 * Redeliver from the console in headless Chromium: an operator finds a failing delivery on the
 * failing webhooks page, opens it, presses Redeliver; the worker's webhook lane (running, as in a
 * worker process) sends the event once more and the receiver checks its signature with the
 * `standardwebhooks` package. Screenshots go to test-artifacts/.
 */
describe(`webhooks in the console, in a browser (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;
  let receiver: Receiver;
  let healthy = false;

  before(async () => {
    // A retry scale of 100: after the first failure the next retry is 500 s away; only the redelivery sends again.
    t = await createTestApp({ env: { ...CONSOLE_ENV, WEBHOOK_RETRY_SCALE: '100', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    await ensureStaff(t, 'operator@staff.example', 'operator');
    receiver = await startReceiver(() => ({ status: healthy ? 200 : 500 }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  test('an operator redelivers a failing delivery; the receiver gets it once more, validly signed', { timeout: 180_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const lane = createWebhookLane(t.ctx, 'browser-lane', { idleMaxMs: 50 });
    lane.start();
    c.after(() => lane.stop());

    const endpoint = await createEndpoint(t, KEYS.superLive, `${receiver.url}/hooks`, ['topup.approved']);
    await approvedTopUp(t, KEYS.superLive, 'WEBHOOK-BROWSER-1');
    const delivery = await waitFor('the first attempt to fail', async () => {
      const row = await t.database.db.selectFrom('webhook_deliveries').selectAll().executeTakeFirst();
      return row && Number(row.attempts) === 1 ? row : undefined;
    });
    const eventId = delivery.event_id;
    const deliveryId = Number(delivery.id);
    assert.equal(receiver.withId(eventId).length, 1);

    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const requests = recordRequests(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('dialog', (dialog) => void dialog.accept());
    const noSecret = async (where: string) => {
      const html = await page.content();
      assert.ok(!html.includes(endpoint.secret) && !html.includes(endpoint.secret.slice('whsec_'.length)), `${where} shows the secret`);
    };

    await page.goto(`${origin}/console/login`);
    await page.getByLabel('E-mail').fill('operator@staff.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();

    await page.getByRole('navigation').getByRole('link', { name: 'webhooks' }).click();
    await page.getByRole('heading', { name: 'Failing webhooks', exact: true }).waitFor();
    const row = page.locator(`#failing-${deliveryId}`);
    assert.match((await row.textContent()) ?? '', /Ama Serwaa Mensah.*topup\.approved.*HTTP 500.*retrying/s);
    await screenshot(page, 'console-webhooks-failing');
    await noSecret('the failing page');

    await row.getByRole('link', { name: String(deliveryId) }).click();
    await page.getByRole('heading', { name: `Webhook delivery ${deliveryId}` }).waitFor();
    await screenshot(page, 'console-webhook-delivery');
    await noSecret('the delivery page');

    healthy = true;
    await page.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('Redelivery queued').waitFor();
    await screenshot(page, 'console-webhook-redelivered');

    const again = await waitFor('the redelivery to arrive', async () => receiver.withId(eventId)[1]);
    assert.equal(verified(endpoint.secret, again)._id, eventId);
    await waitFor('the delivery to be recorded as succeeded', async () => {
      const row = await t.database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', deliveryId).executeTakeFirst();
      return row?.status === 'succeeded';
    });
    assert.equal(receiver.withId(eventId).length, 2, 'sent once more, and only once');

    await page.getByRole('link', { name: 'Ama Serwaa Mensah' }).click();
    await page.getByRole('heading', { name: 'Webhooks of Ama Serwaa Mensah' }).waitFor();
    const section = page.locator(`#endpoint-${endpoint.id}`);
    assert.equal(await section.locator('dd.recent').textContent(), '1 delivered · 0 failing');
    assert.equal(await section.locator(`#delivery-${deliveryId} td.state`).textContent(), 'succeeded');
    await screenshot(page, 'console-partner-webhooks');
    await noSecret('the partner’s webhooks page');

    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'webhook.redeliver').execute();
    assert.deepEqual(
      audit.map((r) => [r.actor, r.record_id, r.outcome]),
      [['operator@staff.example', String(deliveryId), 'ok']],
    );
    assert.deepEqual(offHostRequests(requests, origin), [], 'nothing is loaded from another origin');
    assert.deepEqual(errors, [], 'no console errors (a CSP violation would be one)');
  });
});
