import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { upstreamScenarios as s, type UpstreamCase } from '../support/upstreams.js';

/**
 * DT One end to end (issue 25; docs/live-delivery.md, "One delivery, many attempts" and
 * "Callbacks"): the worker speaks to the DT One simulator over loopback, the simulator calls back
 * the app listening on loopback, and the partner sees the order, the wallet and the events.
 * Route 2 (failover) is Hubtel.
 */
const DTONE: UpstreamCase = {
  name: 'dtone',
  second: 'hubtel',
  // The simulator's wholesale price of product 35211, GHS 9.50.
  cost: 950,
  forgeries: [{ credentials: 'wrong-token', status: 404 }],
};

describe(`DT One end to end (${TEST_DIALECT})`, () => {
  test('delivered: the order completes, the hold is spent, DT One delivered once', (c) => s.success(c, DTONE));
  test('accepted, callbacks lost: status checks complete it', (c) => s.completedByStatusChecks(c, DTONE));
  test('accepted, then its callback wakes the status check; forged callbacks change nothing', (c) => s.completedByCallback(c, DTONE));
  test('refused for float: the next route delivers, DT One asked once', (c) => s.routeRefusalMovesOn(c, DTONE));
  test('refused for the number: failed and refunded, no other upstream asked', (c) => s.numberRefusalFails(c, DTONE));
  test('failed after acceptance for a route reason: the next route delivers', (c) => s.failureAfterAcceptanceMovesOn(c, DTONE));
  test('failed after acceptance for the number: failed and refunded, no other route', (c) => s.numberFailureAfterAcceptanceFails(c, DTONE));
  test('taken, the answer lost in a timeout: the lookup finds it, delivered once, route 2 never asked', (c) => s.hangFoundByLookup(c, DTONE));
  test('5xx before taking: the lookup proves it absent, the next route is tried at once (one submission here)', (c) => s.absentFailsOverAtOnce(c, DTONE));
  test('5xx before taking on the only route: the same reference three more times, then failed and refunded', (c) =>
    s.absentOnlyRouteFailsAfterThreeMore(c, DTONE));
  test('the breaker rests DT One after calls without an answer, and closes after the cool-down', (c) => s.breakerRestsAndCloses(c, DTONE));
  test('200 orders at once: calls in flight stay within PROVIDER_CONCURRENCY', (c) => s.concurrencyCapHeld(c, DTONE));
  test('silent after taking: needs attention, resolved by an admin (delivered, failed)', (c) => s.needsAttentionResolvedByAdmin(c, DTONE));
  test('cli worker killed mid-call: a new worker finds the attempt, delivered once', (c) => s.workerKilledMidCall(c, DTONE));
});
