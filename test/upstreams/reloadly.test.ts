import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import {
  assertLedgerClean,
  attemptsOfOrder,
  intlMsisdn,
  settledOrder,
  startUpstreamHarness,
  UPSTREAM_PRICE,
  upstreamScenarios as s,
  upstreamWallet,
  type UpstreamCase,
} from '../support/upstreams.js';

/**
 * Reloadly end to end (issue 25; docs/live-delivery.md, "One delivery, many attempts" and
 * "Callbacks"): the worker speaks to the Reloadly simulator over loopback (its token endpoint
 * included), the simulator's signed callbacks come to the app listening on loopback, and the
 * partner sees the order, the wallet and the events. Route 2 (failover) is DT One.
 */
const RELOADLY: UpstreamCase = {
  name: 'reloadly',
  second: 'dtone',
  // The local amount (GHS 10) less the simulator's 2% discount, read from balanceInfo (a GHS account).
  cost: 980,
  forgeries: [
    { credentials: 'unsigned', status: 401 },
    { credentials: 'bad-signature', status: 401 },
  ],
};

describe(`Reloadly end to end (${TEST_DIALECT})`, () => {
  test('delivered: the order completes, the hold is spent, Reloadly delivered once', (c) => s.success(c, RELOADLY));
  test('accepted, callbacks lost: status checks complete it', (c) => s.completedByStatusChecks(c, RELOADLY));
  test('accepted, then its signed callback wakes the status check; forged callbacks change nothing', (c) => s.completedByCallback(c, RELOADLY));
  test('refused for float: the next route delivers, Reloadly asked once', (c) => s.routeRefusalMovesOn(c, RELOADLY));
  test('refused as recently recharged: the next route delivers', (c) => s.routeRefusalMovesOn(c, RELOADLY, 'recently-recharged'));
  test('refused for the number: failed and refunded, no other upstream asked', (c) => s.numberRefusalFails(c, RELOADLY));
  test('failed after acceptance for a route reason: the next route delivers', (c) => s.failureAfterAcceptanceMovesOn(c, RELOADLY));
  test('failed after acceptance for the number: failed and refunded, no other route', (c) => s.numberFailureAfterAcceptanceFails(c, RELOADLY));
  test('taken, the answer lost in a timeout: the lookup finds it, delivered once, route 2 never asked', (c) => s.hangFoundByLookup(c, RELOADLY));
  test('5xx before taking: the lookup proves it absent, the next route is tried at once (one submission here)', (c) => s.absentFailsOverAtOnce(c, RELOADLY));
  test('5xx before taking on the only route: the same reference three more times, then failed and refunded', (c) =>
    s.absentOnlyRouteFailsAfterThreeMore(c, RELOADLY));
  test('the breaker rests Reloadly after calls without an answer, and closes after the cool-down', (c) => s.breakerRestsAndCloses(c, RELOADLY));
  test('200 orders at once: calls in flight stay within PROVIDER_CONCURRENCY', (c) => s.concurrencyCapHeld(c, RELOADLY));
  test('silent after taking: needs attention, resolved by an admin (delivered, failed)', (c) => s.needsAttentionResolvedByAdmin(c, RELOADLY));
  test('cli worker killed mid-call: a new worker finds the attempt, delivered once', (c) => s.workerKilledMidCall(c, RELOADLY));

  test('an expired token is refreshed once and the purchase repeated: delivered once', async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['reloadly'], routes: ['reloadly'] });
    const sim = h.sim('reloadly');
    const before = await upstreamWallet(h);
    const first = await h.buy('0244123456');
    assert.equal((await settledOrder(h, first)).state, 'completed');
    assert.equal(sim.stats().calls.token, 1, 'one token for every call so far');

    sim.expireTokens();
    const second = await h.buy('0244123457');
    const order = await settledOrder(h, second);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    const stats = sim.stats();
    assert.equal(stats.calls.token, 2, 'a new token, once');
    // The purchase refused for its token took nothing; the repeat with the new token was taken.
    assert.equal(stats.calls.buy, 3);
    assert.equal(stats.submissions, 2);
    const [attempt, ...more] = await attemptsOfOrder(h, second);
    assert.deepEqual(more, []);
    assert.equal(attempt?.status, 'completed');
    assert.deepEqual(
      stats.deliveries.filter((d) => d.msisdn === intlMsisdn('0244123457')).map((d) => d.reference),
      [attempt?.reference],
    );
    assert.deepEqual(await upstreamWallet(h), { available: before.available - 2 * UPSTREAM_PRICE, held: 0 });
    await assertLedgerClean(h);
  });
});
