import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReloadlySettings } from '../../src/config.js';
import { ReloadlyAdapter, readReloadlyCallback } from '../../src/providers/reloadly/adapter.js';
import { signReloadlyCallback, verifyReloadlySignature } from '../../src/providers/reloadly/signature.js';
import { startReloadlySimulator, type ReloadlySimulatorOptions, type RunningReloadlySimulator } from '../../src/providers/reloadly/simulator.js';
import type { SimulatedOutcome } from '../../src/providers/simulator-kit.js';
import type { AttemptHandle, AttemptRequest, RouteOf } from '../../src/providers/types.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';

/**
 * The Reloadly adapter against its simulator, over real HTTP on loopback: every class of answer of
 * docs/live-delivery.md, "One delivery, many attempts" from Appendix A's bodies and codes, the token's life, the signed callbacks.
 * No database: the adapter only classifies. Each test uses its own numbers and references.
 */

type Route = RouteOf<'reloadly'>;
const TIMEOUT_MS = 10_000;
/** 10 GHS less the simulator's 2% discount, in pesewas. */
const COST_OF_10_GHS = 980;

let serial = 0;
const newNumber = () => `233244${String(100_000 + serial++)}`;
const newReference = () => `RL${Date.now().toString(36)}${String(serial++).padStart(6, '0')}`.toUpperCase();

function settingsFor(sim: RunningReloadlySimulator, change: Partial<ReloadlySettings> = {}): ReloadlySettings {
  return {
    clientId: sim.env.RELOADLY_CLIENT_ID ?? '',
    clientSecret: sim.env.RELOADLY_CLIENT_SECRET ?? '',
    environment: 'sandbox',
    apiUrl: sim.env.RELOADLY_API_URL ?? '',
    authUrl: sim.env.RELOADLY_AUTH_URL ?? '',
    webhookSecret: null,
    ...change,
  };
}

function attempt(msisdn: string, reference = newReference()): AttemptRequest<Route> {
  return { reference, msisdn, route: { provider: 'reloadly', operatorId: 643, amount: 1000 }, packageId: 'pkg_2gb', price: 1200, mode: 'live', callbackUrl: null };
}

function handleOf(request: AttemptRequest<Route>, transactionId: string | null): AttemptHandle<Route> {
  return { reference: request.reference, transactionId, msisdn: request.msisdn, route: request.route, createdAt: Date.now() - 1_000 };
}

const deliveriesOf = (sim: RunningReloadlySimulator, reference: string) => sim.stats().deliveries.filter((d) => d.reference === reference);

describe('reloadly adapter against the simulator', () => {
  let sim: RunningReloadlySimulator;
  let adapter: ReloadlyAdapter;
  const withOutcome = (outcome: SimulatedOutcome) => {
    const msisdn = newNumber();
    sim.configure({ numbers: { ...sim.behaviour().numbers, [msisdn]: outcome } });
    return msisdn;
  };

  before(async () => {
    sim = await startReloadlySimulator({ behaviour: { settleMs: 30, hangMs: 2_000 } });
    adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
  });
  after(() => sim.close());

  test('a top-up final at once is completed, its cost read from balanceInfo in GHS', async () => {
    const request = attempt(withOutcome('complete-at-once'));
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'completed');
    assert.ok(answer.class === 'completed' && answer.transactionId !== null);
    assert.equal(answer.cost, COST_OF_10_GHS);
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
    assert.equal(deliveriesOf(sim, request.reference)[0]?.product, '10');
  });

  test('accepted, then completed when its status is checked', async () => {
    sim.configure({ settleMs: 1_500 });
    const request = attempt(withOutcome('complete'));
    const answer = await adapter.submit(request);
    sim.configure({ settleMs: 30 });
    assert.equal(answer.class, 'accepted');
    assert.ok(answer.class === 'accepted' && answer.transactionId !== null);
    const processing = await adapter.check(handleOf(request, answer.transactionId));
    assert.deepEqual(processing, { class: 'accepted', transactionId: answer.transactionId });
    const done = await waitFor('completed', async () => {
      const checked = await adapter.check(handleOf(request, answer.transactionId));
      return checked.class === 'completed' ? checked : undefined;
    });
    assert.deepEqual(done, { class: 'completed', transactionId: answer.transactionId, cost: COST_OF_10_GHS });
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
  });

  test('a completed top-up is found by its reference', async () => {
    const request = attempt(withOutcome('complete'));
    const submitted = await adapter.submit(request);
    assert.equal(submitted.class, 'accepted');
    const found = await waitFor('found completed', async () => {
      const answer = await adapter.lookup(handleOf(request, null));
      return answer.class === 'completed' ? answer : undefined;
    });
    assert.equal(found.transactionId, submitted.class === 'accepted' ? submitted.transactionId : null);
    assert.equal(found.cost, COST_OF_10_GHS);
  });

  test('a check without a transaction id looks the reference up', async () => {
    const request = attempt(withOutcome('complete-at-once'));
    const submitted = await adapter.submit(request);
    const lookupsBefore = sim.stats().calls.lookup ?? 0;
    const checked = await adapter.check(handleOf(request, null));
    assert.equal(checked.class, 'completed');
    assert.equal(checked.class === 'completed' && checked.transactionId, submitted.class === 'completed' && submitted.transactionId);
    assert.equal(sim.stats().calls.lookup, lookupsBefore + 1);
  });

  test('refused for float: a route problem flagged lowFloat, nothing taken', async () => {
    const request = attempt(withOutcome('refuse-float'));
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'Reloadly refused: insufficient balance (INSUFFICIENT_BALANCE)', lowFloat: true });
    assert.equal((await adapter.lookup(handleOf(request, null))).class, 'absent');
  });

  test('refused for the number: a number problem', async () => {
    const answer = await adapter.submit(attempt(withOutcome('refuse-number')));
    assert.deepEqual(answer, { class: 'refused', problem: 'number', message: 'Reloadly refused: invalid recipient number (INVALID_RECIPIENT_PHONE)' });
  });

  test('the amount not offered for the operator (product unavailable): a route problem', async () => {
    const answer = await adapter.submit(attempt(withOutcome('refuse-product')));
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'Reloadly refused: amount not offered by the operator (INVALID_AMOUNT_FOR_OPERATOR)' });
  });

  test('failed after acceptance: a route reason moves on, a number reason fails', async () => {
    for (const [outcome, problem, code] of [
      ['fail-after-accept', 'route', 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT'],
      ['fail-number-after-accept', 'number', 'INVALID_RECIPIENT_PHONE'],
    ] as const) {
      const request = attempt(withOutcome(outcome));
      const accepted = await adapter.submit(request);
      assert.equal(accepted.class, 'accepted', outcome);
      const transactionId = accepted.class === 'accepted' ? accepted.transactionId : null;
      const failed = await waitFor(`${outcome} failed`, async () => {
        const answer = await adapter.check(handleOf(request, transactionId));
        return answer.class === 'failed' ? answer : undefined;
      });
      assert.equal(failed.problem, problem, outcome);
      assert.equal(failed.transactionId, transactionId);
      assert.match(failed.message, new RegExp(`^Reloadly failed the top-up: .+ \\(${code}\\)$`));
      assert.equal(deliveriesOf(sim, request.reference).length, 0);
    }
  });

  test('a buy that hangs after taking is unknown within the timeout; the lookup finds it, delivered once', async () => {
    const quick = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: 300 });
    await waitFor('a token for the quick adapter', async () => (await quick.balance()) !== null);
    const request = attempt(withOutcome('hang-after-taking'));
    const started = Date.now();
    const answer = await quick.submit(request);
    const elapsed = Date.now() - started;
    assert.equal(answer.class, 'unknown');
    assert.match(answer.class === 'unknown' ? answer.message : '', /no answer within 300 ms/);
    assert.ok(elapsed < 1_800, `answered after ${elapsed} ms, the simulator holds 2000 ms`);
    const found = await waitFor('found completed', async () => {
      const looked = await adapter.lookup(handleOf(request, null));
      return looked.class === 'completed' ? looked : undefined;
    });
    assert.ok(found.transactionId !== null);
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
  });

  test('a 5xx after taking is unknown; the lookup finds the transaction', async () => {
    const request = attempt(withOutcome('error-after-taking'));
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'unknown', message: 'Reloadly answered the top-up with HTTP 500; it may have taken it' });
    const found = await waitFor('found completed', async () => {
      const looked = await adapter.lookup(handleOf(request, null));
      return looked.class === 'completed' ? looked : undefined;
    });
    assert.ok(found.transactionId !== null);
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
  });

  test('a 5xx before taking is unknown, the lookup proves it absent, and the same reference goes through once', async () => {
    const msisdn = withOutcome('error-before-taking');
    const request = attempt(msisdn);
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'unknown');
    const looked = await adapter.lookup(handleOf(request, null));
    assert.deepEqual(looked, { class: 'absent', message: `Reloadly has no transaction under reference ${request.reference}` });
    sim.configure({ numbers: { ...sim.behaviour().numbers, [msisdn]: 'complete' } });
    const again = await adapter.submit(request);
    assert.equal(again.class, 'accepted');
    await waitFor('delivered', async () => deliveriesOf(sim, request.reference).length > 0);
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
  });

  test('a reference already used is unknown (look it up), and nothing is taken twice', async () => {
    const request = attempt(withOutcome('complete'));
    assert.equal((await adapter.submit(request)).class, 'accepted');
    const submissions = sim.stats().submissions;
    const twice = await adapter.submit(request);
    assert.deepEqual(twice, { class: 'unknown', message: 'Reloadly says reference already used (CUSTOM_IDENTIFIER_ALREADY_USED): the reference may have been taken, look it up' });
    assert.equal(sim.stats().submissions, submissions + 1);
    await waitFor('delivered', async () => deliveriesOf(sim, request.reference).length > 0);
    assert.equal((await adapter.lookup(handleOf(request, null))).class, 'completed');
    assert.equal(deliveriesOf(sim, request.reference).length, 1);
  });

  test('PHONE_RECENTLY_RECHARGED: a route refusal to retry two minutes later', async () => {
    const answer = await adapter.submit(attempt(withOutcome('recently-recharged')));
    assert.deepEqual(answer, {
      class: 'refused',
      problem: 'route',
      message: 'Reloadly refused: number topped up in the last two minutes (PHONE_RECENTLY_RECHARGED)',
      retryAfterMs: 120_000,
    });
  });

  test('the number codes are number refusals', async () => {
    for (const code of ['INVALID_RECIPIENT_PHONE', 'INVALID_PHONE_NUMBER']) {
      const msisdn = newNumber();
      sim.refuseWith(msisdn, code);
      const answer = await adapter.submit(attempt(msisdn));
      assert.equal(answer.class, 'refused', code);
      assert.equal(answer.class === 'refused' && answer.problem, 'number', code);
      assert.match(answer.class === 'refused' ? answer.message : '', new RegExp(`\\(${code}\\)$`));
    }
  });

  test('every route code of Appendix A is a route refusal; only INSUFFICIENT_BALANCE flags the float', async () => {
    const codes = [
      'INSUFFICIENT_BALANCE',
      'OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE',
      'OPERATOR_NOT_IN_SERVICE',
      'INVALID_AMOUNT_FOR_OPERATOR',
      'MAX_DAILY_TRANSACTION_COUNT_REACHED',
      'MAX_DAILY_TRANSACTION_AMOUNT_REACHED',
      'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT',
      'INACTIVE_ACCOUNT',
      'COUNTRY_NOT_SUPPORTED',
    ];
    for (const code of codes) {
      const msisdn = newNumber();
      sim.refuseWith(msisdn, code);
      const request = attempt(msisdn);
      const answer = await adapter.submit(request);
      assert.equal(answer.class, 'refused', code);
      if (answer.class !== 'refused') continue;
      assert.equal(answer.problem, 'route', code);
      assert.equal(answer.lowFloat, code === 'INSUFFICIENT_BALANCE' ? true : undefined, code);
      assert.equal(answer.retryAfterMs, undefined, code);
      assert.match(answer.message, new RegExp(`^Reloadly refused: [a-z ]+ \\(${code}\\)$`));
      assert.equal((await adapter.lookup(handleOf(request, null))).class, 'absent', code);
    }
  });

  test('FAILED for an invalid number fails the number; REFUNDED fails the route', async () => {
    const cases = [
      { status: 'FAILED', code: 'INVALID_RECIPIENT_PHONE', problem: 'number', message: 'Reloadly failed the top-up: invalid recipient number (INVALID_RECIPIENT_PHONE)' },
      { status: 'REFUNDED', code: null, problem: 'route', message: 'Reloadly refunded the top-up (REFUNDED)' },
      { status: 'REFUNDED', code: 'OPERATOR_NOT_IN_SERVICE', problem: 'route', message: 'Reloadly refunded the top-up: operator not in service (OPERATOR_NOT_IN_SERVICE)' },
    ] as const;
    for (const { status, code, problem, message } of cases) {
      const msisdn = newNumber();
      sim.failWith(msisdn, status, code);
      const request = attempt(msisdn);
      const accepted = await adapter.submit(request);
      const transactionId = accepted.class === 'accepted' ? accepted.transactionId : null;
      assert.ok(transactionId !== null, `${status} ${code}`);
      const failed = await waitFor(`${status} final`, async () => {
        const answer = await adapter.check(handleOf(request, transactionId));
        return answer.class === 'failed' ? answer : undefined;
      });
      assert.deepEqual(failed, { class: 'failed', problem, transactionId, message });
    }
  });

  test('a status check of an id the upstream does not know is unknown, not absent', async () => {
    const answer = await adapter.check(handleOf(attempt(newNumber()), '99999999'));
    assert.deepEqual(answer, { class: 'unknown', message: 'Reloadly does not know transaction 99999999 by its id (HTTP 404); look it up by reference' });
  });

  test('bodies that are not what the endpoint returns are unknown', async () => {
    const request = attempt(withOutcome('complete'));
    sim.garbleNext('buy');
    const buy = await adapter.submit(request);
    assert.equal(buy.class, 'unknown');
    assert.match(buy.class === 'unknown' ? buy.message : '', /without a transaction id/);

    const accepted = await adapter.submit(attempt(withOutcome('complete')));
    const transactionId = accepted.class === 'accepted' ? accepted.transactionId : null;
    sim.garbleNext('status');
    assert.deepEqual(await adapter.check(handleOf(request, transactionId)), { class: 'unknown', message: 'Reloadly answered with a body we cannot read' });
    sim.garbleNext('lookup');
    assert.deepEqual(await adapter.lookup(handleOf(request, null)), {
      class: 'unknown',
      message: 'Reloadly answered the transactions report with a body we cannot read',
    });
  });

  test('balance: the float in the account currency, null when unreadable', async () => {
    const balance = await adapter.balance();
    assert.equal(balance?.currency, 'GHS');
    assert.ok(balance !== null && balance.available > 0 && balance.available < 10_000, JSON.stringify(balance));
    sim.garbleNext('balance');
    assert.equal(await adapter.balance(), null);
  });
});

describe('reloadly tokens', () => {
  test('one token for 20 concurrent calls, reused afterwards', async (t) => {
    // Each answer takes 20 ms: the calls are truly in flight together.
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 20, latencyMs: 20 } });
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    const answers = await Promise.all(Array.from({ length: 20 }, () => adapter.submit(attempt(newNumber()))));
    assert.deepEqual(
      answers.map((a) => a.class),
      Array.from({ length: 20 }, () => 'accepted'),
    );
    assert.equal(sim.stats().calls.token, 1);
    assert.ok(sim.stats().maxInFlight > 1, `at most ${sim.stats().maxInFlight} in flight`);
    assert.equal((await adapter.submit(attempt(newNumber()))).class, 'accepted');
    assert.notEqual(await adapter.balance(), null);
    assert.equal(sim.stats().calls.token, 1);
    assert.equal(sim.stats().calls.buy, 21);
    assert.equal(adapter.tokenFetches, 1);
  });

  test('a token past its life is renewed before use', async (t) => {
    const sim = await startReloadlySimulator({ tokenTtlS: 1 });
    t.after(() => sim.close());
    let now = Date.now();
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS, clock: () => now });
    assert.notEqual(await adapter.balance(), null);
    const fetchedBy = Date.now();
    assert.notEqual(await adapter.balance(), null);
    assert.equal(sim.stats().calls.token, 1);
    now = fetchedBy + 1_000;
    await waitFor('the old token to have expired at the simulator too', async () => Date.now() >= fetchedBy + 1_000);
    assert.notEqual(await adapter.balance(), null);
    assert.equal(sim.stats().calls.token, 2);
    assert.equal(sim.stats().calls.balance, 3, 'no call was refused: the token was renewed before');
  });

  test('expired tokens: one refresh, and each refused call repeated once', async (t) => {
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 20 } });
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    const first = attempt(newNumber());
    assert.equal((await adapter.submit(first)).class, 'accepted');
    assert.equal(sim.stats().calls.token, 1);

    sim.expireTokens();
    const request = attempt(newNumber());
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'accepted');
    assert.equal(sim.stats().calls.token, 2);
    assert.equal(sim.stats().calls.buy, 3, 'the refused buy and its repetition');
    await waitFor('delivered', async () => deliveriesOf(sim, request.reference).length > 0);
    assert.equal(deliveriesOf(sim, request.reference).length, 1);

    sim.expireTokens();
    const many = await Promise.all(Array.from({ length: 5 }, () => adapter.check(handleOf(first, null))));
    assert.deepEqual(
      many.map((a) => a.class),
      Array.from({ length: 5 }, () => 'completed'),
    );
    assert.equal(sim.stats().calls.token, 3, 'five calls refused at once cause one refresh');
    assert.equal(sim.stats().calls.lookup, 10);
  });

  test('bad credentials: a route refusal without a buy call; reads are unknown, token refused', async (t) => {
    const sim = await startReloadlySimulator();
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim, { clientSecret: 'not-the-secret-xyz' }), { timeoutMs: TIMEOUT_MS });
    const request = attempt(newNumber());
    const answer = await adapter.submit(request);
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: 'Reloadly refused our credentials (auth refused: INVALID_CREDENTIALS)' });
    assert.equal(sim.stats().calls.buy, undefined);
    assert.equal(sim.stats().submissions, 0);
    const checked = await adapter.check(handleOf(request, '10001'));
    assert.deepEqual(checked, {
      class: 'unknown',
      message: 'Reloadly refused our credentials (auth refused: INVALID_CREDENTIALS); the status of transaction 10001 could not be read',
      tokenRefused: true,
    });
    assert.ok(!JSON.stringify([answer, checked]).includes('not-the-secret-xyz'));
    assert.equal(await adapter.balance(), null);
  });

  test('an auth endpoint whose answer is unreadable: a route refusal, nothing bought', async (t) => {
    const sim = await startReloadlySimulator();
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    sim.garbleNext('token');
    const answer = await adapter.submit(attempt(newNumber()));
    assert.deepEqual(answer, { class: 'refused', problem: 'route', message: "Reloadly's auth endpoint gave no usable token (HTTP 200)" });
    assert.equal(sim.stats().calls.buy, undefined);
    assert.equal((await adapter.submit(attempt(newNumber()))).class, 'accepted', 'a failure is not cached');
  });
});

describe('reloadly simulator switched from outside', () => {
  test('the /_sim/ control endpoints change its behaviour, expire its tokens and report its state', async (t) => {
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 10 } });
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    const control = (path: string, body?: unknown) =>
      fetch(`${sim.url}/_sim/${path}`, body === undefined ? { method: 'POST' } : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    assert.equal((await control('behaviour', { outcome: 'refuse-float' })).status, 200);
    assert.equal((await adapter.submit(attempt(newNumber()))).class, 'refused');
    assert.equal((await control('behaviour', { outcome: 'sideways' })).status, 400);
    assert.equal((await control('behaviour', { outcome: 'complete' })).status, 200);
    assert.equal((await control('expire-tokens')).status, 204);
    assert.equal((await adapter.submit(attempt(newNumber()))).class, 'accepted');

    const state = (await (await fetch(`${sim.url}/_sim/state`)).json()) as { behaviour: { outcome: string }; stats: { calls: unknown; submissions: number } };
    assert.equal(state.behaviour.outcome, 'complete');
    assert.deepEqual(state.stats.calls, { token: 2, buy: 3 });
    assert.equal(state.stats.submissions, 2);
  });
});

describe('reloadly unreachable', () => {
  test('a buy to a closed port is unknown; reads are unknown; without a token the buy is a route refusal', async () => {
    const sim = await startReloadlySimulator();
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    const fresh = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    assert.notEqual(await adapter.balance(), null, 'a token is cached');
    await sim.close();

    const request = attempt(newNumber());
    const answer = await adapter.submit(request);
    assert.equal(answer.class, 'unknown');
    assert.match(answer.class === 'unknown' ? answer.message : '', /^Reloadly did not answer the top-up \(connection failed \(\w+\)\); it may have taken it$/);
    assert.equal((await adapter.check(handleOf(request, '10001'))).class, 'unknown');
    assert.equal((await adapter.lookup(handleOf(request, null))).class, 'unknown');

    const refused = await fresh.submit(request);
    assert.equal(refused.class, 'refused');
    assert.match(refused.class === 'refused' ? refused.message : '', /^Reloadly's auth endpoint did not answer: connection failed/);
    const read = await fresh.lookup(handleOf(request, null));
    assert.equal(read.class, 'unknown');
    assert.equal(read.class === 'unknown' && read.tokenRefused, undefined);
  });
});

describe('reloadly status bodies and costs', () => {
  const finalAt = async (options: ReloadlySimulatorOptions, fail?: { status: 'FAILED'; code: string }) => {
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 10 }, ...options });
    try {
      const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
      const msisdn = newNumber();
      if (fail) sim.failWith(msisdn, fail.status, fail.code);
      const request = attempt(msisdn);
      const accepted = await adapter.submit(request);
      const transactionId = accepted.class === 'accepted' ? accepted.transactionId : null;
      assert.ok(transactionId !== null);
      let checks = 0;
      const final = await waitFor('final', async () => {
        checks++;
        const answer = await adapter.check(handleOf(request, transactionId));
        return answer.class === 'accepted' ? undefined : answer;
      });
      return { final, transactionId, checks, lookedUp: await adapter.lookup(handleOf(request, null)), stats: sim.stats() };
    } finally {
      await sim.close();
    }
  };

  test('nested and flat status bodies read alike', async () => {
    const nested = await finalAt({});
    const flat = await finalAt({ flatStatus: true });
    assert.deepEqual(nested.final, { class: 'completed', transactionId: nested.transactionId, cost: COST_OF_10_GHS });
    assert.deepEqual(flat.final, { class: 'completed', transactionId: flat.transactionId, cost: COST_OF_10_GHS });
    const flatFailed = await finalAt({ flatStatus: true }, { status: 'FAILED', code: 'INVALID_PHONE_NUMBER' });
    assert.deepEqual(flatFailed.final, {
      class: 'failed',
      problem: 'number',
      transactionId: flatFailed.transactionId,
      message: 'Reloadly failed the top-up: invalid phone number (INVALID_PHONE_NUMBER)',
    });
  });

  test('no cost unless the account currency is GHS', async () => {
    const usd = await finalAt({ currency: 'USD' });
    assert.deepEqual(usd.final, { class: 'completed', transactionId: usd.transactionId });
    assert.deepEqual(usd.lookedUp, { class: 'completed', transactionId: usd.transactionId });
  });

  test('a report line without its status, or a success without its balance info, is read at the status endpoint', async () => {
    for (const reportLines of ['without-status', 'without-balance'] as const) {
      const result = await finalAt({ reportLines });
      assert.deepEqual(result.lookedUp, { class: 'completed', transactionId: result.transactionId, cost: COST_OF_10_GHS }, reportLines);
      assert.equal(result.stats.calls.status, result.checks + 1, `${reportLines}: the lookup asked the status endpoint`);
    }
    const full = await finalAt({});
    assert.equal(full.stats.calls.status, full.checks, 'a full report line is enough');
  });

  test('balance in the account currency', async (t) => {
    const sim = await startReloadlySimulator({ currency: 'USD', openingBalance: 250.5 });
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    assert.deepEqual(await adapter.balance(), { currency: 'USD', available: 250.5 });
  });
});

describe('reloadly callbacks', () => {
  const SECRET = 'whsec-reloadly-test-0123456789';
  const NOW = 1_790_000_000_000;
  const body = '{"type":"airtime_transaction.status","data":{"transactionId":10001,"customIdentifier":"RLABC","status":"SUCCESSFUL"}}';

  test('signatures: good ones pass, bad, missing, stale or altered ones do not', () => {
    const inMs = String(NOW);
    const inSeconds = String(NOW / 1000);
    assert.equal(verifyReloadlySignature(body, inMs, signReloadlyCallback(body, inMs, SECRET), SECRET, NOW), true);
    assert.equal(verifyReloadlySignature(body, inSeconds, signReloadlyCallback(body, inSeconds, SECRET), SECRET, NOW + 60_000), true);
    assert.equal(verifyReloadlySignature(body, inMs, signReloadlyCallback(body, inMs, SECRET).toUpperCase(), SECRET, NOW), true);

    const good = signReloadlyCallback(body, inMs, SECRET);
    assert.equal(verifyReloadlySignature(body, inMs, signReloadlyCallback(body, inMs, 'another-secret'), SECRET, NOW), false, 'another key');
    const oneDigitOff = `${good.slice(0, 63)}${good.endsWith('0') ? '1' : '0'}`;
    assert.equal(verifyReloadlySignature(body, inMs, oneDigitOff, SECRET, NOW), false, 'one digit off');
    assert.equal(verifyReloadlySignature(body, inMs, good.slice(0, 40), SECRET, NOW), false, 'cut short');
    assert.equal(verifyReloadlySignature(body, inMs, `${good}00`, SECRET, NOW), false, 'too long');
    assert.equal(verifyReloadlySignature(body, inMs, 'not hex at all', SECRET, NOW), false, 'malformed');
    assert.equal(verifyReloadlySignature(body, undefined, good, SECRET, NOW), false, 'no timestamp');
    assert.equal(verifyReloadlySignature(body, inMs, undefined, SECRET, NOW), false, 'no signature');
    assert.equal(verifyReloadlySignature(body, 'yesterday', good, SECRET, NOW), false, 'timestamp not a number');
    assert.equal(verifyReloadlySignature(body, inMs, good, '', NOW), false, 'no secret');
    assert.equal(verifyReloadlySignature(body, inMs, good, SECRET, NOW + 5 * 60_000 + 1), false, 'stale');
    assert.equal(verifyReloadlySignature(body, inMs, good, SECRET, NOW - 5 * 60_000 - 1), false, 'from the future');
    assert.equal(verifyReloadlySignature(body, inMs, good, SECRET, NOW + 5 * 60_000), true, 'at the edge of the window');
    assert.equal(verifyReloadlySignature(body.replace('SUCCESSFUL', 'FAILED'), inMs, good, SECRET, NOW), false, 'body altered');
    assert.equal(verifyReloadlySignature(body, String(NOW + 1), good, SECRET, NOW), false, 'timestamp altered');
  });

  test('the simulator’s signed callbacks verify and name the attempt', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 10 }, callbackUrl: `${receiver.url}/callbacks/reloadly`, webhookSecret: SECRET });
    t.after(() => sim.close());
    assert.equal(sim.env.RELOADLY_WEBHOOK_SECRET, SECRET);
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });

    const completed = attempt(newNumber());
    const failing = newNumber();
    sim.failWith(failing, 'FAILED', 'INVALID_RECIPIENT_PHONE');
    const failed = attempt(failing);
    const ids = new Map<string, string | null>();
    for (const request of [completed, failed]) {
      const answer = await adapter.submit(request);
      ids.set(request.reference, answer.class === 'accepted' ? answer.transactionId : null);
    }
    await waitFor('two callbacks', async () => receiver.received.length >= 2);
    await waitFor('both acknowledged', async () => sim.stats().callbacksAcknowledged === 2);
    assert.equal(sim.stats().callbacksSent, 2);

    for (const callback of receiver.received) {
      assert.equal(callback.path, '/callbacks/reloadly');
      const timestamp = callback.headers['x-reloadly-request-timestamp'];
      const signature = callback.headers['x-reloadly-signature'];
      assert.equal(verifyReloadlySignature(callback.body, timestamp, signature, SECRET), true);
      assert.equal(verifyReloadlySignature(`${callback.body} `, timestamp, signature, SECRET), false);
      const parsed = JSON.parse(callback.body);
      assert.equal(parsed.type, 'airtime_transaction.status');
      const subject = readReloadlyCallback(parsed);
      assert.ok(subject !== null && subject.reference !== null);
      assert.equal(subject.transactionId, ids.get(subject.reference));
    }
    const statuses = receiver.received.map((r) => JSON.parse(r.body).data.status).sort();
    assert.deepEqual(statuses, ['FAILED', 'SUCCESSFUL']);
  });

  test('the callback reader takes the nested shape too, and null when no transaction is named', () => {
    assert.deepEqual(readReloadlyCallback({ type: 'airtime_transaction.status', data: { transaction: { transactionId: 42, customIdentifier: 'RLX', status: 'SUCCESSFUL' } } }), {
      reference: 'RLX',
      transactionId: '42',
    });
    assert.deepEqual(readReloadlyCallback({ type: 'airtime_transaction.status', data: { transactionId: 43 } }), { reference: null, transactionId: '43' });
    assert.equal(readReloadlyCallback({ type: 'airtime_transaction.status', data: { status: 'SUCCESSFUL' } }), null);
    assert.equal(readReloadlyCallback('not an object'), null);
    assert.equal(readReloadlyCallback(null), null);
  });

  test('lost callbacks are not sent', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const sim = await startReloadlySimulator({ behaviour: { settleMs: 10, loseCallbacks: true }, callbackUrl: receiver.url, webhookSecret: SECRET });
    t.after(() => sim.close());
    const adapter = new ReloadlyAdapter(settingsFor(sim), { timeoutMs: TIMEOUT_MS });
    // The lost one fails after acceptance: its settle gives its cost back to the float, which shows
    // that the settle, and the callback it did not send, has happened (a busy machine runs a 10 ms
    // timer late: one round trip was not always enough).
    sim.configure({ outcome: 'fail-after-accept' });
    const before = (await adapter.balance())?.available;
    const lost = attempt(newNumber());
    await adapter.submit(lost);
    await waitFor('the lost one settled (its cost back)', async () => (await adapter.balance())?.available === before);
    sim.configure({ loseCallbacks: false, outcome: 'complete' });
    const sent = attempt(newNumber());
    await adapter.submit(sent);
    await waitFor('the second callback', async () => receiver.received.length >= 1);
    assert.equal(sim.stats().callbacksSent, 1);
    assert.deepEqual(
      receiver.received.map((r) => readReloadlyCallback(JSON.parse(r.body))?.reference),
      [sent.reference],
    );
  });
});
