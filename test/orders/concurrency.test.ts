import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS, liveKeyOf } from '../support/keys.js';
import { buySingle, newWorker } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { waitFor } from '../support/wait.js';

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('purchases under concurrency', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({
      env: { SANDBOX_SETTLE_MS: '10' },
      // Agents price pkg_a_1gb at GHS 9: GHS 90 affords exactly ten.
      seed: fixtureWith({ profiles: [agentProfile('usr_par', { live: 90 }), agentProfile('usr_par_bulk', { role: 'SuperAgent', live: 1000 })] }),
    });
  });
  after(() => t.close());

  test('50 parallel purchases against a wallet that affords 10: exactly 10 accepted, the ledger verifies', async () => {
    const key = liveKeyOf('usr_par');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => buySingle(t, key, `02446001${String(i).padStart(2, '0')}`)),
    );
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 10, 402: 40 });
    for (const r of results.filter((x) => x.status === 402)) assert.equal(r.body.error.code, 'BUY_DATA_FAILED');
    assert.deepEqual(await t.wallet('usr_par', 'live'), { available: 0, held: 9000 });
    // Each accepted purchase saw its own before/after: together they walk the balance down once.
    const afters = results.filter((r) => r.status === 200).map((r) => Math.round(r.body.data.walletBalanceAfter * 100)).sort((a, b) => a - b);
    assert.deepEqual(afters, [0, 900, 1800, 2700, 3600, 4500, 5400, 6300, 7200, 8100]);
    const orders = await t.database.db.selectFrom('orders').select('id').where('profile_id', '=', 'usr_par').execute();
    assert.equal(orders.length, 10);
    // A refused purchase leaves nothing behind: no item, no outbox row, no hold.
    const ids = orders.map((o) => o.id);
    const items = await t.database.db.selectFrom('order_items').select('id').where('order_id', 'in', ids).execute();
    assert.equal(items.length, 10);
    const outbox = await t.database.db.selectFrom('outbox').select('id').where('order_item_id', 'in', items.map((i) => i.id)).execute();
    assert.equal(outbox.length, 10);
    const holds = await t.database.db.selectFrom('ledger_entries as l').innerJoin('wallets as w', 'w.id', 'l.wallet_id')
      .select('l.id').where('w.profile_id', '=', 'usr_par').where('l.kind', '=', 'data_hold').execute();
    assert.equal(holds.length, 10);
    assert.deepEqual(await ledgerProblems(t), []);

    const worker = newWorker(t);
    await waitFor('all ten to settle', async () => {
      await worker.drain();
      const w = await t.wallet('usr_par', 'live');
      return w.held === 0 ? w : undefined;
    });
    assert.deepEqual(await t.wallet('usr_par', 'live'), { available: 0, held: 0 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('parallel purchases for one number from different callers: exactly one is accepted', async () => {
    // Callers who could each afford several: only the in-flight rule can refuse them.
    const keys = [KEYS.superLive, KEYS.agentLive, KEYS.customerLive];
    const before = await Promise.all(['usr_super', 'usr_agent', 'usr_customer'].map((p) => t.wallet(p, 'live')));
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => buySingle(t, keys[i % keys.length]!, '0244610051')));
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 1, 409: 19 });
    const after = await Promise.all(['usr_super', 'usr_agent', 'usr_customer'].map((p) => t.wallet(p, 'live')));
    const charged = before.reduce((sum, b, i) => sum + (b.available - after[i]!.available), 0);
    assert.ok([850, 900, 1000].includes(charged), `charged once, got ${charged}`);
    assert.deepEqual(await ledgerProblems(t), []);
    // The refusals came from the in-flight index, at the item, after the hold, its ledger entry
    // and the order were written in the same unit: all of them rolled back with it.
    const accepted = results.find((r) => r.status === 200)!.body.data.orderId as string;
    const { beneficiary_msisdn: msisdn } = await t.database.db
      .selectFrom('orders')
      .select('beneficiary_msisdn')
      .where('id', '=', accepted)
      .executeTakeFirstOrThrow();
    const orders = await t.database.db.selectFrom('orders').select('id').where('beneficiary_msisdn', '=', msisdn).execute();
    assert.deepEqual(orders.map((o) => o.id), [accepted]);
    const ids = [accepted];
    const items = await t.database.db.selectFrom('order_items').select('id').where('order_id', 'in', ids).execute();
    assert.equal(items.length, 1);
    const outbox = await t.database.db.selectFrom('outbox').select('id').where('order_item_id', 'in', items.map((i) => i.id)).execute();
    assert.equal(outbox.length, 1);
    const entries = await t.database.db.selectFrom('ledger_entries').select('kind').where('order_id', 'in', ids).execute();
    assert.deepEqual(entries.map((e) => e.kind), ['data_hold']);
  });

  test('parallel purchases with one paymentReference: exactly one is accepted', async () => {
    const before = await t.wallet('usr_super', 'live');
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => buySingle(t, KEYS.superLive, `02446250${String(i).padStart(2, '0')}`, { paymentReference: 'PAR-REF-1' })),
    );
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 1, 409: 14 });
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available - 850, held: before.held + 850 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('parallel bulk orders sharing numbers (in any order): one wins, no number is ever open twice', async () => {
    const key = liveKeyOf('usr_par_bulk');
    const shared = ['0244630051', '0244630052'];
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.call('POST', '/api/v1/data-bundles/buy-bulk', {
          key,
          body: {
            operatorId: 'op_a',
            productId: 'prd_a',
            // Half list the shared numbers the other way round: no deadlock, no 500.
            items: [...(i % 2 ? [...shared].reverse() : shared), `02446301${String(i).padStart(2, '0')}`].map((beneficiaryMsisdn) => ({
              packageId: 'pkg_a_1gb',
              beneficiaryMsisdn,
            })),
          },
        }),
      ),
    );
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 1, 409: 7 });
    assert.deepEqual(await t.wallet('usr_par_bulk', 'live'), { available: 100000 - 3 * 850, held: 3 * 850 });
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
