import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Mode } from '../../src/domain/types.js';
import { postings, type Posting } from '../../src/modules/wallet/postings.js';
import { createTestApp, type TestApp, useTestApp } from '../support/app.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { KEYS } from '../support/keys.js';

/** Each named posting, booked through the wallet repository on a real database: its effect on the balances and its ledger entry. */
describe('postings: what each one does to a wallet', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const walletOf = async (profileId: string, mode: Mode) =>
    (
      await t.database.db
        .selectFrom('wallets')
        .select('id')
        .where('profile_id', '=', profileId)
        .where('mode', '=', mode)
        .executeTakeFirstOrThrow()
    ).id;

  /** Books `posting` on the wallet of `owner`; the change to its balances and the entry written. */
  async function book(owner: [string, Mode], posting: Posting) {
    const before = await t.wallet(...owner);
    const returned = await t.database.unit((tx) => t.ctx.repositories.wallets.post(tx, posting, Date.now()));
    const after = await t.wallet(...owner);
    assert.deepEqual(returned, after, 'post() returns the balances after it');
    const entry = await t.database.db
      .selectFrom('ledger_entries')
      .select([
        'kind',
        'available_delta',
        'held_delta',
        'available_after',
        'held_after',
        'order_id',
        'order_item_id',
        'rc_transaction_id',
        'top_up_id',
        'idempotency_key',
        'memo',
      ])
      .where('idempotency_key', '=', posting.idempotencyKey)
      .executeTakeFirstOrThrow();
    assert.equal(Number(entry.available_after), after.available);
    assert.equal(Number(entry.held_after), after.held);
    const { available_after: _a, held_after: _h, ...rest } = entry;
    return {
      change: { available: after.available - before.available, held: after.held - before.held },
      entry: { ...rest, available_delta: Number(rest.available_delta), held_delta: Number(rest.held_delta) },
    };
  }

  const none = { order_id: null, order_item_id: null, rc_transaction_id: null, top_up_id: null };
  const SUPER: [string, Mode] = ['usr_super', 'live'];

  test('hold: available → held; settle: held is spent; release: held → available (per item and attempt)', async () => {
    const walletId = await walletOf(...SUPER);
    const delivery = { walletId, orderType: 'data', orderId: 'ord_p1', itemId: 'itm_p1', amount: 1250 } as const;
    const refs = { ...none, order_id: 'ord_p1', order_item_id: 'itm_p1' };

    assert.deepEqual(await book(SUPER, postings.hold({ ...delivery, attempt: 1 })), {
      change: { available: -1250, held: 1250 },
      entry: {
        ...refs,
        kind: 'data_hold',
        available_delta: -1250,
        held_delta: 1250,
        idempotency_key: 'hold:itm_p1:1',
        memo: 'Data bundle purchase: held until delivery',
      },
    });
    assert.deepEqual(await book(SUPER, postings.release({ ...delivery, attempt: 1 })), {
      change: { available: 1250, held: -1250 },
      entry: {
        ...refs,
        kind: 'data_release',
        available_delta: 1250,
        held_delta: -1250,
        idempotency_key: 'release:itm_p1:1',
        memo: 'Data bundle not delivered: hold returned',
      },
    });
    await book(SUPER, postings.hold({ ...delivery, attempt: 2 }));
    assert.deepEqual(await book(SUPER, postings.settle({ ...delivery, attempt: 2, imported: true })), {
      change: { available: 0, held: -1250 },
      entry: {
        ...refs,
        kind: 'data_settle',
        available_delta: 0,
        held_delta: -1250,
        idempotency_key: 'settle:itm_p1:2',
        memo: 'Data bundle delivered (imported history)',
      },
    });
  });

  test('reversal: what was spent comes back to available, once per order, with the reason', async () => {
    const walletId = await walletOf(...SUPER);
    const reversal = postings.reversal({ walletId, orderType: 'data', orderId: 'ord_p1', amount: 1250, reason: '  wrong bundle ' });
    assert.deepEqual(await book(SUPER, reversal), {
      change: { available: 1250, held: 0 },
      entry: {
        ...none,
        order_id: 'ord_p1',
        kind: 'data_reversal',
        available_delta: 1250,
        held_delta: 0,
        idempotency_key: 'reversal:ord_p1',
        memo: 'Reversed by staff: wrong bundle',
      },
    });
    // The key makes a second booking of the same reversal fail its unit, leaving the balance alone.
    const before = await t.wallet(...SUPER);
    await assert.rejects(t.database.unit((tx) => t.ctx.repositories.wallets.post(tx, reversal, Date.now())));
    assert.deepEqual(await t.wallet(...SUPER), before);
  });

  test('result checker: a debit takes available, a bulk debit takes the total, a refund gives it back', async () => {
    const walletId = await walletOf(...SUPER);
    const rc = { ...none, order_id: 'rc_p1', rc_transaction_id: 'rc_p1' };
    assert.deepEqual(await book(SUPER, postings.rcDebit({ walletId, transactionId: 'rc_p1', amount: 1800, packageName: 'WASSCE Checker' })), {
      change: { available: -1800, held: 0 },
      entry: { ...rc, kind: 'rc_debit', available_delta: -1800, held_delta: 0, idempotency_key: 'rc_debit:rc_p1', memo: 'Result checker WASSCE Checker' },
    });
    assert.deepEqual(await book(SUPER, postings.rcRefund({ walletId, transactionId: 'rc_p1', amount: 1800 })), {
      change: { available: 1800, held: 0 },
      entry: { ...rc, kind: 'rc_refund', available_delta: 1800, held_delta: 0, idempotency_key: 'rc_refund:rc_p1', memo: 'Result checker out of stock: refund' },
    });
    assert.deepEqual(await book(SUPER, postings.rcBulkDebit({ walletId, bulkId: 'bulk_p1', amount: 3600, items: 2 })), {
      change: { available: -3600, held: 0 },
      entry: {
        ...none,
        kind: 'rc_debit',
        available_delta: -3600,
        held_delta: 0,
        idempotency_key: 'rc_bulk_debit:bulk_p1',
        memo: 'Result checker bulk purchase bulk_p1 (2 items)',
      },
    });
  });

  test('top-up credit and opening balance credit available', async () => {
    const walletId = await walletOf(...SUPER);
    assert.deepEqual(await book(SUPER, postings.topUpCredit({ walletId, topUpId: 'tu_p1', amount: 5000, method: 'momo', reference: 'MP123' })), {
      change: { available: 5000, held: 0 },
      entry: { ...none, top_up_id: 'tu_p1', kind: 'top_up', available_delta: 5000, held_delta: 0, idempotency_key: 'topup:tu_p1', memo: 'Top-up momo MP123' },
    });
    // usr_staff's test wallet was created at 0, so it has no opening entry yet.
    const staffTest: [string, Mode] = ['usr_staff', 'test'];
    const staffWallet = await walletOf(...staffTest);
    assert.deepEqual(await book(staffTest, postings.openingBalance({ walletId: staffWallet, amount: 2500 })), {
      change: { available: 2500, held: 0 },
      entry: {
        ...none,
        kind: 'opening_balance',
        available_delta: 2500,
        held_delta: 0,
        idempotency_key: `opening:${staffWallet}`,
        memo: 'Opening balance from seed import',
      },
    });
  });

  test('staff adjustment: a credit or a debit of available with its reason; a debit never takes available below zero', async () => {
    const walletId = await walletOf(...SUPER);
    assert.deepEqual(await book(SUPER, postings.adjustmentCredit({ walletId, adjustmentId: 'adj_p1', amount: 700, reason: 'goodwill' })), {
      change: { available: 700, held: 0 },
      entry: { ...none, kind: 'adjustment', available_delta: 700, held_delta: 0, idempotency_key: 'adjustment:adj_p1', memo: 'Staff adjustment: goodwill' },
    });
    assert.deepEqual(await book(SUPER, postings.adjustmentDebit({ walletId, adjustmentId: 'adj_p2', amount: 300, reason: 'duplicate top-up' })), {
      change: { available: -300, held: 0 },
      entry: {
        ...none,
        kind: 'adjustment',
        available_delta: -300,
        held_delta: 0,
        idempotency_key: 'adjustment:adj_p2',
        memo: 'Staff adjustment: duplicate top-up',
      },
    });
    const before = await t.wallet(...SUPER);
    const tooMuch = postings.adjustmentDebit({ walletId, adjustmentId: 'adj_p3', amount: before.available + 1, reason: 'too much' });
    assert.equal(await t.database.unit((tx) => t.ctx.repositories.wallets.post(tx, tooMuch, Date.now())), null);
    assert.deepEqual(await t.wallet(...SUPER), before);
    const written = await t.database.db.selectFrom('ledger_entries').select('id').where('idempotency_key', '=', 'adjustment:adj_p3').execute();
    assert.equal(written.length, 0);
  });
});

describe('postings: the sign comes from the kind, the amount must be whole pesewas', () => {
  const walletId = 'wal_x';
  const delivery = { walletId, orderType: 'data', orderId: 'ord_x', itemId: 'itm_x', attempt: 1 } as const;

  test('a negative, fractional or non-finite amount is a programming error in every constructor', () => {
    const all: ((amount: number) => Posting)[] = [
      (amount) => postings.hold({ ...delivery, amount }),
      (amount) => postings.settle({ ...delivery, amount }),
      (amount) => postings.release({ ...delivery, amount }),
      (amount) => postings.reversal({ walletId, orderType: 'data', orderId: 'ord_x', amount, reason: 'r' }),
      (amount) => postings.rcDebit({ walletId, transactionId: 'rc_x', amount, packageName: 'P' }),
      (amount) => postings.rcBulkDebit({ walletId, bulkId: 'b_x', amount, items: 1 }),
      (amount) => postings.rcRefund({ walletId, transactionId: 'rc_x', amount }),
      (amount) => postings.topUpCredit({ walletId, topUpId: 'tu_x', amount, method: 'momo', reference: 'R' }),
      (amount) => postings.openingBalance({ walletId, amount }),
      (amount) => postings.adjustmentCredit({ walletId, adjustmentId: 'a', amount, reason: 'r' }),
      (amount) => postings.adjustmentDebit({ walletId, adjustmentId: 'a', amount, reason: 'r' }),
    ];
    for (const [i, make] of all.entries()) {
      for (const bad of [-100, 12.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
        assert.throws(() => make(bad), /amount must be whole pesewas/, `constructor ${i} with ${bad}`);
      }
      assert.ok(make(100).availableDelta !== 0 || make(100).heldDelta !== 0, `constructor ${i} moves money`);
    }
  });

  test('zero: a price may be 0 (a free package), a credit or an adjustment may not', () => {
    assert.ok(postings.hold({ ...delivery, amount: 0 }).heldDelta === 0);
    assert.ok(postings.rcDebit({ walletId, transactionId: 'rc_x', amount: 0, packageName: 'P' }).availableDelta === 0);
    assert.throws(() => postings.topUpCredit({ walletId, topUpId: 'tu_x', amount: 0, method: 'momo', reference: 'R' }), /above 0/);
    assert.throws(() => postings.openingBalance({ walletId, amount: 0 }), /above 0/);
    assert.throws(() => postings.adjustmentCredit({ walletId, adjustmentId: 'a', amount: 0, reason: 'r' }), /above 0/);
    assert.throws(() => postings.adjustmentDebit({ walletId, adjustmentId: 'a', amount: 0, reason: 'r' }), /above 0/);
  });

  test('a reversal and an adjustment need a reason, an adjustment its id', () => {
    assert.throws(() => postings.reversal({ walletId, orderType: 'data', orderId: 'o', amount: 1, reason: '  ' }), /reason is required/);
    assert.throws(() => postings.adjustmentCredit({ walletId, adjustmentId: 'a', amount: 1, reason: '' }), /reason is required/);
    assert.throws(() => postings.adjustmentDebit({ walletId, adjustmentId: ' ', amount: 1, reason: 'r' }), /adjustment id is required/);
  });
});

test('a free package (price 0, which the seed allows) is still bought with its hold entry, and the ledger verifies', async (c) => {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as { dataPackages: { id: string; price: number }[] };
  const free = seed.dataPackages.find((p) => p.id === 'pkg_a_2gb');
  assert.ok(free);
  free.price = 0;
  const t = await useTestApp(c, { seed });
  const before = await t.wallet('usr_super', 'live');
  const bought = await t.call('POST', '/api/v1/data-bundles/buy-single', {
    key: KEYS.superLive,
    body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_2gb', beneficiaryMsisdn: '0244000777' },
  });
  assert.equal(bought.status, 200, JSON.stringify(bought.body));
  assert.deepEqual(await t.wallet('usr_super', 'live'), before);
  const holds = await t.database.db
    .selectFrom('ledger_entries')
    .select(['available_delta', 'held_delta'])
    .where('kind', '=', 'data_hold')
    .where('order_id', '=', bought.body.data.orderId)
    .execute();
  assert.deepEqual(holds.map((h) => [Number(h.available_delta), Number(h.held_delta)]), [[0, 0]]);
  assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
});
