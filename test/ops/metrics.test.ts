import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { startMetricsListener } from '../../src/ops/listeners.js';
import { createWorker } from '../../src/worker/index.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { buySingle } from '../support/orders.js';
import { createEndpoint, startWorkers, webhookApp } from '../support/webhooks.js';
import { staffActor } from '../support/actor.js';

const TOKEN = 'metrics-token-0123456789abcdef';

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const braces = /^[^{ ]+(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!braces) continue;
    const found = Object.fromEntries([...(braces[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(braces[2]);
  }
  return undefined;
}

describe(`GET /metrics (${TEST_DIALECT})`, () => {
  describe('with METRICS_TOKEN on the API listener', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp({ env: { METRICS_TOKEN: TOKEN, SANDBOX_SETTLE_MS: '0' } });
    });
    after(async () => {
      await t.close();
    });
    const scrape = async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      return res.body;
    };

    test('refuses a missing or wrong bearer token with 401 in the error envelope', async () => {
      for (const authorization of [undefined, 'Bearer nope', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`]) {
        const res = await t.call('GET', '/metrics', { headers: authorization ? { authorization } : {} });
        assert.equal(res.status, 401, String(authorization));
        assert.equal(res.body.error.code, 'UNAUTHORIZED');
        assert.equal(res.headers['www-authenticate'], 'Bearer realm="metrics"');
        assert.doesNotMatch(JSON.stringify(res.body), /partner_api_/);
      }
    });

    test('counts requests by route pattern and status, purchases by mode, deliveries, provider errors and outbox', async () => {
      const ok = await buySingle(t, KEYS.superLive, '0244712345');
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const refused = await buySingle(t, KEYS.superTest, '0244710002');
      assert.equal(refused.status, 200, JSON.stringify(refused.body));
      await t.call('GET', `/api/v1/orders/${ok.body.data.orderId}`, { key: KEYS.superLive });

      let text = await scrape();
      assert.equal(
        sample(text, 'partner_api_http_requests_total', {
          method: 'POST',
          route: '/api/v1/data-bundles/buy-single',
          status: '200',
        }),
        2,
      );
      // The route pattern, not the URL: one series for every order id.
      assert.equal(
        sample(text, 'partner_api_http_requests_total', { method: 'GET', route: '/api/v1/orders/:orderId', status: '200' }),
        1,
      );
      assert.equal(
        sample(text, 'partner_api_http_request_duration_seconds_count', {
          route: '/api/v1/data-bundles/buy-single',
          status: '200',
        }),
        2,
      );
      assert.equal(sample(text, 'partner_api_orders_accepted_total', { mode: 'live', type: 'data_single' }), 1);
      assert.equal(sample(text, 'partner_api_orders_accepted_total', { mode: 'test', type: 'data_single' }), 1);
      assert.equal(sample(text, 'partner_api_outbox_depth'), 2);
      assert.ok((sample(text, 'partner_api_outbox_oldest_age_seconds') ?? -1) >= 0);
      assert.equal(sample(text, 'partner_api_result_checker_stock', { package: 'rcp_wassce' }), 3);
      assert.equal(sample(text, 'partner_api_result_checker_stock', { package: 'rcp_bece' }), 0);

      const worker = createWorker(t.ctx, { pollIntervalMs: 1, idleMaxMs: 5 });
      // A delivery's status check is scheduled after its acceptance: drain until the outbox is empty.
      await waitFor('every delivery settled', async () => {
        await worker.drain();
        return (await t.ctx.repositories.outbox.stats()).depth === 0 ? true : undefined;
      });
      text = await scrape();
      assert.equal(sample(text, 'partner_api_deliveries_settled_total', { mode: 'live', outcome: 'completed' }), 1);
      assert.equal(sample(text, 'partner_api_deliveries_settled_total', { mode: 'test', outcome: 'failed' }), 1);
      assert.equal(
        sample(text, 'partner_api_provider_errors_total', { provider: 'sandbox', step: 'submit', retryable: 'false' }),
        1,
      );
      assert.ok((sample(text, 'partner_api_worker_batch_duration_seconds_count') ?? 0) >= 2);
      assert.equal(sample(text, 'partner_api_outbox_depth'), 0);
      assert.equal(sample(text, 'partner_api_outbox_oldest_age_seconds'), 0);
      if (TEST_DIALECT === 'sqlite') {
        assert.ok((sample(text, 'partner_api_sqlite_group_commit_units_count') ?? 0) > 0);
        assert.ok((sample(text, 'partner_api_sqlite_wal_fsync_seconds_count') ?? 0) > 0);
        assert.equal(sample(text, 'partner_api_db_pool_connections', { state: 'max' }), undefined);
      } else {
        assert.equal(sample(text, 'partner_api_db_pool_connections', { state: 'max' }), t.database.poolUsage()?.max);
        assert.ok((sample(text, 'partner_api_db_pool_connections', { state: 'total' }) ?? 0) >= 1);
        assert.equal(sample(text, 'partner_api_sqlite_group_commit_units_count'), undefined);
      }
      assert.ok((sample(text, 'partner_api_process_resident_memory_bytes') ?? 0) > 0, 'default process metrics');
    });
  });

  test('an idle API reads no request waiting for a pool connection: the scrape does not count its own reads', async (c) => {
    const idle = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
    c.after(() => idle.close());
    for (let i = 0; i < 3; i++) {
      const res = await idle.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.statusCode, 200, res.body);
      const waiting = sample(res.body, 'partner_api_db_pool_connections', { state: 'waiting' });
      assert.equal(waiting, TEST_DIALECT === 'sqlite' ? undefined : 0, `scrape ${i + 1}`);
    }
  });

  test('webhook attempts are counted by result', async (c) => {
    const t = await webhookApp(c, { env: { METRICS_TOKEN: TOKEN } });
    const receiver = await startReceiver((_r, n) => ({ status: n === 0 ? 500 : 200 }));
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const requested = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { amount: 10, method: 'momo', reference: 'MET-1' },
    });
    assert.equal(requested.status, 201, JSON.stringify(requested.body));
    await t.ctx.topUps.approve(staffActor('staff@test'), requested.body.data._id);
    const text = await waitFor('the retried delivery to succeed', async () => {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      return sample(res.body, 'partner_api_webhook_attempts_total', { result: 'succeeded' }) === 1 ? res.body : undefined;
    });
    assert.equal(sample(text, 'partner_api_webhook_attempts_total', { result: 'retrying' }), 1);
    assert.equal(receiver.received.length, 2);
  });

  test('without METRICS_TOKEN or METRICS_PORT it does not exist (404), and nothing is counted', async () => {
    const t = await createTestApp({ seed: null });
    try {
      const res = await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    } finally {
      await t.close();
    }
  });

  test('with METRICS_PORT it is served on that listener alone, not on the API listener', async () => {
    const t = await createTestApp({ seed: null, env: { METRICS_PORT: '0' } });
    const listener = await startMetricsListener(t.ctx, pino({ level: 'silent' }));
    try {
      assert.ok(listener);
      assert.equal((await t.call('GET', '/metrics')).status, 404);
      await t.call('GET', '/healthz');
      const res = await fetch(`${listener.url}/metrics`);
      assert.equal(res.status, 200);
      const text = await res.text();
      assert.equal(sample(text, 'partner_api_http_requests_total', { route: '/healthz', status: '200' }), 1);
      assert.equal((await fetch(`${listener.url}/api/v1/profile`)).status, 404, 'the metrics listener serves nothing else');
    } finally {
      await listener?.close();
      await t.close();
    }
  });

  test('with METRICS_PORT and METRICS_TOKEN, that listener asks for the token too (docs/configuration.md)', async () => {
    const t = await createTestApp({ seed: null, env: { METRICS_PORT: '0', METRICS_TOKEN: TOKEN } });
    const listener = await startMetricsListener(t.ctx, pino({ level: 'silent' }));
    try {
      assert.ok(listener);
      assert.equal((await fetch(`${listener.url}/metrics`)).status, 401);
      assert.equal((await fetch(`${listener.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status, 401);
      assert.equal((await fetch(`${listener.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
    } finally {
      await listener?.close();
      await t.close();
    }
  });
});
