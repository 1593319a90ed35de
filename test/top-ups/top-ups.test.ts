import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useTestApp, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';
import { DomainError } from '../../src/domain/errors.js';
import { ledgerEntries, ledgerProblems } from '../support/ledger.js';
import { staffActor } from '../support/actor.js';

const REQUEST = '/api/v1/top-ups/request';
const LIST = '/api/v1/top-ups';

function assertError(res: { status: number; body: { success: boolean; error: { code: string } } }, httpStatus: number, code = 'TOPUP_REQUEST_FAILED') {
  assert.equal(res.status, httpStatus, JSON.stringify(res.body));
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, code);
}

async function request(t: TestApp, key: string, body: Record<string, unknown>) {
  const res = await t.call('POST', REQUEST, { key, body: { amount: 100, method: 'momo', ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { _id: string; status: string; amount: number; createdAt: number };
}

const refused = (pattern: RegExp) => (error: unknown) => error instanceof DomainError && pattern.test(error.message);

describe('POST /api/v1/top-ups/request (docs/api.md, "Top-ups")', () => {
  test('a live request is 201 with the exact record, pending; the wallet is untouched', async (c) => {
    const t = await useTestApp(c);
    const res = await t.call('POST', REQUEST, {
      key: KEYS.agentLive,
      body: { amount: 250.5, method: 'bank', reference: '  MTN-TX-0001 ', note: 'March float' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.success, true);
    const data = res.body.data;
    assert.deepEqual(data, {
      _id: data._id,
      amount: 250.5,
      currency: 'GHS',
      method: 'bank',
      reference: 'MTN-TX-0001',
      note: 'March float',
      status: 'pending',
      createdAt: data.createdAt,
      decidedAt: null,
      rejectionReason: null,
      payment: null,
    });
    assert.ok(typeof data._id === 'string' && data._id.length > 0);
    assert.ok(Math.abs(Date.now() - data.createdAt) < 60_000);
    const noNote = await request(t, KEYS.agentLive, { reference: 'MTN-TX-0002', amount: 100000 });
    assert.equal((noNote as unknown as { note: unknown }).note, null);
    assert.equal(noNote.amount, 100000);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000, held: 0 });
    assert.deepEqual(await ledgerEntries(t, 'usr_agent', 'live'), []);
  });

  test('validation failures are 400 TOPUP_REQUEST_FAILED and write nothing', async (c) => {
    const t = await useTestApp(c);
    const bodies: unknown[] = [
      {},
      { method: 'momo', reference: 'R1' },
      { amount: 10, reference: 'R1' },
      { amount: 10, method: 'momo' },
      { amount: 0, method: 'momo', reference: 'R1' },
      { amount: -5, method: 'momo', reference: 'R1' },
      { amount: 100000.01, method: 'momo', reference: 'R1' },
      { amount: 12.345, method: 'momo', reference: 'R1' },
      { amount: 'lots', method: 'momo', reference: 'R1' },
      { amount: 10, method: 'card', reference: 'R1' },
      { amount: 10, method: 'momo', reference: '' },
      { amount: 10, method: 'momo', reference: '    ' },
      { amount: 10, method: 'momo', reference: 'x'.repeat(101) },
      { amount: 10, method: 'momo', reference: 'R1', note: 'n'.repeat(501) },
      { amount: 10, method: 'momo', reference: 'R1', extra: true },
    ];
    for (const body of bodies) assertError(await t.call('POST', REQUEST, { key: KEYS.superLive, body }), 400);
    assertError(await t.call('POST', REQUEST, { key: KEYS.superLive, body: '{"amount":', headers: { 'content-type': 'application/json' } }), 400, 'INVALID_JSON');
    assertError(await t.call('POST', REQUEST, { body: { amount: 10, method: 'momo', reference: 'R1' } }), 401, 'UNAUTHORIZED');
    assertError(await t.call('POST', REQUEST, { key: KEYS.suspendedLive, body: { amount: 10, method: 'momo', reference: 'R1' } }), 403, 'PROFILE_SUSPENDED');
    const rows = await t.database.db.selectFrom('top_ups').select('id').execute();
    assert.deepEqual(rows, []);
  });

  test('reference is unique per profile within a mode: a duplicate is 409, other profiles and the other mode may reuse it', async (c) => {
    const t = await useTestApp(c);
    await request(t, KEYS.superLive, { reference: 'SHARED-1' });
    for (const reference of ['SHARED-1', '  SHARED-1  ']) {
      const dup = await t.call('POST', REQUEST, { key: KEYS.superLive, body: { amount: 5, method: 'bank', reference } });
      assertError(dup, 409);
    }
    await request(t, KEYS.agentLive, { reference: 'SHARED-1' });
    await request(t, KEYS.superTest, { reference: 'SHARED-1' });
    // Another profile's duplicate does not leak through the message either.
    const again = await t.call('POST', REQUEST, { key: KEYS.agentLive, body: { amount: 5, method: 'bank', reference: 'SHARED-1' } });
    assertError(again, 409);
    assert.ok(!JSON.stringify(again.body).includes('usr_super'));
    const count = await t.database.db.selectFrom('top_ups').select('id').execute();
    assert.equal(count.length, 3);
  });

  test('test mode: approved at once, test wallet credited through the ledger, live untouched', async (c) => {
    const t = await useTestApp(c);
    const res = await t.call('POST', REQUEST, { key: KEYS.customerTest, body: { amount: 75.25, method: 'momo', reference: 'SBX-1' } });
    assert.equal(res.status, 201);
    assert.equal(res.body.data.status, 'approved');
    assert.ok(res.body.data.decidedAt >= res.body.data.createdAt);
    assert.equal(res.body.data.rejectionReason, null);
    assert.deepEqual(await t.wallet('usr_customer', 'test'), { available: 3000 + 7525, held: 0 });
    assert.deepEqual(await t.wallet('usr_customer', 'live'), { available: 3000, held: 0 });
    assert.deepEqual(await ledgerEntries(t, 'usr_customer', 'test'), [
      {
        kind: 'top_up',
        available_delta: 7525,
        held_delta: 0,
        order_id: null,
        rc_transaction_id: null,
        top_up_id: res.body.data._id,
        idempotency_key: `topup:${res.body.data._id}`,
      },
    ]);
    // The profile and wallet reads of the test key show it; the live key does not see the request.
    const balance = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.customerTest });
    assert.equal(balance.body.data.availableBalance, 105.25);
    const live = await t.call('GET', LIST, { key: KEYS.customerLive });
    assert.deepEqual(live.body.data.topUps, []);
    // A test-mode decision cannot be repeated by staff either.
    await assert.rejects(t.ctx.topUps.approve(staffActor('test'), res.body.data._id), refused(/already approved/));
    assert.deepEqual(await t.wallet('usr_customer', 'test'), { available: 10525, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });
});

describe('GET /api/v1/top-ups', () => {
  test('own requests of the key’s mode only, newest first, status filter', async (c) => {
    const t = await useTestApp(c);
    const a = await request(t, KEYS.superLive, { reference: 'A' });
    const b = await request(t, KEYS.superLive, { reference: 'B' });
    const cc = await request(t, KEYS.superLive, { reference: 'C' });
    await request(t, KEYS.agentLive, { reference: 'OTHER' });
    await request(t, KEYS.superTest, { reference: 'TEST' });
    await t.ctx.topUps.reject(staffActor('staff'), b._id, 'No matching payment');

    const all = await t.call('GET', LIST, { key: KEYS.superLive });
    assert.equal(all.status, 200);
    assert.deepEqual(Object.keys(all.body.data).sort(), ['continueCursor', 'isDone', 'topUps']);
    assert.deepEqual(all.body.data.topUps.map((x: { _id: string }) => x._id), [cc._id, b._id, a._id]);
    assert.equal(all.body.data.isDone, true);
    const rejected = all.body.data.topUps[1];
    assert.equal(rejected.status, 'rejected');
    assert.equal(rejected.rejectionReason, 'No matching payment');
    assert.ok(rejected.decidedAt !== null);

    const pending = await t.call('GET', `${LIST}?status=pending`, { key: KEYS.superLive });
    assert.deepEqual(pending.body.data.topUps.map((x: { _id: string }) => x._id), [cc._id, a._id]);
    const test = await t.call('GET', LIST, { key: KEYS.superTest });
    assert.deepEqual(test.body.data.topUps.map((x: { reference: string; status: string }) => [x.reference, x.status]), [['TEST', 'approved']]);
    const other = await t.call('GET', LIST, { key: KEYS.agentLive });
    assert.deepEqual(other.body.data.topUps.map((x: { reference: string }) => x.reference), ['OTHER']);
  });

  test('keyset pages visit every request exactly once while new ones arrive; bad parameters are 400', async (c) => {
    const t = await useTestApp(c);
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await request(t, KEYS.agentLive, { reference: `P${i}` }))._id);
    const seen: string[] = [];
    let cursor = '';
    for (let page = 0; page < 10; page++) {
      const res = await t.call('GET', `${LIST}?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key: KEYS.agentLive });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.data.topUps.length <= 3);
      seen.push(...res.body.data.topUps.map((x: { _id: string }) => x._id));
      assert.equal(typeof res.body.data.continueCursor, 'string');
      cursor = res.body.data.continueCursor;
      // Inserted after the first page: newer than everything already listed, so not in later pages.
      if (page === 0) await request(t, KEYS.agentLive, { reference: 'LATE' });
      if (res.body.data.isDone) break;
    }
    assert.deepEqual(seen, [...made].reverse());

    const capped = await t.call('GET', `${LIST}?limit=1000`, { key: KEYS.agentLive });
    assert.equal(capped.status, 200);
    assert.equal(capped.body.data.topUps.length, 8);
    for (const query of ['status=done', 'status=', 'limit=0', 'limit=-1', 'limit=2.5', 'limit=abc', 'cursor=not-a-cursor', 'cursor=%%%']) {
      assertError(await t.call('GET', `${LIST}?${query}`, { key: KEYS.agentLive }), 400);
    }
  });
});

describe('staff decisions (cli topups)', () => {
  test('approve credits once; a second decision is refused; reject records the reason and credits nothing', async (c) => {
    const t = await useTestApp(c);
    const one = await request(t, KEYS.superLive, { amount: 120, reference: 'ONE' });
    const two = await request(t, KEYS.superLive, { amount: 80, reference: 'TWO' });

    const approved = await t.ctx.topUps.approve(staffActor('kofi'), one._id);
    assert.equal(approved.status, 'approved');
    assert.equal(approved.decided_by, 'kofi');
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50000 + 12000, held: 0 });
    await assert.rejects(t.ctx.topUps.approve(staffActor('kofi'), one._id), refused(/already approved/));
    await assert.rejects(t.ctx.topUps.reject(staffActor('kofi'), one._id, 'late'), refused(/already approved/));
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 62000, held: 0 });

    await assert.rejects(t.ctx.topUps.reject(staffActor('kofi'), two._id, '   '), refused(/needs a reason/));
    const rejected = await t.ctx.topUps.reject(staffActor('kofi'), two._id, 'Payment not received');
    assert.equal(rejected.status, 'rejected');
    await assert.rejects(t.ctx.topUps.approve(staffActor('kofi'), two._id), refused(/already rejected/));
    await assert.rejects(t.ctx.topUps.approve(staffActor('kofi'), 'tup_missing'), refused(/no top-up tup_missing/));
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 62000, held: 0 });

    const list = await t.call('GET', LIST, { key: KEYS.superLive });
    assert.deepEqual(
      list.body.data.topUps.map((x: { reference: string; status: string; rejectionReason: string | null }) => [x.reference, x.status, x.rejectionReason]),
      [
        ['TWO', 'rejected', 'Payment not received'],
        ['ONE', 'approved', null],
      ],
    );
    assert.deepEqual(
      (await ledgerEntries(t, 'usr_super', 'live')).map((e) => [e.kind, e.available_delta, e.top_up_id]),
      [['top_up', 12000, one._id]],
    );
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('two approvals racing credit the wallet exactly once', async (c) => {
    const t = await useTestApp(c);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await request(t, KEYS.agentLive, { amount: 10, reference: `RACE${i}` }))._id);
    const outcomes = await Promise.allSettled(ids.flatMap((id) => [t.ctx.topUps.approve(staffActor('a'), id), t.ctx.topUps.approve(staffActor('b'), id), t.ctx.topUps.approve(staffActor('c'), id)]));
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 3);
    for (const o of outcomes) if (o.status === 'rejected') assert.ok(refused(/already approved/)(o.reason), String(o.reason));
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10000 + 3000, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the CLI lists, approves once, refuses the second approval with one line and a non-zero exit, rejects with a reason', async (c) => {
    const t = await useTestApp(c);
    const one = await request(t, KEYS.agentLive, { amount: 40, reference: 'CLI-ONE' });
    const two = await request(t, KEYS.agentLive, { amount: 15, reference: 'CLI-TWO' });
    await request(t, KEYS.agentTest, { amount: 5, reference: 'CLI-TEST' });
    const env = cliDatabaseEnv(t.testDb);

    const list = await runCli(['topups', 'list', '--status', 'pending', '--mode', 'live'], env);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.ok(lines[0]?.startsWith(`${two._id}  live  usr_agent  pending  GHS 15.00  momo  ref CLI-TWO`), lines[0]);
    assert.ok(lines[1]?.startsWith(`${one._id}  live  usr_agent  pending  GHS 40.00`), lines[1]);

    const approve = await runCli(['topups', 'approve', one._id], env);
    assert.equal(approve.code, 0, approve.stderr);
    assert.equal(approve.stdout.trim(), `approved ${one._id}: credited GHS 40.00 to usr_agent (live)`);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 14000, held: 0 });

    const twice = await runCli(['topups', 'approve', one._id], env);
    assert.equal(twice.code, 1);
    assert.equal(twice.stdout, '');
    assert.match(twice.stderr.trim(), new RegExp(`^refused: top-up ${one._id} was already approved at \\S+; a decision cannot be changed$`));
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 14000, held: 0 });

    const reject = await runCli(['topups', 'reject', two._id, '--reason', 'No such MoMo transaction'], env);
    assert.equal(reject.code, 0, reject.stderr);
    assert.equal(reject.stdout.trim(), `rejected ${two._id}: No such MoMo transaction`);
    const read = await t.call('GET', `${LIST}?status=rejected`, { key: KEYS.agentLive });
    assert.equal(read.body.data.topUps[0].rejectionReason, 'No such MoMo transaction');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 14000, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
