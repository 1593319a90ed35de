import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { passwordCost, PRODUCTION_COST } from '../../src/modules/console/passwords.js';
import { createTestApp, TEST_DIALECT, useTestApp, type TestApp } from '../support/app.js';
import { cliEnv, runCliProcess } from '../support/cli.js';
import { clientOf, CONSOLE_ENV, csrfOf, ensureStaff, inject, login, PASSWORD, signIn, type StaffClient } from '../support/console.js';
import { staffActor } from '../support/actor.js';

/**
 * A one-time password (a new account's, or a reset's) must be replaced at the first sign-in, and
 * every staff member can change their own password (docs/console.md, "Passwords").
 */
describe(`one-time passwords and the change-password page (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let admin: StaffClient;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  const account = (email: string) =>
    t.database.db.selectFrom('staff_accounts').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const auditRows = (action: string) =>
    t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  test('an account created on the staff page must choose its own password before anything else', async () => {
    const created = await admin.post('/console/staff', { email: 'fresh@staff.example', role: 'operator' });
    assert.equal(created.status, 200);
    const oneTime = /<code id="new-password">([^<]+)<\/code>/.exec(created.body)?.[1];
    assert.ok(oneTime);
    assert.equal((await account('fresh@staff.example')).password_change_required, 1);

    const cookie = await login(t, 'fresh@staff.example', oneTime);
    for (const url of ['/console', '/console/top-ups', '/console/staff', '/console/audit', '/console/partners/usr_super']) {
      const page = await inject(t, 'GET', url, { cookie });
      assert.equal(page.status, 303, url);
      assert.equal(page.location, '/console/password', url);
    }
    const form = await inject(t, 'GET', '/console/password', { cookie });
    assert.equal(form.status, 200);
    assert.match(form.body, /You signed in with a one-time password/);
    assert.doesNotMatch(form.body, /<nav><a /, 'no navigation until it is changed');
    const csrf = csrfOf(form.body);
    const before = await t.wallet('usr_super', 'live');
    const action = await inject(t, 'POST', '/console/partners/usr_super/suspend', { cookie, form: { _csrf: csrf } });
    assert.equal(action.status, 403);
    assert.match(action.body, /Choose your own password first/);
    assert.equal((await t.ctx.console.partner('usr_super'))?.profile.status, 'Active');
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);

    const change = (fields: Record<string, string>) =>
      inject(t, 'POST', '/console/password', { cookie, form: { _csrf: csrf, ...fields } });
    const wrong = await change({ current: 'not it at all', password: 'my very own password', repeat: 'my very own password' });
    assert.equal(wrong.status, 403);
    assert.match(wrong.body, /The current password is wrong/);
    const short = await change({ current: oneTime, password: 'too short', repeat: 'too short' });
    assert.equal(short.status, 400);
    assert.match(short.body, /at least 12 characters/);
    const same = await change({ current: oneTime, password: oneTime, repeat: oneTime });
    assert.equal(same.status, 400);
    assert.match(same.body, /must differ from the current one/);
    const differ = await change({ current: oneTime, password: 'my very own password', repeat: 'my very own passwort' });
    assert.equal(differ.status, 400);
    assert.match(differ.body, /repetition differ/);
    assert.equal((await account('fresh@staff.example')).password_change_required, 1, 'nothing changed yet');

    const done = await change({ current: oneTime, password: 'my very own password', repeat: 'my very own password' });
    assert.equal(done.status, 303, done.body);
    assert.equal(done.location, '/console?notice=password');
    const home = await inject(t, 'GET', '/console?notice=password', { cookie });
    assert.equal(home.status, 200);
    assert.match(home.body, /Password changed/);
    assert.equal((await account('fresh@staff.example')).password_change_required, 0);

    const rows = await auditRows('staff.change_password');
    assert.deepEqual(
      rows.map((r) => [r.actor, r.outcome]),
      [
        ['fresh@staff.example', 'refused'],
        ['fresh@staff.example', 'refused'],
        ['fresh@staff.example', 'refused'],
        ['fresh@staff.example', 'ok'],
      ],
    );
    assert.ok(!JSON.stringify(rows).includes('my very own password'), 'no password is recorded');
    await assert.rejects(t.ctx.staff.login('fresh@staff.example', oneTime, '127.0.0.1'), /Wrong e-mail or password/);
    await login(t, 'fresh@staff.example', 'my very own password');
  });

  test('a change ends every other session of the account, and keeps this one', async () => {
    await ensureStaff(t, 'twice@staff.example', 'viewer');
    const here = await clientOf(t, 'twice@staff.example', 'viewer', await login(t, 'twice@staff.example'));
    const there = await clientOf(t, 'twice@staff.example', 'viewer', await login(t, 'twice@staff.example'));
    const page = await here.get('/console/password');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.body, /one-time password/, 'a chosen password is not forced');
    const res = await here.post('/console/password', {
      current: PASSWORD,
      password: 'another good password',
      repeat: 'another good password',
    });
    assert.equal(res.status, 303, res.body);
    assert.equal((await here.get('/console')).status, 200);
    const ended = await there.get('/console');
    assert.equal(ended.status, 303);
    assert.equal(ended.location, '/console/login');
  });

  test('a reset (as `staff reset-password` does) makes the password one-time again', async () => {
    await ensureStaff(t, 'reset@staff.example', 'operator');
    const { password } = await t.ctx.staff.resetPassword(staffActor(), 'reset@staff.example');
    assert.equal((await account('reset@staff.example')).password_change_required, 1);
    const cookie = await login(t, 'reset@staff.example', password);
    const page = await inject(t, 'GET', '/console/top-ups', { cookie });
    assert.equal(page.status, 303);
    assert.equal(page.location, '/console/password');
  });

  test('the change and its audit row commit together: a refused audit row leaves the old password', async () => {
    await ensureStaff(t, 'atomic@staff.example', 'viewer');
    const client = await clientOf(t, 'atomic@staff.example', 'viewer', await login(t, 'atomic@staff.example'));
    const other = await clientOf(t, 'atomic@staff.example', 'viewer', await login(t, 'atomic@staff.example'));
    const db = t.database.db;
    if (t.database.dialect === 'sqlite') {
      await sql`create trigger refuse_password_audit before insert on audit_log
        when new.action = 'staff.change_password' and new.outcome = 'ok'
        begin select raise(abort, 'audit refused by the test'); end`.execute(db);
    } else {
      await sql`create function refuse_password_audit() returns trigger language plpgsql as $$ begin
        if new.action = 'staff.change_password' and new.outcome = 'ok' then raise exception 'audit refused by the test'; end if;
        return new; end $$`.execute(db);
      await sql`create trigger refuse_password_audit before insert on audit_log
        for each row execute function refuse_password_audit()`.execute(db);
    }
    const before = await account('atomic@staff.example');
    const form = { current: PASSWORD, password: 'a password of mine', repeat: 'a password of mine' };
    const refused = await client.post('/console/password', form);
    assert.equal(refused.status, 500);
    assert.deepEqual(await account('atomic@staff.example'), before, 'the password did not change');
    assert.equal((await other.get('/console')).status, 200, 'the other session did not end');

    await sql`drop trigger refuse_password_audit${t.database.dialect === 'postgres' ? sql` on audit_log` : sql``}`.execute(db);
    assert.equal((await client.post('/console/password', form)).status, 303);
    assert.notEqual((await account('atomic@staff.example')).password_hash, before.password_hash);
    assert.equal((await other.get('/console')).status, 303);
  });
});

/**
 * The suite hashes staff passwords at a test-only cost (scripts/run-tests.mjs sets NODE_ENV=test
 * and STAFF_PASSWORD_TEST_COST=1); everything else hashes at OWASP's (src/modules/console/passwords.ts).
 */
describe('the cost staff passwords are hashed at', () => {
  test('production cost unless the process is the test suite', () => {
    assert.deepEqual(PRODUCTION_COST, { N: 2 ** 17, r: 8, p: 1 });
    for (const env of [{}, { STAFF_PASSWORD_TEST_COST: '1' }, { NODE_ENV: 'production', STAFF_PASSWORD_TEST_COST: '1' }, { NODE_ENV: 'test' }]) {
      assert.deepEqual(passwordCost(env), PRODUCTION_COST, JSON.stringify(env));
    }
    assert.ok(passwordCost({ NODE_ENV: 'test', STAFF_PASSWORD_TEST_COST: '1' }).N < PRODUCTION_COST.N);
  });

  test('a production process stores a hash made at the production cost', async (c) => {
    const t = await useTestApp(c, { seed: null });
    // A process of its own: the cost is fixed when the module loads, from that process's environment.
    const created = await runCliProcess(['staff', 'create', '--email', 'prod-cost@staff.example', '--role', 'operator'], cliEnv(t, { NODE_ENV: 'production', LOG_LEVEL: 'warn' }));
    assert.equal(created.code, 0, created.stderr);
    const row = await t.database.db.selectFrom('staff_accounts').select('password_hash').where('email', '=', 'prod-cost@staff.example').executeTakeFirstOrThrow();
    assert.match(row.password_hash, /^scrypt\$131072\$8\$1\$/);
  });
});
