import assert from 'node:assert/strict';
import { test } from 'node:test';
import SQLite from 'better-sqlite3';
import { withStatementCache } from '../../src/db/sqlite-statements.js';

// The cached statements build result rows themselves (arrays turned into objects): they must be
// exactly the rows better-sqlite3 would have returned.
test('cached statements return the same rows as better-sqlite3, for every kind of statement', () => {
  const handle = new SQLite(':memory:');
  const statements = withStatementCache(handle);
  try {
    handle.exec(`create table t (id integer primary key, name text, amount integer, note text, price real)`);
    const insert = statements.prepare('insert into t (name, amount, note, price) values (?, ?, ?, ?)');
    assert.equal(insert.reader, false);
    assert.equal(insert.run(['a', 5, null, 1.5]).changes, 1);
    assert.equal(insert.run(['b "quoted"', -3, 'x', 0]).changes, 1);

    const queries: [string, unknown[]][] = [
      ['select * from t order by id', []],
      ['select id, name as "weird ""name"", with: punctuation", amount from t where amount > ?', [-10]],
      ['select id as a, name as a from t', []],
      ['select count(*) as n, sum(price) as total from t', []],
      ['select * from t where id = ?', [99]],
    ];
    for (const [sql, parameters] of queries) {
      assert.deepEqual(statements.prepare(sql).all(parameters), handle.prepare(sql).all(parameters), sql);
      assert.deepEqual([...statements.prepare(sql).iterate(parameters)], handle.prepare(sql).all(parameters), sql);
    }

    const returning = statements.prepare('update t set amount = amount + ? where id = ? returning id, amount');
    assert.equal(returning.reader, true);
    assert.deepEqual(returning.all([10, 1]), [{ id: 1, amount: 15 }]);
    // The same text is served from the cache, and still answers with fresh rows.
    assert.equal(statements.prepare('select * from t order by id'), statements.prepare('select * from t order by id'));
    assert.deepEqual(statements.prepare('select amount from t where id = ?').all([1]), [{ amount: 15 }]);
  } finally {
    statements.close();
  }
});
