import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/app.js';

/**
 * The batch statements of src/db/statements.ts, on a real database of each engine: an `in` list
 * padded to a power of two finds exactly the rows asked for, and a multi-row insert split into
 * statements of at most 16 rows writes every row once.
 */
let t: TestDatabase;

before(async () => {
  t = await createTestDatabase();
});

after(async () => {
  await t.drop();
});

const submission = (n: number) => ({
  idempotency_key: `key-${String(n).padStart(3, '0')}`,
  provider_ref: `ref-${String(n).padStart(3, '0')}`,
  msisdn: `0241${String(n).padStart(6, '0')}`,
  accepted_at: 1_700_000_000_000 + n,
  submit_calls: n,
});

test('rows inserted by insertRows are all written once, in statements of at most 16 rows', async () => {
  const { database } = t;
  const rows = Array.from({ length: 37 }, (_, n) => submission(n));
  const statements = database.statements.insertRows('sandbox_submissions', rows);
  assert.deepEqual(
    statements.map((s) => s.parameters.length / 5),
    [16, 16, 5],
  );
  // A second batch of the same size takes the same texts (compiled once).
  assert.deepEqual(
    database.statements.insertRows('sandbox_submissions', rows.slice(0, 16)).map((s) => s.sql),
    [statements[0]?.sql],
  );
  await database.unit(async (tx) => {
    for (const statement of statements) tx.write(statement);
  });
  const written = await database.read.selectFrom('sandbox_submissions').select(['idempotency_key', 'provider_ref', 'msisdn', 'accepted_at', 'submit_calls']).orderBy('idempotency_key').execute();
  assert.deepEqual(
    written.map((r) => ({ ...r, accepted_at: Number(r.accepted_at), submit_calls: Number(r.submit_calls) })),
    rows,
  );
  assert.deepEqual(database.statements.insertRows('sandbox_submissions', []), []);
});

test('insertRows refuses rows that give other columns than the first, and one row is insert()', () => {
  const { database } = t;
  // poll_calls has a default: a row may give it or not, but every row of one call must do the same.
  const more = { ...submission(2), poll_calls: 3 };
  assert.throws(
    () => database.statements.insertRows('sandbox_submissions', [submission(1), more]),
    /row 1 gives other columns than row 0/,
  );
  assert.throws(
    () => database.statements.insertRows('sandbox_submissions', [more, submission(1)]),
    /row 1 gives other columns than row 0/,
  );
  assert.deepEqual(database.statements.insertRows('sandbox_submissions', [submission(1)]), [
    database.statements.insert('sandbox_submissions', submission(1)),
  ]);
});

test('a list padded to a power of two finds exactly the rows asked for, with one text per size', async () => {
  const { database } = t;
  const refs = (list: readonly string[]) =>
    database.statements.withList('test submissions by reference', [1], list, (qb, [minimum], references) =>
      qb
        .selectFrom('sandbox_submissions')
        .select('provider_ref')
        .where('submit_calls', '>=', minimum as number)
        .where('provider_ref', 'in', references as string[])
        .orderBy('provider_ref'),
    );
  for (const size of [1, 2, 3, 5, 16, 17, 36]) {
    // References of the 37 written above (ref-000 among them once the list is long, which the
    // fixed parameter leaves out: its submit_calls is 0), and one nobody wrote.
    const wanted = Array.from({ length: size }, (_, i) => `ref-${String((i * 2 + 1) % 37).padStart(3, '0')}`);
    const statement = refs([...wanted, 'ref-none']);
    const rows = await database.readRows(statement);
    assert.deepEqual(
      rows.map((r) => r.provider_ref),
      [...new Set(wanted)].filter((ref) => ref !== 'ref-000').sort(),
      `a list of ${size + 1}`,
    );
  }
  // Lists of 3 and 4 share one shape; 5 takes the next.
  assert.equal(refs(['a', 'b', 'c']).sql, refs(['a', 'b', 'c', 'd']).sql);
  assert.notEqual(refs(['a', 'b', 'c', 'd']).sql, refs(['a', 'b', 'c', 'd', 'e']).sql);
  assert.throws(() => refs([]), /an empty list/);
});
