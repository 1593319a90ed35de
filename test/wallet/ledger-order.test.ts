import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

/** A wallet's ledger read in id order replays its history, even when one unit books many entries. */
test('ledger entries keep their order: many postings in one unit replay the balance, and a tampered entry is reported', async (c) => {
  const t = await useTestApp(c);
  // One unit with 20 holds; one with a debit and a refund (an out-of-stock result checker).
  const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
    key: KEYS.superLive,
    body: {
      operatorId: 'op_a',
      productId: 'prd_a',
      items: Array.from({ length: 20 }, (_, i) => ({
        packageId: i % 2 ? 'pkg_a_1gb' : 'pkg_a_2gb',
        beneficiaryMsisdn: `02447500${String(10 + i)}`,
      })),
    },
  });
  assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
  const outOfStock = await t.call('POST', '/api/v1/result-checker/buy-single', {
    key: KEYS.superLive,
    body: { packageId: 'rcp_bece', recipientPhone: '0244750051' },
  });
  assert.equal(outOfStock.status, 409);

  const wallet = await t.database.db
    .selectFrom('wallets')
    .select('id')
    .where('profile_id', '=', 'usr_super')
    .where('mode', '=', 'live')
    .executeTakeFirstOrThrow();
  const entries = await t.database.db
    .selectFrom('ledger_entries')
    .selectAll()
    .where('wallet_id', '=', wallet.id)
    .orderBy('id')
    .execute();
  assert.deepEqual(
    entries.slice(-2).map((e) => e.kind),
    ['rc_debit', 'rc_refund'],
  );
  for (let i = 1; i < entries.length; i++) {
    const [before, entry] = [entries[i - 1]!, entries[i]!];
    assert.equal(
      Number(before.available_after) + Number(entry.available_delta),
      Number(entry.available_after),
      `entry ${entry.id}`,
    );
    assert.equal(Number(before.held_after) + Number(entry.held_delta), Number(entry.held_after), `entry ${entry.id}`);
  }
  assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);

  const tampered = entries[5]!;
  await t.database.db
    .updateTable('ledger_entries')
    .set({ available_after: Number(tampered.available_after) + 1 })
    .where('id', '=', tampered.id)
    .execute();
  const report = await t.ctx.ledger.verify();
  assert.equal(report.ok, false);
  assert.ok(
    report.mismatches.some((m) => m.includes(`ledger entry ${entries[6]!.id}`) && m.includes('the entry before it left')),
    report.mismatches.join('\n'),
  );
});
