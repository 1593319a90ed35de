import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Tx } from '../../src/db/unit-of-work.js';
import type { Owner } from '../../src/domain/caller.js';
import { useTestApp, type CallResult, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { createWorker } from '../../src/worker/index.js';
import { ledgerProblems } from '../support/ledger.js';
import { newWorker } from '../support/orders.js';
import { waitFor } from '../support/wait.js';
import { staffActor } from '../support/actor.js';

/** Idempotency-Key on every POST (docs/errors.md, "Retrying safely"), through HTTP, on the engine of this run. */

const BUY_SINGLE = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244910011' };

async function post(t: TestApp, url: string, key: string, body: unknown, idempotencyKey?: string): Promise<CallResult & { raw: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { 'x-api-key': key, 'content-type': 'application/json', ...(idempotencyKey === undefined ? {} : { 'idempotency-key': idempotencyKey }) },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers, raw: res.body };
}

async function counts(t: TestApp) {
  const count = async (table: 'orders' | 'ledger_entries' | 'top_ups' | 'rc_transactions') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  return { orders: await count('orders'), ledger: await count('ledger_entries'), topUps: await count('top_ups'), sales: await count('rc_transactions') };
}

/** Sends the same request twice with one key: the second gets the first's status and bytes, replayed. */
async function sentTwice(t: TestApp, url: string, key: string, body: unknown, idempotencyKey: string) {
  const first = await post(t, url, key, body, idempotencyKey);
  const afterFirst = await counts(t);
  const walletAfterFirst = await t.database.db.selectFrom('wallets').select(['id', 'available', 'held']).orderBy('id').execute();
  const second = await post(t, url, key, body, idempotencyKey);
  assert.equal(second.status, first.status, second.raw);
  assert.equal(second.raw, first.raw, 'the replay is byte for byte the first answer');
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.equal(first.headers['idempotent-replayed'], undefined);
  assert.deepEqual(await counts(t), afterFirst, 'nothing ran again');
  assert.deepEqual(await t.database.db.selectFrom('wallets').select(['id', 'available', 'held']).orderBy('id').execute(), walletAfterFirst);
  return first;
}

describe('Idempotency-Key', () => {
  test('every POST sent twice with one key runs once and answers the same bytes twice, the second replayed', async (c) => {
    const t = await useTestApp(c, { env: { SANDBOX_SETTLE_MS: '0' } });
    const single = await sentTwice(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'single-1');
    assert.equal(single.status, 200);
    const bulk = await sentTwice(
      t,
      '/api/v1/data-bundles/buy-bulk',
      KEYS.superLive,
      { operatorId: 'op_a', productId: 'prd_a', items: ['0244910021', '0244910000'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })) },
      'bulk-1',
    );
    assert.equal(bulk.status, 200);
    // The recipient ending in 0000 fails in the sandbox: it can be retried, with a key.
    const worker = newWorker(t);
    await waitFor('a failed recipient', async () => {
      await worker.drain();
      return (await t.call('GET', `/api/v1/orders/${bulk.body.data.orderId}`, { key: KEYS.superLive })).body.data.bulkFailedCount === 1;
    });
    const retry = await sentTwice(t, '/api/v1/data-bundles/retry-recipient', KEYS.superLive, { orderId: bulk.body.data.orderId, beneficiaryMsisdn: '0244910000' }, 'retry-1');
    assert.equal(retry.status, 200);
    const checker = await sentTwice(t, '/api/v1/result-checker/buy-single', KEYS.superLive, { packageId: 'rcp_wassce', recipientPhone: '0244910031' }, 'rc-1');
    assert.equal(checker.status, 200);
    assert.equal(typeof checker.body.data.credential.password, 'string');
    const checkers = await sentTwice(
      t,
      '/api/v1/result-checker/buy-bulk',
      KEYS.superLive,
      { items: [{ packageId: 'rcp_wassce', recipientPhone: '0244910041' }, { packageId: 'rcp_bece', recipientPhone: '0244910042' }] },
      'rc-bulk-1',
    );
    assert.equal(checkers.status, 200);
    assert.equal(checkers.body.data.failures.length, 1);
    const topUp = await sentTwice(t, '/api/v1/top-ups/request', KEYS.superLive, { amount: 50, method: 'momo', reference: 'IDEM-1' }, 'topup-1');
    assert.equal(topUp.status, 201);
    // Test mode approves a top-up at once: credited once.
    const before = await t.wallet('usr_super', 'test');
    await sentTwice(t, '/api/v1/top-ups/request', KEYS.superTest, { amount: 25, method: 'bank', reference: 'IDEM-2' }, 'topup-2');
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: before.available + 2500, held: before.held });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a stored refusal replays as itself; a malformed request is not stored, so the key can be used once the body is right', async (c) => {
    const t = await useTestApp(c);
    // usr_customer has GHS 30 and pays GHS 20.50 for the 2 GB package: the second is a 402.
    const pkg = { ...BUY_SINGLE, packageId: 'pkg_a_2gb' };
    assert.equal((await post(t, '/api/v1/data-bundles/buy-single', KEYS.customerLive, { ...pkg, beneficiaryMsisdn: '0244910101' })).status, 200);
    const poor = await sentTwice(t, '/api/v1/data-bundles/buy-single', KEYS.customerLive, { ...pkg, beneficiaryMsisdn: '0244910102' }, 'poor-1');
    assert.equal(poor.status, 402);
    // Still the stored 402 after money arrived: the key's outcome was decided.
    await t.ctx.topUps.approve(staffActor('staff'), (await post(t, '/api/v1/top-ups/request', KEYS.customerLive, { amount: 100, method: 'bank', reference: 'R-1' })).body.data._id);
    const again = await post(t, '/api/v1/data-bundles/buy-single', KEYS.customerLive, { ...pkg, beneficiaryMsisdn: '0244910102' }, 'poor-1');
    assert.equal(again.status, 402);
    assert.equal(again.raw, poor.raw);

    const malformed = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, { ...BUY_SINGLE, beneficiaryMsisdn: 12 }, 'fix-me');
    assert.equal(malformed.status, 400);
    const fixed = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, { ...BUY_SINGLE, beneficiaryMsisdn: '0244910103' }, 'fix-me');
    assert.equal(fixed.status, 200, fixed.raw);
    assert.equal(fixed.headers['idempotent-replayed'], undefined);
    // A role refusal is the endpoint's decision: kept.
    const role = await sentTwice(t, '/api/v1/data-bundles/buy-bulk', KEYS.customerLive, { operatorId: 'op_a', productId: 'prd_a', items: [] }, 'role-1');
    assert.equal(role.status, 403);
  });

  test('20 requests at once with one key: one runs, the others are told it is in use or get its answer; charged once', async (c) => {
    const t = await useTestApp(c);
    const before = await t.wallet('usr_super', 'live');
    const results = await Promise.all(Array.from({ length: 20 }, () => post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'race-1')));
    const ran = results.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
    assert.equal(ran.length, 1, results.map((r) => `${r.status} ${String(r.headers['idempotent-replayed'])}`).join(', '));
    for (const r of results) {
      if (r.status === 409) {
        assert.equal(r.body.error.code, 'IDEMPOTENCY_KEY_IN_USE');
        assert.equal(r.headers['retry-after'], '1');
      } else {
        assert.equal(r.status, 200, r.raw);
        assert.equal(r.raw, ran[0]?.raw);
      }
    }
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available - 850, held: before.held + 850 });
  });

  test('the same key with another body is 422, nothing runs; keys are per profile and mode', async (c) => {
    const t = await useTestApp(c);
    assert.equal((await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'k-1')).status, 200);
    const before = await counts(t);
    const reused = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, { ...BUY_SINGLE, beneficiaryMsisdn: '0244910201' }, 'k-1');
    assert.equal(reused.status, 422);
    assert.equal(reused.body.error.code, 'IDEMPOTENCY_KEY_REUSED');
    const otherPath = await post(t, '/api/v1/top-ups/request', KEYS.superLive, { amount: 5, method: 'bank', reference: 'X-1' }, 'k-1');
    assert.equal(otherPath.status, 422);
    assert.deepEqual(await counts(t), before);
    // Key order and spacing are not the body: the same request.
    const reordered = await t.app.inject({
      method: 'POST',
      url: '/api/v1/data-bundles/buy-single',
      headers: { 'x-api-key': KEYS.superLive, 'content-type': 'application/json', 'idempotency-key': 'k-1' },
      payload: `{ "beneficiaryMsisdn" : "0244910011", "packageId":"pkg_a_1gb","productId":"prd_a",   "operatorId":"op_a" }`,
    });
    assert.equal(reordered.statusCode, 200);
    assert.equal(reordered.headers['idempotent-replayed'], 'true');

    // The same key in the other mode, and for another profile, is another key.
    const testMode = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superTest, BUY_SINGLE, 'k-1');
    assert.equal(testMode.status, 200);
    assert.equal(testMode.headers['idempotent-replayed'], undefined);
    const other = await post(t, '/api/v1/data-bundles/buy-single', KEYS.agentLive, { ...BUY_SINGLE, beneficiaryMsisdn: '0244910202' }, 'k-1');
    assert.equal(other.status, 200);
    assert.equal(other.headers['idempotent-replayed'], undefined);
  });

  test('a malformed key is 400 IDEMPOTENCY_KEY_INVALID and nothing runs', async (c) => {
    const t = await useTestApp(c);
    const before = await counts(t);
    for (const key of ['', 'x'.repeat(256), 'cañón', 'tab\there']) {
      const res = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, key);
      assert.equal(res.status, 400, JSON.stringify(key));
      assert.equal(res.body.error.code, 'IDEMPOTENCY_KEY_INVALID');
    }
    assert.equal((await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'x'.repeat(255))).status, 200);
    assert.equal((await counts(t)).orders, before.orders + 1);
  });

  test('the purchase and its stored answer commit together: a unit that fails between them leaves neither, and the key runs again', async (c) => {
    const t = await useTestApp(c);
    const keys = t.ctx.repositories.idempotency;
    const succeeded = keys.succeeded.bind(keys);
    // The answer's write fails after the purchase's writes were queued in the same unit.
    keys.succeeded = (tx: Tx) => tx.write({ sql: 'insert into no_such_table (x) values (1)', parameters: [] });
    const before = { counts: await counts(t), wallet: await t.wallet('usr_super', 'live') };
    const failed = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'crash-1');
    assert.equal(failed.status, 500);
    assert.deepEqual(await counts(t), before.counts, 'no order, no ledger entry');
    assert.deepEqual(await t.wallet('usr_super', 'live'), before.wallet);
    keys.succeeded = succeeded;
    const retried = await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'crash-1');
    assert.equal(retried.status, 200, retried.raw);
    assert.equal((await counts(t)).orders, before.counts.orders + 1);
  });

  test('keys older than IDEMPOTENCY_TTL_HOURS are purged by the worker', async (c) => {
    let now = Date.now();
    const t = await useTestApp(c, { clock: () => now, env: { IDEMPOTENCY_TTL_HOURS: '24' } });
    assert.equal((await post(t, '/api/v1/data-bundles/buy-single', KEYS.superLive, BUY_SINGLE, 'old-1')).status, 200);
    const owner: Owner = { profileId: 'usr_super', mode: 'live' };
    assert.ok(await t.ctx.repositories.idempotency.find(owner, 'old-1'));
    now += 23 * 3_600_000;
    await createWorker(t.ctx).maintain();
    assert.ok(await t.ctx.repositories.idempotency.find(owner, 'old-1'), 'kept for the whole TTL');
    now += 2 * 3_600_000;
    await createWorker(t.ctx).maintain();
    assert.equal(await t.ctx.repositories.idempotency.find(owner, 'old-1'), undefined);
  });
});
