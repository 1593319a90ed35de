import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createUpkeep } from '../../src/worker/index.js';
import { seedFinding } from '../support/reconciliation.js';
import { CONSOLE_ENV, signIn } from '../support/console.js';
import { waitFor } from '../support/wait.js';
import { buyCallsAt, settledOrder, startUpstreamHarness, type UpstreamHarness } from '../support/upstreams.js';

/**
 * Float balances and what staff notice first (docs/live-delivery.md, "Float balances";
 * docs/deployment.md, "Alerts worth setting"): Reloadly's and DT One's balances read by the worker and stored with
 * their time, LOW under PROVIDER_LOW_BALANCE_<NAME>; Hubtel unknown until a refusal, and an
 * insufficient-float refusal resting the upstream at once (the next order takes the next route
 * without a call) and marking it LOW; the dashboard and /metrics showing all of it.
 */

const METRICS_TOKEN = 'metrics-token-float-0123456789';

async function scrape(h: UpstreamHarness): Promise<string> {
  const res = await h.t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  assert.equal(res.statusCode, 200, res.body);
  return res.body;
}

describe('upstream float balances', () => {
  test('read on schedule and stored with their time; LOW under the threshold; Hubtel unknown until a refusal, which rests it at once; dashboard and /metrics', async (c) => {
    const h = await startUpstreamHarness(c, {
      upstreams: ['hubtel', 'reloadly', 'dtone'],
      routes: ['hubtel', 'sandbox'],
      behaviour: { hubtel: { outcome: 'refuse-float' } },
      env: {
        ...CONSOLE_ENV,
        METRICS_TOKEN,
        // The simulators hold 1 000 000 (GHS): DT One is under its threshold, Reloadly is not.
        PROVIDER_LOW_BALANCE_DTONE: '2000000',
        PROVIDER_LOW_BALANCE_RELOADLY: '500.50',
        PROVIDER_BREAKER_COOL_MS: '600000',
      },
    });
    const floats = () => h.t.ctx.floats.lines();
    const byName = async () => new Map((await floats()).map((l) => [l.provider, l]));

    // Before any reading: known to be unknown.
    let lines = await byName();
    assert.equal(lines.get('reloadly')?.available, null);
    assert.equal(lines.get('hubtel')?.readable, false);
    assert.equal(lines.get('hubtel')?.low, false);

    const upkeep = createUpkeep(h.t.ctx, 'float-test-worker');
    const before = Date.now();
    assert.equal(await upkeep.readFloats(), 2);
    lines = await byName();
    const reloadly = lines.get('reloadly');
    assert.deepEqual([reloadly?.currency, reloadly?.available, reloadly?.low, reloadly?.threshold], ['GHS', 100_000_000, false, 50_050]);
    assert.ok((reloadly?.readAt ?? 0) >= before);
    const dtone = lines.get('dtone');
    assert.deepEqual([dtone?.currency, dtone?.available, dtone?.low, dtone?.lowBecause], ['GHS', 100_000_000, true, 'below the threshold']);
    assert.equal(h.sim('reloadly').stats().calls.balance, 1);
    assert.equal(h.sim('dtone').stats().calls.balance, 1);
    assert.equal(h.sim('hubtel').stats().calls.balance ?? 0, 0, 'Hubtel has no balance read');

    // Hubtel refuses for float: the first order goes on to the sandbox, the second never calls Hubtel.
    const first = await h.buy('0244123456');
    assert.equal((await settledOrder(h, first)).state, 'completed');
    const second = await h.buy('0244123457');
    assert.equal((await settledOrder(h, second)).state, 'completed');
    assert.equal(await buyCallsAt(h, 'hubtel'), 1, 'the breaker rested Hubtel at the first insufficient-float refusal');
    // Recorded beside the delivery's own unit (a wake-up write): waited for.
    const hubtel = await waitFor('the refusal time of Hubtel', async () => {
      const line = (await byName()).get('hubtel');
      return line?.refusedAt === null ? undefined : line;
    });
    assert.deepEqual([hubtel.low, hubtel.lowBecause, hubtel.available], [true, 'refused for insufficient float', null]);

    // The dashboard: low float and unresolved findings come first, with the float table and its age.
    await seedFinding(h.t);
    const viewer = await signIn(h.t, 'viewer');
    const page = await viewer.get('/console');
    assert.equal(page.status, 200);
    const body = page.body;
    const order = ['id="low-float"', 'id="unresolved-findings"', 'class="cards"', 'id="floats"'].map((marker) => body.indexOf(marker));
    assert.ok(order.every((i) => i >= 0), JSON.stringify(order));
    assert.deepEqual([...order].sort((a, b) => a - b), order, 'low float and findings before everything else');
    assert.match(body, /Low float: 2/);
    assert.match(body, /Unresolved reconciliation findings: 1/);
    assert.match(body, /<tr class="bad" id="float-hubtel"><td>hubtel<\/td><td>unknown until a refusal<\/td>/);
    assert.match(body, /id="float-reloadly"><td>reloadly<\/td><td>GHS 1000000.00<\/td><td>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \(\d+ s ago\)<\/td>/);
    assert.match(body, /LOW: below the threshold/);

    // /metrics: a series per thing an alert watches.
    const metrics = await scrape(h);
    assert.match(metrics, /partner_api_provider_balance\{provider="reloadly",currency="GHS"\} 1000000\n/);
    assert.match(metrics, /partner_api_provider_balance\{provider="dtone",currency="GHS"\} 1000000\n/);
    assert.doesNotMatch(metrics, /partner_api_provider_balance\{provider="hubtel"/);
    assert.match(metrics, /partner_api_provider_balance_low\{provider="hubtel"\} 1\n/);
    assert.match(metrics, /partner_api_provider_balance_low\{provider="dtone"\} 1\n/);
    assert.match(metrics, /partner_api_provider_balance_low\{provider="reloadly"\} 0\n/);
    assert.match(metrics, /partner_api_provider_balance_age_seconds\{provider="reloadly"\} \d/);
    assert.match(metrics, /partner_api_deliveries_needing_attention 0\n/);
    assert.match(metrics, /partner_api_reconciliation_findings_unresolved\{provider="dtone"\} 1\n/);
    assert.match(metrics, /partner_api_reconciliation_last_run_failed\{provider="dtone"\} 0\n/);
  });
});
