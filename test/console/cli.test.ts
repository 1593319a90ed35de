import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { passwordCost } from '../../src/modules/console/passwords.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';
import { buySingle } from '../support/orders.js';
import { enrolTwoFactor, ensureStaff } from '../support/console.js';
import { seedFinding } from '../support/reconciliation.js';

/** Issue 18 item 6: the CLI can look things up, as a new user would try it. */
describe('cli reads: profiles, rc stock, orders show, keys list, staff, audit, --version, durations', () => {
  let t: TestApp;
  let env: Record<string, string>;
  let orderId: string;
  let shortReference: string;
  before(async () => {
    t = await createTestApp();
    env = cliDatabaseEnv(t.testDb);
    const bought = await buySingle(t, KEYS.superLive, '0244810051');
    assert.equal(bought.status, 200);
    orderId = bought.body.data.orderId;
    shortReference = bought.body.data.shortReference;
    // Open for a minute: stuck for any threshold under that.
    await t.database.db
      .updateTable('order_items')
      .set({ updated_at: Date.now() - 60_000 })
      .where('order_id', '=', orderId)
      .execute();
  });
  after(() => t.close());

  test("operators network sets and clears an operator's network (audited), operators list shows it; bad input is one line", async () => {
    const set = await runCli(['operators', 'network', 'op_off', 'telecel'], env);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stdout.trim(), 'network of op_off: none -> TELECEL');
    const list = await runCli(['operators', 'list'], env);
    assert.match(list.stdout, /^op_off {2}Inactive {2}TELECEL {2}Dormant Networks$/m);
    assert.match(list.stdout, /^op_a {2}Active {2}none {2}Alpha Mobile$/m);
    const [cleared, bad, unknown] = await Promise.all([
      runCli(['operators', 'network', 'op_off', 'none'], env),
      runCli(['operators', 'network', 'op_off', 'Vodafone'], env),
      runCli(['operators', 'network', 'op_nobody', 'MTN'], env),
    ]);
    assert.equal(cleared.stdout.trim(), 'network of op_off: TELECEL -> none');
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim(), 'network must be one of MTN, TELECEL, AT or none (got "Vodafone")');
    assert.notEqual(unknown.code, 0);
    assert.equal(unknown.stderr.trim(), 'refused: no operator op_nobody');
    const [done] = await t.ctx.audit.list({ action: 'operator.network', limit: 1 });
    assert.match(done?.actor ?? '', /^cli:/);
  });

  test('--version prints the package version', async () => {
    const version = await runCli(['--version'], {});
    assert.equal(version.code, 0, version.stderr);
    assert.equal(version.stdout.trim(), '0.1.0');
  });

  test('profiles list and rc stock, as text and as JSON', async () => {
    const [text, json, stock, stockJson] = await Promise.all([
      runCli(['profiles', 'list'], env),
      runCli(['profiles', 'list', '--json'], env),
      runCli(['rc', 'stock'], env),
      runCli(['rc', 'stock', '--json'], env),
    ]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^usr_super {2}Ama .*SuperAgent {2}Active {2}live GHS \d+\.\d{2} \(held GHS \d+\.\d{2}\)/m);
    const profiles = JSON.parse(json.stdout) as { id: string; status: string; wallets: { mode: string }[] }[];
    assert.equal(profiles.find((p) => p.id === 'usr_suspended')?.status, 'Suspended');
    assert.ok(profiles.find((p) => p.id === 'usr_super')?.wallets.some((w) => w.mode === 'live'));
    assert.equal(stock.code, 0, stock.stderr);
    assert.match(stock.stdout, /^rcp_wassce {2}\S+ {2}WASSCE Checker {2}\S+ {2}in stock 3 {2}LOW$/m);
    const lines = JSON.parse(stockJson.stdout) as { packageId: string; stock: number; low: boolean }[];
    assert.deepEqual(
      lines.find((l) => l.packageId === 'rcp_wassce'),
      { ...lines.find((l) => l.packageId === 'rcp_wassce'), stock: 3, low: true },
    );
  });

  test('orders show by id and by short reference; an unknown one is one line', async () => {
    const [byId, byRef, json, unknown] = await Promise.all([
      runCli(['orders', 'show', orderId], env),
      runCli(['orders', 'show', shortReference.toLowerCase()], env),
      runCli(['orders', 'show', shortReference, '--json'], env),
      runCli(['orders', 'show', 'DBNOPE2345'], env),
    ]);
    assert.equal(byId.code, 0, byId.stderr);
    assert.match(byId.stdout, new RegExp(`^order ${orderId} ${shortReference} {2}processing|pending`));
    assert.match(byId.stdout, /^ {2}#0 233244810051 \w+ attempt 1 GHS \d+\.\d{2}/m);
    assert.match(byId.stdout, /^ledger:\n {2}\d+ \S+ data_hold available GHS -/m);
    assert.equal(byRef.stdout, byId.stdout);
    assert.equal((JSON.parse(json.stdout) as { order: { _id: string } }).order._id, orderId);
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), "no order DBNOPE2345: give an order id, a short reference, a paymentReference or a recipient's number");
  });

  test('orders stuck takes durations as it prints them (1s, 10s, 5m) and prints its summary once', async () => {
    const [oneSecond, fiveMinutes, json, bad] = await Promise.all([
      runCli(['orders', 'stuck', '--older-than', '1s'], env),
      runCli(['orders', 'stuck', '--older-than', '5m'], env),
      runCli(['orders', 'stuck', '--older-than', '10s', '--json'], env),
      runCli(['orders', 'stuck', '--older-than', 'soon'], env),
    ]);
    assert.equal(oneSecond.code, 2, oneSecond.stderr);
    assert.match(oneSecond.stdout, /^orders stuck: 1 deliveries open longer than 1s$/m);
    assert.equal(oneSecond.stdout.match(/orders stuck:/g)?.length, 1);
    assert.equal(oneSecond.stderr, '');
    assert.equal(fiveMinutes.code, 0, fiveMinutes.stderr);
    assert.equal(fiveMinutes.stdout.trim(), 'orders stuck: none (no delivery open longer than 5m0s)');
    assert.equal(json.code, 2);
    const parsed = JSON.parse(json.stdout) as { olderThanMs: number; stuck: { orderId: string }[] };
    assert.equal(parsed.olderThanMs, 10_000);
    assert.deepEqual(
      parsed.stuck.map((s) => s.orderId),
      [orderId],
    );
    assert.equal(bad.code, 1);
    assert.match(
      bad.stderr,
      /^--older-than must be a duration such as 10s, 5m, 1h30m or a number of milliseconds \(got "soon"\)$/m,
    );
  });

  test('keys list without --profile lists every profile’s keys', async () => {
    const all = await runCli(['keys', 'list'], env);
    assert.equal(all.code, 0, all.stderr);
    assert.match(all.stdout, /^usr_super {2}\S+ {2}live {2}service_live_\S+ {2}active/m);
    assert.match(all.stdout, /^usr_suspended {2}/m);
  });

  test('staff create prints a one-time password that signs in; staff list and audit list show it', async () => {
    const created = await runCli(['staff', 'create', '--email', 'Ops@Example.com', '--role', 'operator'], env);
    assert.equal(created.code, 0, created.stderr);
    const password = /one-time password \(shown once\): (\S+)/.exec(created.stdout)?.[1];
    assert.ok(password && password.length >= 20, created.stdout);
    const stored = await t.database.db
      .selectFrom('staff_accounts')
      .selectAll()
      .where('email', '=', 'ops@example.com')
      .executeTakeFirstOrThrow();
    assert.equal(stored.role, 'operator');
    // Hashed at this process's cost: the suite's own here; the production cost has its test in password.test.ts.
    assert.match(stored.password_hash, new RegExp(`^scrypt\\$${passwordCost(process.env).N}\\$8\\$1\\$`));
    assert.ok(!stored.password_hash.includes(password));
    const session = await t.ctx.staff.login('ops@example.com', password, '127.0.0.1');
    assert.equal(session.session.role, 'operator');

    const [again, badRole] = await Promise.all([
      runCli(['staff', 'create', '--email', 'ops@example.com', '--role', 'viewer'], env),
      runCli(['staff', 'create', '--email', 'x@example.com', '--role', 'root'], env),
    ]);
    const [list, audit] = await Promise.all([
      runCli(['staff', 'list'], env),
      runCli(['audit', 'list', '--action', 'staff.create', '--json'], env),
    ]);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), 'a staff account for ops@example.com exists already');
    assert.equal(badRole.code, 1);
    assert.equal(badRole.stderr.trim(), '--role must be admin, operator or viewer');
    assert.match(list.stdout, /^stf_\S+ {2}ops@example\.com {2}operator {2}active {2}2fa off {2}last sign-in \S+Z$/m);
    const entries = JSON.parse(audit.stdout) as {
      actor: string;
      outcome: string;
      recordId: string;
      detail: Record<string, unknown>;
    }[];
    assert.deepEqual(
      entries.map((e) => [e.actor.startsWith('cli:'), e.outcome, e.recordId]),
      [
        [true, 'refused', 'ops@example.com'],
        [true, 'ok', stored.id],
      ],
    );
    assert.ok(!JSON.stringify(entries).includes(password), 'the password is never recorded');
    const text = await runCli(['audit', 'list', '--limit', '1'], env);
    assert.match(text.stdout, /^\d+ {2}\S+Z {2}cli:\S+ {2}- {2}staff\.create staff ops@example\.com {2}refused /m);
  });

  test('staff 2fa-reset removes a lost device’s two-factor sign-in, audited; refused for an account without it', async () => {
    const id = await ensureStaff(t, 'lost-phone@example.com', 'operator');
    await enrolTwoFactor(t, id, Date.now());
    const reset = await runCli(['staff', '2fa-reset', 'Lost-Phone@example.com'], env);
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /lost-phone@example\.com: two-factor sign-in removed/);
    const row = await t.database.db.selectFrom('staff_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual([row.totp_secret, row.totp_enabled_at], [null, null]);
    const codes = await t.database.db.selectFrom('staff_recovery_codes').selectAll().where('staff_id', '=', id).execute();
    assert.deepEqual(codes, []);
    const again = await runCli(['staff', '2fa-reset', 'lost-phone@example.com'], env);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), 'lost-phone@example.com has no two-factor sign-in');
    const audit = await t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'staff.totp_reset').orderBy('id').execute();
    assert.deepEqual(
      audit.map((r) => [r.actor.startsWith('cli:'), r.outcome]),
      [
        [true, 'ok'],
        [true, 'refused'],
      ],
    );
  });

  test('packages list and update (what is not given is kept); providers findings lists an unresolved one and exits 2', async () => {
    const finding = await seedFinding(t);
    const before = await t.ctx.packages.find('pkg_a_2gb');
    assert.ok(before);
    const [list, update, badPrice, findings] = await Promise.all([
      runCli(['packages', 'list', '--json'], env),
      runCli(['packages', 'update', 'pkg_a_2gb', '--role-price', 'Agent=19.50'], env),
      runCli(['packages', 'update', 'pkg_a_2gb', '--price', '12.345'], env),
      runCli(['providers', 'findings'], env),
    ]);
    const listed = (JSON.parse(list.stdout) as { id: string; price: number; status: string }[]).find((p) => p.id === 'pkg_a_2gb');
    assert.deepEqual([listed?.price, listed?.status], [before.price / 100, before.status], 'prices in GHS');
    assert.equal(update.code, 0, update.stderr);
    const after = await t.ctx.packages.find('pkg_a_2gb');
    assert.deepEqual([after?.price, after?.status, after?.rolePrices.find((r) => r.role === 'Agent')?.price], [before.price, before.status, 1950]);
    assert.match(update.stdout, /^updated pkg_a_2gb {2}\w+ {2}GHS \d+\.\d{2} \(.*Agent GHS 19\.50/);
    assert.equal(badPrice.code, 1);
    assert.equal(badPrice.stderr.trim(), '--price must be an amount in GHS such as 12.50 (got "12.345")');
    assert.equal(findings.code, 2, findings.stderr);
    assert.match(findings.stdout, new RegExp(`^${finding} {2}.* {2}unresolved$`, 'm'));
  });
});
