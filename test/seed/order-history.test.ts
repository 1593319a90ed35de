import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Kysely } from 'kysely';
import { formatSummary } from '../../src/cli/commands/import.js';
import type { DB } from '../../src/db/schema.js';
import { parseSeed, SeedError } from '../../src/seed/import.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker, waitForState } from '../support/orders.js';

/** The seed file's `orders` section: order history migrated from the old platform. */

const NOW = Date.now();
const HOUR = 3_600_000;

function history() {
  const base = { profileId: 'usr_super', mode: 'live', operatorId: 'op_a', productId: 'prd_a' };
  return [
    // SuperAgent price of pkg_a_1gb: 8.50
    { ...base, id: 'ord_hist_1', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123456', state: 'completed', createdAt: NOW - 5 * HOUR },
    // failed: held then returned, never paid
    { ...base, id: 'ord_hist_2', packageId: 'pkg_a_2gb', beneficiaryMsisdn: '+233 24 412 3457', state: 'failed', createdAt: NOW - 4 * HOUR },
    // the amount the old platform charged
    { ...base, id: 'ord_hist_3', operatorId: 'op_b', productId: 'prd_b', packageId: 'pkg_b_1gb', beneficiaryMsisdn: '233244123458', state: 'completed', createdAt: NOW - 3 * HOUR, amount: 4.75 },
    // a package retired since is still history
    { ...base, id: 'ord_hist_4', packageId: 'pkg_a_inactive', beneficiaryMsisdn: '0244123459', state: 'completed', createdAt: NOW - 2 * HOUR },
    { ...base, id: 'ord_hist_5', mode: 'test', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123456', state: 'completed', createdAt: NOW - HOUR },
    // Agent price of pkg_a_1gb: 9.00
    { ...base, id: 'ord_hist_6', profileId: 'usr_agent', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0554123456', state: 'completed', createdAt: NOW - 6 * HOUR },
  ];
}

type Seed = ReturnType<typeof fixtureWithHistory>;

function fixtureWithHistory() {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as Record<string, unknown> & { orders: ReturnType<typeof history>; profiles: unknown[] };
  seed.orders = history();
  return seed;
}

const TABLES = ['operators', 'profiles', 'wallets', 'ledger_entries', 'orders', 'order_items', 'outbox'] as const;

async function counts(db: Kysely<DB>) {
  const out = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

async function ledgerOf(t: TestApp, orderId: string) {
  return t.database.db
    .selectFrom('ledger_entries')
    .select(['kind', 'available_delta', 'held_delta', 'order_item_id', 'idempotency_key'])
    .where('order_id', '=', orderId)
    .orderBy('id')
    .execute();
}

describe('seed import: order history (orders section)', () => {
  let t: TestApp;
  const seed = fixtureWithHistory();
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  test('imported orders read like settled orders, and the wallet paid for the completed ones', async () => {
    const summary = await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.equal(summary.orders, 6);
    assert.equal(summary.ordersImported, 6);
    assert.equal(summary.ordersSkipped, 0);
    assert.match(formatSummary(summary), /^orders 6 \(imported 6, already known 0\)$/m);

    // 500 − 8.50 − 4.75 − 40.00; the failed 20.50 was returned.
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 44_675, held: 0 });
    assert.deepEqual(await t.wallet('usr_super', 'test'), { available: 99_150, held: 0 });
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9_100, held: 0 });
    const balance = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.superLive });
    assert.equal(balance.body.data.availableBalance, 446.75);

    const list = await t.call('GET', '/api/v1/orders', { key: KEYS.superLive });
    assert.equal(list.status, 200);
    const orders = list.body.data.orders as Record<string, unknown>[];
    assert.deepEqual(orders.map((o) => o._id), ['ord_hist_4', 'ord_hist_3', 'ord_hist_2', 'ord_hist_1'], 'live orders only, newest first');
    assert.equal(list.body.data.isDone, true);

    const [fourth, third, second, first] = orders;
    const h = history();
    assert.deepEqual(
      { ...first, shortReference: undefined },
      {
        _id: 'ord_hist_1',
        _creationTime: h[0]?.createdAt,
        createdAt: h[0]?.createdAt,
        updatedAt: (h[0]?.createdAt ?? 0) + 5000,
        shortReference: undefined,
        beneficiaryMsisdn: '233244123456',
        operatorId: 'op_a',
        operatorName: 'Alpha Mobile',
        productId: 'prd_a',
        productName: 'Alpha Data',
        packageId: 'pkg_a_1gb',
        packageLabel: 'Alpha 1GB (30 days)',
        amount: 8.5,
        currency: 'GHS',
        state: 'completed',
        orderType: 'data',
        errorMessage: null,
        submittedAt: h[0]?.createdAt,
        completedAt: (h[0]?.createdAt ?? 0) + 5000,
        isBulkOrder: false,
        bulkRecipients: null,
        bulkCompletedCount: null,
        bulkFailedCount: null,
        walletBalanceBefore: 500,
        walletBalanceAfter: 491.5,
      },
    );
    assert.match(String(first?.shortReference), /^DB[2-9A-HJKMNP-Z]{8}$/);
    assert.equal(new Set(orders.map((o) => o.shortReference)).size, 4);

    assert.equal(second?.state, 'failed');
    assert.equal(second?.beneficiaryMsisdn, '233244123457');
    assert.equal(second?.amount, 20.5);
    assert.equal(second?.errorMessage, 'Imported as failed');
    assert.equal(second?.completedAt, null);
    assert.equal(second?.submittedAt, h[1]?.createdAt);
    assert.deepEqual([second?.walletBalanceBefore, second?.walletBalanceAfter], [491.5, 471]);

    assert.deepEqual(
      [third?.operatorName, third?.productName, third?.amount, third?.walletBalanceBefore, third?.walletBalanceAfter],
      ['Beta Telecom', 'Beta Data', 4.75, 491.5, 486.75],
    );
    assert.deepEqual([fourth?.packageLabel, fourth?.amount, fourth?.walletBalanceAfter], ['Alpha 5GB (retired)', 40, 446.75]);

    const status = await t.call('GET', '/api/v1/orders/ord_hist_2/status', { key: KEYS.superLive });
    assert.equal(status.body.data.state, 'Failed');
    const failedOnly = await t.call('GET', '/api/v1/orders?state=failed', { key: KEYS.superLive });
    assert.deepEqual(failedOnly.body.data.orders.map((o: { _id: string }) => o._id), ['ord_hist_2']);

    // Modes and owners stay apart.
    const testList = await t.call('GET', '/api/v1/orders', { key: KEYS.superTest });
    assert.deepEqual(testList.body.data.orders.map((o: { _id: string }) => o._id), ['ord_hist_5']);
    assert.equal((await t.call('GET', '/api/v1/orders/ord_hist_1', { key: KEYS.superTest })).status, 404);
    assert.equal((await t.call('GET', '/api/v1/orders/ord_hist_1', { key: KEYS.agentLive })).status, 404);
    const agent = await t.call('GET', '/api/v1/orders/ord_hist_6', { key: KEYS.agentLive });
    assert.deepEqual([agent.body.data.amount, agent.body.data.walletBalanceBefore, agent.body.data.walletBalanceAfter], [9, 100, 91]);
  });

  test('the ledger holds then settles (or releases) each order with the live path\'s keys, and verifies clean', async () => {
    const items = await t.database.db.selectFrom('order_items').selectAll().orderBy('order_id').execute();
    assert.equal(items.length, 6);
    for (const item of items) {
      assert.equal(item.idx, 0);
      assert.equal(item.attempt, 1);
      const order = history().find((o) => o.id === item.order_id);
      assert.equal(item.status, order?.state);
      const entries = await ledgerOf(t, item.order_id);
      const amount = Number(item.amount);
      const completed = item.status === 'completed';
      assert.deepEqual(entries, [
        { kind: 'data_hold', available_delta: -amount, held_delta: amount, order_item_id: item.id, idempotency_key: `hold:${item.id}:1` },
        completed
          ? { kind: 'data_settle', available_delta: 0, held_delta: -amount, order_item_id: item.id, idempotency_key: `settle:${item.id}:1` }
          : { kind: 'data_release', available_delta: amount, held_delta: -amount, order_item_id: item.id, idempotency_key: `release:${item.id}:1` },
      ]);
    }
    assert.equal((await counts(t.database.db)).outbox, 0, 'settled history has nothing for the worker');
    const report = await t.ctx.ledger.verify();
    assert.deepEqual(report.mismatches, []);
    assert.equal(report.ok, true);
  });

  test('a re-import skips known orders: no second charge, even when the file now says otherwise', async () => {
    const before = await counts(t.database.db);
    const again = await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.deepEqual([again.orders, again.ordersImported, again.ordersSkipped], [6, 0, 6]);

    const changed = fixtureWithHistory();
    const firstOrder = changed.orders[0];
    if (firstOrder) Object.assign(firstOrder, { state: 'failed', amount: 1 });
    changed.orders.push({ ...firstOrder, id: 'ord_hist_7', beneficiaryMsisdn: '0244123460', state: 'completed', createdAt: NOW - 30 * 60_000 } as (typeof changed.orders)[number]);
    const third = await t.ctx.seeds.import(parseSeed(JSON.stringify(changed)));
    assert.deepEqual([third.ordersImported, third.ordersSkipped], [1, 6]);

    const afterCounts = await counts(t.database.db);
    assert.deepEqual(afterCounts, { ...before, orders: before.orders + 1, order_items: before.order_items + 1, ledger_entries: before.ledger_entries + 2 });
    // Only the new one was paid for: 446.75 − 1.00.
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 44_575, held: 0 });
    const first = await t.call('GET', '/api/v1/orders/ord_hist_1', { key: KEYS.superLive });
    assert.deepEqual([first.body.data.state, first.body.data.amount], ['completed', 8.5], 'history is immutable');
    assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
  });
});

describe('seed import: a bad order entry rejects the whole file', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  const broken: [string, (s: Seed) => void, RegExp][] = [
    ['a state that is not history', (s) => Object.assign(s.orders[1] ?? {}, { state: 'processing' }), /^orders\[1\] \(id "ord_hist_2"\) field state/],
    ['an unknown field', (s) => Object.assign(s.orders[2] ?? {}, { colour: 'red' }), /^orders\[2\] \(id "ord_hist_3"\)/],
    ['an unknown profile', (s) => Object.assign(s.orders[0] ?? {}, { profileId: 'usr_ghost' }), /^orders\[0\] \(id "ord_hist_1"\): profileId "usr_ghost" does not exist/],
    ['an unknown package', (s) => Object.assign(s.orders[3] ?? {}, { packageId: 'pkg_ghost' }), /^orders\[3\] \(id "ord_hist_4"\): packageId "pkg_ghost" does not exist/],
    [
      'a package of another product',
      (s) => Object.assign(s.orders[0] ?? {}, { productId: 'prd_b', operatorId: 'op_b' }),
      /^orders\[0\] \(id "ord_hist_1"\): package "pkg_a_1gb" belongs to product "prd_a" of operator "op_a", not product "prd_b" of operator "op_b"/,
    ],
    ['an invalid number', (s) => Object.assign(s.orders[4] ?? {}, { beneficiaryMsisdn: '12345' }), /^orders\[4\] \(id "ord_hist_5"\) field beneficiaryMsisdn: "12345" is not a valid Ghana mobile number/],
    ['an amount with three decimals', (s) => Object.assign(s.orders[2] ?? {}, { amount: 4.755 }), /^orders\[2\] \(id "ord_hist_3"\) field amount: 4\.755 is not a GHS amount with at most two decimals/],
    ['a negative amount', (s) => Object.assign(s.orders[2] ?? {}, { amount: -1 }), /^orders\[2\] \(id "ord_hist_3"\) field amount/],
    ['a creation time in the future', (s) => Object.assign(s.orders[5] ?? {}, { createdAt: Date.now() + HOUR }), /^orders\[5\] \(id "ord_hist_6"\) field createdAt: \d+ is in the future/],
    ['a duplicate id', (s) => s.orders.push({ ...(s.orders[0] as (typeof s.orders)[number]) }), /^orders\[6\] \(id "ord_hist_1"\): duplicate id in the file/],
    [
      'an order the wallet cannot afford',
      // usr_agent: 100.00 − 9.00 (ord_hist_6, older) leaves 91.00.
      (s) => s.orders.push({ ...(s.orders[5] as (typeof s.orders)[number]), id: 'ord_hist_big', amount: 95, createdAt: NOW - HOUR }),
      /^orders\[6\] \(id "ord_hist_big"\): the live wallet of profile "usr_agent" cannot afford it \(GHS 91\.00 available, GHS 95\.00 required\)/,
    ],
  ];

  for (const [what, mutate, message] of broken) {
    test(what, async () => {
      const seed = fixtureWithHistory();
      mutate(seed);
      await assert.rejects(
        async () => t.ctx.seeds.import(parseSeed(JSON.stringify(seed))),
        (error: unknown) => {
          assert.ok(error instanceof SeedError, String(error));
          assert.match(error.message, message);
          return true;
        },
      );
      // Profiles, wallets and catalog of the same file were rolled back with it.
      assert.deepEqual(Object.values(await counts(t.database.db)), TABLES.map(() => 0));
    });
  }

  test('a bad entry in a re-import leaves the existing data untouched', async () => {
    const seed = fixtureWithHistory();
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    const before = await counts(t.database.db);
    const walletBefore = await t.wallet('usr_super', 'live');
    seed.orders.push({ ...(seed.orders[0] as (typeof seed.orders)[number]), id: 'ord_hist_new', createdAt: NOW - HOUR });
    seed.orders.push({ ...(seed.orders[0] as (typeof seed.orders)[number]), id: 'ord_hist_bad', beneficiaryMsisdn: '0300000000' });
    await assert.rejects(async () => t.ctx.seeds.import(parseSeed(JSON.stringify(seed))), /orders\[7\] \(id "ord_hist_bad"\)/);
    assert.deepEqual(await counts(t.database.db), before);
    assert.deepEqual(await t.wallet('usr_super', 'live'), walletBefore);
  });
});

describe('seed import: long histories are booked in batches', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  /** 1 200 orders over three batches, two wallets interleaved; every fifth one failed. */
  function longHistory() {
    const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as Record<string, unknown> & { orders: unknown[] };
    seed.orders = Array.from({ length: 1200 }, (_, i) => ({
      id: `ord_long_${i}`,
      profileId: i % 2 === 0 ? 'usr_super' : 'usr_agent',
      mode: 'live',
      operatorId: 'op_a',
      productId: 'prd_a',
      packageId: 'pkg_a_1gb',
      beneficiaryMsisdn: `0244${String(i).padStart(6, '0')}`,
      state: i % 5 === 4 ? 'failed' : 'completed',
      // listed newest first: the import books them oldest first all the same
      createdAt: NOW - (i + 1) * 60_000,
      amount: 0.15,
    }));
    return seed;
  }

  test('the running balances of every entry chain, and an order no longer affordable late in the file is named', async () => {
    const tooMuch = longHistory();
    // usr_agent pays 0.15 for 480 of its 600 orders (72.00 of 100.00). Its oldest order, failed,
    // holds 99.90 for a moment; its newest wants 28.20 when 28.15 is left.
    Object.assign(tooMuch.orders[1199] as object, { amount: 99.9 });
    Object.assign(tooMuch.orders[1] as object, { amount: 28.2 });
    await assert.rejects(
      async () => t.ctx.seeds.import(parseSeed(JSON.stringify(tooMuch))),
      /^SeedError: orders\[1\] \(id "ord_long_1"\): the live wallet of profile "usr_agent" cannot afford it \(GHS 28\.15 available, GHS 28\.20 required\)/,
    );
    assert.equal((await counts(t.database.db)).orders, 0);

    const summary = await t.ctx.seeds.import(parseSeed(JSON.stringify(longHistory())));
    assert.equal(summary.ordersImported, 1200);
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: 50_000 - 480 * 15, held: 0 });
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 10_000 - 480 * 15, held: 0 });
    const entries = await t.database.db
      .selectFrom('ledger_entries')
      .select(['wallet_id', 'available_delta', 'held_delta', 'available_after', 'held_after'])
      .orderBy('id')
      .execute();
    const last = new Map<string, { available: number; held: number }>();
    for (const e of entries) {
      const previous = last.get(e.wallet_id) ?? { available: 0, held: 0 };
      assert.equal(Number(e.available_after), previous.available + Number(e.available_delta));
      assert.equal(Number(e.held_after), previous.held + Number(e.held_delta));
      last.set(e.wallet_id, { available: Number(e.available_after), held: Number(e.held_after) });
    }
    const newest = await t.call('GET', '/api/v1/orders?limit=1', { key: KEYS.superLive });
    assert.equal(newest.body.data.orders[0]._id, 'ord_long_0');
    assert.equal(newest.body.data.orders[0].walletBalanceAfter, 428);
    assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
  });
});

describe('seed import: history matches what the live path leaves', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '20' } });
  });
  after(() => t.close());

  test('an imported completed order has the shape and ledger of one bought and delivered live', async () => {
    const worker = newWorker(t);
    worker.start();
    let liveId: string;
    try {
      const bought = await buySingle(t, KEYS.agentLive, '0554123499');
      assert.equal(bought.status, 200);
      liveId = bought.body.data.orderId;
      await waitForState(t, KEYS.agentLive, liveId, ['completed']);
    } finally {
      await worker.stop();
    }
    const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as Record<string, unknown>;
    seed.orders = [history()[5]];
    await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));

    const live = (await t.call('GET', `/api/v1/orders/${liveId}`, { key: KEYS.agentLive })).body.data;
    const imported = (await t.call('GET', '/api/v1/orders/ord_hist_6', { key: KEYS.agentLive })).body.data;
    const varying = ['_id', '_creationTime', 'createdAt', 'updatedAt', 'submittedAt', 'completedAt', 'shortReference', 'beneficiaryMsisdn', 'walletBalanceBefore', 'walletBalanceAfter'];
    const strip = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => !varying.includes(k)));
    assert.deepEqual(strip(imported), strip(live));
    for (const field of varying) assert.equal(typeof imported[field], typeof live[field], field);

    const shape = (rows: Awaited<ReturnType<typeof ledgerOf>>) =>
      rows.map((r) => ({ ...r, order_item_id: 'item', idempotency_key: r.idempotency_key?.replace(r.order_item_id ?? '', 'item') }));
    assert.deepEqual(shape(await ledgerOf(t, 'ord_hist_6')), shape(await ledgerOf(t, liveId)));
    assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
  });
});
