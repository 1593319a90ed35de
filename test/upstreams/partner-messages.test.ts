import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PARTNER_MESSAGES } from '../../src/modules/deliveries/partner-messages.js';
import { RECENTLY_RECHARGED_WAIT_MS } from '../../src/providers/reloadly/api.js';
import type { SimulatedOutcome } from '../../src/providers/simulator-kit.js';
import { UPSTREAM_NAMES } from '../../src/providers/types.js';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { signIn } from '../support/console.js';
import { waitFor } from '../support/wait.js';
import {
  assertLedgerClean,
  assertPartnerReadsNoUpstream,
  attemptsOfOrder,
  intlMsisdn,
  partnerOrder,
  setPackageRoutes,
  settledOrder,
  startUpstreamHarness,
  UPSTREAM_KEY,
  UPSTREAM_PACKAGE,
  UPSTREAM_ROUTES,
  upstreamWallet,
  type UpstreamHarness,
} from '../support/upstreams.js';

/**
 * What partners read is written for partners (issue 41 item 5; docs/order-lifecycle.md, "Why a
 * delivery failed"): for every refusal and failure each upstream's simulator can make, the failed
 * order's errorMessage is one of the fixed partner sentences, and nothing the partner can read (the
 * order, its status, its events' payloads) names an upstream or holds its answer's text, which staff
 * keep on the attempt.
 */

/** Each failing outcome of the simulators, and what the partner reads of it (with the package's only route there). */
const FAILURES: [SimulatedOutcome, string][] = [
  ['refuse-float', PARTNER_MESSAGES.unavailable],
  ['refuse-number', PARTNER_MESSAGES.number],
  ['refuse-product', PARTNER_MESSAGES.unavailable],
  ['fail-after-accept', PARTNER_MESSAGES.notDelivered],
  ['fail-number-after-accept', PARTNER_MESSAGES.number],
  ['error-before-taking', PARTNER_MESSAGES.unavailable],
];

/** The staff side of an order: every attempt's message (the upstream's answer), which the partner must not read. */
async function upstreamTexts(h: UpstreamHarness, orderId: string): Promise<string[]> {
  const attempts = await attemptsOfOrder(h, orderId);
  assert.ok(attempts.length > 0);
  return attempts.map((a) => a.message).filter((m): m is string => m !== null && m.length > 3);
}

async function buyBulk(h: UpstreamHarness, numbers: string[]): Promise<string> {
  const res = await h.t.call('POST', '/api/v1/data-bundles/buy-bulk', {
    key: UPSTREAM_KEY,
    body: { operatorId: 'op_a', productId: 'prd_a', items: numbers.map((beneficiaryMsisdn) => ({ packageId: UPSTREAM_PACKAGE, beneficiaryMsisdn })) },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.orderId as string;
}

describe(`what partners read of a failed delivery names no upstream (${TEST_DIALECT})`, () => {
  test('every refusal and failure of Hubtel, Reloadly and DT One: a partner sentence, no upstream name, code or text', async (c) => {
    // An insufficient-float refusal rests its upstream at once: for a moment only, here.
    const h = await startUpstreamHarness(c, { upstreams: [...UPSTREAM_NAMES], routes: ['hubtel'], env: { PROVIDER_BREAKER_COOL_MS: '100' } });
    const before = await upstreamWallet(h);
    const allowed = new Set<string>(Object.values(PARTNER_MESSAGES));
    let n = 0;
    const number = () => `0245${String(700_000 + n++).padStart(6, '0')}`;

    for (const name of UPSTREAM_NAMES) {
      await setPackageRoutes(h.t, UPSTREAM_PACKAGE, [UPSTREAM_ROUTES[name]]);
      const cases = FAILURES.map(([outcome, expected]) => ({ outcome, expected, msisdn: number() }));
      const bulkNumbers = [number(), number()];
      const numbers: Record<string, SimulatedOutcome> = Object.fromEntries(cases.map((k) => [intlMsisdn(k.msisdn), k.outcome]));
      numbers[intlMsisdn(bulkNumbers[0] ?? '')] = 'refuse-number';
      numbers[intlMsisdn(bulkNumbers[1] ?? '')] = 'fail-after-accept';
      h.sim(name).configure({ numbers });

      const orders = await Promise.all(cases.map(async (k) => ({ ...k, id: await h.buy(k.msisdn) })));
      const bulk = await buyBulk(h, bulkNumbers);
      for (const o of orders) {
        const order = await settledOrder(h, o.id);
        assert.deepEqual([order.state, order.errorMessage], ['failed', o.expected], `${name} ${o.outcome}`);
        await assertPartnerReadsNoUpstream(h, o.id, await upstreamTexts(h, o.id));
      }
      const bulkOrder = await settledOrder(h, bulk);
      assert.equal(bulkOrder.state, 'failed', `${name} bulk`);
      const recipients = (await h.t.call('GET', `/api/v1/orders/${bulk}`, { key: UPSTREAM_KEY })).body.data.bulkRecipients as {
        errorMessage: string | null;
      }[];
      assert.deepEqual(
        recipients.map((r) => r.errorMessage),
        [PARTNER_MESSAGES.number, PARTNER_MESSAGES.notDelivered],
        `${name} bulk recipients`,
      );
      await assertPartnerReadsNoUpstream(h, bulk, await upstreamTexts(h, bulk));
      for (const r of recipients) assert.ok(r.errorMessage !== null && allowed.has(r.errorMessage));
      h.sim(name).configure({ numbers: {} });
    }

    // Reloadly's "recently recharged" on every round (five, two minutes apart on the service's clock): a partner sentence too.
    await setPackageRoutes(h.t, UPSTREAM_PACKAGE, [UPSTREAM_ROUTES.reloadly]);
    const recharged = number();
    h.sim('reloadly').configure({ numbers: { [intlMsisdn(recharged)]: 'recently-recharged' } });
    const id = await h.buy(recharged);
    const order = await waitFor('the recently recharged number to fail after its rounds', async () => {
      const seen = await partnerOrder(h, id);
      if (seen.state === 'failed') return seen;
      h.advanceClock(RECENTLY_RECHARGED_WAIT_MS);
      return undefined;
    });
    assert.equal(order.errorMessage, PARTNER_MESSAGES.recentlyRecharged);
    await assertPartnerReadsNoUpstream(h, id, await upstreamTexts(h, id));

    // Every order failed: the partner got every pesewa back.
    assert.deepEqual(await upstreamWallet(h), before);
    await assertLedgerClean(h);
  });

  test('staff keep the upstream answer; a resolution has a partner message and an internal note, and the note never reaches the partner', async (c) => {
    const refused = '0245123401';
    const silent = ['0245123402', '0245123403', '0245123404'];
    const h = await startUpstreamHarness(c, {
      upstreams: ['hubtel'],
      routes: ['hubtel'],
      behaviour: {
        hubtel: {
          outcome: 'hang-after-taking',
          hangMs: 600_000,
          settleMs: 600_000,
          numbers: { [intlMsisdn(refused)]: 'refuse-float' },
        },
      },
      // The float refusal rests Hubtel for a moment only: the next orders reach it at once.
      env: { CONSOLE_ENABLED: 'true', PROVIDER_BREAKER_COOL_MS: '100' },
    });
    const before = await upstreamWallet(h);
    const admin = await signIn(h.t, 'admin');

    // A refusal: the partner reads a sentence, the console order page shows what Hubtel said.
    const refusedId = await h.buy(refused);
    assert.equal((await settledOrder(h, refusedId)).errorMessage, PARTNER_MESSAGES.unavailable);
    const [refusal] = await attemptsOfOrder(h, refusedId);
    assert.match(refusal?.message ?? '', /^Hubtel refused: .*\(4075\)$/);
    const page = await admin.get(`/console/orders/${refusedId}`);
    assert.equal(page.status, 200);
    assert.match(page.body, /Hubtel refused: insufficient prepaid balance \(4075\)/, 'the staff page keeps the upstream answer');
    await assertPartnerReadsNoUpstream(h, refusedId, [refusal?.message ?? '', '4075']);

    // Three deliveries Hubtel took and never answered, resolved failed by hand.
    const ids = await Promise.all(silent.map((n) => h.buy(n)));
    await waitFor('Hubtel to have taken the three', async () => h.sim('hubtel').stats().submissions >= 4);
    const note = 'Hubtel support ticket HT-2291: no such transaction';

    // The console form: a note and no partner message (the standard one).
    const form = await admin.post(`/console/orders/${ids[0]}/resolve`, {
      recipient: intlMsisdn(silent[0] ?? ''),
      outcome: 'failed',
      note,
      partnerMessage: '',
    });
    assert.equal(form.status, 303, form.body);
    // The console form with a message of the admin's own.
    const own = 'We could not deliver this bundle. Please try again later.';
    assert.equal((await admin.post(`/console/orders/${ids[1]}/resolve`, { outcome: 'failed', note, partnerMessage: own })).status, 303);
    // The CLI: --partner-message and --note.
    const env = cliEnv(h.t, { LOG_LEVEL: 'warn' });
    const cli = await runCli(['orders', 'resolve', ids[2] ?? '', '--failed', '--note', note, '--partner-message', 'Refunded: the network did not confirm'], env);
    assert.equal(cli.code, 0, cli.stderr);
    const refusedCli = await runCli(['orders', 'resolve', ids[2] ?? '', '--delivered', '--note', 'x', '--partner-message', 'y'], env);
    assert.notEqual(refusedCli.code, 0);
    assert.match(refusedCli.stderr, /--partner-message goes with --failed/);

    const expected = [PARTNER_MESSAGES.resolvedFailed, own, 'Refunded: the network did not confirm'];
    for (const [i, id] of ids.entries()) {
      const order = await partnerOrder(h, id);
      assert.deepEqual([order.state, order.errorMessage], ['failed', expected[i]]);
      await assertPartnerReadsNoUpstream(h, id, [note, 'HT-2291']);
      const staffPage = await admin.get(`/console/orders/${id}`);
      assert.match(staffPage.body, /Hubtel support ticket HT-2291: no such transaction/, 'the note is on the staff page');
      const audit = await h.t.database.db.selectFrom('audit_log').select('detail').where('action', '=', 'order.resolve').where('record_id', '=', id).execute();
      assert.deepEqual(
        audit.map((a) => JSON.parse(a.detail ?? '{}') as { note?: string; partnerMessage?: string }).map((d) => [d.note, d.partnerMessage]),
        [[note, expected[i]]],
      );
    }
    // Every failure refunded.
    assert.deepEqual(await upstreamWallet(h), before);
    await assertLedgerClean(h);
  });
});
