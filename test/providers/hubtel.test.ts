import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import type { HubtelSettings } from '../../src/config.js';
import { HubtelAdapter, readHubtelCallback } from '../../src/providers/hubtel/adapter.js';
import { HUBTEL_SIMULATOR_FAILURES, startHubtelSimulator, type HubtelSimulatorOptions, type RunningHubtelSimulator } from '../../src/providers/hubtel/simulator.js';
import { HUBTEL_DATA_SERVICES } from '../../src/providers/hubtel/wire.js';
import type { AttemptHandle, AttemptRequest, RouteOf } from '../../src/providers/types.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';

/**
 * The Hubtel adapter against its simulator, over real HTTP on loopback (docs/live-delivery.md, "One delivery, many attempts" and
 * Appendix A): every answer class, what the simulator counted and delivered, and the callbacks it
 * sent. No database.
 */

type HubtelRoute = RouteOf<'hubtel'>;

/** DATA10 at GHS 10; the simulator's commission is 2%, so the platform's cost is GHS 9.80. */
const ROUTE: HubtelRoute = { provider: 'hubtel', serviceId: HUBTEL_DATA_SERVICES.mtn, bundle: 'DATA10', amount: 1000 };
const COST = 980;
const NUMBER = '233244123456';
/** Generous for a busy machine; the hang tests use their own short one. */
const TIMEOUT_MS = 10_000;

let sequence = 0;
const newReference = () => `hub${Date.now().toString(36)}${(sequence++).toString(36)}`;

function settingsOf(sim: RunningHubtelSimulator, change: Partial<HubtelSettings> = {}): HubtelSettings {
  return {
    apiId: sim.env.HUBTEL_API_ID ?? '',
    apiKey: sim.env.HUBTEL_API_KEY ?? '',
    prepaidDepositId: sim.env.HUBTEL_PREPAID_DEPOSIT_ID ?? '',
    posSalesId: sim.env.HUBTEL_POS_SALES_ID ?? '',
    csUrl: sim.env.HUBTEL_CS_URL ?? '',
    statusUrl: sim.env.HUBTEL_STATUS_URL ?? '',
    balanceUrl: sim.env.HUBTEL_BALANCE_URL ?? '',
    ...change,
  };
}

function adapterFor(sim: RunningHubtelSimulator, timeoutMs = TIMEOUT_MS, change: Partial<HubtelSettings> = {}): HubtelAdapter {
  return new HubtelAdapter(settingsOf(sim, change), { timeoutMs, balanceUrl: sim.env.HUBTEL_BALANCE_URL ?? null });
}

async function simulator(c: TestContext, options: HubtelSimulatorOptions = {}): Promise<RunningHubtelSimulator> {
  const sim = await startHubtelSimulator({ ...options, behaviour: { settleMs: 20, ...options.behaviour } });
  c.after(() => sim.close());
  return sim;
}

async function callbackReceiver(c: TestContext): Promise<Receiver> {
  const receiver = await startReceiver();
  c.after(() => receiver.close());
  return receiver;
}

function attempt(callbackUrl: string | null, change: Partial<AttemptRequest<HubtelRoute>> = {}): AttemptRequest<HubtelRoute> {
  return { reference: newReference(), msisdn: NUMBER, route: ROUTE, packageId: 'pkg-mtn-2gb', price: 1200, mode: 'live', callbackUrl, ...change };
}

function handleOf(request: AttemptRequest<HubtelRoute>, transactionId: string | null = null): AttemptHandle<HubtelRoute> {
  return { reference: request.reference, transactionId, msisdn: request.msisdn, route: request.route, createdAt: Date.now() };
}

const CALLBACK_PATH = '/callbacks/hubtel/test-token';

/** Waits until a status check says what `wanted` says, and returns that answer. */
async function settledTo<C extends string>(adapter: HubtelAdapter, handle: AttemptHandle<HubtelRoute>, wanted: C, how: 'check' | 'lookup' = 'check') {
  return waitFor(`the status check to say ${wanted}`, async () => {
    const answer = how === 'check' ? await adapter.check(handle) : await adapter.lookup(handle);
    return answer.class === wanted ? answer : undefined;
  });
}

describe('Hubtel adapter: deliveries that work', () => {
  test('complete-at-once: completed in the first answer, cost = Amount − Commission, one delivery', async (c) => {
    const sim = await simulator(c, { behaviour: { outcome: 'complete-at-once' } });
    const request = attempt('http://127.0.0.1:9/unused');
    const answer = await adapterFor(sim).submit(request);
    assert.equal(answer.class, 'completed', JSON.stringify(answer));
    assert.ok(answer.class === 'completed' && answer.transactionId !== null);
    assert.equal(answer.cost, COST);
    const stats = sim.stats();
    assert.deepEqual(stats.calls, { bundles: 1, buy: 1 });
    assert.equal(stats.submissions, 1);
    assert.deepEqual(
      stats.deliveries.map((d) => [d.reference, d.msisdn, d.product]),
      [[request.reference, NUMBER, '10.00']],
    );
  });

  test('accepted with its cost, then completed by check and by lookup; the callback names the attempt', async (c) => {
    const sim = await simulator(c);
    const receiver = await callbackReceiver(c);
    const adapter = adapterFor(sim);
    const request = attempt(`${receiver.url}${CALLBACK_PATH}`);
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'accepted', JSON.stringify(answer));
    assert.ok(answer.class === 'accepted' && answer.transactionId !== null);
    assert.equal(answer.cost, COST);

    const completed = await settledTo(adapter, handleOf(request, answer.transactionId), 'completed');
    assert.ok(completed.class === 'completed');
    assert.equal(completed.transactionId, answer.transactionId);
    const found = await adapter.lookup(handleOf(request));
    assert.deepEqual([found.class, found.class === 'completed' && found.transactionId], ['completed', answer.transactionId]);

    const callback = await waitFor('the callback', async () => receiver.received[0]);
    assert.equal(callback.path, CALLBACK_PATH);
    const body: unknown = JSON.parse(callback.body);
    assert.deepEqual(readHubtelCallback(body), { reference: request.reference, transactionId: answer.transactionId });
    const stats = sim.stats();
    assert.equal(stats.deliveries.length, 1);
    assert.equal(stats.callbacksSent, 1);
    assert.equal(stats.callbacksAcknowledged, 1);
    assert.equal(stats.calls.buy, 1);
  });

  test('while in flight, the status (Paid, isFulfilled null) is accepted; with callbacks lost, checks alone complete it', async (c) => {
    const sim = await simulator(c, { behaviour: { settleMs: 60_000, loseCallbacks: true } });
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    assert.equal((await adapter.submit(request)).class, 'accepted');
    const inFlight = await adapter.check(handleOf(request));
    assert.equal(inFlight.class, 'accepted', JSON.stringify(inFlight));

    sim.configure({ settleMs: 20 });
    const second = attempt('http://127.0.0.1:9/unused');
    assert.equal((await adapter.submit(second)).class, 'accepted');
    await settledTo(adapter, handleOf(second), 'completed');
    assert.equal(sim.stats().callbacksSent, 0);
  });

  test("the cost is the bundle's Amount less the Commission, whatever Data.Amount says; none without a commission", async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    sim.scriptNext('buy', { status: 200, body: { ResponseCode: '0001', Data: { Amount: 0.85, TransactionId: 'tx-odd', Meta: { Commission: 0.5 } } } });
    assert.deepEqual(await adapter.submit(attempt('http://127.0.0.1:9/unused')), {
      class: 'accepted',
      transactionId: 'tx-odd',
      cost: 950,
      message: 'Hubtel: pending, a callback will follow',
    });
    sim.scriptNext('buy', { status: 200, body: { ResponseCode: '0001', Data: { Amount: 10, TransactionId: 'tx-plain' } } });
    const uncosted = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(uncosted, { class: 'accepted', transactionId: 'tx-plain', message: 'Hubtel: pending, a callback will follow' });
  });

  test('balance(): the prepaid deposit in GHS as Hubtel reports it, debited by a delivery less its commission', async (c) => {
    const sim = await simulator(c, { prepaidBalance: 500, behaviour: { outcome: 'complete-at-once' } });
    const adapter = adapterFor(sim);
    assert.deepEqual(await adapter.balance(), { currency: 'GHS', available: 500 });
    assert.equal((await adapter.submit(attempt('http://127.0.0.1:9/unused'))).class, 'completed');
    assert.deepEqual(await adapter.balance(), { currency: 'GHS', available: 490.2 });
    assert.equal(sim.stats().calls.balance, 2);

    assert.equal(await new HubtelAdapter(settingsOf(sim), { timeoutMs: TIMEOUT_MS }).balance(), null, 'no balance URL: not offered');
    assert.equal(await adapterFor(sim, TIMEOUT_MS, { prepaidDepositId: '99999' }).balance(), null, 'an unknown deposit: unreadable');
  });
});

describe('Hubtel adapter: refusals (nothing taken)', () => {
  test('refuse-float: 4075 is a route problem flagged lowFloat; the lookup then says absent', async (c) => {
    const sim = await simulator(c, { behaviour: { outcome: 'refuse-float' } });
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'refused', problem: 'route', lowFloat: true, message: 'Hubtel refused: insufficient prepaid balance (4075)' });
    assert.equal((await adapter.lookup(handleOf(request))).class, 'absent');
    assert.equal(sim.stats().submissions, 1);
    assert.deepEqual(sim.stats().deliveries, []);
  });

  test('refuse-number: the bundle list refuses the Destination (4010): a number problem, no purchase', async (c) => {
    const sim = await simulator(c, { behaviour: { numbers: { [NUMBER]: 'refuse-number' } } });
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused'));
    assert.equal(answer.class, 'refused', JSON.stringify(answer));
    assert.ok(answer.class === 'refused');
    assert.equal(answer.problem, 'number');
    assert.match(answer.message, /^Hubtel refused: .*destination.* \(4010\)$/i);
    assert.deepEqual(sim.stats().calls, { bundles: 1 });
  });

  test('refuse-product: the number is offered no bundles: a route problem, no purchase', async (c) => {
    const sim = await simulator(c, { behaviour: { outcome: 'refuse-product' } });
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'Hubtel does not offer bundle DATA10 for this number' });
    assert.deepEqual(sim.stats().calls, { bundles: 1 });
    assert.equal(sim.stats().submissions, 0);
  });

  test("the route's bundle absent from the number's list: refused, route problem, no purchase", async (c) => {
    const sim = await simulator(c);
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused', { route: { ...ROUTE, bundle: 'DATA7', amount: 700 } }));
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'Hubtel does not offer bundle DATA7 for this number' });
    assert.deepEqual(sim.stats().calls, { bundles: 1 });
  });

  test("the listed Amount differs from the route's: refused, route problem, no purchase", async (c) => {
    const sim = await simulator(c, { bundles: [{ display: 'Data 2GB (GHS 12)', value: 'DATA10', amount: 12 }] });
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(answer, {
      class: 'refused',
      problem: 'route',
      message: "Hubtel's price of bundle DATA10 differs from the route's: GHS 12.00 listed, GHS 10.00 expected",
    });
    assert.deepEqual(sim.stats().calls, { bundles: 1 });
  });

  test('a Value listed at several prices (as MTN lists flexi bundles): the one at the route’s price is bought', async (c) => {
    const sim = await simulator(c, {
      bundles: [
        { display: 'Flexi (GHS 20)', value: 'flexi_data_bundle', amount: 20 },
        { display: 'Flexi (GHS 40)', value: 'flexi_data_bundle', amount: 40 },
      ],
    });
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused', { route: { ...ROUTE, bundle: 'flexi_data_bundle', amount: 4000 } }));
    assert.equal(answer.class, 'accepted', JSON.stringify(answer));
    assert.equal(answer.class === 'accepted' && answer.cost, 3920);
  });

  test('4101 and 4103 in the body (whatever the HTTP status), and wrong credentials: refused, route problem', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    sim.scriptNext('buy', { status: 401, body: { ResponseCode: '4101', Message: 'Authorization for request is denied/could not find prepaid account' } });
    const denied = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(denied, { class: 'refused', problem: 'route', message: 'Hubtel refused: authorization for request is denied/could not find prepaid account (4101)' });
    sim.scriptNext('buy', { status: 403, body: { ResponseCode: '4103', Message: 'Permission denied' } });
    assert.deepEqual(await adapter.submit(attempt('http://127.0.0.1:9/unused')), { class: 'refused', problem: 'route', message: 'Hubtel refused: permission denied (4103)' });
    sim.scriptNext('buy', { status: 403, body: null });
    const bare = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual([bare.class, bare.class === 'refused' && bare.problem], ['refused', 'route'], 'a gateway 403 without a body (IP not whitelisted)');

    const wrongKey = adapterFor(sim, TIMEOUT_MS, { apiKey: 'not-the-key' });
    const refused = await wrongKey.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(refused, { class: 'refused', problem: 'route', message: 'Hubtel refused: authorization for request is denied (4101)' });
    assert.doesNotMatch(refused.class === 'refused' ? refused.message : '', /not-the-key|hubtel-sim/);
    assert.equal(sim.stats().calls.buy, 3, 'the wrong key stopped at the bundle list');
    assert.deepEqual(sim.stats().deliveries, []);
  });

  test('4000/4010 about the Destination is a number problem; about the reference, unknown; about anything else, a route problem', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    sim.scriptNext('buy', { status: 400, body: { ResponseCode: '4000', Message: 'An error occured during verification: invalid Destination' } });
    const number = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual([number.class, number.class === 'refused' && number.problem], ['refused', 'number'], JSON.stringify(number));
    sim.scriptNext('buy', { status: 400, body: { ResponseCode: '4010', Message: 'Validation Errors: The Amount field is invalid' } });
    const route = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(route, { class: 'refused', problem: 'route', message: 'Hubtel refused: validation Errors: The Amount field is invalid (4010)' });
    // Whatever its wording, a validation error about the ClientReference may hide a first submission.
    sim.scriptNext('buy', { status: 400, body: { ResponseCode: '4000', Message: 'Invalid ClientReference' } });
    const reference = await adapter.submit(attempt('http://127.0.0.1:9/unused'));
    assert.equal(reference.class, 'unknown', JSON.stringify(reference));
  });

  test('no callback URL: refused before any call (Hubtel requires one)', async (c) => {
    const sim = await simulator(c);
    const answer = await adapterFor(sim).submit(attempt(null));
    assert.equal(answer.class, 'refused');
    assert.deepEqual(sim.stats().calls, {});
  });
});

describe('Hubtel adapter: failures after acceptance', () => {
  for (const [outcome, problem, reason] of [
    ['fail-after-accept', 'route', HUBTEL_SIMULATOR_FAILURES.route],
    ['fail-number-after-accept', 'number', HUBTEL_SIMULATOR_FAILURES.number],
  ] as const) {
    test(`${outcome}: accepted, then the status check fails it as a ${problem} problem; the callback says why`, async (c) => {
      const sim = await simulator(c, { behaviour: { outcome } });
      const receiver = await callbackReceiver(c);
      const adapter = adapterFor(sim);
      const request = attempt(`${receiver.url}${CALLBACK_PATH}`);
      const accepted = await adapter.submit(request);
      assert.equal(accepted.class, 'accepted', JSON.stringify(accepted));
      const failed = await settledTo(adapter, handleOf(request), 'failed');
      assert.ok(failed.class === 'failed');
      assert.equal(failed.problem, problem);
      assert.equal(failed.message, `Hubtel failed it: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`);
      assert.equal(failed.transactionId, accepted.class === 'accepted' ? accepted.transactionId : null);

      const callback = await waitFor('the failure callback', async () => receiver.received[0]);
      const body = JSON.parse(callback.body);
      assert.equal(body.ResponseCode, '2001');
      assert.equal(body.Data.Description, reason);
      assert.deepEqual(readHubtelCallback(body), { reference: request.reference, transactionId: failed.transactionId });
      assert.deepEqual(sim.stats().deliveries, []);
    });
  }

  test('2001 in the purchase answer: failed at once, its reason deciding the problem', async (c) => {
    const sim = await simulator(c);
    sim.scriptNext('buy', { status: 200, body: { ResponseCode: '2001', Message: 'failed', Data: { TransactionId: ' abc123 ', Description: 'The receiving user is not registered in the system' } } });
    const answer = await adapterFor(sim).submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(answer, { class: 'failed', problem: 'number', transactionId: 'abc123', message: 'Hubtel failed it: the receiving user is not registered in the system (2001)' });
  });

  test('status Unpaid or Refunded: failed (a route problem when no reason is given); Paid with isFulfilled null: accepted', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    const handle = handleOf(attempt('http://127.0.0.1:9/unused'));
    const status = (status: string, isFulfilled: boolean | null) => ({
      status: 200,
      body: { message: 'Successful', responseCode: '0000', data: { status, transactionId: 'tx1', clientReference: handle.reference, amount: 10, charges: 0, isFulfilled } },
    });
    sim.scriptNext('status', status('Refunded', false));
    assert.deepEqual(await adapter.check(handle), { class: 'failed', problem: 'route', transactionId: 'tx1', message: 'Hubtel failed it: the transaction is Refunded' });
    sim.scriptNext('status', status('Unpaid', null));
    assert.deepEqual(await adapter.lookup(handle), { class: 'failed', problem: 'route', transactionId: 'tx1', message: 'Hubtel failed it: the transaction is Unpaid' });
    sim.scriptNext('status', status('Paid', null));
    assert.deepEqual(await adapter.check(handle), { class: 'accepted', transactionId: 'tx1', message: 'Hubtel: paid, not fulfilled yet' });
    sim.scriptNext('status', status('Paid', true));
    assert.deepEqual(await adapter.check(handle), { class: 'completed', transactionId: 'tx1', message: 'Hubtel: paid and fulfilled' });
  });
});

describe('Hubtel adapter: answers that prove nothing (unknown), and the lookups that settle them', () => {
  test('hang-after-taking: unknown within the timeout; the lookup finds it; exactly one delivery', async (c) => {
    // The timeout applies to the bundle list too: 500 ms leaves a loaded machine room for that quick call.
    const sim = await simulator(c, { behaviour: { outcome: 'hang-after-taking', hangMs: 3_000 } });
    const request = attempt('http://127.0.0.1:9/unused');
    const started = Date.now();
    const answer = await adapterFor(sim, 500).submit(request);
    const elapsed = Date.now() - started;
    assert.equal(answer.class, 'unknown', JSON.stringify(answer));
    assert.equal(answer.class === 'unknown' && answer.message, 'Hubtel did not answer the purchase (no answer within 500 ms); it may have taken it');
    assert.ok(elapsed < 2_900, `answered after ${elapsed} ms: the hang ended the call, not the timeout`);

    sim.configure({ outcome: 'complete' });
    const found = await settledTo(adapterFor(sim), handleOf(request), 'completed', 'lookup');
    assert.ok(found.class === 'completed' && found.transactionId !== null);
    assert.equal(sim.stats().deliveries.length, 1);
    assert.equal(sim.stats().submissions, 1);
  });

  test('error-after-taking (500): unknown; the lookup finds it; exactly one delivery', async (c) => {
    const sim = await simulator(c, { behaviour: { outcome: 'error-after-taking' } });
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'unknown', message: "Hubtel's answer to the purchase was unreadable (HTTP 500); it may have taken it" });
    await settledTo(adapter, handleOf(request), 'completed', 'lookup');
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('error-before-taking (503): unknown; the lookup says absent; submitting again under the same reference delivers once', async (c) => {
    const sim = await simulator(c, { behaviour: { outcome: 'error-before-taking' } });
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    assert.equal((await adapter.submit(request)).class, 'unknown');
    assert.equal((await adapter.lookup(handleOf(request))).class, 'absent');

    sim.configure({ outcome: 'complete' });
    assert.equal((await adapter.submit(request)).class, 'accepted');
    await settledTo(adapter, handleOf(request), 'completed');
    assert.deepEqual(
      sim.stats().deliveries.map((d) => d.reference),
      [request.reference],
    );
    assert.equal(sim.stats().submissions, 2);
  });

  test('a reference already used: unknown, never a refusal; the lookup finds the first; one delivery', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    assert.equal((await adapter.submit(request)).class, 'accepted');
    await settledTo(adapter, handleOf(request), 'completed');

    const again = await adapter.submit(request);
    assert.equal(again.class, 'unknown', JSON.stringify(again));
    assert.match(again.class === 'unknown' ? again.message : '', /already used.*\(4000\)/);
    assert.equal((await adapter.lookup(handleOf(request))).class, 'completed');
    assert.equal(sim.stats().submissions, 2);
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('0005 (state unknown): unknown; the lookup finds what Hubtel took', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    const request = attempt('http://127.0.0.1:9/unused');
    sim.scriptNext('buy', { status: 200, body: { ResponseCode: '0005', Message: 'There was an HTTP failure/exception.' }, takes: true });
    assert.deepEqual(await adapter.submit(request), {
      class: 'unknown',
      message: 'Hubtel answered the purchase with code 0005 (there was an HTTP failure/exception); it may have taken it',
    });
    await settledTo(adapter, handleOf(request), 'completed', 'lookup');
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('an unreachable upstream (closed port): unknown for submit, check and lookup', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const base = `http://127.0.0.1:${port}`;
    const adapter = new HubtelAdapter(
      { apiId: 'id', apiKey: 'key', prepaidDepositId: '1', posSalesId: '2', csUrl: `${base}/commissionservices`, statusUrl: base, balanceUrl: `${base}/api/inter-transfers` },
      { timeoutMs: TIMEOUT_MS, balanceUrl: `${base}/api/inter-transfers` },
    );
    const request = attempt('http://127.0.0.1:9/unused');
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'unknown');
    assert.match(answer.class === 'unknown' ? answer.message : '', /^Hubtel did not answer the bundle list \(connection failed \(ECONNREFUSED\)\)/);
    assert.equal((await adapter.check(handleOf(request))).class, 'unknown');
    assert.equal((await adapter.lookup(handleOf(request))).class, 'unknown');
    assert.equal(await adapter.balance(), null);
  });

  test('malformed bodies: unknown (a purchase answer that is not Hubtel JSON, a bundle list that is not JSON)', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    sim.scriptNext('buy', { status: 200, body: '<html>Bad gateway</html>' });
    assert.equal((await adapter.submit(attempt('http://127.0.0.1:9/unused'))).class, 'unknown');
    sim.scriptNext('buy', { status: 200, body: { Data: { TransactionId: 'x' } } });
    assert.equal((await adapter.submit(attempt('http://127.0.0.1:9/unused'))).class, 'unknown');
    sim.scriptNext('status', { status: 200, body: { message: 'Successful', responseCode: '0000', data: 'not a transaction' } });
    assert.equal((await adapter.check(handleOf(attempt(null)))).class, 'unknown');

    const garbage = http.createServer((_req, res) => res.end('{"ResponseCode": "0000", "Data": ['));
    await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
    c.after(() => new Promise<void>((resolve) => garbage.close(() => resolve())));
    const base = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    const broken = new HubtelAdapter(settingsOf(sim, { csUrl: `${base}/commissionservices`, statusUrl: base }), { timeoutMs: TIMEOUT_MS });
    const answer = await broken.submit(attempt('http://127.0.0.1:9/unused'));
    assert.deepEqual(answer, { class: 'unknown', message: "Hubtel's bundle list was unreadable (HTTP 200); nothing was bought" });
    assert.equal((await broken.lookup(handleOf(attempt(null)))).class, 'unknown');
    assert.equal(sim.stats().deliveries.length, 0);
  });

  test('status answers: 404 and a code without a transaction are absent; 0005, 5xx, 401 and another reference are unknown', async (c) => {
    const sim = await simulator(c);
    const adapter = adapterFor(sim);
    const handle = handleOf(attempt(null));
    assert.deepEqual(await adapter.lookup(handle), { class: 'absent', message: 'Hubtel has no transaction under this reference' });
    sim.scriptNext('status', { status: 200, body: { message: 'Transaction not found', responseCode: '2001', data: null } });
    assert.equal((await adapter.lookup(handle)).class, 'absent');
    sim.scriptNext('status', { status: 200, body: { message: 'State unknown', responseCode: '0005', data: null } });
    assert.equal((await adapter.lookup(handle)).class, 'unknown');
    sim.scriptNext('status', { status: 502, body: { message: 'Bad gateway', responseCode: '2001' } });
    assert.equal((await adapter.lookup(handle)).class, 'unknown');
    sim.scriptNext('status', { status: 200, body: { message: 'Successful', responseCode: '0000', data: { status: 'Paid', isFulfilled: true, clientReference: 'someone-else' } } });
    assert.equal((await adapter.check(handle)).class, 'unknown');
    const wrongPos = await adapterFor(sim, TIMEOUT_MS, { posSalesId: '1' }).lookup(handle);
    assert.equal(wrongPos.class, 'unknown', 'a refused status check proves nothing');
  });
});

describe('readHubtelCallback', () => {
  test('reads Data.ClientReference and Data.TransactionId (trimmed, either case), null when the body names no transaction', () => {
    assert.deepEqual(readHubtelCallback({ ResponseCode: '0000', Data: { ClientReference: 'ref1', TransactionId: ' tx1 ' } }), { reference: 'ref1', transactionId: 'tx1' });
    assert.deepEqual(readHubtelCallback({ responseCode: '2001', data: { clientReference: 'ref2' } }), { reference: 'ref2', transactionId: null });
    assert.equal(readHubtelCallback({ ResponseCode: '0000', Data: {} }), null);
    assert.equal(readHubtelCallback('not an object'), null);
    assert.equal(readHubtelCallback(null), null);
  });
});
