import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newTotpSecret, totpCode, TOTP_PERIOD_SECONDS } from '../../src/modules/console/totp.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD, signIn, type StaffClient } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { ledgerEntries, ledgerProblems } from '../support/ledger.js';

/**
 * Issue 41 item 3: four eyes on top-ups above TOPUP_APPROVAL_ABOVE (its default, GHS 500), in the
 * console and the CLI, with the money after each step; and the CLI's proof of who approves (the
 * approver's console password, and code with two-factor sign-in) instead of `--as`. One app for the file.
 */

describe(`four eyes on top-ups (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let admin: StaffClient;
  let admin2: StaffClient;
  let operator: StaffClient;
  let references = 0;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    admin = await signIn(t, 'admin', 'admin@staff.example');
    admin2 = await signIn(t, 'admin', 'admin2@staff.example');
    operator = await signIn(t, 'operator', 'operator@staff.example');
  });
  after(() => t.close());

  /** A live bank top-up request of usr_super, as the partner makes it. */
  async function requestTopUp(amount: number): Promise<string> {
    const res = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { amount, method: 'bank', reference: `FOUR-EYES-${++references}` },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return (res.body.data as { _id: string })._id;
  }

  /** The top-up as the partner's API shows it. */
  async function partnerView(id: string): Promise<{ status: string; decidedAt: number | null }> {
    const res = await t.call('GET', '/api/v1/top-ups?limit=100', { key: KEYS.superLive });
    const found = (res.body.data.topUps as { _id: string; status: string; decidedAt: number | null }[]).find((x) => x._id === id);
    assert.ok(found, `${id} is in the partner's list`);
    return { status: found.status, decidedAt: found.decidedAt };
  }

  const available = async () => (await t.wallet('usr_super', 'live')).available;
  const creditsOf = async (id: string) => (await ledgerEntries(t, 'usr_super', 'live')).filter((e) => e.top_up_id === id);
  const auditOf = (id: string) =>
    t.database.db.selectFrom('audit_log').select(['action', 'actor', 'outcome', 'detail']).where('record_id', '=', id).orderBy('id').execute();

  test('a 600 GHS top-up: pending after one approval, refused to the same admin and to an operator, credited once by a second admin', async () => {
    const id = await requestTopUp(600);
    const start = await available();

    const first = await admin.post(`/console/top-ups/${id}/approve`);
    assert.equal(first.status, 303, first.body);
    assert.equal(first.location, '/console/top-ups?notice=first-approval');
    assert.deepEqual(await partnerView(id), { status: 'pending', decidedAt: null });
    assert.equal(await available(), start, 'nothing moved at the first approval');
    assert.deepEqual(await creditsOf(id), []);
    const list = await admin2.get('/console/top-ups?status=pending');
    assert.match(list.body, new RegExp(`id="topup-${id}"[^]*?1 of 2 approvals, by admin@staff\\.example`));
    const page = await operator.get(`/console/top-ups/${id}`);
    assert.match(page.body, /1 of 2 approvals, by admin@staff\.example/);

    const twice = await admin.post(`/console/top-ups/${id}/approve`);
    assert.equal(twice.status, 409);
    assert.match(twice.body, /was approved once by you: another admin must give the second approval/);
    const byOperator = await operator.post(`/console/top-ups/${id}/approve`);
    assert.equal(byOperator.status, 403);
    assert.match(byOperator.body, /has 1 of 2 approvals \(by admin@staff\.example\): the second must be an admin/);
    assert.equal(await available(), start);
    assert.deepEqual(await partnerView(id), { status: 'pending', decidedAt: null });

    const second = await admin2.post(`/console/top-ups/${id}/approve`);
    assert.equal(second.status, 303, second.body);
    assert.equal(second.location, '/console/top-ups?notice=approved');
    assert.equal((await partnerView(id)).status, 'approved');
    assert.equal(await available(), start + 60000);
    const again = await admin2.post(`/console/top-ups/${id}/approve`);
    assert.equal(again.status, 409);
    assert.equal(await available(), start + 60000, 'credited once');
    assert.deepEqual((await creditsOf(id)).map((e) => e.available_delta), [60000]);

    const rows = (await auditOf(id)).filter((r) => r.outcome === 'ok');
    assert.deepEqual(
      rows.map((r) => [r.action, r.actor]),
      [
        ['topup.approve.first', 'admin@staff.example'],
        ['topup.approve', 'admin2@staff.example'],
      ],
    );
    assert.match(String(rows[1]?.detail), /"firstApprovedBy":"admin@staff\.example"/);
    const done = await admin.get(`/console/top-ups/${id}`);
    assert.match(done.body, /first approval by admin@staff\.example at/);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('an operator gives the first approval; 500.00 exactly needs one; a rejection after the first approval moves nothing', async () => {
    const big = await requestTopUp(600.5);
    const exact = await requestTopUp(500);
    const rejected = await requestTopUp(750);
    const start = await available();

    assert.equal((await operator.post(`/console/top-ups/${big}/approve`)).status, 303);
    assert.equal((await partnerView(big)).status, 'pending');
    assert.equal((await operator.post(`/console/top-ups/${exact}/approve`)).location, '/console/top-ups?notice=approved');
    assert.equal((await partnerView(exact)).status, 'approved');
    assert.equal(await available(), start + 50000);

    assert.equal((await operator.post(`/console/top-ups/${rejected}/approve`)).status, 303);
    const reject = await operator.post(`/console/top-ups/${rejected}/reject`, { reason: 'no such transfer' });
    assert.equal(reject.status, 303, reject.body);
    assert.equal((await partnerView(rejected)).status, 'rejected');
    assert.equal((await admin.post(`/console/top-ups/${rejected}/approve`)).status, 409);
    const [rejection] = (await auditOf(rejected)).filter((r) => r.action === 'topup.reject');
    assert.match(String(rejection?.detail), /"firstApprovedBy":"operator@staff\.example"/);

    // The bulk approval gives the second approval of one and the first of another, each its own way.
    const other = await requestTopUp(900);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/top-ups/approve',
      headers: { cookie: admin.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams([['_csrf', admin.csrf], ['ids', big], ['ids', other]]).toString(),
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, new RegExp(`${big}: approved: GHS 600\\.50 credited`));
    assert.match(res.body, new RegExp(`${other}: first approval recorded \\(1 of 2\\): GHS 900\\.00`));
    assert.equal(await available(), start + 50000 + 60050);
    assert.equal((await partnerView(other)).status, 'pending');
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the second approval is refused to an admin who created (or reset) the first approver’s account', async () => {
    const creatorId = await ensureStaff(t, 'creator-admin@staff.example', 'admin');
    const creator = await signIn(t, 'admin', 'creator-admin@staff.example');
    const createdId = await ensureStaff(t, 'created-operator@staff.example', 'operator');
    await t.database.db.updateTable('staff_accounts').set({ created_by_staff_id: creatorId }).where('id', '=', createdId).execute();
    const created = await signIn(t, 'operator', 'created-operator@staff.example');
    const id = await requestTopUp(700);
    const start = await available();

    assert.equal((await created.post(`/console/top-ups/${id}/approve`)).status, 303);
    const refused = await creator.post(`/console/top-ups/${id}/approve`);
    assert.equal(refused.status, 409, 'the creator of the first approver is not a second pair of eyes');
    assert.match(refused.body, /created-operator@staff\.example, who requested top-up \S+, was created by you/);
    assert.equal((await partnerView(id)).status, 'pending');
    assert.equal(await available(), start, 'nothing credited on a refused second approval');

    assert.equal((await admin2.post(`/console/top-ups/${id}/approve`)).status, 303);
    assert.equal((await partnerView(id)).status, 'approved');
    assert.equal(await available(), start + 70_000);
    assert.equal((await creditsOf(id)).length, 1);
  });

  test('the CLI: an approval above the threshold needs the approver’s password (and code with two-factor sign-in); --as is gone', async () => {
    const env = cliEnv(t, { LOG_LEVEL: 'warn' });
    const id = await requestTopUp(650);
    const start = await available();

    const bare = await runCli(['topups', 'approve', id], env);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /needs 2 approvals by named staff; approve it in the console \(or from the CLI with --approver <e-mail> --password-stdin\)/);
    const unproven = await runCli(['topups', 'approve', id, '--approver', 'operator@staff.example'], env);
    assert.equal(unproven.code, 1);
    assert.match(unproven.stderr, /--password-stdin/);
    const wrong = await runCli(['topups', 'approve', id, '--approver', 'operator@staff.example', '--password-stdin'], env, undefined, {
      stdin: 'not the password\n',
    });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /^refused: Wrong e-mail, password or code/);
    const unknown = await runCli(['topups', 'approve', id, '--approver', 'nobody@staff.example', '--password-stdin'], env, undefined, {
      stdin: `${PASSWORD}\n`,
    });
    assert.equal(unknown.stderr, wrong.stderr, 'an unknown account is refused in the same words');
    assert.equal(await available(), start);
    assert.equal((await t.ctx.topUps.listForStaff({ limit: 100 })).find((x) => x.id === id)?.first_approved_by, null);
    const failures = await t.database.db
      .selectFrom('audit_log')
      .select(['detail'])
      .where('action', '=', 'staff.login')
      .where('outcome', '=', 'refused')
      .execute();
    assert.ok(failures.some((f) => String(f.detail).includes('operator@staff.example')), 'the wrong password is a failed sign-in in the trail');

    const first = await runCli(['topups', 'approve', id, '--approver', 'operator@staff.example', '--password-stdin'], env, undefined, {
      stdin: `${PASSWORD}\n`,
    });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^first approval of ${id} recorded \\(1 of 2\\): GHS 650\\.00 waits`));
    assert.equal((await partnerView(id)).status, 'pending');
    const listed = await runCli(['topups', 'list', '--status', 'pending', '--mode', 'live'], env);
    assert.match(listed.stdout, new RegExp(`${id} .*1 of 2 approvals, by operator@staff\\.example \\(cli:`));

    // The second admin has two-factor sign-in on: the password alone is not enough.
    const secret = newTotpSecret();
    const adminId = await ensureStaff(t, 'admin2@staff.example', 'admin');
    await t.database.db
      .updateTable('staff_accounts')
      .set({ totp_secret: t.ctx.cipher.sealer('staff-totp').seal(secret), totp_enabled_at: Date.now() })
      .where('id', '=', adminId)
      .execute();
    const args = ['topups', 'approve', id, '--approver', 'admin2@staff.example', '--password-stdin'];
    const noCode = await runCli(args, env, undefined, { stdin: `${PASSWORD}\n` });
    assert.equal(noCode.code, 1);
    assert.match(noCode.stderr, /^refused: Wrong e-mail, password or code \(with two-factor sign-in on, add --code/);
    // A code of the step before, in case the current one was used: accepted once within the window.
    const code = totpCode(secret, Date.now() - TOTP_PERIOD_SECONDS * 1000);
    const wrongPassword = await runCli([...args, '--code', code], env, undefined, { stdin: 'guess\n' });
    assert.equal(wrongPassword.stderr, noCode.stderr, 'which part was wrong is not told');
    assert.equal(await available(), start);
    const second = await runCli([...args, '--code', code], env, undefined, { stdin: `${PASSWORD}\n` });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), `approved ${id}: credited GHS 650.00 to usr_super (live)`);
    assert.equal(await available(), start + 65000);
    const replay = await runCli([...args, '--code', code], env, undefined, { stdin: `${PASSWORD}\n` });
    assert.match(replay.stderr, /That code was used already/);

    const rows = (await auditOf(id)).filter((r) => r.outcome === 'ok');
    assert.deepEqual(
      rows.map((r) => r.action),
      ['topup.approve.first', 'topup.approve'],
    );
    assert.match(rows[0]?.actor ?? '', /^operator@staff\.example \(cli:.+\)$/);
    assert.match(rows[1]?.actor ?? '', /^admin2@staff\.example \(cli:.+\)$/);

    // At or below the threshold the CLI approves as its own user, as before.
    const small = await requestTopUp(500);
    const one = await runCli(['topups', 'approve', small], env);
    assert.equal(one.code, 0, one.stderr);
    assert.equal(await available(), start + 65000 + 50000);
    assert.match((await auditOf(small)).find((r) => r.action === 'topup.approve')?.actor ?? '', /^cli:/);

    for (const command of [
      ['topups', 'approve', small, '--as', 'admin@staff.example'],
      ['adjustments', 'approve', 'adj_x', '--as', 'admin@staff.example'],
      ['adjustments', 'reject', 'adj_x', '--reason', 'no', '--as', 'admin@staff.example'],
      ['adjustments', 'request', '--profile', 'usr_super', '--mode', 'live', '--credit', '1', '--reason', 'r', '--as', 'admin@staff.example'],
    ]) {
      const res = await runCli(command, env);
      assert.notEqual(res.code, 0, command.join(' '));
      assert.match(res.stderr, /unknown option '--as'/, command.join(' '));
    }
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('the CLI: an adjustment is requested as cli:<user>, and approved only with an admin’s proof', async () => {
    const env = cliEnv(t, { LOG_LEVEL: 'warn', ADJUSTMENT_APPROVAL_ABOVE: '100' });
    const start = await available();
    const requested = await runCli(
      ['adjustments', 'request', '--profile', 'usr_super', '--mode', 'live', '--credit', '250', '--reason', 'goodwill', '--json'],
      env,
    );
    assert.equal(requested.code, 0, requested.stderr);
    const { id, status } = JSON.parse(requested.stdout) as { id: string; status: string };
    assert.equal(status, 'pending');
    const [row] = await t.database.db.selectFrom('wallet_adjustments').selectAll().where('id', '=', id).execute();
    assert.match(row?.requested_by ?? '', /^cli:/);
    assert.equal(row?.requested_by_staff_id, null);

    const bare = await runCli(['adjustments', 'approve', id], env);
    assert.equal(bare.code, 1);
    assert.match(bare.stderr, /approve it in the console, or give --approver <admin e-mail> --password-stdin/);
    const byOperator = await runCli(['adjustments', 'approve', id, '--approver', 'operator@staff.example', '--password-stdin'], env, undefined, {
      stdin: `${PASSWORD}\n`,
    });
    assert.equal(byOperator.code, 1);
    assert.match(byOperator.stderr, /is operator; approving an adjustment needs an admin/);
    assert.equal(await available(), start);

    const ok = await runCli(['adjustments', 'approve', id, '--approver', 'admin@staff.example', '--password-stdin'], env, undefined, {
      stdin: `${PASSWORD}\r\n`,
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(await available(), start + 25000);
    const [approval] = (await auditOf(id)).filter((r) => r.action === 'wallet.adjust.approve' && r.outcome === 'ok');
    assert.match(approval?.actor ?? '', /^admin@staff\.example \(cli:.+\)$/);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
