import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, TEST_DIALECT } from '../support/app.js';
import { CONSOLE_ENV, cookiesOf, csrfOf, ensureStaff, inject } from '../support/console.js';

/**
 * Failed sign-ins fill the append-only audit trail no faster than one row per client address and
 * minute: the row counts them (docs/console.md, "The audit trail").
 */
test(`60 failed sign-ins from one address within a minute are one audit row that says 60 (${TEST_DIALECT})`, async () => {
  const minute = Date.parse('2030-03-01T08:15:00Z');
  let now = minute + 1_000;
  const t = await createTestApp({ env: CONSOLE_ENV, clock: () => now });
  try {
    await ensureStaff(t, 'target@staff.example', 'admin');
    const form = await inject(t, 'GET', '/console/login');
    const cookie = cookiesOf(form.headers).join('; ');
    const csrf = csrfOf(form.body);
    const attempt = (email: string, from: string) =>
      inject(t, 'POST', '/console/login', { cookie, from, form: { _csrf: csrf, email, password: 'guessing' } });
    const rows = () =>
      t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'staff.login').orderBy('id').execute();

    const statuses = new Map<number, number>();
    for (let i = 0; i < 60; i++) {
      const email = i % 2 === 0 ? 'target@staff.example' : `nobody${i % 6}@staff.example`;
      const res = await attempt(email, '10.9.8.7');
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      now += 500;
    }
    assert.deepEqual([...statuses.keys()].sort(), [401, 429], 'wrong passwords, then throttled');
    assert.deepEqual(await rows(), [], 'nothing written while the minute lasts');

    // The minute is over: the next failure (from anywhere) writes its count.
    now = minute + 61_000;
    assert.equal((await attempt('someone@staff.example', '10.1.1.1')).status, 401);
    const [row, ...more] = await rows();
    assert.deepEqual(more, []);
    assert.ok(row);
    assert.deepEqual([row.outcome, row.actor, row.address], ['refused', 'anonymous', '10.9.8.7']);
    const detail = JSON.parse(row.detail ?? '{}') as { failures: number; minute: string; emails: string[]; reasons: Record<string, number> };
    assert.equal(detail.failures, 60);
    assert.equal(detail.minute, '2030-03-01T08:15:00.000Z');
    assert.deepEqual(detail.emails.sort(), ['nobody1@staff.example', 'nobody3@staff.example', 'nobody5@staff.example', 'target@staff.example']);
    assert.equal(Object.values(detail.reasons).reduce((a, b) => a + b, 0), 60);
    assert.ok(!JSON.stringify(detail).includes('guessing'), 'no password is recorded');

    // The app closes: the minute still counting is written too.
    await t.app.close();
    const last = await rows();
    assert.equal(last.length, 2);
    assert.equal(last[1]?.address, '10.1.1.1');
    assert.equal((JSON.parse(last[1]?.detail ?? '{}') as { failures: number }).failures, 1);
  } finally {
    await t.testDb.drop();
  }
});
