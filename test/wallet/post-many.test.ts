import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postings, type Posting } from '../../src/modules/wallet/postings.js';
import { createTestApp, type TestApp } from '../support/app.js';

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

  /** A hold of 9 GHS that is spent and one of 20 GHS that is returned (ids of their own per wallet: keys are unique). */
  const steps = (walletId: string): Posting[] => {
    const delivery = (n: number, amount: number) =>
      ({ walletId, orderType: 'data', orderId: `ord_${walletId}_${n}`, itemId: `itm_${walletId}_${n}`, attempt: 1, amount }) as const;
    return [
      postings.hold(delivery(1, 900)),
      postings.settle(delivery(1, 900)),
      postings.hold(delivery(2, 2000)),
      postings.release(delivery(2, 2000)),
    ];
  };

  test('same ledger rows and balances (two wallets that start equal)', async () => {
    const one = await walletOf('usr_agent');
    const many = await walletOf('usr_staff');
    const wallets = t.ctx.repositories.wallets;
    await t.database.unit(async (tx) => {
      // Bring usr_staff (10 GHS) level with usr_agent (100 GHS), then give both the same steps.
      await wallets.post(tx, postings.adjustmentCredit({ walletId: many, adjustmentId: 'level', amount: 9000, reason: 'level' }), Date.now());
      for (const step of steps(one)) assert.ok(await wallets.post(tx, step, Date.now()));
      await tx.flush();
      const result = await wallets.postMany(tx, many, steps(many), Date.now());
      assert.equal(result.ok, true);
    });
    const withoutLevel = (await entriesOf(many)).filter((e) => e.kind !== 'adjustment');
    assert.deepEqual(withoutLevel, await entriesOf(one));
    assert.deepEqual(await t.wallet('usr_staff', 'live'), await t.wallet('usr_agent', 'live'));
  });

  test('a step the wallet cannot take writes nothing and names the step', async () => {
    const walletId = await walletOf('usr_customer'); // 30 GHS
    const beforeBalances = await t.wallet('usr_customer', 'live');
    const beforeEntries = await entriesOf(walletId);
    const result = await t.database.unit((tx) =>
      t.ctx.repositories.wallets.postMany(
        tx,
        walletId,
        [
          ...steps(walletId).slice(0, 2),
          postings.hold({ walletId, orderType: 'data', orderId: 'ord_e', itemId: 'itm_e', attempt: 1, amount: 2500 }),
        ],
        Date.now(),
      ),
    );
    assert.deepEqual(result, { ok: false, failedAt: 2, balance: { available: 2100, held: 0 } });
    assert.deepEqual(await t.wallet('usr_customer', 'live'), beforeBalances);
    assert.deepEqual(await entriesOf(walletId), beforeEntries);
  });

  test('a posting for another wallet is refused before anything is written', async () => {
    const walletId = await walletOf('usr_customer');
    const other = await walletOf('usr_agent');
    const [before, beforeOther] = [await entriesOf(walletId), await entriesOf(other)];
    const hold = (wallet: string, n: string) =>
      postings.hold({ walletId: wallet, orderType: 'data', orderId: `ord_${n}`, itemId: `itm_${n}`, attempt: 1, amount: 100 });
    await assert.rejects(
      t.database.unit((tx) => t.ctx.repositories.wallets.postMany(tx, walletId, [hold(walletId, 'own'), hold(other, 'stray')], Date.now())),
      /given a posting for wallet/,
    );
    assert.deepEqual([await entriesOf(walletId), await entriesOf(other)], [before, beforeOther]);
  });
});
