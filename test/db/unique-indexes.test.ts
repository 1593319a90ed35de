import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { translateDriverError, UNIQUE_INDEXES, type UniqueIndex } from '../../src/db/unique-indexes.js';
import { shortReference } from '../../src/lib/ids.js';
import { createTestApp, TEST_DIALECT, useTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

/**
 * The unique indexes the services react to (src/db/unique-indexes.ts): each definition matches
 * the schema the migrations build, each violation is recognised as that index on this engine,
 * and each refusal reaches the caller as its 409, with nothing charged.
 */

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

/** The unique indexes of `table` on this engine, each as its name and its columns in order. */
async function uniqueIndexesOf(t: TestApp, table: string): Promise<{ name: string; columns: string[] }[]> {
  const db = t.database.db;
  if (TEST_DIALECT === 'postgres') {
    const { rows } = await sql<{ name: string; columns: string[] }>`
      select i.relname::text as name, array_agg(a.attname::text order by k.ord) as columns
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace and n.nspname = current_schema()
      cross join lateral unnest(x.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = c.oid and a.attnum = k.attnum
      where c.relname = ${table} and x.indisunique
      group by i.relname`.execute(db);
    return rows;
  }
  const { rows: list } = await sql<{
    name: string;
    unique: number;
  }>`select name, "unique" from pragma_index_list(${table})`.execute(db);
  const found: { name: string; columns: string[] }[] = [];
  for (const index of list.filter((i) => i.unique === 1)) {
    const { rows } = await sql<{ name: string }>`select name from pragma_index_info(${index.name}) order by seqno`.execute(db);
    found.push({ name: index.name, columns: rows.map((r) => r.name) });
  }
  return found;
}

describe('unique indexes: one definition, both engines', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '10' } });
  });
  after(() => t.close());

  test('each definition is an index of the schema, with the columns in that order (and, on PostgreSQL, that name)', async () => {
    for (const [name, { table, columns }] of Object.entries(UNIQUE_INDEXES)) {
      const indexes = await uniqueIndexesOf(t, table);
      const match = indexes.find((i) => i.columns.join(',') === columns.join(','));
      assert.ok(match, `${name}: no unique index on ${table}(${columns.join(', ')}); found ${JSON.stringify(indexes)}`);
      if (TEST_DIALECT === 'postgres') assert.equal(match.name, name, `${table}(${columns.join(', ')})`);
    }
  });

  test('a violation of each is recognised as that index', async () => {
    // Records to copy: an open order with a payment reference, a top-up, a result-checker sale, their ledger entries.
    const bought = await buySingle(t, KEYS.superLive, '0244700051', { paymentReference: 'PAY-UX-1' });
    assert.equal(bought.status, 200);
    const topUp = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { amount: 5, method: 'bank', reference: 'UX-1' },
    });
    assert.equal(topUp.status, 201);
    const sold = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244700052' },
    });
    assert.equal(sold.status, 200);
    const db = t.database.db;
    const order = await db.selectFrom('orders').selectAll().where('id', '=', bought.body.data.orderId).executeTakeFirstOrThrow();
    const item = await db.selectFrom('order_items').selectAll().where('order_id', '=', order.id).executeTakeFirstOrThrow();
    const request = await db.selectFrom('top_ups').selectAll().where('id', '=', topUp.body.data._id).executeTakeFirstOrThrow();
    const sale = await db
      .selectFrom('rc_transactions')
      .selectAll()
      .where('id', '=', sold.body.data.transactionId)
      .executeTakeFirstOrThrow();
    const entry = await db.selectFrom('ledger_entries').selectAll().where('order_id', '=', order.id).executeTakeFirstOrThrow();
    const { id: _entryId, ...entryCopy } = entry;
    const copies: Record<UniqueIndex, () => Promise<unknown>> = {
      order_items_in_flight: () =>
        db
          .insertInto('order_items')
          .values({ ...item, id: 'itm_copy', idx: 99 })
          .execute(),
      orders_payment_reference: () =>
        db
          .insertInto('orders')
          .values({ ...order, id: 'ord_copy1', short_reference: shortReference('DB') })
          .execute(),
      orders_short_reference_key: () =>
        db
          .insertInto('orders')
          .values({ ...order, id: 'ord_copy2', payment_reference: null })
          .execute(),
      top_ups_reference: () =>
        db
          .insertInto('top_ups')
          .values({ ...request, id: 'tup_copy' })
          .execute(),
      top_ups_momo_pending: async () => {
        const charge = { ...request, status: 'pending' as const, gateway: 'sandbox' as const, payment_phone: '233551234987', reference: 'tup-copy-a' };
        await db.insertInto('top_ups').values({ ...charge, id: 'tup_copy_a' }).execute();
        await db.insertInto('top_ups').values({ ...charge, id: 'tup_copy_b', reference: 'tup-copy-b' }).execute();
      },
      ledger_entries_idempotency_key_key: () => db.insertInto('ledger_entries').values(entryCopy).execute(),
      rc_transactions_credential_id_key: () =>
        db
          .insertInto('rc_transactions')
          .values({ ...sale, id: 'rc_copy1', short_reference: shortReference('RC') })
          .execute(),
      rc_transactions_short_reference_key: () =>
        db
          .insertInto('rc_transactions')
          .values({ ...sale, id: 'rc_copy2', credential_id: null })
          .execute(),
      staff_accounts_email_key: async () => {
        const account = { email: 'dup@example.com', role: 'viewer' as const, password_hash: 'x', status: 'active' as const };
        const times = { last_login_at: null, created_at: 1, updated_at: 1 };
        await db
          .insertInto('staff_accounts')
          .values({ ...account, ...times, id: 'stf_1' })
          .execute();
        await db
          .insertInto('staff_accounts')
          .values({ ...account, ...times, id: 'stf_2' })
          .execute();
      },
    };
    for (const [index, copy] of Object.entries(copies) as [UniqueIndex, () => Promise<unknown>][]) {
      await assert.rejects(copy(), (error: unknown) => {
        const translated = translateDriverError(error);
        assert.equal((translated as { index?: string }).index, index, `${index}: ${String(error)}`);
        return true;
      });
    }
  });
});

describe('unique-index refusals reach the caller as their 409, nothing charged', () => {
  test('the in-flight index: parallel bulk orders sharing a number, and a retry racing a new order for the number', async (c) => {
    const t = await useTestApp(c, { env: { SANDBOX_SETTLE_MS: '10' } });
    const before = await t.wallet('usr_super', 'live');
    const bulk = (n: number) =>
      t.call('POST', '/api/v1/data-bundles/buy-bulk', {
        key: KEYS.superLive,
        body: {
          operatorId: 'op_a',
          productId: 'prd_a',
          items: [
            { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244710051' },
            { packageId: 'pkg_a_1gb', beneficiaryMsisdn: `02447100${String(10 + n)}` },
          ],
        },
      });
    const results = await Promise.all(Array.from({ length: 10 }, (_, n) => bulk(n)));
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 1, 409: 9 });
    for (const r of results.filter((x) => x.status === 409)) assert.equal(r.body.error.code, 'BUY_DATA_BULK_FAILED');
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available - 1700, held: 1700 });

    // A failed recipient (0000 fails in the sandbox), retried while a new order for its number races it.
    const failing = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244720000', '0244720051'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    const worker = newWorker(t);
    await waitFor('the failed recipient', async () => {
      await worker.drain();
      return (
        (await t.call('GET', `/api/v1/orders/${failing.body.data.orderId}`, { key: KEYS.superLive })).body.data
          .bulkFailedCount === 1
      );
    });
    const race = await Promise.all([
      t.call('POST', '/api/v1/data-bundles/retry-recipient', {
        key: KEYS.superLive,
        body: { orderId: failing.body.data.orderId, beneficiaryMsisdn: '0244720000' },
      }),
      ...Array.from({ length: 5 }, () => buySingle(t, KEYS.agentLive, '0244720000')),
    ]);
    assert.deepEqual(tally(race.map((r) => r.status)), { 200: 1, 409: 5 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the payment-reference index: parallel purchases with one reference (different numbers) are accepted once', async (c) => {
    const t = await useTestApp(c);
    const before = await t.wallet('usr_super', 'live');
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        buySingle(t, KEYS.superLive, `02447300${String(10 + i)}`, { paymentReference: 'PAY-RACE' }),
      ),
    );
    assert.deepEqual(tally(results.map((r) => r.status)), { 200: 1, 409: 9 });
    for (const r of results.filter((x) => x.status === 409)) {
      assert.equal(r.body.error.code, 'BUY_DATA_FAILED');
      assert.match(r.body.error.message, /paymentReference/);
    }
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: before.available - 850, held: 850 });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the top-up reference index: parallel requests with one reference make one top-up', async (c) => {
    const t = await useTestApp(c);
    const before = await t.wallet('usr_agent', 'test');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call('POST', '/api/v1/top-ups/request', {
          key: KEYS.agentTest,
          body: { amount: 7, method: 'momo', reference: 'MOMO-RACE' },
        }),
      ),
    );
    assert.deepEqual(tally(results.map((r) => r.status)), { 201: 1, 409: 9 });
    for (const r of results.filter((x) => x.status === 409)) assert.equal(r.body.error.code, 'TOPUP_REQUEST_FAILED');
    // Test mode credits at once: exactly once.
    assert.deepEqual(await t.wallet('usr_agent', 'test'), { available: before.available + 700, held: before.held });
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the short-reference indexes: a reference already taken is drawn again, the purchase goes through', async (c) => {
    // References are drawn at random unless one is forced: the next draws then repeat ones taken.
    const forced: string[] = [];
    const t = await useTestApp(c, { references: (prefix) => forced.shift() ?? shortReference(prefix) });
    const data = await buySingle(t, KEYS.superLive, '0244740051');
    const checker = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244740052' },
    });
    assert.deepEqual([data.status, checker.status], [200, 200]);

    forced.push(data.body.data.shortReference);
    const again = await buySingle(t, KEYS.superLive, '0244740053');
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.notEqual(again.body.data.shortReference, data.body.data.shortReference);

    forced.push(checker.body.data.shortReference);
    const checkerAgain = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244740054' },
    });
    assert.equal(checkerAgain.status, 200, JSON.stringify(checkerAgain.body));
    assert.notEqual(checkerAgain.body.data.shortReference, checker.body.data.shortReference);
    assert.deepEqual(forced, [], 'each taken reference was drawn');
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
