import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { useTestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { A_1GB } from '../support/orders.js';
import { staffActor } from '../support/actor.js';
import { LOGIN_LIMITS } from '../../src/modules/console/service.js';
import { hashPassword } from '../../src/modules/console/passwords.js';
import { CONSOLE_ENV, PASSWORD } from '../support/console.js';

/**
 * Issue 24, finding 2: a burst of sign-ins once filled libuv's thread pool with scrypt hashes, and
 * SQLite's WAL fsync (on the same pool) waited behind them: purchases, /readyz and /healthz took
 * 6–16 s. Attempts are now counted before hashing, hashes run one at a time on a thread of their
 * own with a bounded queue, and the rest of the service keeps answering.
 */
test('during a burst of 50 simultaneous sign-ins, /healthz and a purchase answer within a second, and no more attempts are hashed than the limits allow', async (c) => {
  const t = await useTestApp(c, { env: CONSOLE_ENV });
  // A sign-in verifies at the cost its hash was made at: the target's is made at a cost that keeps
  // the hashing thread busy for seconds through the first burst (N = 2^16, a fifth of a second of
  // CPU a hash), whatever the suite's own (passwords.ts, passwordCost). The second burst's unknown
  // e-mails verify against the dummy hash, at the suite's cost: there the limits are what is checked.
  const { account } = await t.ctx.staff.create(staffActor(), 'target@staff.example', 'admin', PASSWORD);
  const slowHash = await hashPassword(PASSWORD, { N: 2 ** 16, r: 8, p: 1 });
  await t.database.db.updateTable('staff_accounts').set({ password_hash: slowHash }).where('id', '=', account.id).execute();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

  const form = await fetch(`${base}/console/login`);
  const cookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())?.[1] ?? '';
  const signIn = (email: string) =>
    fetch(`${base}/console/login`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ _csrf: csrf, email, password: 'not the password' }).toString(),
    }).then(async (res) => ({ status: res.status, body: await res.text() }));

  const timed = async (what: string, call: () => Promise<Response>) => {
    const started = performance.now();
    const res = await call();
    await res.arrayBuffer();
    return { what, status: res.status, ms: performance.now() - started };
  };

  let n = 0;
  // One address, one e-mail: 50 at once. Then one address, many e-mails: 50 more.
  for (const emailOf of [() => 'target@staff.example', (i: number) => `guess${i}@staff.example`]) {
    const burst = Promise.all(Array.from({ length: 50 }, (_, i) => signIn(emailOf(i))));
    let settled = false;
    void burst.then(() => (settled = true));
    const probes: { what: string; status: number; ms: number }[] = [];
    do {
      probes.push(await timed('/healthz', () => fetch(`${base}/healthz`)));
      // A purchase now and then (the wallet pays for ten per burst), /healthz all the time.
      if (probes.filter((p) => p.what === 'buy-single').length < 10)
        probes.push(
          await timed('buy-single', () =>
            fetch(`${base}/api/v1/data-bundles/buy-single`, {
              method: 'POST',
              headers: { 'x-api-key': KEYS.superLive, 'content-type': 'application/json' },
              body: JSON.stringify({ ...A_1GB, beneficiaryMsisdn: `024471${1000 + n++}` }),
            }),
          ),
        );
    } while (!settled);
    const answers = await burst;

    for (const p of probes) {
      assert.equal(p.status, 200, `${p.what} answered ${p.status}`);
      assert.ok(p.ms < 1000, `${p.what} took ${Math.round(p.ms)} ms during the burst: ${JSON.stringify(probes.map((x) => Math.round(x.ms)))}`);
    }
    const refusedForPassword = answers.filter((a) => a.status === 401).length;
    const throttled = answers.filter((a) => a.status === 429).length;
    assert.equal(refusedForPassword + throttled, 50, JSON.stringify(answers.map((a) => a.status)));
    // Only attempts within the limits reach the hash: one e-mail 5, one address 20 (less when the queue was full).
    const limit = emailOf(0) === emailOf(1) ? LOGIN_LIMITS.perEmail : LOGIN_LIMITS.perAddress;
    assert.ok(refusedForPassword <= limit, `${refusedForPassword} attempts were hashed, limit ${limit}`);
    assert.ok(refusedForPassword >= 1);
  }
});
