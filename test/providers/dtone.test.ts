import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test, type TestContext } from 'node:test';
import { DtoneAdapter, readDtoneCallback } from '../../src/providers/dtone/adapter.js';
import { startDtoneSimulator, type DtoneSimulatedStatus, type DtoneSimulator, type DtoneSimulatorOptions } from '../../src/providers/dtone/simulator.js';
import type { AttemptHandle, AttemptRequest, RouteOf, UpstreamAnswer } from '../../src/providers/types.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';

/**
 * The DT One adapter against the DT One simulator over loopback (docs/live-delivery.md, "One delivery, many attempts" and Appendix
 * A): every answer class, the lookups that make an unknown answer safe, the callbacks and the
 * balance; then, against a scripted upstream, the answers the simulator never gives (rate limits,
 * unreadable bodies, the other documented shapes).
 */

type DtoneRoute = RouteOf<'dtone'>;
const NUMBER = '233244123456';
const OTHER_NUMBER = '233201234567';
const DEFAULT_TIMEOUT_MS = 10_000;

let references = 0;
function newAttempt(change: Partial<AttemptRequest<DtoneRoute>> = {}): AttemptRequest<DtoneRoute> {
  references++;
  return {
    reference: `dt${process.pid}x${Date.now().toString(36)}x${references}`,
    msisdn: NUMBER,
    route: { provider: 'dtone', productId: 35211 },
    packageId: 'pkg_mtn_2gb',
    price: 1200,
    mode: 'live',
    callbackUrl: null,
    ...change,
  };
}

const handleOf = (request: AttemptRequest<DtoneRoute>, transactionId: string | null = null): AttemptHandle<DtoneRoute> => ({
  reference: request.reference,
  transactionId,
  msisdn: request.msisdn,
  route: request.route,
  createdAt: Date.now(),
});

async function simulatorFor(c: TestContext, options: DtoneSimulatorOptions = {}): Promise<DtoneSimulator> {
  const sim = await startDtoneSimulator({ ...options, behaviour: { settleMs: 30, ...options.behaviour } });
  c.after(() => sim.close());
  return sim;
}

function dtoneAdapterFor(sim: { env: Record<string, string> }, timeoutMs = DEFAULT_TIMEOUT_MS, secret?: string): DtoneAdapter {
  return new DtoneAdapter(
    { apiKey: sim.env.DTONE_API_KEY ?? '', apiSecret: secret ?? sim.env.DTONE_API_SECRET ?? '', apiUrl: sim.env.DTONE_API_URL ?? '' },
    { timeoutMs },
  );
}

function transactionIdOf(answer: UpstreamAnswer): string {
  assert.ok('transactionId' in answer && typeof answer.transactionId === 'string', `no transaction id in ${JSON.stringify(answer)}`);
  return answer.transactionId;
}

/** Checks until the answer's class is `wanted` (the simulator settles in tens of milliseconds). */
function settled(adapter: DtoneAdapter, handle: AttemptHandle<DtoneRoute>, wanted: UpstreamAnswer['class'], by: 'check' | 'lookup' = 'check') {
  return waitFor(`a ${wanted} answer to ${by}`, async () => {
    const answer = by === 'check' ? await adapter.check(handle) : await adapter.lookup(handle);
    return answer.class === wanted ? answer : undefined;
  });
}

describe('DT One adapter against the simulator', () => {
  test('complete-at-once: completed at submission, its cost the GHS wholesale price in pesewas', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const request = newAttempt();
    const answer = await dtoneAdapterFor(sim).submit(request);
    assert.equal(answer.class, 'completed');
    assert.ok(answer.class === 'completed');
    assert.equal(answer.cost, 950);
    const stats = sim.stats();
    assert.equal(stats.calls.buy, 1);
    assert.equal(stats.submissions, 1);
    assert.deepEqual(stats.deliveries, [{ reference: request.reference, transactionId: answer.transactionId, msisdn: NUMBER, product: '35211' }]);
  });

  test('accepted with its cost, then completed by a status check', async (c) => {
    const sim = await simulatorFor(c);
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'accepted');
    assert.ok(answer.class === 'accepted');
    assert.equal(answer.cost, 950);
    assert.match(answer.message ?? '', /CONFIRMED/);
    const completed = await settled(adapter, handleOf(request, transactionIdOf(answer)), 'completed');
    assert.deepEqual(completed, { class: 'completed', transactionId: answer.transactionId, cost: 950 });
    assert.ok((sim.stats().calls.status ?? 0) >= 1);
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('the cost adds the fee DT One debits; a price in another currency gives no cost', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const adapter = dtoneAdapterFor(sim);
    const withFee = await adapter.submit(newAttempt({ route: { provider: 'dtone', productId: 35212 } }));
    assert.ok(withFee.class === 'completed');
    assert.equal(withFee.cost, 1925);
    const inUsd = await adapter.submit(newAttempt({ route: { provider: 'dtone', productId: 35299 } }));
    assert.ok(inUsd.class === 'completed');
    assert.equal(inUsd.cost, undefined);
  });

  test('a completed transaction is found by its reference', async (c) => {
    const sim = await simulatorFor(c);
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const submitted = await adapter.submit(request);
    const found = await settled(adapter, handleOf(request), 'completed', 'lookup');
    assert.deepEqual(found, { class: 'completed', transactionId: transactionIdOf(submitted), cost: 950 });
    assert.ok((sim.stats().calls.lookup ?? 0) >= 1);
  });

  test('insufficient float: refused, a route problem flagged lowFloat, and nothing taken', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'refuse-float' } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'DT One refused it: insufficient balance (1006001)', lowFloat: true });
    assert.equal((await adapter.lookup(handleOf(request))).class, 'absent');

    // The same refusal when the account's balance is really short of the wholesale price.
    const short = await simulatorFor(c, { balance: 5 });
    const shortAnswer = await dtoneAdapterFor(short).submit(newAttempt());
    assert.ok(shortAnswer.class === 'refused');
    assert.equal(shortAnswer.lowFloat, true);
    assert.equal(sim.stats().deliveries.length + short.stats().deliveries.length, 0);
  });

  test('an invalid number: refused as a number problem, for that number only', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once', numbers: { [NUMBER]: 'refuse-number' } } });
    const adapter = dtoneAdapterFor(sim);
    const refused = await adapter.submit(newAttempt());
    assert.deepEqual(refused, { class: 'refused', problem: 'number', message: 'DT One refused it: invalid mobile number (1005003)' });
    assert.equal((await adapter.submit(newAttempt({ msisdn: OTHER_NUMBER }))).class, 'completed');
    assert.deepEqual(
      sim.stats().deliveries.map((d) => d.msisdn),
      [OTHER_NUMBER],
    );
  });

  test('a product not available (switched, or not in the account): refused as a route problem', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'refuse-product' } });
    const adapter = dtoneAdapterFor(sim);
    const switched = await adapter.submit(newAttempt());
    assert.deepEqual(switched, { class: 'refused', problem: 'route', message: 'DT One refused it: product not available (1003001)' });
    sim.configure({ outcome: 'complete' });
    const unknownProduct = await adapter.submit(newAttempt({ route: { provider: 'dtone', productId: 99999 } }));
    assert.deepEqual(unknownProduct, switched);
    assert.equal(sim.stats().submissions, 2);
  });

  test('failed after acceptance: the operator unavailable is a route problem, an invalid number a number problem', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'fail-after-accept', numbers: { [OTHER_NUMBER]: 'fail-number-after-accept' } } });
    const adapter = dtoneAdapterFor(sim);
    const routeRequest = newAttempt();
    const numberRequest = newAttempt({ msisdn: OTHER_NUMBER });
    const routeAccepted = await adapter.submit(routeRequest);
    const numberAccepted = await adapter.submit(numberRequest);
    assert.equal(routeAccepted.class, 'accepted');
    assert.equal(numberAccepted.class, 'accepted');
    const routeFailed = await settled(adapter, handleOf(routeRequest, transactionIdOf(routeAccepted)), 'failed');
    assert.deepEqual(routeFailed, {
      class: 'failed',
      problem: 'route',
      transactionId: transactionIdOf(routeAccepted),
      message: 'DT One declined it: the operator is unavailable (DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE)',
    });
    const numberFailed = await settled(adapter, handleOf(numberRequest), 'failed', 'lookup');
    assert.deepEqual(numberFailed, {
      class: 'failed',
      problem: 'number',
      transactionId: transactionIdOf(numberAccepted),
      message: 'DT One declined it: the number is invalid (DECLINED-INVALID-CREDIT-PARTY)',
    });
    assert.equal(sim.stats().deliveries.length, 0);
  });

  test('an answer held after taking: unknown within our timeout, then found by lookup, delivered once', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'hang-after-taking', hangMs: 2_000 } });
    const adapter = dtoneAdapterFor(sim, 300);
    const request = newAttempt();
    const started = Date.now();
    const answer = await adapter.submit(request);
    const elapsed = Date.now() - started;
    assert.equal(answer.class, 'unknown');
    assert.ok(answer.class === 'unknown');
    assert.match(answer.message, /no answer within 300 ms/);
    assert.ok(elapsed < 1_900, `the adapter waited ${elapsed} ms, past its 300 ms timeout`);
    const found = await settled(adapter, handleOf(request), 'completed', 'lookup');
    assert.equal(sim.stats().submissions, 1);
    assert.deepEqual(
      sim.stats().deliveries.map((d) => [d.reference, d.transactionId]),
      [[request.reference, transactionIdOf(found)]],
    );
  });

  test('a 5xx after taking: unknown, and the lookup finds what was taken', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'error-after-taking' } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'unknown', message: 'DT One answered 500: unexpected error at DT One (1009001)' });
    const found = await adapter.lookup(handleOf(request));
    assert.ok(found.class === 'accepted' || found.class === 'completed', `lookup answered ${found.class}`);
    await settled(adapter, handleOf(request, transactionIdOf(found)), 'completed');
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('a 5xx before taking: unknown, the lookup proves it absent, and the same reference submitted again delivers once', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'error-before-taking' } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    assert.deepEqual(await adapter.submit(request), { class: 'unknown', message: 'DT One answered 503: service unavailable (1009503)' });
    assert.deepEqual(await adapter.lookup(handleOf(request)), { class: 'absent', message: 'DT One has no transaction under this reference' });
    sim.configure({ outcome: 'complete' });
    const again = await adapter.submit(request);
    assert.equal(again.class, 'accepted');
    await settled(adapter, handleOf(request, transactionIdOf(again)), 'completed');
    const stats = sim.stats();
    assert.equal(stats.submissions, 2);
    assert.deepEqual(
      stats.deliveries.map((d) => d.reference),
      [request.reference],
    );
  });

  test('a reference used twice: the second answer is unknown (look it up), and nothing is delivered twice', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const first = await adapter.submit(request);
    assert.equal(first.class, 'completed');
    const second = await adapter.submit(request);
    assert.deepEqual(second, { class: 'unknown', message: 'DT One answered 400: this reference was already used; look it up (1007001)' });
    const found = await adapter.lookup(handleOf(request));
    assert.equal(found.class, 'completed');
    assert.equal(transactionIdOf(found), transactionIdOf(first));
    assert.equal(sim.stats().submissions, 2);
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('wrong credentials: a route refusal on submission, unknown on reads, and the secret in no message', async (c) => {
    const sim = await simulatorFor(c);
    const secret = 'not-the-secret-3f9a';
    const adapter = dtoneAdapterFor(sim, DEFAULT_TIMEOUT_MS, secret);
    const request = newAttempt();
    const answers = [await adapter.submit(request), await adapter.check(handleOf(request, '4100000001')), await adapter.lookup(handleOf(request))];
    assert.deepEqual(answers[0], { class: 'refused', problem: 'route', message: 'DT One refused it: our credentials were refused (1000401)' });
    assert.deepEqual(
      answers.slice(1).map((a) => a.class),
      ['unknown', 'unknown'],
    );
    assert.equal(await adapter.balance(), null);
    for (const answer of answers) {
      const text = JSON.stringify(answer);
      assert.ok(!text.includes(secret) && !text.includes(sim.env.DTONE_API_KEY ?? '?'), `credentials in ${text}`);
    }
    assert.deepEqual(sim.stats().calls, { buy: 1, status: 1, lookup: 1, balance: 1 });
    assert.equal(sim.stats().deliveries.length, 0);
  });

  test('every status class, each classified: in flight, completed, failed by reason, reversed after completion', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { settleMs: 600_000 } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    const accepted = await adapter.submit(request);
    const id = transactionIdOf(accepted);
    const handle = handleOf(request, id);
    const expected: [DtoneSimulatedStatus, Record<string, unknown>][] = [
      ['CREATED', { class: 'accepted', message: 'DT One is processing it (CREATED)' }],
      ['CONFIRMED', { class: 'accepted', message: 'DT One is processing it (CONFIRMED)' }],
      ['SUBMITTED', { class: 'accepted', message: 'DT One is processing it (SUBMITTED)' }],
      ['REJECTED', { class: 'failed', problem: 'route', message: 'DT One rejected it: no reason given (REJECTED)' }],
      ['REJECTED-INSUFFICIENT-BALANCE', { class: 'failed', problem: 'route', message: 'DT One rejected it: insufficient balance (REJECTED-INSUFFICIENT-BALANCE)' }],
      ['REJECTED-LIMITATIONS-ON-CREDIT-PARTY-AMOUNT', { class: 'failed', problem: 'route' }],
      ['REJECTED-BARRED-CREDIT-PARTY', { class: 'failed', problem: 'number', message: 'DT One rejected it: the number is barred (REJECTED-BARRED-CREDIT-PARTY)' }],
      ['CANCELLED', { class: 'failed', problem: 'route', message: 'DT One cancelled it: no reason given (CANCELLED)' }],
      ['DECLINED', { class: 'failed', problem: 'route' }],
      ['DECLINED-DUPLICATED-TRANSACTION', { class: 'failed', problem: 'route' }],
      ['DECLINED-EXCEPTION', { class: 'failed', problem: 'route', message: 'DT One declined it: an error at the operator (DECLINED-EXCEPTION)' }],
      ['DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE', { class: 'failed', problem: 'route' }],
      ['DECLINED-INELIGIBLE-CREDIT-PARTY', { class: 'failed', problem: 'number', message: 'DT One declined it: the number is not eligible for this product (DECLINED-INELIGIBLE-CREDIT-PARTY)' }],
      ['DECLINED-INVALID-CREDIT-PARTY', { class: 'failed', problem: 'number' }],
      ['COMPLETED', { class: 'completed', cost: 950 }],
      [
        'REVERSED',
        { class: 'completed', cost: 950, message: 'DT One reversed this transaction after completing it (REVERSED): reconciliation reports it' },
      ],
    ];
    for (const [status, wanted] of expected) {
      assert.ok(sim.setStatus(id, status));
      const answer = await adapter.check(handle);
      const seen = Object.fromEntries(Object.keys(wanted).map((key) => [key, (answer as Record<string, unknown>)[key]]));
      assert.deepEqual(seen, wanted, `status ${status}`);
      assert.equal(transactionIdOf(answer), id, `status ${status}`);
    }
    assert.equal(sim.stats().calls.status, expected.length);
    assert.equal(sim.stats().deliveries.length, 1);
  });

  test('a status check by an id DT One does not know asks by reference; an id of another reference is unknown', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const adapter = dtoneAdapterFor(sim);
    const request = newAttempt();
    assert.equal((await adapter.check(handleOf(request, '999'))).class, 'absent');
    assert.deepEqual(sim.stats().calls, { status: 1, lookup: 1 });
    const other = await adapter.submit(newAttempt());
    const mixedUp = await adapter.check(handleOf(request, transactionIdOf(other)));
    assert.equal(mixedUp.class, 'unknown');
  });

  test('lookup by reference among more transactions than a page holds; the list itself is paged by its headers', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const adapter = dtoneAdapterFor(sim);
    for (let i = 0; i < 101; i++) assert.equal((await adapter.submit(newAttempt())).class, 'completed');
    const request = newAttempt();
    const ours = await adapter.submit(request);
    const found = await adapter.lookup(handleOf(request));
    assert.equal(transactionIdOf(found), transactionIdOf(ours));
    assert.equal(sim.stats().calls.lookup, 1);

    const auth = { authorization: `Basic ${Buffer.from(`${sim.env.DTONE_API_KEY}:${sim.env.DTONE_API_SECRET}`).toString('base64')}` };
    const first = await fetch(`${sim.env.DTONE_API_URL}/transactions?per_page=100`, { headers: auth });
    assert.equal(first.status, 200);
    assert.equal(((await first.json()) as unknown[]).length, 100);
    assert.equal(first.headers.get('x-total'), '102');
    assert.equal(first.headers.get('x-next-page'), '2');
    const last = await fetch(`${sim.env.DTONE_API_URL}/transactions?per_page=100&page=2`, { headers: auth });
    assert.equal(((await last.json()) as unknown[]).length, 2);
    assert.equal(last.headers.get('x-next-page'), null);
    const tooMany = await fetch(`${sim.env.DTONE_API_URL}/transactions?per_page=101`, { headers: auth });
    assert.equal(tooMany.status, 400);
    assert.equal(((await tooMany.json()) as { errors: { code: number }[] }).errors[0]?.code, 1000400);

    // By dates, as reconciliation reads it: a window of at most 24 hours.
    const window = (from: number, to: number) =>
      fetch(`${sim.env.DTONE_API_URL}/transactions?from_date=${new Date(from).toISOString()}&to_date=${new Date(to).toISOString()}`, { headers: auth });
    const now = Date.now();
    const today = await window(now - 3_600_000, now + 60_000);
    assert.equal(today.headers.get('x-total'), '102');
    assert.equal(((await today.json()) as unknown[]).length, 50);
    assert.equal((await window(now - 86_400_000 - 3_600_000, now - 3_600_000)).headers.get('x-total'), '0');
    assert.equal((await window(now - 2 * 86_400_000, now)).status, 400);
  });

  test('switched from outside through /_sim/, as `cli simulate dtone` is', async (c) => {
    const sim = await simulatorFor(c);
    const switched = await fetch(`${sim.url}/_sim/behaviour`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'refuse-float' }),
    });
    assert.equal(switched.status, 200);
    const answer = await dtoneAdapterFor(sim).submit(newAttempt());
    assert.ok(answer.class === 'refused' && answer.lowFloat === true);
    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { behaviour: { outcome: string }; stats: { submissions: number } };
    assert.equal(state.behaviour.outcome, 'refuse-float');
    assert.equal(state.stats.submissions, 1);
    assert.equal(sim.env.DTONE_API_URL, `${sim.url}/v1`);
  });

  test('the balance, in DT One unit, debited by a completed transaction', async (c) => {
    const sim = await simulatorFor(c, { behaviour: { outcome: 'complete-at-once' } });
    const adapter = dtoneAdapterFor(sim);
    assert.deepEqual(await adapter.balance(), { currency: 'GHS', available: 10_000 });
    await adapter.submit(newAttempt());
    assert.deepEqual(await adapter.balance(), { currency: 'GHS', available: 9_990.5 });
    assert.equal(sim.stats().calls.balance, 2);
  });

  test('an unreachable upstream: unknown for every call, no balance', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const adapter = dtoneAdapterFor({ env: { DTONE_API_KEY: 'k', DTONE_API_SECRET: 's', DTONE_API_URL: `http://127.0.0.1:${port}/v1` } });
    const request = newAttempt();
    const answers = [await adapter.submit(request), await adapter.check(handleOf(request, '1')), await adapter.lookup(handleOf(request))];
    for (const answer of answers) {
      assert.equal(answer.class, 'unknown');
      assert.ok(answer.class === 'unknown');
      assert.match(answer.message, /^DT One did not answer: connection failed/);
    }
    assert.equal(await adapter.balance(), null);
  });
});

describe('DT One callbacks', () => {
  test('the reader names the attempt from the simulator callbacks, which are retried until acknowledged', async (c) => {
    const receiver = await startReceiver((_request, n) => ({ status: n === 0 ? 500 : 200 }));
    c.after(() => receiver.close());
    const sim = await simulatorFor(c, { behaviour: { numbers: { [OTHER_NUMBER]: 'fail-number-after-accept' } } });
    const adapter = dtoneAdapterFor(sim);
    const callbackUrl = `${receiver.url}/callbacks/dtone/token`;
    const request = newAttempt({ callbackUrl });
    const accepted = await adapter.submit(request);
    await waitFor('the callback acknowledged', async () => sim.stats().callbacksAcknowledged === 1);
    assert.equal(sim.stats().callbacksSent, 2);
    assert.equal(receiver.received.length, 2);
    for (const received of receiver.received) {
      assert.equal(received.path, '/callbacks/dtone/token');
      assert.equal(received.headers['content-type'], 'application/json');
      assert.deepEqual(readDtoneCallback(JSON.parse(received.body)), { reference: request.reference, transactionId: transactionIdOf(accepted) });
    }
    assert.equal(JSON.parse(receiver.received[1]?.body ?? '{}').status.class.message, 'COMPLETED');

    const failing = newAttempt({ msisdn: OTHER_NUMBER, callbackUrl });
    const failingAccepted = await adapter.submit(failing);
    await waitFor('the failure callback', async () => sim.stats().callbacksAcknowledged === 2);
    const body: unknown = JSON.parse(receiver.received[2]?.body ?? '{}');
    assert.deepEqual(readDtoneCallback(body), { reference: failing.reference, transactionId: transactionIdOf(failingAccepted) });
  });

  test('lost callbacks are not sent; the reader answers null for a body naming no transaction', async (c) => {
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    const sim = await simulatorFor(c, { behaviour: { loseCallbacks: true } });
    await dtoneAdapterFor(sim).submit(newAttempt({ callbackUrl: `${receiver.url}/cb` }));
    await waitFor('the delivery', async () => sim.stats().deliveries.length === 1);
    assert.equal(sim.stats().callbacksSent, 0);
    assert.equal(receiver.received.length, 0);

    for (const body of [null, 'text', [], {}, { status: { class: { id: 7 } } }]) assert.equal(readDtoneCallback(body), null);
    assert.deepEqual(readDtoneCallback({ id: 41 }), { reference: null, transactionId: '41' });
  });
});

/** One scripted answer of the fake upstream below. */
interface ScriptedAnswer {
  status: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

interface AskedOfScripted {
  url: URL;
  authorization: string | undefined;
  body: string;
}

/** A fake DT One answering as `answer` says, for the shapes the simulator never sends; it records what it was asked. */
async function scriptedDtone(c: TestContext, answer: (method: string, url: URL) => ScriptedAnswer): Promise<{ env: Record<string, string>; asked: AskedOfScripted[] }> {
  const asked: AskedOfScripted[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream');
      asked.push({ url, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString('utf8') });
      const reply = answer(req.method ?? 'GET', url);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  c.after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { env: { DTONE_API_KEY: 'k', DTONE_API_SECRET: 's', DTONE_API_URL: `http://127.0.0.1:${port}/v1/` }, asked };
}

const errors = (...codes: number[]) => ({ errors: codes.map((code) => ({ code, message: `message of ${code}` })) });

describe('DT One adapter on answers the simulator does not give', () => {
  test('each documented error code, and several at once, classified on submission', async (c) => {
    const cases: [number, unknown, Record<string, unknown>][] = [
      [400, errors(1006001), { class: 'refused', problem: 'route', lowFloat: true }],
      [404, errors(1003001), { class: 'refused', problem: 'route', lowFloat: undefined }],
      [400, errors(1005003), { class: 'refused', problem: 'number' }],
      [400, errors(1006503), { class: 'refused', problem: 'number' }],
      [400, errors(1007001), { class: 'unknown' }],
      [401, errors(1000401), { class: 'refused', problem: 'route' }],
      [429, errors(1000429), { class: 'unknown', message: 'DT One answered 429: too many requests (1000429)' }],
      [500, errors(1009001), { class: 'unknown' }],
      [503, errors(1009503), { class: 'unknown' }],
      [400, errors(1003001, 1005003), { class: 'refused', problem: 'number' }],
      [400, errors(1005003, 1007001), { class: 'unknown' }],
      [400, errors(1234567), { class: 'refused', problem: 'route', message: 'DT One refused it: message of 1234567 (1234567)' }],
      [503, errors(1234567), { class: 'unknown' }],
      [429, undefined, { class: 'unknown', message: 'DT One answered 429 with a body we cannot read' }],
    ];
    let next = 0;
    const upstream = await scriptedDtone(c, () => {
      const [status, body] = cases[next++] ?? [500, undefined];
      return { status, body };
    });
    const adapter = dtoneAdapterFor(upstream);
    for (const [status, body, wanted] of cases) {
      const answer = await adapter.submit(newAttempt());
      const seen = Object.fromEntries(Object.keys(wanted).map((key) => [key, (answer as Record<string, unknown>)[key]]));
      assert.deepEqual(seen, wanted, `${status} ${JSON.stringify(body)}`);
    }
    const first = upstream.asked[0];
    assert.equal(first?.url.pathname, '/v1/async/transactions');
    assert.equal(first.authorization, `Basic ${Buffer.from('k:s').toString('base64')}`);
    assert.deepEqual(Object.keys(JSON.parse(first.body)).sort(), ['auto_confirm', 'credit_party_identifier', 'external_id', 'product_id']);
    const withCallback = newAttempt({ callbackUrl: 'https://api.example.com/callbacks/dtone/secret-token' });
    await adapter.submit(withCallback);
    assert.deepEqual(JSON.parse(upstream.asked.at(-1)?.body ?? '{}'), {
      external_id: withCallback.reference,
      product_id: 35211,
      auto_confirm: true,
      credit_party_identifier: { mobile_number: `+${NUMBER}` },
      callback_url: 'https://api.example.com/callbacks/dtone/secret-token',
    });
  });

  test('unreadable bodies are unknown answers, and no balance', async (c) => {
    const upstream = await scriptedDtone(c, (method, url) => {
      if (method === 'POST') return { status: 201, text: '<html>created</html>' };
      if (url.pathname === '/v1/transactions') return { status: 200, body: { transactions: [] } };
      if (url.pathname === '/v1/balances') return { status: 200, body: [{ unit: 'GHS' }] };
      return { status: 200, body: { id: 7, status: { message: 'WHATEVER', class: { id: 6 } } } };
    });
    const adapter = dtoneAdapterFor(upstream);
    const request = newAttempt();
    assert.deepEqual(await adapter.submit(request), { class: 'unknown', message: 'DT One answered 201 without a transaction we can read' });
    assert.deepEqual(await adapter.check(handleOf(request, '7')), { class: 'unknown', message: 'DT One answered with a transaction we cannot read (status: WHATEVER)' });
    assert.deepEqual(await adapter.lookup(handleOf(request)), { class: 'unknown', message: 'DT One answered the lookup with a body we cannot read' });
    assert.equal(await adapter.balance(), null);
  });

  test('a status read tolerantly: the class by id alone or by name alone, the reason in words', async (c) => {
    let body: unknown = null;
    const upstream = await scriptedDtone(c, () => ({ status: 200, body }));
    const adapter = dtoneAdapterFor(upstream);
    const request = newAttempt();
    const handle = handleOf(request, '77');
    body = { id: 77, external_id: request.reference, status: { class: { id: 7 } }, prices: { wholesale: { unit: 'ghs', amount: '4.5' } } };
    assert.deepEqual(await adapter.check(handle), { class: 'completed', transactionId: '77', cost: 450 });
    body = { id: 77, status: { message: 'Declined - Credit party is barred', class: { message: 'DECLINED' } } };
    assert.deepEqual(await adapter.check(handle), {
      class: 'failed',
      problem: 'number',
      transactionId: '77',
      message: 'DT One declined it: the number is barred (Declined - Credit party is barred)',
    });
    body = { id: 77, status: { message: 'DECLINED-BARRED-DEBIT-PARTY', class: { id: 9, message: 'DECLINED' } } };
    const debitParty = await adapter.check(handle);
    assert.ok(debitParty.class === 'failed');
    assert.equal(debitParty.problem, 'route');
  });

  test('lookup: an empty list and a 404 transaction-not-found are absent; a match on a later page is found', async (c) => {
    const request = newAttempt();
    let mode: 'empty' | 'not-found' | 'paged' = 'empty';
    const upstream = await scriptedDtone(c, (_method, url): ScriptedAnswer => {
      if (mode === 'empty') return { status: 200, body: [], headers: { 'x-total': '0' } };
      if (mode === 'not-found') return { status: 404, body: errors(1008004) };
      if (url.searchParams.get('page') === '1') {
        return { status: 200, body: [{ id: 1, external_id: 'someone-else', status: { class: { id: 7 } } }], headers: { 'x-next-page': '2' } };
      }
      return { status: 200, body: [{ id: 2, external_id: request.reference, status: { message: 'SUBMITTED', class: { id: 5, message: 'SUBMITTED' } } }] };
    });
    const adapter = dtoneAdapterFor(upstream);
    assert.equal((await adapter.lookup(handleOf(request))).class, 'absent');
    mode = 'not-found';
    assert.equal((await adapter.lookup(handleOf(request))).class, 'absent');
    mode = 'paged';
    const found = await adapter.lookup(handleOf(request));
    assert.equal(found.class, 'accepted');
    assert.equal(transactionIdOf(found), '2');
    const paged = upstream.asked.slice(-2).map((asked) => asked.url);
    assert.deepEqual(
      paged.map((url) => [url.pathname, url.searchParams.get('external_id'), url.searchParams.get('page'), url.searchParams.get('per_page')]),
      [
        ['/v1/transactions', request.reference, '1', '100'],
        ['/v1/transactions', request.reference, '2', '100'],
      ],
    );
  });
});
