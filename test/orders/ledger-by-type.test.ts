import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ItemStatus, OrderState, OrderType } from '../../src/db/schema.js';
import { orderLedgerChecks } from '../../src/modules/orders/ledger-checks.js';
import { itemRow, orderRow } from '../../src/modules/orders/rows.js';
import { ORDER_LEDGER, postings, type OrderLedgerTable } from '../../src/modules/wallet/postings.js';
import { type TestApp, useTestApp } from '../support/app.js';

/**
 * `ledger verify` keyed by order type: the order checks run for every type ORDER_LEDGER gives held
 * kinds, and an order of a type it does not know is reported, not skipped. Airtime stands for the
 * next product: a table with an airtime line (booking data's kinds here, as LedgerKind has no
 * airtime kinds yet) verifies airtime orders like data orders.
 */

const WITH_AIRTIME: OrderLedgerTable = { ...ORDER_LEDGER, airtime: { ...ORDER_LEDGER.data, goods: 'Airtime' } };

/** An order of `type` with one item of `amount` pesewas: the item's status, the order's state, and its ledger entries. */
async function superWallet(t: TestApp): Promise<string> {
  const row = await t.database.db
    .selectFrom('wallets')
    .select('id')
    .where('profile_id', '=', 'usr_super')
    .where('mode', '=', 'live')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function orderWithLedger(
  t: TestApp,
  o: { id: string; type: OrderType; state: OrderState; item: ItemStatus; amount: number; booked: ('hold' | 'settle' | 'release')[] },
) {
  const walletId = await superWallet(t);
  const now = Date.now();
  const itemId = `itm_${o.id}`;
  await t.database.unit(async (tx) => {
    t.ctx.repositories.orders.insert(
      tx,
      orderRow({
        id: o.id,
        profileId: 'usr_super',
        mode: 'live',
        type: o.type,
        state: o.state,
        shortReference: `AT${o.id.slice(-6).toUpperCase()}`,
        beneficiaryMsisdn: '233244000123',
        packageId: 'air_5',
        packageLabel: 'Airtime 5 GHS',
        amount: o.amount,
        walletBalanceBefore: null,
        walletBalanceAfter: null,
        createdAt: now,
      }),
      [
        itemRow({
          id: itemId,
          orderId: o.id,
          idx: 0,
          mode: 'live',
          beneficiaryMsisdn: '233244000123',
          packageId: 'air_5',
          packageLabel: 'Airtime 5 GHS',
          amount: o.amount,
          status: o.item,
          createdAt: now,
        }),
      ],
    );
    const delivery = { walletId, orderType: 'data', orderId: o.id, itemId, attempt: 1, amount: o.amount } as const;
    for (const step of o.booked) assert.ok(await t.ctx.repositories.wallets.post(tx, postings[step](delivery), now));
  });
}

async function mismatchesWith(t: TestApp, table: OrderLedgerTable): Promise<string[]> {
  const checks = orderLedgerChecks(t.ctx.repositories.orders, t.ctx.repositories.wallets, table);
  return t.database.snapshot(async (tx) => (await Promise.all(checks.map((check) => check(tx)))).flat());
}

test('an order of a type with a line in the table is verified like a data order, and its mismatch is reported', async (c) => {
  const t = await useTestApp(c);
  await orderWithLedger(t, { id: 'ord_air_ok', type: 'airtime', state: 'completed', item: 'completed', amount: 500, booked: ['hold', 'settle'] });
  assert.deepEqual(await mismatchesWith(t, WITH_AIRTIME), []);

  // Completed, yet the ledger returned its hold: the partner got airtime without paying for it.
  await orderWithLedger(t, { id: 'ord_air_bad', type: 'airtime', state: 'completed', item: 'completed', amount: 500, booked: ['hold', 'release'] });
  assert.deepEqual(await mismatchesWith(t, WITH_AIRTIME), [
    'order ord_air_bad item itm_ord_air_bad (completed, GHS 5.00): ledger nets available GHS 0.00, held GHS 0.00; expected GHS -5.00, GHS 0.00',
  ]);
  // A state its item does not explain is reported too.
  await t.database.db.updateTable('orders').set({ state: 'failed' }).where('id', '=', 'ord_air_ok').execute();
  assert.ok((await mismatchesWith(t, WITH_AIRTIME)).includes('order ord_air_ok: state failed but its items say completed'));
});

test('an order of a type the table does not know, with ledger entries, fails ledger verify naming it', async (c) => {
  const t = await useTestApp(c);
  await orderWithLedger(t, { id: 'ord_air_1', type: 'airtime', state: 'completed', item: 'completed', amount: 500, booked: ['hold', 'settle'] });
  const report = await t.ctx.ledger.verify();
  assert.equal(report.ok, false);
  const unverified = (kind: string) =>
    `order ord_air_1 (airtime) has 1 ${kind} ledger entry, but airtime orders are not verified: give airtime its ledger kinds in ORDER_LEDGER (src/modules/wallet/postings.ts)`;
  assert.deepEqual(report.mismatches, [unverified('data_hold'), unverified('data_settle')]);
});

test('an entry of a kind its order type does not book, or naming no order, is reported', async (c) => {
  const t = await useTestApp(c);
  const bought = await t.call('POST', '/api/v1/data-bundles/buy-single', {
    key: 'service_live_superAgentLiveKey001',
    body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244000124' },
  });
  assert.equal(bought.status, 200, JSON.stringify(bought.body));
  const orderId: string = bought.body.data.orderId;
  assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
  // A result-checker refund booked against the data order, and one for a sale that does not exist.
  const walletId = await superWallet(t);
  await t.database.unit(async (tx) => {
    await t.ctx.repositories.wallets.post(tx, postings.rcRefund({ walletId, transactionId: orderId, amount: 100 }), Date.now());
    await t.ctx.repositories.wallets.post(tx, postings.rcRefund({ walletId, transactionId: 'rc_gone', amount: 100 }), Date.now());
  });
  const { mismatches } = await t.ctx.ledger.verify();
  assert.ok(
    mismatches.includes(`order ${orderId} (data) has 1 rc_refund ledger entry; data orders book only data_hold, data_settle, data_release, data_reversal, data_recipient_reversal`),
    mismatches.join('\n'),
  );
  assert.ok(mismatches.includes('1 rc_refund ledger entry names order rc_gone, which does not exist'), mismatches.join('\n'));
});
