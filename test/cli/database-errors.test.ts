import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { connect, DatabaseUnavailableError } from '../../src/db/connection.js';
import { redactDatabaseUrl } from '../../src/db/unavailable.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { TEST_DIALECT } from '../support/app.js';
import { cliCommand, runCli, runCliProcess, type CliResult, type CliSpawnOptions } from '../support/cli.js';

// Generous bounds on a busy machine, never tight ones.
const CLI_TIMEOUT_MS = 60_000;
const SLOW = { timeout: 300_000 };
const CREDENTIALS_KEY = Buffer.alloc(32, 3).toString('base64');

/** Every command that opens the database. */
const DATABASE_COMMANDS: string[][] = [
  ['serve'],
  ['demo'],
  ['worker'],
  ['migrate'],
  ['import', FIXTURE_SEED],
  ['keys', 'create', '--profile', 'usr_super', '--mode', 'test'],
  ['keys', 'list', '--profile', 'usr_super'],
  ['keys', 'revoke', 'key_x'],
  ['topups', 'list'],
  ['topups', 'approve', 'tu_x'],
  ['topups', 'reject', 'tu_x', '--reason', 'no'],
  ['rc', 'import', 'rcp_x', FIXTURE_SEED],
  ['orders', 'stuck'],
  ['orders', 'reverse', 'ord_x', '--reason', 'no'],
  ['ledger', 'verify'],
];

/** The commands that start a server or a worker: their start-up refusal is the process's own (it exits). */
const LONG_RUNNING = new Set(['serve', 'demo', 'worker']);

/** The command in this process, or as a process when it is a long-running one or needs another user or directory. */
function cli(args: string[], env: Record<string, string>, options: CliSpawnOptions = {}): Promise<CliResult> {
  const asProcess = LONG_RUNNING.has(args[0] ?? '') || Object.keys(options).length > 0;
  return asProcess ? runCliProcess(args, { CREDENTIALS_KEY, ...env }, CLI_TIMEOUT_MS, options) : runCli(args, { CREDENTIALS_KEY, ...env }, CLI_TIMEOUT_MS);
}

/**
 * Why the unprivileged user cannot start the CLI from this checkout, or null when it can: a clone
 * in a private directory (a 0700 temporary one) is not readable by nobody.
 */
function unreadableBy(user: CliSpawnOptions): string | null {
  const entry = cliCommand().at(-1) ?? '';
  const probe = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(entry)}, require('node:fs').constants.R_OK)`], {
    ...user,
    encoding: 'utf8',
  });
  return probe.status === 0 ? null : `uid ${user.uid ?? process.getuid?.()} cannot read ${entry} (the checkout is in a directory only its owner may enter)`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The one line every command prints, and nothing else. */
function assertOneLine(result: CliResult, expected: string | RegExp): void {
  assert.equal(result.code, 1, `exit code; stderr: ${result.stderr}`);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `one line, no stack trace:\n${result.stderr}`);
  if (typeof expected === 'string') assert.equal(lines[0], expected);
  else assert.match(lines[0] ?? '', expected);
}

describe('a database that cannot be reached or opened', () => {
  test('every command names DATABASE_URL (password hidden) and the reason in one line', SLOW, async () => {
    const env = { DATABASE_URL: 'postgres://nobody:s3cret@127.0.0.1:1/x' };
    const expected =
      'database error: cannot reach the database named by DATABASE_URL (postgres://nobody:***@127.0.0.1:1/x): connection refused (connect ECONNREFUSED 127.0.0.1:1)';
    // Three at a time: each spends seconds compiling, and the machine is shared.
    for (let i = 0; i < DATABASE_COMMANDS.length; i += 3) {
      await Promise.all(
        DATABASE_COMMANDS.slice(i, i + 3).map(async (args) => {
          const result = await cli(args, env);
          assertOneLine(result, expected);
          assert.ok(!result.stderr.includes('s3cret'), args.join(' '));
        }),
      );
    }
  });

  test('a PostgreSQL server that answers no within the connect timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      await assert.rejects(connect(`postgres://u:pw@127.0.0.1:${port}/x`, { connectTimeoutMs: 300 }), (error: unknown) => {
        assert.ok(error instanceof DatabaseUnavailableError, String(error));
        assert.equal(error.shownUrl, `postgres://u:***@127.0.0.1:${port}/x`);
        assert.equal(error.reason, 'no answer within 0.3 s');
        return true;
      });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('a PostgreSQL server that refuses the database or the user', { ...SLOW, skip: TEST_DIALECT !== 'postgres' }, async () => {
    const base = new URL(process.env.TEST_DATABASE_URL ?? '');
    const noDatabase = new URL(base);
    noDatabase.pathname = '/partner_api_no_such_db';
    assertOneLine(
      await cli(['migrate'], { DATABASE_URL: noDatabase.toString() }),
      `database error: cannot reach the database named by DATABASE_URL (${redactDatabaseUrl(noDatabase.toString())}): database "partner_api_no_such_db" does not exist`,
    );
    const noUser = new URL(base);
    noUser.username = 'partner_api_no_such_role';
    noUser.password = 'hunter2';
    const result = await cli(['topups', 'list'], { DATABASE_URL: noUser.toString() });
    const shown = escapeRegExp(noUser.toString().replace(':hunter2@', ':***@'));
    assertOneLine(
      result,
      new RegExp(`^database error: cannot reach the database named by DATABASE_URL \\(${shown}\\): (role "partner_api_no_such_role" does not exist|password authentication failed for user "partner_api_no_such_role")$`),
    );
  });

  test('passwords are hidden in the user part and in query parameters, nothing else changes', () => {
    assert.equal(redactDatabaseUrl('postgres://u:p%40ss@db.example:5432/app'), 'postgres://u:***@db.example:5432/app');
    assert.equal(redactDatabaseUrl('postgres://u@db:5432/app?sslmode=require&password=x'), 'postgres://u@db:5432/app?sslmode=require&password=***');
    assert.equal(redactDatabaseUrl('postgres://u@db/app'), 'postgres://u@db/app');
    assert.equal(redactDatabaseUrl('sqlite:./data/x.db'), 'sqlite:./data/x.db');
  });

  describe('SQLite', () => {
    let dir: string;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-dberr-'));
      // Readable by the unprivileged user of the permission test.
      fs.chmodSync(dir, 0o755);
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    const cannotOpen = (url: string, reason: string) =>
      `database error: cannot open the database named by DATABASE_URL (${url}): ${reason}`;

    test('a missing directory is refused, naming it, and not created', SLOW, async () => {
      const url = `sqlite:${path.join(dir, 'missing/deeper/x.db')}`;
      for (const args of [['migrate'], ['topups', 'list']]) {
        assertOneLine(
          await cli(args, { DATABASE_URL: url }),
          cannotOpen(url, `directory ${path.join(dir, 'missing/deeper')} does not exist; create it first (only the default ./data is created automatically)`),
        );
      }
      assert.equal(fs.existsSync(path.join(dir, 'missing')), false);
    });

    test('a file where the directory should be', SLOW, async () => {
      fs.writeFileSync(path.join(dir, 'plain-file'), 'x');
      const url = `sqlite:${path.join(dir, 'plain-file/x.db')}`;
      assertOneLine(await cli(['migrate'], { DATABASE_URL: url }), cannotOpen(url, `${path.join(dir, 'plain-file')} is not a directory`));
    });

    test('a directory in place of the database file', SLOW, async () => {
      fs.mkdirSync(path.join(dir, 'a-directory.db'));
      const url = `sqlite:${path.join(dir, 'a-directory.db')}`;
      assertOneLine(await cli(['topups', 'list'], { DATABASE_URL: url }), cannotOpen(url, `${path.join(dir, 'a-directory.db')} is a directory, not a database file`));
    });

    test('a file that is not a SQLite database', SLOW, async () => {
      fs.writeFileSync(path.join(dir, 'notes.db'), 'these are not the pages you are looking for\n'.repeat(200));
      const url = `sqlite:${path.join(dir, 'notes.db')}`;
      assertOneLine(
        await cli(['migrate'], { DATABASE_URL: url }),
        cannotOpen(url, `${path.join(dir, 'notes.db')} is not a SQLite database (file is not a database)`),
      );
    });

    // root may write anywhere: the test then runs the CLI as nobody.
    const asRoot = process.getuid?.() === 0;
    test('no permission to create the database or to write it', { ...SLOW, skip: process.platform === 'win32' }, async (c) => {
      const user: CliSpawnOptions = asRoot ? { uid: 65534, gid: 65534 } : {};
      const unreadable = asRoot ? unreadableBy(user) : null;
      if (unreadable !== null) return c.skip(`runs the CLI as nobody, who cannot start it here: ${unreadable}`);
      const readOnlyDir = path.join(dir, 'read-only-dir');
      fs.mkdirSync(readOnlyDir, { mode: 0o555 });
      const inReadOnlyDir = `sqlite:${path.join(readOnlyDir, 'x.db')}`;
      assertOneLine(
        await cli(['migrate'], { DATABASE_URL: inReadOnlyDir, HOME: dir }, user),
        cannotOpen(inReadOnlyDir, `no permission to write in ${readOnlyDir} (unable to open database file)`),
      );
      const readOnlyFile = path.join(dir, 'read-only.db');
      fs.writeFileSync(readOnlyFile, '');
      fs.chmodSync(readOnlyFile, 0o444);
      const url = `sqlite:${readOnlyFile}`;
      assertOneLine(
        await cli(['migrate'], { DATABASE_URL: url, HOME: dir }, user),
        new RegExp(`^${escapeRegExp(cannotOpen(url, `no permission to read and write ${readOnlyFile}`))} \\(.+\\)$`),
      );
    });

    test('the default location (DATABASE_URL unset) creates ./data on a fresh clone', SLOW, async () => {
      const fresh = fs.mkdtempSync(path.join(dir, 'fresh-clone-'));
      const result = await cli(['topups', 'list'], { DATABASE_URL: '' }, { cwd: fresh });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout.trim(), 'no top-ups');
      assert.ok(fs.statSync(path.join(fresh, 'data/partner-api.db')).isFile());
    });
  });
});
