import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';
import { InventoryImportError, parseCredentialCsv } from '../../src/modules/result-checker/csv.js';
import { ledgerProblems } from '../support/ledger.js';
import { stockOf } from '../support/result-checker.js';
import { staffActor } from '../support/actor.js';

const BUY = '/api/v1/result-checker/buy-single';
const buy = (t: TestApp, packageId: string, key: string = KEYS.superLive) =>
  t.call('POST', BUY, { key, body: { packageId, recipientPhone: '0244123456' } });

function rejects(text: string, pattern: RegExp) {
  assert.throws(
    () => parseCredentialCsv(text),
    (error: unknown) => error instanceof InventoryImportError && pattern.test(error.message),
    `expected ${pattern} for ${JSON.stringify(text)}`,
  );
}

describe('credential CSV format (docs/cli.md, rc import)', () => {
  test('header username,password, one credential a line; CRLF, BOM, blank lines and surrounding spaces tolerated', () => {
    assert.deepEqual(parseCredentialCsv('username,password\nA1,p1\n'), [{ username: 'A1', password: 'p1' }]);
    assert.deepEqual(parseCredentialCsv('\uFEFFusername,password\r\n A1 , p-1 \r\n\r\nA2,p2'), [
      { username: 'A1', password: 'p-1' },
      { username: 'A2', password: 'p2' },
    ]);
  });

  test('a bad line rejects the file naming its line number', () => {
    rejects('user,pass\nA1,p1', /^line 1: the header must be exactly "username,password"/);
    rejects('password,username\nA1,p1', /^line 1:/);
    rejects('', /^line 1:/);
    rejects('username,password\nA1,p1\nA2\nA3,p3', /^line 3: expected 2 fields .* found 1/);
    rejects('username,password\nA1,p1\nA2,p2,extra', /^line 3: expected 2 fields .* found 3/);
    rejects('username,password\nA1,p1\n\nA2,', /^line 4: password is empty/);
    rejects('username,password\n ,p1', /^line 2: username is empty/);
    rejects('username,password\n"A1",p1', /^line 2: quotes are not supported/);
    rejects('username,password\n"A,1",p1', /^line 2: quotes are not supported/);
    rejects(`username,password\nA1,${'x'.repeat(201)}`, /^line 2: password is longer than 200/);
    rejects('username,password\nA1,p\u00071', /^line 2: password contains a control character/);
    rejects('username,password\n\n', /no credentials/);
  });
});

describe('cli rc import and encryption at rest', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rc-import-'));
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('import adds new credentials encrypted, skips and counts duplicates (in the file and already stored)', async () => {
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_bece'), 0);
    const csv = 'username,password\nBEC001,2222-0001\nBEC002,2222-0002\nBEC001,2222-9999\nBEC003,2222-0003\n';
    assert.deepEqual(await t.ctx.resultChecker.importCredentials(staffActor(), 'rcp_bece', csv, 'test.csv'), { added: 3, skipped: 1 });
    assert.deepEqual(await t.ctx.resultChecker.importCredentials(staffActor(), 'rcp_bece', 'username,password\nBEC003,x\nBEC004,2222-0004', 'test.csv'), {
      added: 1,
      skipped: 1,
    });
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_bece'), 4);

    // Handed out in import order, the first password kept for a duplicated username.
    const got = [];
    for (let i = 0; i < 4; i++) got.push((await buy(t, 'rcp_bece')).body.data.credential);
    assert.deepEqual(got, [
      { username: 'BEC001', password: '2222-0001' },
      { username: 'BEC002', password: '2222-0002' },
      { username: 'BEC003', password: '2222-0003' },
      { username: 'BEC004', password: '2222-0004' },
    ]);
    assert.equal((await buy(t, 'rcp_bece')).status, 409);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a rejected file writes nothing; an unknown package is refused', async () => {
    const before = await stockOf(t, KEYS.superLive, 'rcp_wassce');
    await assert.rejects(
      t.ctx.resultChecker.importCredentials(staffActor(), 'rcp_wassce', 'username,password\nNEW001,a\nNEW002,b\nNEW003', 'test.csv'),
      (error: unknown) => error instanceof InventoryImportError && /^line 4:/.test(error.message),
    );
    await assert.rejects(
      t.ctx.resultChecker.importCredentials(staffActor(), 'rcp_missing', 'username,password\nNEW001,a', 'test.csv'),
      (error: unknown) => error instanceof InventoryImportError && /no result-checker package rcp_missing/.test(error.message),
    );
    assert.equal(await stockOf(t, KEYS.superLive, 'rcp_wassce'), before);
  });

  test('the CLI prints what it added and skipped; a bad file exits non-zero with one line naming the line', async () => {
    // The CLI runs with its own CREDENTIALS_KEY, so it imports into a package this app never sells
    // (duplicates against stored credentials are covered above, with the app's key).
    const env = cliDatabaseEnv(t.testDb);
    const stock = () => t.ctx.resultChecker.stock('rcp_old');
    assert.equal(await stock(), 1);
    const first = path.join(dir, 'first.csv');
    fs.writeFileSync(first, 'username,password\nCLI001,3333-0001\nCLI002,3333-0002\nCLI001,3333-0001\n');
    const ok = await runCli(['rc', 'import', 'rcp_old', first], env);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout.trim(), `imported ${first} into rcp_old: added 2, skipped 1 (duplicates); in stock now 3`);

    const bad = path.join(dir, 'bad.csv');
    fs.writeFileSync(bad, 'username,password\nCLI004,a\nCLI005,b,c\n');
    const refused = await runCli(['rc', 'import', 'rcp_old', bad], env);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.equal(refused.stderr.trim(), 'rc import rejected, nothing written: line 3: expected 2 fields (username,password), found 3; values may not contain commas');
    assert.equal(await stock(), 3);

    const missing = await runCli(['rc', 'import', 'rcp_old', path.join(dir, 'nope.csv')], env);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr.trim(), /^cannot read .*nope\.csv: ENOENT$/);
  });

  test('credentials are unreadable without the key: nothing in clear in any column (and, on SQLite, in the file)', async () => {
    // Sell some (live and test) so assigned credentials and handed-over copies exist too.
    const sold = [(await buy(t, 'rcp_wassce')).body.data.credential, (await buy(t, 'rcp_wassce', KEYS.superTest)).body.data.credential];
    const secrets = [
      'WAS001', '1111-0001', 'WAS002', '1111-0002', 'WAS003', '1111-0003', 'OLD001',
      'BEC001', '2222-0001', 'BEC004', '2222-0004', 'CLI001', '3333-0001', 'CLI002', '3333-0002',
      ...sold.flatMap((c: { username: string; password: string }) => [c.username, c.password]),
    ];
    for (const table of ['rc_credentials', 'rc_transactions', 'orders', 'ledger_entries'] as const) {
      const dump = JSON.stringify(await t.database.db.selectFrom(table).selectAll().execute());
      for (const secret of secrets) assert.ok(!dump.includes(secret), `${secret} readable in ${table}`);
    }
    if (TEST_DIALECT === 'sqlite') {
      const file = t.database.sqlitePath;
      assert.ok(file);
      const bytes = Buffer.concat(
        [file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f)),
      );
      assert.ok(bytes.length > 0);
      for (const secret of secrets) {
        assert.equal(bytes.indexOf(Buffer.from(secret, 'utf8')), -1, `${secret} readable in the database file`);
      }
      // The check itself works: a value that is stored in clear is found.
      assert.ok(bytes.indexOf(Buffer.from('WASSCE Checker', 'utf8')) >= 0);
    }
  });
});
