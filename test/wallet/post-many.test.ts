import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Posting } from '../../src/modules/wallet/repository.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

describe('postMany: a batch of postings equals post() one by one', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const walletOf = async (profileId: string) =>
    (await t.database.db.selectFrom('wallets').select('id').where('profile_id', '=', profileId).where('mode', '=', 'live').executeTakeFirstOrThrow()).id;
  const entriesOf = async (walletId: string) =>
    t.database.db
      .selectFrom('ledger_entries')
      .select(['kind', 'available_delta', 'held_delta', 'available_after', 'held_after', 'memo'])
      .where('wallet_id', '=', walletId)
      .where('kind', '!=', 'opening_balance')
      .orderBy('id')
      .execute();

  const steps: Omit<Posting, 'walletId'>[] = [
    { kind: 'data_hold', availableDelta: -900, heldDelta: 900, idempotencyKey: null, memo: 'a' },
    { kind: 'data_settle', availableDelta: 0, heldDelta: -900, idempotencyKey: null, memo: 'b' },
    { kind: 'data_hold', availableDelta: -2000, heldDelta: 2000, idempotencyKey: null, memo: 'c' },
    { kind: 'data_release', availableDelta: 2000, heldDelta: -2000, idempotencyKey: null, memo: 'd' },
  ];

  test('same ledger rows and balances (two wallets that start equal)', async () => {
    const one = await walletOf('usr_agent');
    const many = await walletOf('usr_staff');
    const wallets = t.ctx.repositories.wallets;
    await t.database.unit(async (tx) => {
      // Bring usr_staff (10 GHS) level with usr_agent (100 GHS), then give both the same steps.
      await wallets.post(tx, { walletId: many, kind: 'top_up', availableDelta: 9000, heldDelta: 0, idempotencyKey: null, memo: 'level' }, Date.now());
      for (const step of steps) assert.ok(await wallets.post(tx, { ...step, walletId: one }, Date.now()));
      await tx.flush();
      const result = await wallets.postMany(tx, many, steps, Date.now());
      assert.equal(result.ok, true);
    });
    const withoutTopUp = (await entriesOf(many)).filter((e) => e.kind !== 'top_up');
    assert.deepEqual(withoutTopUp, await entriesOf(one));
    assert.deepEqual(await t.wallet('usr_staff', 'live'), await t.wallet('usr_agent', 'live'));
  });

  test('a step the wallet cannot take writes nothing and names the step', async () => {
    const walletId = await walletOf('usr_customer'); // 30 GHS
    const beforeBalances = await t.wallet('usr_customer', 'live');
    const beforeEntries = await entriesOf(walletId);
    const result = await t.database.unit((tx) =>
      t.ctx.repositories.wallets.postMany(tx, walletId, [steps[0]!, steps[1]!, { kind: 'data_hold', availableDelta: -2500, heldDelta: 2500, idempotencyKey: null, memo: 'e' }], Date.now()),
    );
    assert.deepEqual(result, { ok: false, failedAt: 2, balance: { available: 2100, held: 0 } });
    assert.deepEqual(await t.wallet('usr_customer', 'live'), beforeBalances);
    assert.deepEqual(await entriesOf(walletId), beforeEntries);
  });
});
