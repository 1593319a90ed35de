import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp } from '../support/app.js';
import { staffActor } from '../support/actor.js';
import { PASSWORD } from '../support/console.js';

/**
 * Issue 24, finding 4: two admins demoting each other at the same moment on PostgreSQL each counted
 * two admins and left none. The count now locks the admins: one demotion wins, the other is
 * refused, and an admin always remains (on SQLite one writing unit runs at a time anyway).
 */
test('two admins demoting each other at once leave one admin', async (c) => {
  const t = await useTestApp(c, { seed: null });
  for (let round = 0; round < 8; round++) {
    const [a, b] = await Promise.all(
      ['a', 'b'].map(async (who) => (await t.ctx.staff.create(staffActor(), `${who}${round}@staff.example`, 'admin', PASSWORD)).account),
    );
    assert.ok(a && b);
    // The survivor of the round before steps down: these two are the only admins.
    for (const other of await t.ctx.staff.list())
      if (other.role === 'admin' && other.id !== a.id && other.id !== b.id) await t.ctx.staff.update(staffActor(), other.id, { role: 'viewer' });
    const outcomes = await Promise.allSettled([
      t.ctx.staff.update(staffActor(a.email), b.id, { role: 'viewer' }),
      t.ctx.staff.update(staffActor(b.email), a.id, { role: 'viewer' }),
    ]);
    const admins = (await t.ctx.staff.list()).filter((s) => s.role === 'admin' && s.status === 'active');
    assert.equal(admins.length, 1, `round ${round}: ${admins.length} admins remain`);
    assert.deepEqual(
      outcomes.map((o) => o.status).sort(),
      ['fulfilled', 'rejected'],
    );
    const refusal = outcomes.find((o) => o.status === 'rejected');
    assert.match(String((refusal as PromiseRejectedResult).reason), /is the last active admin/);
  }
});
