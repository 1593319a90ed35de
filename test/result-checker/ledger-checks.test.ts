import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { rcAndTopUpProblems } from '../support/ledger.js';
import { staffActor } from '../support/actor.js';

/**
 * The checks must catch what they claim to: each case breaks one thing directly in the
 * database, expects a named mismatch, then restores it.
 */
describe('ledger checks for result-checker purchases and top-ups', () => {
  let t: TestApp;
  let single: string;
  let failedSingle: string;
  let bulkId: string;
  let topUp: string;

  before(async () => {
    t = await createTestApp();
    const buy = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244123456' },
    });
    single = buy.body.data.transactionId;
    assert.equal((await t.call('POST', '/api/v1/result-checker/buy-single', { key: KEYS.superLive, body: { packageId: 'rcp_bece', recipientPhone: '0244123456' } })).status, 409);
    failedSingle = (await t.database.db.selectFrom('rc_transactions').select('id').where('state', '=', 'failed').executeTakeFirstOrThrow()).id;
    const bulk = await t.call('POST', '/api/v1/result-checker/buy-bulk', {
      key: KEYS.agentLive,
      body: { items: [{ packageId: 'rcp_wassce', recipientPhone: '0244123456' }, { packageId: 'rcp_bece', recipientPhone: '0244123456' }] },
    });
    assert.equal(bulk.status, 200);
    bulkId = (await t.database.db.selectFrom('rc_transactions').select('bulk_id').where('bulk_id', 'is not', null).executeTakeFirstOrThrow()).bulk_id ?? '';
    topUp = (await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.agentLive, body: { amount: 20, method: 'momo', reference: 'L1' } })).body.data._id;
    await t.ctx.topUps.approve(staffActor('staff'), topUp);
  });
  after(() => t.close());

  const problems = () => rcAndTopUpProblems(t);

  test('clean after purchases (single, out of stock, bulk partial) and an approved top-up; registered in ledger verify', async () => {
    assert.deepEqual(await problems(), []);
    const report = await t.ctx.ledger.verify();
    assert.deepEqual(report.mismatches, []);
    assert.equal(report.ok, true);
  });

  test('a missing refund is named (the transaction and the wallet)', async () => {
    const refund = await t.database.db
      .selectFrom('ledger_entries')
      .selectAll()
      .where('rc_transaction_id', '=', failedSingle)
      .where('kind', '=', 'rc_refund')
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('ledger_entries').set({ available_delta: 0 }).where('id', '=', refund.id).execute();
    const found = await problems();
    assert.ok(found.some((p) => p.includes(`transaction ${failedSingle} (failed) ledger net GHS -15.00, expected GHS 0.00`)), found.join('\n'));
    assert.ok(found.some((p) => p.includes('rc ledger net GHS -33.00 but completed result-checker purchases total GHS 18.00')), found.join('\n'));
    assert.equal((await t.ctx.ledger.verify()).ok, false);
    await t.database.db.updateTable('ledger_entries').set({ available_delta: refund.available_delta }).where('id', '=', refund.id).execute();
    assert.deepEqual(await problems(), []);
  });

  test('a bulk debit that does not match its items is named', async () => {
    const key = `rc_bulk_debit:${bulkId}`;
    const entry = await t.database.db.selectFrom('ledger_entries').selectAll().where('idempotency_key', '=', key).executeTakeFirstOrThrow();
    await t.database.db.updateTable('ledger_entries').set({ available_delta: entry.available_delta + 100 }).where('id', '=', entry.id).execute();
    const found = await problems();
    assert.ok(found.some((p) => p.includes(`bulk ${bulkId} debit GHS -33.00 but its 2 items total GHS 34.00`)), found.join('\n'));
    await t.database.db.updateTable('ledger_entries').set({ available_delta: entry.available_delta }).where('id', '=', entry.id).execute();
    assert.deepEqual(await problems(), []);
  });

  test('a credential pointing at the wrong transaction is named', async () => {
    const credential = await t.database.db.selectFrom('rc_credentials').selectAll().where('assigned_transaction_id', '=', single).executeTakeFirstOrThrow();
    await t.database.db.updateTable('rc_credentials').set({ assigned_transaction_id: failedSingle }).where('id', '=', credential.id).execute();
    const found = await problems();
    assert.ok(found.some((p) => p.includes(`credential ${credential.id} is assigned to ${failedSingle}`)), found.join('\n'));
    assert.ok(found.some((p) => p.includes(`transaction ${single} (live, completed) and its credential`)), found.join('\n'));
    await t.database.db.updateTable('rc_credentials').set({ assigned_transaction_id: single }).where('id', '=', credential.id).execute();
    assert.deepEqual(await problems(), []);
  });

  test('a top-up credited twice, or approved without a credit, is named', async () => {
    const entry = await t.database.db.selectFrom('ledger_entries').selectAll().where('top_up_id', '=', topUp).executeTakeFirstOrThrow();
    await t.database.db.updateTable('ledger_entries').set({ top_up_id: null }).where('id', '=', entry.id).execute();
    let found = await problems();
    assert.ok(found.some((p) => p.includes(`approved top-up ${topUp} has 0 ledger entries, expected exactly 1`)), found.join('\n'));
    assert.ok(found.some((p) => p.includes(`ledger entry ${entry.id} is a top_up credit for no top-up`)), found.join('\n'));
    await t.database.db.updateTable('ledger_entries').set({ top_up_id: topUp }).where('id', '=', entry.id).execute();

    await t.database.db.updateTable('top_ups').set({ status: 'rejected' }).where('id', '=', topUp).execute();
    found = await problems();
    assert.ok(found.some((p) => p.includes(`rejected top-up ${topUp} has 1 ledger entries, expected none`)), found.join('\n'));
    assert.ok(found.some((p) => p.includes('top-up credits GHS 20.00 but approved top-ups total GHS 0.00')), found.join('\n'));
    await t.database.db.updateTable('top_ups').set({ status: 'approved' }).where('id', '=', topUp).execute();
    assert.deepEqual(await problems(), []);
  });
});
