import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { waitFor } from '../support/wait.js';

const AUTHENTICATED_GETS = [
  '/api/v1/profile',
  '/api/v1/wallet-balance',
  '/api/v1/operators',
  '/api/v1/operators/op_a/products',
  '/api/v1/data-packages',
  '/api/v1/packages/pkg_a_1gb',
  '/api/v1/result-checker/packages',
];

describe('authentication', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  for (const url of AUTHENTICATED_GETS) {
    test(`${url}: missing, malformed, unknown and revoked keys are 401 UNAUTHORIZED`, async () => {
      for (const key of [undefined, 'abc', 'service_prod_abcdefghij', 'service_live_short', 'service_live_unknownKey123456', KEYS.superRevoked]) {
        const res = await t.call('GET', url, key === undefined ? {} : { key });
        assert.equal(res.status, 401, `key ${key}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, 'UNAUTHORIZED');
        assert.equal(typeof res.body.error.message, 'string');
      }
    });

    test(`${url}: a suspended profile is 403 PROFILE_SUSPENDED with either key`, async () => {
      for (const key of [KEYS.suspendedLive, KEYS.suspendedTest]) {
        const res = await t.call('GET', url, { key });
        assert.equal(res.status, 403);
        assert.deepEqual(res.body, { success: false, error: { code: 'PROFILE_SUSPENDED', message: res.body.error.message } });
      }
    });

    test(`${url}: a valid key succeeds`, async () => {
      const res = await t.call('GET', url, { key: KEYS.agentLive });
      assert.equal(res.status, 200);
      assert.equal(res.body.success, true);
    });
  }

  test('the live prefix with a test key secret is unknown (prefix is part of the key)', async () => {
    const res = await t.call('GET', '/api/v1/profile', { key: KEYS.agentTest.replace('service_test_', 'service_live_') });
    assert.equal(res.status, 401);
  });

  test('a key is looked up by hash: the plaintext is nowhere in the database', async () => {
    const rows = await t.database.db.selectFrom('api_keys').selectAll().execute();
    assert.ok(rows.length >= 10);
    for (const row of rows) {
      for (const value of Object.values(row)) assert.ok(!String(value).includes(KEYS.agentLive.slice(13)));
    }
  });

  test('a successful call records when the key was last used', async () => {
    await t.call('GET', '/api/v1/profile', { key: KEYS.customerLive });
    // Recorded after the response, without being awaited.
    const usedAt = await waitFor('last_used_at to be recorded', async () => {
      const row = await t.database.db.selectFrom('api_keys as k').innerJoin('profiles as p', 'p.id', 'k.profile_id')
        .select('k.last_used_at').where('p.id', '=', 'usr_customer').where('k.mode', '=', 'live').executeTakeFirstOrThrow();
      return row.last_used_at ?? undefined;
    });
    assert.ok(usedAt > 0);
  });
});
