import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  SIM_LIVE_KEY,
  SIM_TEST_KEY,
  SIMULATED_OTP,
  startPaystackSimulator,
  type RunningPaystackSimulator,
} from '../../src/providers/paystack/simulator.js';
import { signPaystackWebhook } from '../../src/providers/paystack/signature.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { cliEnv, runCli, spawnCli } from '../support/cli.js';
import { signIn } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { ledgerEntries, ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

/**
 * Mobile Money top-ups (docs/mobile-money.md) against the Paystack simulator over real HTTP: its
 * webhooks reach the app's real listener. The services' clock runs ahead of the wall clock by
 * `skew`, which the tests move to make checks due and charges expire without waiting.
 */

const POLL_MS = 60_000;
const EXPIRES_MS = 15 * 60_000;

describe('Mobile Money top-ups through Paystack', () => {
  let t: TestApp;
  let sim: RunningPaystackSimulator;
  let skew = 0;
  let phoneSeq = 0;
  /** A fresh MTN number per charge (one pending charge per number). */
  const phone = () => `05512${String(10000 + phoneSeq++).padStart(5, '0')}`;

  before(async () => {
    sim = await startPaystackSimulator({ behaviour: { settleMs: 20 } });
    t = await createTestApp({
      env: { ...sim.env, MOMO_POLL_MS: String(POLL_MS), MOMO_CHARGE_EXPIRES_MS: String(EXPIRES_MS), CONSOLE_ENABLED: 'true' },
      clock: () => Date.now() + skew,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    sim.setWebhookUrl(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/callbacks/paystack`);
  });
  after(async () => {
    await sim.close();
    // The simulator's webhooks keep their connections alive: closing waits for none of them.
    t.app.server.closeAllConnections();
    await t.close();
  });

  async function charge(key: string, amount: number, number = phone()) {
    const res = await t.call('POST', '/api/v1/top-ups/mobile-money', { key, body: { amount, phone: number } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data as { _id: string; reference: string; status: string; amount: number; payment: { status: string; phone: string; network: string } };
  }
  const topUp = async (key: string, id: string) => (await t.call('GET', `/api/v1/top-ups/${id}`, { key })).body.data;
  const row = (id: string) => t.database.db.selectFrom('top_ups').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const credits = async (id: string) =>
    (await t.database.db.selectFrom('ledger_entries').select('available_delta').where('top_up_id', '=', id).execute()).map((e) => e.available_delta);
  const settled = (key: string, id: string) =>
    waitFor(`top-up ${id} decided`, async () => {
      const data = await topUp(key, id);
      return data.status !== 'pending' && data;
    });
  async function eventsOf(key: string, type: string, id: string) {
    const res = await t.call('GET', `/api/v1/events?type=${type}`, { key });
    return (res.body.data.events as { data: { object: { _id: string } } }[]).filter((e) => e.data.object._id === id);
  }
  /** Runs the worker's due checks as if `ms` had passed. */
  async function workerChecksAfter(ms: number) {
    skew += ms;
    return t.ctx.momo.checkDue();
  }

  test('approved on the phone → webhook → credited once, with its ledger entry, the fee and topup.approved', async () => {
    const before = await t.wallet('usr_super', 'live');
    const created = await charge(KEYS.superLive, 100);
    assert.equal(created.status, 'pending');
    assert.equal(created.payment.status, 'pay_offline');
    assert.equal(created.payment.network, 'MTN');
    assert.match(created.reference, /^tup-[0-9a-z]+$/);
    const done = await settled(KEYS.superLive, created._id);
    assert.equal(done.status, 'approved');
    assert.equal(done.payment.status, 'success');
    assert.deepEqual(await credits(created._id), [10_000]);
    assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 10_000);
    assert.equal((await row(created._id)).gateway_fee, 195, 'Paystack kept 1.95 %');
    assert.equal((await eventsOf(KEYS.superLive, 'topup.approved', created._id)).length, 1);
    // A later check, a second webhook: nothing more.
    assert.equal(await t.ctx.momo.check(created._id, 'check'), 'done');
    assert.equal(await sim.sendWebhook('live', created.reference), true);
    assert.deepEqual(await credits(created._id), [10_000]);
  });

  test('the same webhook twice and worker checks racing it → credited once', async () => {
    sim.configure({ webhooks: 'duplicate' });
    try {
      const before = await t.wallet('usr_super', 'live');
      const created = await charge(KEYS.superLive, 12.5);
      await waitFor('the payment at Paystack', async () => sim.stats().paid.some((p) => p.reference === created.reference));
      skew += POLL_MS;
      await Promise.all([
        t.ctx.momo.checkDue(),
        t.ctx.momo.check(created._id, 'check'),
        t.ctx.momo.check(created._id, 'webhook'),
        sim.sendWebhook('live', created.reference),
      ]);
      await settled(KEYS.superLive, created._id);
      assert.deepEqual(await credits(created._id), [1_250]);
      assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 1_250);
      assert.equal((await eventsOf(KEYS.superLive, 'topup.approved', created._id)).length, 1);
    } finally {
      sim.configure({ webhooks: 'deliver' });
    }
  });

  test('no webhook → the worker’s check credits it', async () => {
    sim.configure({ webhooks: 'lose' });
    try {
      const created = await charge(KEYS.superLive, 20);
      await waitFor('the payment at Paystack', async () => sim.stats().paid.some((p) => p.reference === created.reference));
      assert.equal((await topUp(KEYS.superLive, created._id)).status, 'pending');
      assert.equal(await t.ctx.momo.checkDue(), 0, 'not due before MOMO_POLL_MS');
      assert.ok((await workerChecksAfter(POLL_MS)) >= 1);
      assert.equal((await topUp(KEYS.superLive, created._id)).status, 'approved');
      assert.deepEqual(await credits(created._id), [2_000]);
    } finally {
      sim.configure({ webhooks: 'deliver' });
    }
  });

  test('send_otp → a wrong OTP is refused → the right OTP → credited', async () => {
    const number = phone();
    sim.configure({ numbers: { [number]: 'send_otp' } });
    const created = await charge(KEYS.superLive, 15, number);
    assert.equal(created.payment.status, 'send_otp');
    const wrong = await t.call('POST', `/api/v1/top-ups/${created._id}/otp`, { key: KEYS.superLive, body: { otp: '000000' } });
    assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
    assert.equal(wrong.body.error.code, 'TOPUP_REQUEST_FAILED');
    assert.match(wrong.body.error.message, /Invalid OTP/);
    const right = await t.call('POST', `/api/v1/top-ups/${created._id}/otp`, { key: KEYS.superLive, body: { otp: SIMULATED_OTP } });
    assert.equal(right.status, 200, JSON.stringify(right.body));
    assert.equal(right.body.data.payment.status, 'pay_offline');
    assert.equal((await settled(KEYS.superLive, created._id)).status, 'approved');
    assert.deepEqual(await credits(created._id), [1_500]);
    const again = await t.call('POST', `/api/v1/top-ups/${created._id}/otp`, { key: KEYS.superLive, body: { otp: SIMULATED_OTP } });
    assert.equal(again.status, 409);
    const other = await t.call('POST', `/api/v1/top-ups/${created._id}/otp`, { key: KEYS.agentLive, body: { otp: SIMULATED_OTP } });
    assert.equal(other.status, 404);
    assert.equal(other.body.error.code, 'TOPUP_NOT_FOUND');
  });

  for (const [outcome, reason] of [
    ['failure', /Declined by the payer/],
    ['abandonment', /did not approve/],
  ] as const) {
    test(`${outcome} → rejected with the gateway's reason, nothing credited, topup.rejected`, async () => {
      const number = phone();
      sim.configure({ numbers: { [number]: outcome } });
      const before = await t.wallet('usr_super', 'live');
      const created = await charge(KEYS.superLive, 30, number);
      const done = await settled(KEYS.superLive, created._id);
      assert.equal(done.status, 'rejected');
      assert.match(done.rejectionReason, reason);
      assert.deepEqual(await credits(created._id), []);
      assert.deepEqual(await t.wallet('usr_super', 'live'), before);
      assert.equal((await eventsOf(KEYS.superLive, 'topup.rejected', created._id)).length, 1);
    });
  }

  for (const [what, change] of [
    ['amount', { verifyAmountDelta: -100 }],
    ['currency', { verifyCurrency: 'NGN' }],
  ] as const) {
    test(`a verification whose ${what} differs → not credited, and staff see why`, async () => {
      sim.configure(change);
      try {
        const before = await t.wallet('usr_super', 'live');
        const created = await charge(KEYS.superLive, 40);
        const done = await settled(KEYS.superLive, created._id);
        assert.equal(done.status, 'rejected');
        assert.match(done.rejectionReason, /could not be matched/);
        assert.deepEqual(await credits(created._id), []);
        assert.deepEqual(await t.wallet('usr_super', 'live'), before);
        const { topUp: staffView, events } = await t.ctx.momo.history(created._id);
        assert.match(staffView.gateway_problem ?? '', what === 'amount' ? /GHS 39\.00, not GHS 40\.00/ : /NGN 40\.00, not GHS 40\.00/);
        assert.ok(events.some((e) => /not credited/.test(e.message)));
      } finally {
        sim.configure({ verifyAmountDelta: 0, verifyCurrency: null });
      }
    });
  }

  test('a forged signature → 401 and nothing changes; a webhook for an unknown reference → 200, nothing changes', async () => {
    sim.configure({ webhooks: 'lose' });
    try {
      const created = await charge(KEYS.superLive, 50);
      await waitFor('the payment at Paystack', async () => sim.stats().paid.some((p) => p.reference === created.reference));
      sim.configure({ wrongSignature: true, webhooks: 'deliver' });
      assert.equal(await sim.sendWebhook('live', created.reference), false, 'the forged webhook was not acknowledged');
      const body = JSON.stringify({ event: 'charge.success', data: { reference: created.reference, status: 'success' } });
      for (const signature of [undefined, 'abc', signPaystackWebhook(body, 'sk_live_someoneelse123'), signPaystackWebhook(`${body} `, SIM_LIVE_KEY)]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/callbacks/paystack',
          headers: { 'content-type': 'application/json', ...(signature === undefined ? {} : { 'x-paystack-signature': signature }) },
          payload: body,
        });
        assert.equal(res.statusCode, 401, res.body);
      }
      assert.equal((await topUp(KEYS.superLive, created._id)).status, 'pending');
      assert.deepEqual(await credits(created._id), []);
      sim.configure({ wrongSignature: false });
      const unknown = await t.app.inject({
        method: 'POST',
        url: '/callbacks/paystack',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': signPaystackWebhook('{"event":"charge.success","data":{"reference":"not-ours-1"}}', SIM_LIVE_KEY) },
        payload: '{"event":"charge.success","data":{"reference":"not-ours-1"}}',
      });
      assert.equal(unknown.statusCode, 200, unknown.body);
      assert.equal(await sim.sendWebhook('live', 'not-ours-2'), true);
      // The real webhook then credits it (answered at once, the check straight after).
      assert.equal(await sim.sendWebhook('live', created.reference), true);
      assert.equal((await settled(KEYS.superLive, created._id)).status, 'approved');
      assert.deepEqual(await credits(created._id), [5_000]);
    } finally {
      sim.configure({ wrongSignature: false, webhooks: 'deliver' });
    }
  });

  test('expiry → rejected; a late success → credited then', async () => {
    const number = phone();
    sim.configure({ numbers: { [number]: 'hang' } });
    const before = await t.wallet('usr_super', 'live');
    const created = await charge(KEYS.superLive, 60, number);
    await workerChecksAfter(POLL_MS);
    assert.equal((await topUp(KEYS.superLive, created._id)).status, 'pending');
    await workerChecksAfter(EXPIRES_MS);
    const expired = await topUp(KEYS.superLive, created._id);
    assert.equal(expired.status, 'rejected');
    assert.match(expired.rejectionReason, /Expired: not paid within 15 minutes/);
    assert.deepEqual(await credits(created._id), []);
    // The number is free again.
    const next = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 1, phone: number } });
    assert.equal(next.status, 201, JSON.stringify(next.body));
    assert.ok(sim.settle(created.reference, 'success'));
    const late = await settled(KEYS.superLive, created._id);
    await waitFor('the late credit', async () => (await topUp(KEYS.superLive, created._id)).status === 'approved');
    assert.ok(late);
    assert.deepEqual(await credits(created._id), [6_000]);
    assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 6_000);
    const history = await t.ctx.momo.history(created._id);
    assert.ok(history.events.some((e) => /late/.test(e.message)));
    sim.settle(next.body.data.reference, 'failed');
  });

  test('staff: the console shows the gateway side and history, re-checks (operator, audited), and never approves by hand', async () => {
    sim.configure({ webhooks: 'lose', verifyAmountDelta: 500 });
    let created: Awaited<ReturnType<typeof charge>>;
    try {
      created = await charge(KEYS.superLive, 8);
      await waitFor('the payment at Paystack', async () => sim.stats().paid.some((p) => p.reference === created.reference));
    } finally {
      sim.configure({ webhooks: 'deliver' });
    }
    const operator = await signIn(t, 'operator');
    const viewer = await signIn(t, 'viewer');
    const list = await operator.get('/console/top-ups');
    assert.match(list.body, new RegExp(`Mobile Money</a>: pay_offline, MTN 233`));
    assert.doesNotMatch(list.body, new RegExp(`/console/top-ups/${created._id}/approve`), 'no hand approval for Mobile Money');
    assert.equal((await operator.post(`/console/top-ups/${created._id}/approve`)).status, 409);
    assert.equal((await viewer.post(`/console/top-ups/${created._id}/recheck`)).status, 403);
    const rechecked = await operator.post(`/console/top-ups/${created._id}/recheck`);
    sim.configure({ verifyAmountDelta: 0 });
    assert.equal(rechecked.status, 303);
    const page = await operator.get(rechecked.location ?? '');
    assert.match(page.body, /Re-checked with Paystack: paid with another amount/);
    assert.match(page.body, /not credited: Paystack verified GHS 13\.00, not GHS 8\.00/);
    assert.match(page.body, /recheck<\/td><td>success<\/td>/);
    assert.deepEqual(await credits(created._id), []);
    const [audit] = await t.ctx.audit.list({ action: 'topup.recheck', limit: 1 });
    assert.equal(audit?.actor, 'operator@staff.example');
    assert.equal(audit?.recordId, created._id);
    assert.equal(audit?.detail?.outcome, 'mismatch');
  });

  test('a partner\'s second charge for a number while its first is pending is 409, another partner\'s is not; a refused charge is 502 and the record says why', async () => {
    const number = phone();
    sim.configure({ numbers: { [number]: 'hang' } });
    const first = await charge(KEYS.superLive, 5, number);
    const second = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 5, phone: number } });
    assert.equal(second.status, 409, JSON.stringify(second.body));
    assert.equal(second.body.error.code, 'TOPUP_REQUEST_FAILED');
    assert.match(second.body.error.message, /Your Mobile Money top-up for 233\d+ is still pending/);
    // One partner's pending charge does not lock the number for its owner (another partner).
    const owners = await charge(KEYS.agentLive, 5, number);
    for (const c of [first, owners]) sim.settle(c.reference, 'failed');
    for (const [key, c] of [[KEYS.superLive, first], [KEYS.agentLive, owners]] as const) assert.equal((await settled(key, c._id)).status, 'rejected');
    const refused = phone();
    sim.configure({ numbers: { [refused]: 'refuse' } });
    const before = await t.wallet('usr_super', 'live');
    const res = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 5, phone: refused } });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    assert.equal(res.body.error.code, 'TOPUP_GATEWAY_FAILED');
    const id = /top-up (tup_[0-9a-z]+)/.exec(res.body.error.message)?.[1] ?? '';
    const kept = await topUp(KEYS.superLive, id);
    assert.equal(kept.status, 'rejected');
    assert.match(kept.rejectionReason, /Paystack refused the charge/);
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
    for (const body of [{ amount: 0.5, phone: phone() }, { amount: 5001, phone: phone() }, { amount: 1.005, phone: phone() }, { amount: 5, phone: '0302123456' }]) {
      const bad = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body });
      assert.equal(bad.status, 400, JSON.stringify([body, bad.body]));
      assert.equal(bad.body.error.code, 'TOPUP_REQUEST_FAILED');
    }
  });

  test('a number is sent at most MOMO_NUMBER_PROMPTS_PER_HOUR (3) charges an hour, whichever partners ask', async () => {
    const number = phone();
    sim.configure({ numbers: { [number]: 'hang' } });
    const taken: (readonly [string, Awaited<ReturnType<typeof charge>>])[] = [];
    for (const key of [KEYS.superLive, KEYS.agentLive, KEYS.customerLive]) taken.push([key, await charge(key, 2, number)] as const);
    const fourth = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.staffLive, body: { amount: 2, phone: number } });
    assert.equal(fourth.status, 409, JSON.stringify(fourth.body));
    assert.equal(fourth.body.error.code, 'TOPUP_REQUEST_FAILED');
    assert.match(fourth.body.error.message, /^233\d+ was sent 3 payment prompts in the last hour, the most a number is sent: try again in 60 min$/);
    for (const [key, c] of taken) {
      sim.settle(c.reference, 'failed');
      assert.equal((await settled(key, c._id)).status, 'rejected');
    }
    // Declined or not, they were prompts: the hour counts them until it has passed.
    assert.equal((await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.staffLive, body: { amount: 2, phone: number } })).status, 409);
    skew += 60 * 60_000;
    const later = await charge(KEYS.staffLive, 2, number);
    sim.settle(later.reference, 'failed');
    assert.equal((await settled(KEYS.staffLive, later._id)).status, 'rejected');
  });

  test('a top-up rejected as not matched stays rejected when Paystack\'s answer changes: never credited, staff see the later answer', async () => {
    sim.configure({ verifyAmountDelta: -100 });
    const before = await t.wallet('usr_super', 'live');
    let created: Awaited<ReturnType<typeof charge>>;
    try {
      created = await charge(KEYS.superLive, 40);
      const done = await settled(KEYS.superLive, created._id);
      assert.equal(done.status, 'rejected');
      assert.match(done.rejectionReason, /could not be matched/);
    } finally {
      sim.configure({ verifyAmountDelta: 0 });
    }
    // Paystack now verifies the right amount: a check, a webhook, a staff re-check credit nothing.
    assert.equal(await t.ctx.momo.check(created._id, 'check'), 'final');
    assert.equal(await sim.sendWebhook('live', created.reference), true);
    const operator = await signIn(t, 'operator');
    const rechecked = await operator.post(`/console/top-ups/${created._id}/recheck`);
    assert.equal(rechecked.location, `/console/top-ups/${created._id}?notice=recheck-final`);
    await waitFor('the webhook\'s check', async () => (await t.ctx.momo.history(created._id)).events.filter((e) => /rejected as not matched/.test(e.message)).length >= 3);
    assert.equal((await topUp(KEYS.superLive, created._id)).status, 'rejected');
    assert.deepEqual(await credits(created._id), []);
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
    assert.equal((await eventsOf(KEYS.superLive, 'topup.approved', created._id)).length, 0);
    const problem = (await row(created._id)).gateway_problem ?? '';
    assert.match(problem, /GHS 39\.00, not GHS 40\.00.*Later, Paystack verified GHS 40\.00 \(success\): not credited, as the rejection is final; settle it by an adjustment$/);
    assert.equal(problem.split('Later,').length, 2, 'noted once, however often it is checked');
    const page = await operator.get(rechecked.location ?? '');
    assert.match(page.body, /rejected as not matched, which is final/);
    assert.match(page.body, /Later, Paystack verified GHS 40\.00/);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a replayed webhook (the same signed body again) is answered 200 and credits nothing more', async () => {
    const before = await t.wallet('usr_super', 'live');
    const created = await charge(KEYS.superLive, 21);
    assert.equal((await settled(KEYS.superLive, created._id)).status, 'approved');
    const body = JSON.stringify({ event: 'charge.success', data: { reference: created.reference, status: 'success', amount: 2_100, currency: 'GHS' } });
    const signature = signPaystackWebhook(body, SIM_LIVE_KEY);
    const webhookLines = async () => (await t.ctx.momo.history(created._id)).events.filter((e) => e.source === 'webhook').length;
    const seen = await webhookLines();
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/callbacks/paystack', headers: { 'content-type': 'application/json', 'x-paystack-signature': signature }, payload: body });
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal(await webhookLines(), seen + 3, 'each replay is a line of the history, nothing more');
    assert.equal(await t.ctx.momo.check(created._id, 'webhook'), 'done');
    assert.deepEqual(await credits(created._id), [2_100]);
    assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 2_100);
    assert.equal((await eventsOf(KEYS.superLive, 'topup.approved', created._id)).length, 1);
  });

  test('30 concurrent charges from one partner → MOMO_PENDING_MAX (5) taken, the rest 409; each credited once, and the ledger verifies', async () => {
    const before = await t.wallet('usr_agent', 'live');
    // Nothing settles by itself: the limit is what decides, not how fast Paystack is.
    sim.configure({ outcome: 'hang', webhooks: 'lose' });
    let created: Awaited<ReturnType<typeof charge>>[];
    try {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.agentLive, body: { amount: 1 + i, phone: phone() } })),
      );
      const refusals = answers.filter((a) => a.status !== 201);
      created = answers.filter((a) => a.status === 201).map((a) => a.body.data as Awaited<ReturnType<typeof charge>>);
      assert.equal(created.length, 5, JSON.stringify(refusals.slice(0, 2).map((r) => r.body)));
      for (const r of refusals) {
        assert.equal(r.status, 409);
        assert.equal(r.body.error.code, 'TOPUP_REQUEST_FAILED');
        assert.equal(r.body.error.message, 'You have 5 Mobile Money top-ups pending, the most allowed at once (5): wait until their prompts are approved, declined or expire');
      }
      for (const c of created) assert.ok(sim.settle(c.reference, 'success'));
    } finally {
      sim.configure({ outcome: 'pay_offline', webhooks: 'deliver' });
    }
    await workerChecksAfter(POLL_MS);
    await waitFor('all 5 credited', async () => {
      const rows = await t.database.db.selectFrom('top_ups').select('status').where('id', 'in', created.map((c) => c._id)).execute();
      return rows.every((r) => r.status === 'approved');
    });
    const expected = created.reduce((sum, c) => sum + Math.round(c.amount * 100), 0);
    assert.equal((await t.wallet('usr_agent', 'live')).available, before.available + expected);
    const entries = (await ledgerEntries(t, 'usr_agent', 'live')).filter((e) => e.kind === 'top_up');
    for (const c of created) assert.equal(entries.filter((e) => e.top_up_id === c._id).length, 1, c._id);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('test keys charge with the test secret key and credit the test wallet only; live webhooks never reach test charges', async () => {
    const live = await t.wallet('usr_super', 'live');
    const testBefore = await t.wallet('usr_super', 'test');
    sim.configure({ webhooks: 'lose' });
    try {
      // Paystack's test number succeeds at once without a prompt: credited on the request.
      const paidAtOnce = await charge(KEYS.superTest, 25, '0551234987');
      assert.equal(paidAtOnce.status, 'approved');
      const created = await charge(KEYS.superTest, 10);
      await waitFor('the payment at Paystack', async () => sim.stats().paid.some((p) => p.reference === created.reference));
      const paid = sim.stats().paid.filter((p) => p.reference === created.reference || p.reference === paidAtOnce.reference);
      assert.deepEqual(paid.map((p) => p.mode), ['test', 'test']);
      // A webhook signed with the live key names no live charge: nothing happens to the test one.
      const body = JSON.stringify({ event: 'charge.success', data: { reference: created.reference } });
      const res = await t.app.inject({
        method: 'POST',
        url: '/callbacks/paystack',
        headers: { 'content-type': 'application/json', 'x-paystack-signature': signPaystackWebhook(body, SIM_LIVE_KEY) },
        payload: body,
      });
      assert.equal(res.statusCode, 200);
      assert.equal((await topUp(KEYS.superTest, created._id)).status, 'pending');
      assert.equal(await sim.sendWebhook('test', created.reference), true);
      assert.equal((await settled(KEYS.superTest, created._id)).status, 'approved');
      assert.equal((await t.call('GET', `/api/v1/top-ups/${created._id}`, { key: KEYS.superLive })).status, 404);
      assert.equal((await t.wallet('usr_super', 'test')).available, testBefore.available + 3_500);
      assert.deepEqual(await t.wallet('usr_super', 'live'), live);
      assert.equal(SIM_TEST_KEY.startsWith('sk_test_'), true);
    } finally {
      sim.configure({ webhooks: 'deliver' });
    }
  });

  test('cli topups reconcile and recheck; cli simulate paystack', async () => {
    // The mismatched payments of earlier tests were paid at Paystack and not credited here.
    const env = cliEnv(t, { ...sim.env, LOG_LEVEL: 'warn' });
    const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const reconcile = await runCli(['topups', 'reconcile', '--from', day, '--to', new Date(Date.now() + 86_400_000).toISOString()], env);
    assert.equal(reconcile.code, 1, reconcile.stderr);
    assert.match(reconcile.stdout, /paid at Paystack but top-up tup_\w+ is rejected here, not credited/);
    assert.match(reconcile.stdout, /NOT reconciled: \d+ transactions and top-ups/);
    const mismatched = /paid at Paystack but top-up (tup_\w+) is rejected/.exec(reconcile.stdout)?.[1] ?? '';
    const recheck = await runCli(['topups', 'recheck', mismatched], env);
    assert.equal(recheck.code, 0, recheck.stderr);
    // Rejected as not matched is final: whatever Paystack says now, it is not credited.
    assert.match(recheck.stdout, new RegExp(`${mismatched}: (mismatch|final); now rejected`));
    const bad = await runCli(['topups', 'reconcile', '--from', 'yesterday', '--to', day], env);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /--from must be an ISO date/);

    const simulator = spawnCli(['simulate', 'paystack', '--port', '0', '--outcome', 'send_otp'], { LOG_LEVEL: 'warn' });
    try {
      await simulator.waitForOutput('PAYSTACK_TEST_SECRET_KEY=');
      const url = /listening at (http:\/\/[\d.:]+)/.exec(simulator.stdout())?.[1] ?? '';
      const state = (await (await fetch(`${url}/_sim/state`)).json()) as { behaviour: { outcome: string } };
      assert.equal(state.behaviour.outcome, 'send_otp');
      const charged = await fetch(`${url}/charge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SIM_LIVE_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'a@example.com', amount: 100, reference: 'cli-1', mobile_money: { phone: '0551234987', provider: 'mtn' } }),
      });
      assert.equal(((await charged.json()) as { data: { status: string } }).data.status, 'send_otp');
      const unauthorised = await fetch(`${url}/transaction/verify/cli-1`, { headers: { authorization: 'Bearer sk_live_wrong' } });
      assert.equal(unauthorised.status, 401);
    } finally {
      simulator.kill();
    }
  });

  test('Idempotency-Key: a retried charge is answered from the first, one charge at Paystack', async () => {
    const number = phone();
    const charges = sim.stats().charges;
    const send = () =>
      t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 7, phone: number }, headers: { 'idempotency-key': `momo-${number}` } });
    const first = await send();
    const second = await send();
    assert.equal(first.status, 201);
    assert.equal(second.status, 201);
    assert.equal(second.headers['idempotent-replayed'], 'true');
    assert.equal(second.body.data._id, first.body.data._id);
    assert.equal(sim.stats().charges, charges + 1);
  });
});

describe('Mobile Money top-ups without Paystack keys', () => {
  let t: TestApp;
  let skew = 0;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '1000', MOMO_POLL_MS: '1000' }, clock: () => Date.now() + skew });
  });
  after(() => t.close());

  test('live keys: 503 TOPUP_METHOD_UNAVAILABLE; test keys: the built-in sandbox (pay_offline, then success; 0000 fails)', async () => {
    const live = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 10, phone: '0551110001' } });
    assert.equal(live.status, 503, JSON.stringify(live.body));
    assert.equal(live.body.error.code, 'TOPUP_METHOD_UNAVAILABLE');
    const before = await t.wallet('usr_super', 'test');
    const ok = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superTest, body: { amount: 10, phone: '0551110001' } });
    const fails = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superTest, body: { amount: 10, phone: '0551110000' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(ok.body.data.payment.status, 'pay_offline');
    assert.equal(fails.status, 201);
    skew += 1_000;
    assert.equal(await t.ctx.momo.checkDue(), 2);
    const paid = await t.call('GET', `/api/v1/top-ups/${ok.body.data._id}`, { key: KEYS.superTest });
    const failed = await t.call('GET', `/api/v1/top-ups/${fails.body.data._id}`, { key: KEYS.superTest });
    assert.equal(paid.body.data.status, 'approved');
    assert.equal(failed.body.data.status, 'rejected');
    assert.match(failed.body.data.rejectionReason, /0000/);
    assert.equal((await t.wallet('usr_super', 'test')).available, before.available + 1_000);
    const callback = await t.app.inject({ method: 'POST', url: '/callbacks/paystack', headers: { 'content-type': 'application/json' }, payload: '{}' });
    assert.equal(callback.statusCode, 404, 'no webhook route without a Paystack key');
  });
});
