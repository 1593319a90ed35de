import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { clientOf, CONSOLE_ENV, cookiesOf, csrfOf, ensureStaff, inject, login, PASSWORD, signIn, type StaffClient } from '../support/console.js';

/**
 * Issue 41, security review, "Four eyes can be passed alone": an admin asked a GHS 5 000 credit,
 * created a second admin account, signed in as it and approved. A new admin (or a role raised to
 * admin) now waits for a second admin; an approval between two accounts where one created or last
 * reset the other is refused (docs/console.md, "Four eyes"); the adjustment threshold counts what one
 * admin, and one wallet, moved alone in the last 24 hours.
 */
describe(`four eyes that one admin cannot pass alone (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let requester: StaffClient;
  let colleague: StaffClient;
  const actorOf = async (email: string) => ({ staffId: await ensureStaff(t, email, 'admin'), name: email, address: null });

  before(async () => {
    t = await createTestApp({ env: { ...CONSOLE_ENV, ADJUSTMENT_APPROVAL_ABOVE: '500' } });
    requester = await signIn(t, 'admin', 'requester@staff.example');
    colleague = await signIn(t, 'admin', 'colleague@staff.example');
  });
  after(() => t.close());

  const account = (email: string) => t.database.db.selectFrom('staff_accounts').selectAll().where('email', '=', email).executeTakeFirst();
  const pendingAdjustments = (profileId: string) => t.ctx.console.adjustments({ status: 'pending', profileId });
  /** Signs in with a one-time password as if its holder had replaced it (test/console/password.test.ts covers that page). */
  const signInWith = async (email: string, password: string) => {
    await t.database.db.updateTable('staff_accounts').set({ password_change_required: 0 }).where('email', '=', email).execute();
    return clientOf(t, email, 'admin', await login(t, email, password));
  };

  test('the reviewer’s scenario: a second admin made by the requester cannot approve its credit', async () => {
    const before = await t.wallet('usr_super', 'live');
    const asked = await requester.post('/console/partners/usr_super/adjustments', {
      mode: 'live',
      direction: 'credit',
      amount: '5000',
      reason: 'goodwill',
    });
    assert.match(asked.location ?? '', /notice=adjustment_pending/);
    const [credit] = await pendingAdjustments('usr_super');
    assert.ok(credit);

    // The requester creates a second admin: a request, and the account does not exist yet.
    const created = await requester.post('/console/staff', { email: 'sidekick@staff.example', role: 'admin' });
    assert.equal(created.status, 200);
    assert.match(created.body, /becomes an admin only once another admin approves it/);
    const oneTime = /<code id="new-password">([^<]+)<\/code>/.exec(created.body)?.[1];
    assert.ok(oneTime);
    assert.equal(await account('sidekick@staff.example'), undefined, 'no account before approval');
    const form = await inject(t, 'GET', '/console/login');
    const signInEarly = await inject(t, 'POST', '/console/login', {
      cookie: cookiesOf(form.headers).join('; '),
      form: { _csrf: csrfOf(form.body), email: 'sidekick@staff.example', password: oneTime },
    });
    assert.equal(signInEarly.status, 401, 'the new admin cannot sign in until another admin approves it');

    const [request] = await t.ctx.console.staffRequests('pending');
    assert.ok(request && request.email === 'sidekick@staff.example');
    assert.ok(!(await requester.get('/console/staff')).body.includes(`/console/staff/requests/${request.id}/approve`), 'not offered to its requester');
    const self = await requester.post(`/console/staff/requests/${request.id}/approve`);
    assert.equal(self.status, 409);
    assert.match(self.body, /was requested by you: another admin must approve it/);
    assert.equal(await account('sidekick@staff.example'), undefined);

    // Another admin approves it: the account exists, created by the requester.
    assert.ok((await colleague.get('/console/staff')).body.includes(`/console/staff/requests/${request.id}/approve`));
    const approved = await colleague.post(`/console/staff/requests/${request.id}/approve`);
    assert.equal(approved.status, 303, approved.body);
    const sidekickRow = await account('sidekick@staff.example');
    assert.equal(sidekickRow?.role, 'admin');
    assert.equal(sidekickRow?.created_by_staff_id, (await account('requester@staff.example'))?.id);
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('record_id', '=', request.id).orderBy('id').execute();
    assert.deepEqual(
      audit.filter((r) => r.outcome === 'ok').map((r) => [r.action, r.actor]),
      [
        ['staff.request', 'requester@staff.example'],
        ['staff.request.approve', 'colleague@staff.example'],
      ],
    );

    // Signed in as the account it created, the requester still cannot approve its own credit.
    const sidekick = await signInWith('sidekick@staff.example', oneTime);
    const refused = await sidekick.post(`/console/adjustments/${credit.id}/approve`);
    assert.equal(refused.status, 409);
    assert.match(refused.body, /your account was created by requester@staff\.example, who requested adjustment/);
    // Nor the other way round: the requester approving what its own creation asked.
    const sidekickActor = { staffId: sidekickRow?.id ?? '', name: 'sidekick@staff.example', address: null };
    const back = await t.ctx.console.requestAdjustment(sidekickActor, { profileId: 'usr_super', mode: 'live', direction: 'credit', amount: 900, reason: 'x' });
    assert.equal(back.status, 'pending');
    await assert.rejects(t.ctx.console.approveAdjustment(await actorOf('requester@staff.example'), back.id), /was created by you/);

    // An admin whose password the requester last reset (and so knows) is refused too.
    const reset = await t.ctx.console.resetStaffPassword(await actorOf('requester@staff.example'), 'colleague@staff.example');
    const resetColleague = await signInWith('colleague@staff.example', reset.password);
    const afterReset = await resetColleague.post(`/console/adjustments/${credit.id}/approve`);
    assert.equal(afterReset.status, 409);
    assert.match(afterReset.body, /your password was last reset by requester@staff\.example/);
    assert.deepEqual(await t.wallet('usr_super', 'live'), before, 'nothing moved');

    // An unrelated admin approves: the money moves once.
    const third = await signIn(t, 'admin', 'third@staff.example');
    assert.equal((await third.post(`/console/adjustments/${credit.id}/approve`)).status, 303);
    assert.equal((await t.wallet('usr_super', 'live')).available, before.available + 500_000);
  });

  test('raising a role to admin waits for another admin; the requester may withdraw it', async () => {
    const operatorId = await ensureStaff(t, 'promoted@staff.example', 'operator');
    const raised = await requester.post(`/console/staff/${operatorId}`, { role: 'admin', status: 'active' });
    assert.match(raised.location ?? '', /notice=staff_requested/);
    assert.equal((await account('promoted@staff.example'))?.role, 'operator');
    const [request] = (await t.ctx.console.staffRequests('pending')).filter((r) => r.email === 'promoted@staff.example');
    assert.ok(request && request.kind === 'promote');
    assert.equal((await requester.post(`/console/staff/requests/${request.id}/reject`, { reason: 'asked the wrong person' })).status, 303);
    assert.equal((await account('promoted@staff.example'))?.role, 'operator');

    // From the CLI too: a request (cli:<user> has no account), listed, approved in the console.
    const env = cliEnv(t, { LOG_LEVEL: 'warn' });
    const cli = await runCli(['staff', 'update', 'promoted@staff.example', '--role', 'admin'], env);
    assert.equal(cli.code, 0, cli.stderr);
    assert.match(cli.stdout, /waits for an admin to approve it in the console/);
    const listed = await runCli(['staff', 'requests'], env);
    assert.match(listed.stdout, /promote {2}promoted@staff\.example {2}admin {2}requested by cli:/);
    const [cliRequest] = (await t.ctx.console.staffRequests('pending')).filter((r) => r.email === 'promoted@staff.example');
    assert.ok(cliRequest);
    assert.equal((await requester.post(`/console/staff/requests/${cliRequest.id}/approve`)).status, 303);
    assert.equal((await account('promoted@staff.example'))?.role, 'admin');
  });

  test('six credits of GHS 500 by one admin: those above the 24-hour threshold wait; so does another admin’s on that wallet', async () => {
    const alone = await actorOf('alone@staff.example');
    const outcomes = [];
    for (let n = 0; n < 6; n++) {
      outcomes.push(
        await t.ctx.console.requestAdjustment(alone, { profileId: `usr_agent`, mode: 'live', direction: 'credit', amount: 500, reason: `part ${n}` }),
      );
    }
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['approved', 'pending', 'pending', 'pending', 'pending', 'pending'],
    );
    // Another admin, alone, on the same wallet: the wallet's 24 hours count too.
    const other = await actorOf('other-alone@staff.example');
    assert.equal((await t.ctx.console.requestAdjustment(other, { profileId: 'usr_agent', mode: 'live', direction: 'debit', amount: 1, reason: 'fee' })).status, 'pending');
    // The same admin on another wallet: its own 24 hours count.
    assert.equal((await t.ctx.console.requestAdjustment(alone, { profileId: 'usr_customer', mode: 'live', direction: 'credit', amount: 1, reason: 'x' })).status, 'pending');
    // A day later both are within the threshold again.
    const [first] = outcomes;
    assert.ok(first);
    await t.database.db.updateTable('wallet_adjustments').set({ created_at: Date.now() - 25 * 3_600_000 }).where('id', '=', first.id).execute();
    assert.equal((await t.ctx.console.requestAdjustment(alone, { profileId: 'usr_agent', mode: 'live', direction: 'credit', amount: 500, reason: 'next day' })).status, 'approved');
  });

  test('adjustments list names the approver as "approved by", not the requester', async () => {
    const asker = await actorOf('asker@staff.example');
    const pending = await t.ctx.console.requestAdjustment(asker, { profileId: 'usr_customer', mode: 'test', direction: 'credit', amount: 600, reason: 'listed' });
    assert.equal(pending.status, 'pending');
    await t.ctx.console.approveAdjustment(await actorOf('approver@staff.example'), pending.id);
    const env = cliEnv(t, { LOG_LEVEL: 'warn' });
    const listed = await runCli(['adjustments', 'list', '--profile', 'usr_customer'], env);
    assert.equal(listed.code, 0, listed.stderr);
    const line = listed.stdout.split('\n').find((l) => l.startsWith(pending.id));
    assert.match(line ?? '', /approved {2}approved by approver@staff\.example, requested by asker@staff\.example {2}listed$/);
    const json = JSON.parse((await runCli(['adjustments', 'list', '--profile', 'usr_customer', '--json'], env)).stdout) as { id: string; approvedBy: string | null }[];
    assert.equal(json.find((a) => a.id === pending.id)?.approvedBy, 'approver@staff.example');
    const page = await requester.get('/console/adjustments?mode=test');
    assert.match(page.body, /approved by approver@staff\.example/);
  });

  test('the first admin of an empty platform is created at once from the CLI', async () => {
    await t.database.db.updateTable('staff_accounts').set({ role: 'viewer' }).where('role', '=', 'admin').execute();
    const env = cliEnv(t, { LOG_LEVEL: 'warn' });
    const first = await runCli(['staff', 'create', '--email', 'first@staff.example', '--role', 'admin'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /^staff stf_\S+ first@staff\.example \(admin\)/);
    const second = await runCli(['staff', 'create', '--email', 'second@staff.example', '--role', 'admin'], env);
    assert.match(second.stdout, /^request sreq_\S+: second@staff\.example \(admin\) waits for an admin/);
    assert.equal(await account('second@staff.example'), undefined);
    void PASSWORD;
  });
});
