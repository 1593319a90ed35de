import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp, type TestApp } from '../support/app.js';
import { staffActor } from '../support/actor.js';
import { LOGIN_LIMITS } from '../../src/modules/console/service.js';
import { CONSOLE_ENV, csrfOf, inject, PASSWORD } from '../support/console.js';

/**
 * Issue 24, finding 1, for the console: behind a reverse proxy every sign-in came from the proxy's
 * address, so 20 failures from one client locked every staff member out. With TRUST_PROXY naming
 * the proxy, the limit is the client's own; a client that is not a trusted proxy cannot choose its
 * address by writing X-Forwarded-For.
 */

async function signInFrom(t: TestApp, forwardedFor: string, email: string, password: string) {
  const form = await inject(t, 'GET', '/console/login', { headers: { 'x-forwarded-for': forwardedFor } });
  const setCookie = form.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? String(setCookie[0]) : String(setCookie)).split(';')[0] ?? '';
  return inject(t, 'POST', '/console/login', {
    cookie,
    headers: { 'x-forwarded-for': forwardedFor },
    form: { _csrf: csrfOf(form.body), email, password },
  });
}

test('through a trusted proxy, one client failing sign-ins does not lock the others out', async (c) => {
  const t = await useTestApp(c, { env: { ...CONSOLE_ENV, TRUST_PROXY: '127.0.0.1' } });
  await t.ctx.staff.create(staffActor(), 'admin@staff.example', 'admin', PASSWORD);
  const statuses: number[] = [];
  for (let i = 0; i <= LOGIN_LIMITS.perAddress; i++) {
    statuses.push((await signInFrom(t, '203.0.113.7', `guess${i}@staff.example`, 'wrong password')).status);
  }
  assert.deepEqual(statuses.slice(0, LOGIN_LIMITS.perAddress), Array<number>(LOGIN_LIMITS.perAddress).fill(401));
  assert.equal(statuses.at(-1), 429, 'the failing client is limited');
  const other = await signInFrom(t, '198.51.100.9', 'admin@staff.example', PASSWORD);
  assert.equal(other.status, 303, 'another client behind the same proxy signs in');
  const row = await t.database.db
    .selectFrom('audit_log')
    .select('address')
    .where('action', '=', 'staff.login')
    .where('outcome', '=', 'ok')
    .executeTakeFirstOrThrow();
  assert.equal(row.address, '198.51.100.9', 'the audit trail names the client, not the proxy');
});

test('a client that is not a trusted proxy cannot escape the limit by writing X-Forwarded-For', async (c) => {
  const t = await useTestApp(c, { env: { ...CONSOLE_ENV, TRUST_PROXY: '10.0.0.1' } });
  const statuses: number[] = [];
  for (let i = 0; i <= LOGIN_LIMITS.perAddress; i++) {
    statuses.push((await signInFrom(t, `203.0.113.${i}`, `guess${i}@staff.example`, 'wrong password')).status);
  }
  assert.equal(statuses.at(-1), 429, 'every attempt counted against the real peer (127.0.0.1)');
});
