import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';

describe('cli keys: create, list, revoke', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('a created key is printed once, works at once in its mode, and stops working when revoked', async () => {
    const env = cliDatabaseEnv(t.testDb);
    const created = await runCli(['keys', 'create', '--profile', 'usr_customer', '--mode', 'test'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = /API key \(shown once, store it now\): (service_test_\S+)/.exec(created.stdout)?.[1];
    const keyId = /key id: (key_\S+)/.exec(created.stdout)?.[1];
    assert.ok(key && keyId, created.stdout);

    const stored = await t.database.db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    assert.equal(stored.mode, 'test');
    assert.ok(!JSON.stringify(stored).includes(key.slice('service_test_'.length)), 'only the hash is stored');

    const ok = await t.call('GET', '/api/v1/wallet-balance', { key });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.data.userProfileId, 'usr_customer');
    assert.equal(ok.body.data.availableBalance, 30, 'the test wallet of the profile');

    const listed = await runCli(['keys', 'list', '--profile', 'usr_customer'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`${keyId}\\s+test\\s+service_test_\\S+…\\s+active`));
    assert.ok(!listed.stdout.includes(key), 'list never shows a whole key');

    const revoked = await runCli(['keys', 'revoke', keyId], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const refused = await t.call('GET', '/api/v1/wallet-balance', { key });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'UNAUTHORIZED');

    const again = await runCli(['keys', 'revoke', keyId], env);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), `key ${keyId} is already revoked`);
  });

  test('bad arguments are one-line errors with a non-zero exit', async () => {
    const env = cliDatabaseEnv(t.testDb);
    const unknownProfile = await runCli(['keys', 'create', '--profile', 'usr_nobody', '--mode', 'live'], env);
    assert.equal(unknownProfile.code, 1);
    assert.equal(unknownProfile.stderr.trim(), 'no profile usr_nobody');
    const badMode = await runCli(['keys', 'create', '--profile', 'usr_customer', '--mode', 'prod'], env);
    assert.equal(badMode.code, 1);
    assert.equal(badMode.stderr.trim(), '--mode must be live or test');
    const unknownKey = await runCli(['keys', 'revoke', 'key_nope'], env);
    assert.equal(unknownKey.code, 1);
    assert.equal(unknownKey.stderr.trim(), 'no key key_nope');
  });

  test('--help lists the commands', async () => {
    const help = await runCli(['--help'], {});
    assert.equal(help.code, 0);
    for (const command of ['serve', 'migrate', 'import', 'keys', 'worker', 'orders', 'ledger', 'topups', 'rc', 'demo']) {
      assert.match(help.stdout, new RegExp(`^\\s+${command}\\b`, 'm'), command);
    }
  });
});
