import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page as BrowserPage } from 'playwright-core';
import { hashApiKey } from '../../src/modules/profiles/api-keys.js';
import { LINES_CSV_HEADER } from '../../src/modules/wallet/statement.js';
import { openBrowser, screenshot } from '../support/browser.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD, signIn, type StaffClient } from '../support/console.js';
import { parseCsv } from '../support/csv.js';

/**
 * Issue 29, items 1 to 3: onboarding a partner, its statement and wallet adjustments (four eyes
 * above ADJUSTMENT_APPROVAL_ABOVE), through the console (forms and Chromium) and the CLI, with the
 * money after each (the statement's closing balance is the wallet's, and `ledger verify` stays
 * clean), the audit row, the partner's event and the roles. One app for the file.
 */

const APPROVAL_ABOVE = 100;

describe(`partners, statements and wallet adjustments (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;
  let admin: StaffClient;
  let admin2: StaffClient;
  let operator: StaffClient;
  let viewer: StaffClient;
  let adminActor: { staffId: string; name: string; address: null };

  before(async () => {
    t = await createTestApp({ env: { ...CONSOLE_ENV, ADJUSTMENT_APPROVAL_ABOVE: String(APPROVAL_ABOVE) } });
    admin = await signIn(t, 'admin');
    admin2 = await signIn(t, 'admin', 'second-admin@staff.example');
    operator = await signIn(t, 'operator');
    viewer = await signIn(t, 'viewer');
    adminActor = { staffId: await ensureStaff(t, 'admin@staff.example', 'admin'), name: 'admin@staff.example', address: null };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  const balance = async (key: string) => {
    const res = await t.call('GET', '/api/v1/wallet-balance', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as { availableBalance: number; heldBalance: number };
  };
  const adjustedEvents = async (key: string) => {
    const res = await t.call('GET', '/api/v1/events?type=wallet.adjusted&limit=100', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data as { events: { data: { object: Record<string, unknown> } }[] }).events.map((e) => e.data.object);
  };
  const auditOf = async (action: string, recordId: string) =>
    (await t.ctx.audit.list({ action, limit: 50 })).filter((a) => a.recordId === recordId);
  const verified = async () => {
    const report = await t.ctx.ledger.verify();
    assert.deepEqual(report.mismatches, []);
  };
  const newPartner = async (email: string) => t.ctx.console.createProfile(adminActor, {
    firstName: 'Kofi',
    lastName: 'Mensah',
    phoneNumber: '0244 555 123',
    email,
    role: 'Agent',
    status: 'Active',
  });
  const keyOf = (created: { keys: { mode: string; key: string }[] }, mode: string) => {
    const key = created.keys.find((k) => k.mode === mode)?.key;
    assert.ok(key);
    return key;
  };

  test('onboard a partner in the console: wallets per mode, first keys shown once and hashed, edited later; roles', async () => {
    const form = { firstName: 'Akosua', middleName: '', lastName: 'Boateng', phoneNumber: '+233 24 412 3456', email: 'Akosua@Partner.example', role: 'Agent', status: 'Active' };
    const refused = await operator.post('/console/partners', form);
    assert.equal(refused.status, 403);
    const page = await admin.post('/console/partners', form);
    assert.equal(page.status, 200, page.body.slice(0, 500));
    const live = /id="new-key-live">(service_live_[A-Za-z0-9_-]+)</.exec(page.body)?.[1];
    const testKey = /id="new-key-test">(service_test_[A-Za-z0-9_-]+)</.exec(page.body)?.[1];
    assert.ok(live && testKey, 'both keys are shown');
    const profileId = String(page.headers['hx-push-url']).split('/').pop() ?? '';
    assert.match(profileId, /^usr_/);
    // Only the hashes are kept; the keys work at once on the API with a zero wallet each.
    const keys = await t.database.db.selectFrom('api_keys').select(['key_hash', 'mode']).where('profile_id', '=', profileId).orderBy('mode').execute();
    assert.deepEqual(keys, [
      { key_hash: hashApiKey(live), mode: 'live' },
      { key_hash: hashApiKey(testKey), mode: 'test' },
    ]);
    assert.deepEqual(await balance(live), { ...(await balance(live)), availableBalance: 0, heldBalance: 0 });
    assert.equal((await balance(testKey)).availableBalance, 0);
    const profile = await t.call('GET', '/api/v1/profile', { key: live });
    assert.equal(profile.body.data.email, 'akosua@partner.example');
    assert.equal(profile.body.data.phoneNumber, '0244123456');
    // The partner page later never shows them again; the audit row names the prefixes only.
    const again = await viewer.get(`/console/partners/${profileId}`);
    assert.equal(again.status, 200);
    assert.ok(!again.body.includes(live) && !again.body.includes(testKey));
    const [created] = await auditOf('profile.create', profileId);
    assert.equal(created?.actor, 'admin@staff.example');
    assert.ok(!JSON.stringify(created).includes(live.slice(20)), 'the audit row holds no key');
    // A second partner with the same e-mail is refused.
    const twice = await admin.post('/console/partners', { ...form, email: 'akosua@partner.example' });
    assert.equal(twice.status, 409);
    assert.match(twice.body, /already has the e-mail/);

    const editForm = await admin.get(`/console/partners/${profileId}/edit`);
    assert.match(editForm.body, /value="Boateng"/);
    assert.equal((await operator.get(`/console/partners/${profileId}/edit`)).status, 403);
    const saved = await admin.post(`/console/partners/${profileId}`, { ...form, lastName: 'Owusu', role: 'SuperAgent' });
    assert.equal(saved.status, 303);
    const [updated] = await auditOf('profile.update', profileId);
    assert.deepEqual(updated?.detail, { lastName: { before: 'Boateng', after: 'Owusu' }, role: { before: 'Agent', after: 'SuperAgent' } });
    assert.equal((await t.call('GET', '/api/v1/profile', { key: live })).body.data.role, 'SuperAgent');
  });

  test('adjustments: applied up to the threshold, four eyes above it, never below zero; the audit row and the event', async () => {
    const partner = await newPartner('adjust@partner.example');
    const live = keyOf(partner, 'live');
    const id = partner.id;
    const adjust = (who: StaffClient, direction: string, amount: string, reason = 'correction') =>
      who.post(`/console/partners/${id}/adjustments`, { mode: 'live', direction, amount, reason });

    assert.equal((await adjust(operator, 'credit', '50')).status, 403, 'an operator cannot adjust');
    const credited = await adjust(admin, 'credit', '50', 'Refund of duplicate charge');
    assert.equal(credited.status, 303);
    assert.match(credited.location ?? '', /notice=adjusted/);
    assert.equal((await balance(live)).availableBalance, 50);
    const [event] = await adjustedEvents(live);
    assert.deepEqual(
      { ...event, _id: undefined, createdAt: undefined, appliedAt: undefined },
      { _id: undefined, createdAt: undefined, appliedAt: undefined, userProfileId: id, mode: 'live', direction: 'credit', amount: 50, reason: 'Refund of duplicate charge', availableBalance: 50, heldBalance: 0 },
    );
    const [applied] = await auditOf('wallet.adjust', String(event?._id));
    assert.equal(applied?.outcome, 'ok');
    assert.deepEqual(applied?.detail, {
      profileId: id,
      mode: 'live',
      direction: 'credit',
      amount: 50,
      reason: 'Refund of duplicate charge',
      status: 'approved',
      movedAloneIn24h: { byRequester: 0, onWallet: 0 },
    });

    const tooMuch = await adjust(admin, 'debit', '80');
    assert.equal(tooMuch.status, 409);
    assert.match(tooMuch.body, /below zero/);
    assert.equal((await balance(live)).availableBalance, 50);
    assert.equal((await adjust(admin, 'credit', '0')).status, 400);
    assert.equal((await adjust(admin, 'credit', '1.005')).status, 400);
    assert.equal((await adjust(admin, 'credit', '5', '   ')).status, 400);

    // Above the threshold: pending, nothing moves until another admin approves.
    const pending = await adjust(admin, 'credit', '150', 'Promotion agreed by the director');
    assert.match(pending.location ?? '', /notice=adjustment_pending/);
    const [row] = await t.ctx.console.adjustments({ status: 'pending', profileId: id });
    assert.ok(row);
    assert.equal((await balance(live)).availableBalance, 50);
    assert.equal((await adjustedEvents(live)).length, 1);
    const own = await admin.get('/console/adjustments');
    assert.ok(!own.body.includes(`/console/adjustments/${row.id}/approve`), 'its requester is not offered Approve');
    const selfApproval = await admin.post(`/console/adjustments/${row.id}/approve`);
    assert.equal(selfApproval.status, 409);
    assert.match(selfApproval.body, /another admin must approve it/);
    assert.equal((await operator.post(`/console/adjustments/${row.id}/approve`)).status, 403);
    assert.equal((await balance(live)).availableBalance, 50);
    const queue = await admin2.get('/console/adjustments');
    assert.ok(queue.body.includes(`/console/adjustments/${row.id}/approve`));
    const approved = await admin2.post(`/console/adjustments/${row.id}/approve`);
    assert.equal(approved.status, 303);
    assert.equal((await balance(live)).availableBalance, 200);
    const events = await adjustedEvents(live);
    assert.equal(events.length, 2);
    assert.equal(events[0]?.availableBalance, 200);
    const [approval] = await auditOf('wallet.adjust.approve', row.id);
    assert.equal(approval?.actor, 'second-admin@staff.example');
    assert.equal((await admin2.post(`/console/adjustments/${row.id}/approve`)).status, 409, 'approved once only');

    // A pending debit that no longer fits stays pending; then it is rejected and nothing moves.
    await adjust(admin, 'debit', '120', 'Chargeback');
    const [debit] = await t.ctx.console.adjustments({ status: 'pending', profileId: id });
    assert.ok(debit);
    // As if the credit of 50 were a day old: the threshold counts what was moved alone in the last 24 hours.
    await t.database.db.updateTable('wallet_adjustments').set({ created_at: Date.now() - 2 * 86_400_000 }).where('profile_id', '=', id).execute();
    await adjust(admin, 'debit', '100', 'Fee');
    assert.equal((await balance(live)).availableBalance, 100);
    const noFunds = await admin2.post(`/console/adjustments/${debit.id}/approve`);
    assert.equal(noFunds.status, 409);
    assert.match(noFunds.body, /below zero; nothing moved/);
    assert.equal((await t.ctx.console.adjustments({ status: 'pending', profileId: id })).length, 1);
    assert.equal((await admin.post(`/console/adjustments/${debit.id}/reject`, { reason: 'disputed' })).status, 303);
    assert.equal((await balance(live)).availableBalance, 100);
    assert.equal((await adjustedEvents(live)).length, 3);
    assert.equal((await auditOf('wallet.adjust.reject', debit.id))[0]?.detail?.reason, 'disputed');
    await verified();

    // Two admins approving one adjustment at once: it is applied once.
    await adjust(admin, 'credit', '300', 'Settlement');
    const [race] = await t.ctx.console.adjustments({ status: 'pending', profileId: id });
    assert.ok(race);
    const third = { staffId: await ensureStaff(t, 'third-admin@staff.example', 'admin'), name: 'third-admin@staff.example', address: null };
    const second = { staffId: await ensureStaff(t, 'second-admin@staff.example', 'admin'), name: 'second-admin@staff.example', address: null };
    const outcomes = await Promise.allSettled([t.ctx.console.approveAdjustment(second, race.id), t.ctx.console.approveAdjustment(third, race.id)]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
    assert.equal((await balance(live)).availableBalance, 400);
    assert.equal((await adjustedEvents(live)).length, 4);
    await verified();

    const statement = await t.ctx.console.statement({ profileId: id, mode: 'live' });
    assert.equal(statement.closing.available, 40_000);
    assert.deepEqual(statement.lines.map((l) => l.amount), [5000, 15_000, -10_000, 30_000]);
    assert.deepEqual(statement.lines.map((l) => l.type), ['adjustment', 'adjustment', 'adjustment', 'adjustment']);
  });

  test('statement: pages of 100 past the first, period and line-type filters, CSV parsed back equals the lines; totals reconcile', async () => {
    const partner = await newPartner('statement@partner.example');
    const id = partner.id;
    const testKey = keyOf(partner, 'test');
    // Test-mode top-ups are credited at once: 130 lines.
    for (let i = 1; i <= 130; i++) {
      const res = await t.call('POST', '/api/v1/top-ups/request', {
        key: testKey,
        body: { amount: i % 10 === 0 ? 0.5 : 1.25, method: 'bank', reference: i === 7 ? 'comma, "quote"' : `entry ${i}` },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const wallet = await balance(testKey);
    const first = await viewer.get(`/console/partners/${id}/statement?mode=test`);
    assert.equal(first.status, 200);
    const rowsOf = (body: string) => [...body.matchAll(/<tr><td>\d{4}-[^<]*<\/td><td>topup<\/td><td><a href="\/console\/top-ups\/([^"]+)"/g)].map((m) => m[1]);
    const page1 = rowsOf(first.body);
    assert.equal(page1.length, 100);
    const next = /href="([^"]+)" rel="next"/.exec(first.body)?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    assert.ok(next, 'a next page');
    const second = await viewer.get(next);
    const page2 = rowsOf(second.body);
    assert.equal(page2.length, 30, `${next}: ${second.status}`);
    assert.ok(!/rel="next"/.test(second.body), 'the last page has no next');
    assert.equal(new Set([...page1, ...page2]).size, 130, 'pages follow each other without overlap');
    const ghsText = (n: number) => `GHS ${n.toFixed(2)}`;
    assert.match(first.body, new RegExp(`id="closing">${ghsText(wallet.availableBalance)}<`));

    // The CSV holds every line, in order, and its last balance is the wallet's.
    const csv = await viewer.get(`/console/partners/${id}/statement.csv?mode=test`);
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    const [header, ...rows] = parseCsv(csv.body);
    assert.deepEqual(header, [...LINES_CSV_HEADER]);
    const statement = await t.ctx.console.statement({ profileId: id, mode: 'test', limit: 1000 });
    assert.equal(rows.length, 130);
    assert.deepEqual(
      rows.map((r) => [r[1], r[2], r[6], Math.round(Number(r[8] || 0) * 100) - Math.round(Number(r[7] || 0) * 100), Number(r[9])]),
      statement.lines.map((l) => [l.type, l.topUpId, l.description, l.amount, l.balanceAfter / 100]),
    );
    assert.ok(rows.some((r) => r[6] === 'Top-up by bank transfer, reference comma, "quote"'), 'a quoted field parses back');
    assert.equal(rows.at(-1)?.[9], wallet.availableBalance.toFixed(2));
    const sum = rows.reduce((total, r) => total + Math.round(Number(r[8] || 0) * 100) - Math.round(Number(r[7] || 0) * 100), 0);
    assert.equal(sum, Math.round(wallet.availableBalance * 100), 'the lines sum to the balance');
    assert.equal(statement.totals.credits + statement.totals.debits, sum);
    assert.deepEqual(statement.opening, { available: 0, held: 0 }, 'a statement from the first entry opens at zero');
    assert.equal(statement.opening.available + statement.totals.credits + statement.totals.debits, statement.closing.available);
    assert.match(first.body, /id="opening">GHS 0\.00</);
    await verified();

    // Period and line type.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const later = await t.ctx.console.statement({ profileId: id, mode: 'test', from: tomorrow });
    assert.equal(later.lines.length, 0);
    assert.equal(later.opening.available, Math.round(wallet.availableBalance * 100), 'opening of a later period is the balance now');
    const today = new Date().toISOString().slice(0, 10);
    assert.equal((await t.ctx.console.statement({ profileId: id, mode: 'test', from: today, to: today, types: ['adjustment'] })).lines.length, 0);
    assert.equal((await t.ctx.console.statement({ profileId: id, mode: 'test', types: ['topup'], limit: 1000 })).lines.length, 130);
    assert.equal((await viewer.get(`/console/partners/${id}/statement?mode=test&from=2026-02-30`)).status, 400);
    assert.equal((await viewer.get(`/console/partners/${id}/statement?mode=test&kind=nope`)).status, 400);
    const print = await viewer.get(`/console/partners/${id}/statement/print?mode=test`);
    assert.equal(rowsOf(print.body).length, 130, 'the printable page holds the whole period');
    const money = (n: number) => ghsText(Math.abs(n) / 100);
    assert.ok(
      first.body.replaceAll('&#61;', '=').includes(`id="reconcile">GHS 0.00 + ${money(statement.totals.credits)} − ${money(statement.totals.debits)} = ${ghsText(wallet.availableBalance)}<`),
      'opening + credits − debits = closing, on screen',
    );
  });

  test('the same from the CLI: profiles create|update, adjustments (four eyes: an admin proven by password), ledger statement --csv equals the console export', async () => {
    const env = cliEnv(t, { ADJUSTMENT_APPROVAL_ABOVE: String(APPROVAL_ABOVE), LOG_LEVEL: 'warn' });
    await ensureStaff(t, 'operator@staff.example', 'operator');
    const created = await runCli(
      ['profiles', 'create', '--first-name', 'Yaw', '--last-name', 'Asante', '--phone', '0554000999', '--email', 'yaw@partner.example', '--role', 'Agent', '--json'],
      env,
    );
    assert.equal(created.code, 0, created.stderr);
    const partner = JSON.parse(created.stdout) as { id: string; keys: { mode: string; key: string }[] };
    const live = keyOf(partner, 'live');
    assert.equal((await balance(live)).availableBalance, 0);

    const request = (args: string[]) => runCli(['adjustments', 'request', '--profile', partner.id, '--mode', 'live', ...args], env);
    const applied = await request(['--credit', '30', '--reason', 'welcome', '--json']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.deepEqual({ ...JSON.parse(applied.stdout), id: undefined }, { id: undefined, status: 'approved', amount: 30, availableBalance: 30 });
    const pending = await request(['--credit', '170', '--reason', 'bonus', '--json']);
    const pendingId = (JSON.parse(pending.stdout) as { id: string; status: string }).id;
    assert.equal((JSON.parse(pending.stdout) as { status: string }).status, 'pending');
    const unproven = await runCli(['adjustments', 'approve', pendingId], env);
    assert.equal(unproven.code, 1);
    assert.match(unproven.stderr, /approve it in the console, or give --approver/);
    const approveAs = (email: string) =>
      runCli(['adjustments', 'approve', pendingId, '--approver', email, '--password-stdin'], env, undefined, { stdin: `${PASSWORD}\n` });
    const noAdmin = await approveAs('operator@staff.example');
    assert.equal(noAdmin.code, 1);
    assert.match(noAdmin.stderr, /needs an admin/);
    assert.equal((await balance(live)).availableBalance, 30);
    const listed = await runCli(['adjustments', 'list', '--pending', '--profile', partner.id, '--json'], env);
    assert.deepEqual((JSON.parse(listed.stdout) as { id: string }[]).map((a) => a.id), [pendingId]);
    const ok = await approveAs('second-admin@staff.example');
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal((await balance(live)).availableBalance, 200);
    const [approval] = await auditOf('wallet.adjust.approve', pendingId);
    assert.match(approval?.actor ?? '', /^second-admin@staff\.example \(cli:/);
    assert.equal((await adjustedEvents(live)).length, 2);

    const [cliCsv, consoleCsv, json, verify] = await Promise.all([
      runCli(['ledger', 'statement', '--profile', partner.id, '--mode', 'live', '--csv'], env),
      admin.get(`/console/partners/${partner.id}/statement.csv?mode=live`),
      runCli(['ledger', 'statement', '--profile', partner.id, '--mode', 'live', '--json'], env),
      runCli(['ledger', 'verify'], env),
    ]);
    assert.equal(cliCsv.code, 0, cliCsv.stderr);
    assert.deepEqual(parseCsv(cliCsv.stdout), parseCsv(consoleCsv.body));
    const shown = JSON.parse(json.stdout) as { closing: { availableBalance: number }; lines: unknown[] };
    assert.equal(shown.closing.availableBalance, 200);
    assert.equal(shown.lines.length, 2);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);

    const updated = await runCli(['profiles', 'update', partner.id, '--role', 'SuperAgent'], env);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /updated: role/);
    assert.equal((await t.call('GET', '/api/v1/profile', { key: live })).body.data.role, 'SuperAgent');
    const badDate = await runCli(['ledger', 'statement', '--profile', partner.id, '--mode', 'live', '--from', '2026-13-01'], env);
    assert.equal(badDate.code, 1);
    assert.match(badDate.stderr, /from must be a date/);
  });

  test('in Chromium: onboard, adjust, read the statement, approve as a second admin, print; screenshots kept', { timeout: 180_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const open = async (email: string) => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.accept());
      await page.goto(`${origin}/console/login`);
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
      return page;
    };
    // An admin with no adjustments of its own in the last 24 hours (the earlier tests' admin has some):
    // the 40 GHS credit is within ADJUSTMENT_APPROVAL_ABOVE and applied at once.
    await ensureStaff(t, 'browser-admin@staff.example', 'admin');
    const page: BrowserPage = await open('browser-admin@staff.example');
    await page.getByRole('link', { name: 'partners', exact: true }).click();
    await page.getByRole('link', { name: 'New partner' }).click();
    await page.getByLabel('First name').fill('Esi');
    await page.getByLabel('Last name').fill('Quaye');
    await page.getByLabel('Phone').fill('0244 777 888');
    await page.getByLabel('E-mail').fill('esi@partner.example');
    await page.getByLabel('Role').selectOption('SuperAgent');
    await screenshot(page, 'partner-new-form');
    await page.getByRole('button', { name: 'Create partner, wallets and keys' }).click();
    const liveKey = (await page.locator('#new-key-live').textContent())?.trim() ?? '';
    assert.match(liveKey, /^service_live_/);
    await screenshot(page, 'partner-created-keys-once');
    assert.equal((await balance(liveKey)).availableBalance, 0);

    await page.getByLabel('Amount (GHS)').fill('40');
    await page.getByLabel('Reason').fill('Opening credit agreed with the partner');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByText('Adjustment applied').waitFor();
    assert.equal((await balance(liveKey)).availableBalance, 40);
    await page.getByLabel('Amount (GHS)').fill('250');
    await page.getByLabel('Reason').fill('Quarterly rebate');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByText('waits for a second admin').waitFor();
    await screenshot(page, 'partner-adjustment-pending');
    assert.equal((await balance(liveKey)).availableBalance, 40);

    const second = await open('second-admin@staff.example');
    await second.getByRole('link', { name: 'adjustments', exact: true }).click();
    await second.getByRole('button', { name: 'Approve' }).first().waitFor();
    await screenshot(second, 'adjustments-queue-second-admin');
    await second.getByRole('button', { name: 'Approve' }).first().click();
    await second.getByText('Adjustment approved').waitFor();
    assert.equal((await balance(liveKey)).availableBalance, 290);

    await page.getByRole('link', { name: 'Live statement' }).click();
    await page.locator('#closing').getByText('GHS 290.00').waitFor();
    assert.equal(await page.locator('tbody tr').count(), 2);
    await screenshot(page, 'partner-statement');
    const href = await page.getByRole('link', { name: 'Printable statement' }).getAttribute('href');
    assert.ok(href);
    await page.goto(`${origin}${href}`);
    await page.getByRole('heading', { name: 'Wallet statement' }).waitFor();
    await screenshot(page, 'partner-statement-printable');
    await verified();
  });
});
