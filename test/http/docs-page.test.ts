import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { offHostRequests, openBrowser, recordRequests, screenshot } from '../support/browser.js';
import { useTestApp } from '../support/app.js';

/**
 * GET /docs in a real browser, from a real listening server: the API reference (Scalar) renders
 * from /openapi.json, shows the getting-started text and the buy-single operation, and nothing it
 * loads (scripts, fonts, styles, telemetry) comes from anywhere but 127.0.0.1.
 */

test('GET /docs renders the API reference offline: getting started, the buy-single operation, no request off 127.0.0.1', async (c) => {
  const browser = await openBrowser(c);
  if (!browser) return;
  const t = await useTestApp(c);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

  const page = await browser.newPage();
  const requests = recordRequests(page);
  await page.goto(`${origin}/docs`, { waitUntil: 'load', timeout: 60_000 });

  await page.getByText('Sandbox test numbers').first().waitFor({ timeout: 30_000 });
  // The buy-single operation, by its summary and its path.
  try {
    const operation = page.getByText('Buy a data bundle for one recipient').first();
    await operation.scrollIntoViewIfNeeded({ timeout: 30_000 });
    await page.getByText('/api/v1/data-bundles/buy-single').first().waitFor({ timeout: 30_000 });
  } catch (error) {
    await screenshot(page, 'docs-buy-single-not-found');
    throw error;
  }
  // Let late requests (lazy chunks, fonts) show up; a busy machine may never go fully idle, which is no failure.
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await screenshot(page, 'docs-buy-single');

  assert.ok(
    requests.some((url) => url === `${origin}/openapi.json`),
    `the page loaded the document: ${requests.join(', ')}`,
  );
  assert.ok(
    requests.some((url) => url === `${origin}/docs/js/scalar.js`),
    'the script comes from this server',
  );
  assert.deepEqual(offHostRequests(requests, origin), [], 'every request stayed on 127.0.0.1');
});
