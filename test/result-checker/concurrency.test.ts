import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUniqueViolation, translateDriverError } from '../../src/db/unique-indexes.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { ledgerProblems } from '../support/ledger.js';
import { liveKeyOf } from '../support/keys.js';
import { stockOf } from '../support/result-checker.js';
import { useTestApp } from '../support/app.js';

const BUYERS = ['usr_r1', 'usr_r2', 'usr_r3', 'usr_r4', 'usr_r5'];
const SEED = fixtureWith({
  resultCheckerPackages: [
    {
      id: 'rcp_race',
      code: 'RACE',
      name: 'Race Checker',
      displayName: 'Race',
      status: 'Active',
      price: 10.0,
      credentials: Array.from({ length: 10 }, (_, i) => ({ username: `RACE${String(i).padStart(3, '0')}`, password: `pw-${i}` })),
    },
  ],
  profiles: BUYERS.map((id) => agentProfile(id, { live: 100, test: 100 })),
});

describe('result-checker purchases under concurrency', () => {
  test('30 parallel buy-single calls for 10 credentials: 10 distinct credentials sold, 20 refused, balances exact', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const calls = Array.from({ length: 30 }, (_, i) => {
      const buyer = BUYERS[i % BUYERS.length] ?? 'usr_r1';
      return t
        .call('POST', '/api/v1/result-checker/buy-single', {
          key: liveKeyOf(buyer),
          body: { packageId: 'rcp_race', recipientPhone: '0244123456' },
        })
        .then((res) => ({ buyer, res }));
    });
    const results = await Promise.all(calls);

    const sold = results.filter((r) => r.res.status === 200);
    const refused = results.filter((r) => r.res.status !== 200);
    assert.equal(sold.length, 10);
    assert.equal(refused.length, 20);
    for (const r of refused) {
      assert.equal(r.res.status, 409, JSON.stringify(r.res.body));
      assert.equal(r.res.body.error.code, 'RC_WALLET_BUY_FAILED');
    }
    const usernames = sold.map((r) => r.res.body.data.credential.username as string);
    assert.equal(new Set(usernames).size, 10);
    assert.deepEqual(
      [...usernames].sort(),
      Array.from({ length: 10 }, (_, i) => `RACE${String(i).padStart(3, '0')}`),
    );
    for (const r of sold) {
      const i = Number(r.res.body.data.credential.username.slice(4));
      assert.equal(r.res.body.data.credential.password, `pw-${i}`);
    }

    for (const buyer of BUYERS) {
      const bought = sold.filter((r) => r.buyer === buyer).length;
      assert.deepEqual(await t.wallet(buyer, 'live'), { available: 10000 - bought * 1000, held: 0 }, buyer);
    }
    assert.equal(await stockOf(t, liveKeyOf('usr_r1'), 'rcp_race'), 0);

    // Every credential is held by exactly one completed transaction, and the other way round.
    const credentials = await t.database.db
      .selectFrom('rc_credentials as c')
      .innerJoin('rc_transactions as x', 'x.credential_id', 'c.id')
      .select(['c.id', 'c.assigned_transaction_id', 'x.id as transaction_id', 'x.state'])
      .where('c.package_id', '=', 'rcp_race')
      .execute();
    assert.equal(credentials.length, 10);
    for (const row of credentials) {
      assert.equal(row.assigned_transaction_id, row.transaction_id);
      assert.equal(row.state, 'completed');
    }
    const states = await t.database.db
      .selectFrom('rc_transactions')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('package_id', '=', 'rcp_race')
      .groupBy('state')
      .orderBy('state')
      .execute();
    assert.deepEqual(states.map((s) => [s.state, Number(s.n)]), [
      ['completed', 10],
      ['failed', 20],
    ]);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('backstops: the database refuses a credential or short reference used twice, and the service recognises it', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const res = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: liveKeyOf('usr_r1'),
      body: { packageId: 'rcp_race', recipientPhone: '0244123456' },
    });
    assert.equal(res.status, 200);
    const sold = await t.database.db.selectFrom('rc_transactions').selectAll().executeTakeFirstOrThrow();
    const copy = { ...sold, id: 'rc_copy', order_id: 'rc_copy', short_reference: 'RCCOPY0001' };
    await assert.rejects(t.database.db.insertInto('rc_transactions').values(copy).execute(), (error: unknown) =>
      isUniqueViolation(translateDriverError(error), 'rc_transactions_credential_id_key'),
    );
    await assert.rejects(
      t.database.db.insertInto('rc_transactions').values({ ...copy, credential_id: null, short_reference: sold.short_reference }).execute(),
      (error: unknown) => isUniqueViolation(translateDriverError(error), 'rc_transactions_short_reference_key'),
    );
  });

  test('parallel bulk and single purchases never hand one credential out twice', async (c) => {
    const t = await useTestApp(c, { seed: SEED });
    const bodyFor = (i: number) =>
      i % 2 === 0
        ? { url: '/api/v1/result-checker/buy-bulk', body: { items: [0, 1, 2].map(() => ({ packageId: 'rcp_race', recipientPhone: '0244123456' })) } }
        : { url: '/api/v1/result-checker/buy-single', body: { packageId: 'rcp_race', recipientPhone: '0244123456' } };
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        const { url, body } = bodyFor(i);
        return t.call('POST', url, { key: liveKeyOf(BUYERS[i % BUYERS.length] ?? 'usr_r1'), body });
      }),
    );
    const handed: string[] = [];
    for (const res of results) {
      if (res.status !== 200) {
        assert.equal(res.status, 409, JSON.stringify(res.body));
        continue;
      }
      if (res.body.data.transactions) handed.push(...res.body.data.transactions.map((x: { credential: { username: string } }) => x.credential.username));
      else handed.push(res.body.data.credential.username);
    }
    assert.equal(handed.length, 10);
    assert.equal(new Set(handed).size, 10);
    const total = (await Promise.all(BUYERS.map((b) => t.wallet(b, 'live')))).reduce((sum, w) => sum + w.available, 0);
    assert.equal(total, BUYERS.length * 10000 - 10 * 1000);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
