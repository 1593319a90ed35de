import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { postings } from '../../src/modules/wallet/postings.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

describe('profile and wallet reads', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('GET /profile returns every field of the profile with the live wallet for a live key', async () => {
    const res = await t.call('GET', '/api/v1/profile', { key: KEYS.superLive });
    assert.equal(res.status, 200);
    const p = res.body.data;
    assert.equal(p._id, 'usr_super');
    assert.equal(p.fullName, 'Ama Serwaa Mensah');
    for (const field of [
      'userId',
      'firstName',
      'middleName',
      'lastName',
      'gender',
      'phoneNumber',
      'email',
      'role',
      'status',
      'countryCode',
      'countryISO',
      'countryName',
      'referralCode',
      'uniqueId',
      'creatorId',
    ]) {
      assert.equal(typeof p[field], 'string', field);
    }
    for (const field of ['_creationTime', 'registeredAt', 'createdAt', 'updatedAt']) {
      assert.equal(typeof p[field], 'number', field);
      assert.ok(p[field] > 1_600_000_000_000, `${field} is unix ms`);
    }
    assert.deepEqual(Object.keys(p.updateMeta).sort(), ['action', 'name', 'userId']);
    assert.equal(p.role, 'SuperAgent');
    assert.equal(p.countryISO, 'GH');
    assert.equal(p.walletAvailableBalance, 500);
    assert.equal(p.walletHeldBalance, 0);
    assert.equal(p.walletTotalBalance, 500);
  });

  test('a test key sees the test wallet of the same profile', async () => {
    const res = await t.call('GET', '/api/v1/profile', { key: KEYS.superTest });
    assert.equal(res.body.data._id, 'usr_super');
    assert.equal(res.body.data.walletAvailableBalance, 1000);
  });

  test('GET /wallet-balance returns the wallet of the key mode, with its alert threshold', async () => {
    const live = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.agentLive });
    assert.equal(live.status, 200);
    assert.deepEqual(Object.keys(live.body.data).sort(), [
      'alertThreshold',
      'availableBalance',
      'currency',
      'heldBalance',
      'lastUpdated',
      'totalBalance',
      'userProfileId',
    ]);
    assert.equal(live.body.data.alertThreshold, null);
    assert.equal(live.body.data.userProfileId, 'usr_agent');
    assert.equal(live.body.data.availableBalance, 100);
    assert.equal(live.body.data.heldBalance, 0);
    assert.equal(live.body.data.totalBalance, 100);
    assert.equal(live.body.data.currency, 'GHS');
    assert.ok(live.body.data.lastUpdated > 1_600_000_000_000);
    const test_ = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.agentTest });
    assert.equal(test_.body.data.availableBalance, 50);
  });

  test('live and test wallets are separate: a change to one never shows in the other', async () => {
    const wallet = await t.database.db
      .selectFrom('wallets')
      .select('id')
      .where('profile_id', '=', 'usr_customer')
      .where('mode', '=', 'test')
      .executeTakeFirstOrThrow();
    await t.database.unit((tx) =>
      t.ctx.repositories.wallets.post(
        tx,
        postings.adjustmentCredit({ walletId: wallet.id, adjustmentId: 'test-credit', amount: 1234, reason: 'test credit' }),
        Date.now(),
      ),
    );
    const testView = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.customerTest });
    const liveView = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.customerLive });
    assert.equal(testView.body.data.availableBalance, 42.34);
    assert.equal(liveView.body.data.availableBalance, 30);
  });
});
