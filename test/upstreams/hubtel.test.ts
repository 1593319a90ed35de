import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { upstreamScenarios as s, type UpstreamCase } from '../support/upstreams.js';

/**
 * Hubtel end to end (issue 25; docs/live-delivery.md, "One delivery, many attempts" and
 * "Callbacks"): the worker speaks to the Hubtel simulator over loopback, the simulator calls back
 * the app listening on loopback, and the partner sees the order, the wallet and the events.
 * Route 2 (failover) is Reloadly.
 */
const HUBTEL: UpstreamCase = {
  name: 'hubtel',
  second: 'reloadly',
  // The bundle's Amount (GHS 10) less the simulator's 2% commission.
  cost: 980,
  forgeries: [{ credentials: 'wrong-token', status: 404 }],
};

describe(`Hubtel end to end (${TEST_DIALECT})`, () => {
  test('delivered: the order completes, the hold is spent, Hubtel delivered once', (c) => s.success(c, HUBTEL));
  test('accepted, callbacks lost: status checks complete it', (c) => s.completedByStatusChecks(c, HUBTEL));
  test('accepted, then its callback wakes the status check; forged callbacks change nothing', (c) => s.completedByCallback(c, HUBTEL));
  test('refused for float: the next route delivers, Hubtel asked once', (c) => s.routeRefusalMovesOn(c, HUBTEL));
  test('refused for the number: failed and refunded, no other upstream asked', (c) => s.numberRefusalFails(c, HUBTEL));
  test('failed after acceptance for a route reason: the next route delivers', (c) => s.failureAfterAcceptanceMovesOn(c, HUBTEL));
  test('failed after acceptance for the number: failed and refunded, no other route', (c) => s.numberFailureAfterAcceptanceFails(c, HUBTEL));
  test('taken, the answer lost in a timeout: the lookup finds it, delivered once, route 2 never asked', (c) => s.hangFoundByLookup(c, HUBTEL));
  test('5xx before taking: the lookup proves it absent, the next route is tried at once (one submission here)', (c) => s.absentFailsOverAtOnce(c, HUBTEL));
  test('5xx before taking on the only route: the same reference three more times, then failed and refunded', (c) =>
    s.absentOnlyRouteFailsAfterThreeMore(c, HUBTEL));
  test('the breaker rests Hubtel after calls without an answer, and closes after the cool-down', (c) => s.breakerRestsAndCloses(c, HUBTEL));
  test('200 orders at once: calls in flight stay within PROVIDER_CONCURRENCY', (c) => s.concurrencyCapHeld(c, HUBTEL));
  test('silent after taking: needs attention, resolved by an admin (delivered, failed)', (c) => s.needsAttentionResolvedByAdmin(c, HUBTEL));
  test('cli worker killed mid-call: a new worker finds the attempt, delivered once', (c) => s.workerKilledMidCall(c, HUBTEL));
});
