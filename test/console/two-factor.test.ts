import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import decodeQR from 'qr/decode.js';
import { totpCode } from '../../src/modules/console/totp.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import {
  clientOf,
  CONSOLE_ENV,
  cookiesOf,
  csrfOf,
  enrolTwoFactor,
  ensureStaff,
  giveCode,
  inject,
  login,
  PASSWORD,
  signIn,
} from '../support/console.js';

/**
 * Two-factor sign-in (docs/console.md, "Two-factor sign-in") on one app with CONSOLE_REQUIRE_2FA=true
 * and a clock the tests move: codes are computed here with the library from the enrolment secret.
 */
describe(`two-factor sign-in (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let now = Date.parse('2030-03-01T08:15:05Z');
  const STEP = 30_000;

  before(async () => {
    t = await createTestApp({ env: { ...CONSOLE_ENV, CONSOLE_REQUIRE_2FA: 'true' }, clock: () => now });
  });
  after(() => t.close());

  const audit = (action: string, outcome: 'ok' | 'refused' = 'ok') =>
    t.database.db.selectFrom('audit_log').selectAll().where('action', '=', action).where('outcome', '=', outcome).orderBy('id').execute();
  const sessionCookie = (headers: Record<string, unknown>) => cookiesOf(headers).find((c) => c.startsWith('console_session='));

  test('enrolment through the pages: confirmed by a code before it counts, recovery codes shown once, secret sealed', async () => {
    const viewer = await signIn(t, 'viewer', 'enrol@staff.example');
    const off = await viewer.get('/console/2fa');
    assert.match(off.body, /Two-factor sign-in is <strong>off<\/strong>/);
    assert.equal((await viewer.post('/console/2fa/setup')).location, '/console/2fa');
    const setup = await viewer.get('/console/2fa');
    assert.equal(setup.headers['cache-control'], 'no-store');
    assert.match(setup.body, /hx-history="false"/);
    const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec(setup.body)?.[1]?.replace(/ /g, '');
    assert.ok(secret);
    assert.match(setup.body, /otpauth:\/\/totp\/partner-api%20console:enrol%40staff\.example\?/);

    assert.match(setup.body, /action="\/console\/2fa\/confirm".*name="password"/, 'the confirm form asks for the password');
    const wrong = await viewer.post('/console/2fa/confirm', { password: PASSWORD, code: totpCode(secret, now + 5 * STEP) });
    assert.equal(wrong.status, 400);
    const id = (await t.ctx.staff.findByEmail('enrol@staff.example'))?.id ?? '';
    assert.equal((await t.ctx.staff.twoFactorStatus(id)).state, 'setting-up', 'a wrong code does not turn it on');
    // A copied session cookie alone (no password, or a wrong one) cannot enrol its own authenticator.
    const noPassword = await viewer.post('/console/2fa/confirm', { code: totpCode(secret, now) });
    assert.equal(noPassword.status, 400, noPassword.body);
    const wrongPassword = await viewer.post('/console/2fa/confirm', { password: 'not the password', code: totpCode(secret, now) });
    assert.equal(wrongPassword.status, 403, wrongPassword.body);
    assert.match(wrongPassword.body, /The password is wrong/);
    assert.equal((await t.ctx.staff.twoFactorStatus(id)).state, 'setting-up', 'without the password it stays off');
    assert.equal((await audit('staff.totp_enable', 'refused')).filter((r) => r.record_id === id).length, 2);

    const done = await viewer.post('/console/2fa/confirm', { password: PASSWORD, code: totpCode(secret, now) });
    assert.equal(done.status, 200, done.body);
    const codes = [...done.body.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1]);
    assert.equal(codes.length, 10);
    assert.ok(!(await viewer.get('/console/2fa')).body.includes(codes[0] ?? '?'), 'the codes are not shown again');
    const row = await t.database.db.selectFrom('staff_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.ok(row.totp_secret?.startsWith('s1:') && !row.totp_secret.includes(secret), 'the secret is sealed at rest');
    const stored = await t.database.db.selectFrom('staff_recovery_codes').select('code_hash').where('staff_id', '=', id).execute();
    assert.equal(stored.length, 10);
    assert.ok(stored.every((r) => !codes.includes(r.code_hash)), 'recovery codes are stored hashed');
    assert.equal((await audit('staff.totp_enable')).filter((r) => r.record_id === id).length, 1);
  });

  test('sign-in with a generated code; a wrong one refused, counted and audited; a replayed one refused', async () => {
    const id = await ensureStaff(t, 'op2fa@staff.example', 'operator');
    const { secret } = await enrolTwoFactor(t, id, now);
    now += STEP;

    const pending = await login(t, 'op2fa@staff.example', PASSWORD, '10.2.0.1');
    assert.equal((await inject(t, 'GET', '/console', { cookie: pending })).location, '/console/login/code', 'the password alone reaches nothing');
    const wrong = await giveCode(t, pending, totpCode(secret, now + 4 * STEP), '10.2.0.1');
    assert.equal(wrong.status, 401);
    assert.match(wrong.body, /Wrong code/);

    const code = totpCode(secret, now);
    const ok = await giveCode(t, pending, code, '10.2.0.1');
    assert.equal(ok.status, 303, ok.body);
    assert.equal(ok.location, '/console');
    const full = sessionCookie(ok.headers);
    assert.ok(full && full !== pending, 'a new session token once the code is right');
    assert.equal((await inject(t, 'GET', '/console', { cookie: full })).status, 200);
    assert.equal((await inject(t, 'GET', '/console', { cookie: pending })).location, '/console/login', 'the pending session is gone');
    const logins = (await audit('staff.login')).filter((r) => r.record_id === id);
    assert.equal(logins.length, 1);
    assert.deepEqual(JSON.parse(logins[0]?.detail ?? '{}'), { secondFactor: 'totp' });

    const again = await login(t, 'op2fa@staff.example', PASSWORD, '10.2.0.1');
    const replay = await giveCode(t, again, code, '10.2.0.1');
    assert.equal(replay.status, 401);
    assert.match(replay.body, /used already/);

    // The minute is over: the failures of 10.2.0.1 are one refused staff.login row that counts them.
    now += 61_000;
    await login(t, 'nobody@staff.example', 'x', '10.9.9.9').catch(() => undefined);
    const refused = (await audit('staff.login', 'refused')).filter((r) => r.address === '10.2.0.1');
    assert.equal(refused.length, 1);
    assert.equal((JSON.parse(refused[0]?.detail ?? '{}') as { failures: number }).failures, 2);
  });

  test('wrong codes count like wrong passwords: after five, even the right code is refused', async () => {
    const id = await ensureStaff(t, 'guessed@staff.example', 'viewer');
    const { secret } = await enrolTwoFactor(t, id, now);
    now += STEP;
    const pending = await login(t, 'guessed@staff.example', PASSWORD, '10.3.0.1');
    for (let i = 0; i < 5; i++) assert.equal((await giveCode(t, pending, String(100000 + i), '10.3.0.1')).status, 401);
    const blocked = await giveCode(t, pending, totpCode(secret, now), '10.3.0.1');
    assert.equal(blocked.status, 429, blocked.body);
  });

  test('a recovery code signs in once', async () => {
    const id = await ensureStaff(t, 'lost@staff.example', 'operator');
    const { recoveryCodes } = await enrolTwoFactor(t, id, now);
    const code = recoveryCodes[3] ?? '';
    const first = await giveCode(t, await login(t, 'lost@staff.example', PASSWORD, '10.4.0.1'), code.toUpperCase(), '10.4.0.1');
    assert.equal(first.status, 303, first.body);
    assert.equal(first.location, '/console/2fa?notice=recovery-code');
    const used = await audit('staff.recovery_code_used');
    assert.deepEqual(JSON.parse(used.find((r) => r.record_id === id)?.detail ?? '{}'), { left: 9 });
    const second = await giveCode(t, await login(t, 'lost@staff.example', PASSWORD, '10.4.0.1'), code, '10.4.0.1');
    assert.equal(second.status, 401);
  });

  test('CONSOLE_REQUIRE_2FA: an admin must enrol before anything else and cannot turn it off; others need not', async () => {
    const cookie = await login(t, (await signInAdmin()).email);
    assert.equal((await inject(t, 'GET', '/console', { cookie })).location, '/console/2fa');
    assert.equal((await inject(t, 'GET', '/console/staff', { cookie })).location, '/console/2fa');
    const admin = await clientOf(t, 'boss@staff.example', 'admin', cookie, '/console/2fa');
    const refused = await admin.post('/console/staff', { email: 'sneaky@staff.example', role: 'admin' });
    assert.equal(refused.status, 403);
    assert.equal(await t.ctx.staff.findByEmail('sneaky@staff.example'), undefined);

    await admin.post('/console/2fa/setup');
    const secret = /id="totp-secret">([A-Z2-7 ]+)</.exec((await admin.get('/console/2fa')).body)?.[1]?.replace(/ /g, '') ?? '';
    assert.equal((await admin.post('/console/2fa/confirm', { password: PASSWORD, code: totpCode(secret, now) })).status, 200);
    assert.equal((await admin.get('/console')).status, 200, 'enrolled: the console opens');
    const off = await admin.post('/console/2fa/disable', { password: PASSWORD, code: totpCode(secret, now + STEP) });
    assert.equal(off.status, 403);
    assert.match(off.body, /Admins must keep two-factor sign-in/);

    const operator = await signIn(t, 'operator', 'free@staff.example');
    assert.equal((await operator.get('/console')).status, 200, 'an operator is not forced');
  });

  test('a non-admin turns it off with password and code; an admin resets another’s (audited, sessions end)', async () => {
    const id = await ensureStaff(t, 'switch@staff.example', 'viewer');
    const { secret } = await enrolTwoFactor(t, id, now);
    now += STEP;
    const pending = await login(t, 'switch@staff.example', PASSWORD, '10.5.0.1');
    const full = sessionCookie((await giveCode(t, pending, totpCode(secret, now), '10.5.0.1')).headers) ?? '';
    const viewer = await clientOf(t, 'switch@staff.example', 'viewer', full, '/console/2fa');
    assert.equal((await viewer.post('/console/2fa/disable', { password: 'wrong password', code: totpCode(secret, now + STEP) })).status, 403);
    assert.equal((await viewer.post('/console/2fa/disable', { password: PASSWORD, code: totpCode(secret, now) })).status, 403, 'a used code');
    const off = await viewer.post('/console/2fa/disable', { password: PASSWORD, code: totpCode(secret, now + STEP) });
    assert.equal(off.location, '/console/2fa?notice=2fa-off');
    assert.equal((await audit('staff.totp_disable')).filter((r) => r.record_id === id).length, 1);

    const target = await ensureStaff(t, 'phone-lost@staff.example', 'operator');
    const { secret: lostSecret } = await enrolTwoFactor(t, target, now);
    now += STEP;
    const theirs = sessionCookie((await giveCode(t, await login(t, 'phone-lost@staff.example', PASSWORD, '10.5.0.2'), totpCode(lostSecret, now), '10.5.0.2')).headers) ?? '';
    const admin = await adminWithTwoFactor();
    const page = await admin.get('/console/staff');
    assert.match(page.body, new RegExp(`action="/console/staff/${target}/2fa-reset"`));
    const reset = await admin.post(`/console/staff/${target}/2fa-reset`);
    assert.equal(reset.location, '/console/staff?notice=2fa-reset');
    assert.equal((await inject(t, 'GET', '/console', { cookie: theirs })).location, '/console/login', 'their sessions ended');
    const rows = (await audit('staff.totp_reset')).filter((r) => r.record_id === target);
    assert.equal(rows.length, 1);
    const plain = await login(t, 'phone-lost@staff.example', PASSWORD, '10.5.0.2');
    assert.equal((await inject(t, 'GET', '/console', { cookie: plain })).status, 200, 'the password alone signs in again');
  });

  test('the set-up page draws the otpauth link as a QR code that decodes back to it', async () => {
    const viewer = await signIn(t, 'viewer', 'scan@staff.example');
    await viewer.post('/console/2fa/setup');
    const page = (await viewer.get('/console/2fa')).body;
    const uri = /id="totp-uri">([^<]+)</.exec(page)?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    assert.ok(uri?.startsWith('otpauth://totp/'), page);
    const svg = /<svg id="totp-qr"[^>]*viewBox="0 0 (\d+) \d+"[^>]*>.*?<path fill="#000" d="([^"]+)"\/><\/svg>/.exec(page);
    assert.ok(svg, 'an inline SVG QR code on the page');
    assert.equal(decodeSvgQr(Number(svg[1]), svg[2] ?? ''), uri);
  });

  test('new recovery codes with a current code: the old ones stop working, the new ones sign in; audited', async () => {
    const id = await ensureStaff(t, 'fresh-codes@staff.example', 'operator');
    const { secret, recoveryCodes: old } = await enrolTwoFactor(t, id, now);
    now += STEP;
    const full = sessionCookie((await giveCode(t, await login(t, 'fresh-codes@staff.example', PASSWORD, '10.7.0.1'), totpCode(secret, now), '10.7.0.1')).headers) ?? '';
    const operator = await clientOf(t, 'fresh-codes@staff.example', 'operator', full, '/console/2fa');
    assert.match((await operator.get('/console/2fa')).body, /action="\/console\/2fa\/recovery-codes"/);

    const wrong = await operator.post('/console/2fa/recovery-codes', { code: totpCode(secret, now + 5 * STEP) });
    assert.equal(wrong.status, 403);
    const replayed = await operator.post('/console/2fa/recovery-codes', { code: totpCode(secret, now) });
    assert.equal(replayed.status, 403, 'the code of the sign-in was used already');
    assert.equal((await audit('staff.recovery_codes_regenerate', 'refused')).filter((r) => r.record_id === id).length, 2);

    now += STEP;
    const done = await operator.post('/console/2fa/recovery-codes', { code: totpCode(secret, now) });
    assert.equal(done.status, 200, done.body);
    const fresh = [...done.body.matchAll(/<li><code>([a-z0-9]{5}-[a-z0-9]{5})<\/code><\/li>/g)].map((m) => m[1] ?? '');
    assert.equal(fresh.length, 10);
    assert.ok(fresh.every((c) => !old.includes(c)));
    assert.ok(!(await operator.get('/console/2fa')).body.includes(fresh[0] ?? '?'), 'shown once');
    assert.equal((await audit('staff.recovery_codes_regenerate')).filter((r) => r.record_id === id).length, 1);

    const refused = await giveCode(t, await login(t, 'fresh-codes@staff.example', PASSWORD, '10.7.0.2'), old[0] ?? '', '10.7.0.2');
    assert.equal(refused.status, 401, 'an old recovery code no longer signs in');
    const accepted = await giveCode(t, await login(t, 'fresh-codes@staff.example', PASSWORD, '10.7.0.2'), fresh[0] ?? '', '10.7.0.2');
    assert.equal(accepted.status, 303, accepted.body);
    assert.equal(accepted.location, '/console/2fa?notice=recovery-code');
  });

  async function signInAdmin() {
    await ensureStaff(t, 'boss@staff.example', 'admin');
    return { email: 'boss@staff.example' };
  }

  async function adminWithTwoFactor() {
    const id = await ensureStaff(t, 'reset-admin@staff.example', 'admin');
    const { secret } = await enrolTwoFactor(t, id, now);
    now += STEP;
    const res = await giveCode(t, await login(t, 'reset-admin@staff.example', PASSWORD, '10.6.0.1'), totpCode(secret, now), '10.6.0.1');
    const cookie = sessionCookie(res.headers) ?? '';
    const page = await inject(t, 'GET', '/console/staff', { cookie });
    assert.equal(page.status, 200);
    return clientOf(t, 'reset-admin@staff.example', 'admin', cookie, '/console/staff').then((c) => ({ ...c, csrf: csrfOf(page.body) }));
  }
});

/**
 * The modules of the page's QR code (one `M<x> <y>h1v1h-1z` per dark module, as the console draws
 * it), drawn as a grey-scale bitmap 4 px a module and read back with the library's decoder.
 */
function decodeSvgQr(size: number, path: string): string {
  const scale = 4;
  const width = size * scale;
  const data = new Uint8Array(width * width * 3).fill(255);
  for (const m of path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    const x = Number(m[1]);
    const y = Number(m[2]);
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) data.fill(0, ((y * scale + dy) * width + x * scale + dx) * 3, ((y * scale + dy) * width + x * scale + dx) * 3 + 3);
    }
  }
  return decodeQR({ width, height: width, data });
}
