import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, runCli, spawnCli } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { freePort, loadTestApp, purchaseLoad, suiteProcesses } from '../support/ops.js';

/** `cli backup` / `cli restore` (backup: SQLite's backup API or pg_dump; restore: SQLite, PostgreSQL is pg_restore's job). */
describe(`cli backup and restore (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();
  const modeOf = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);

  test(
    'on PostgreSQL: a pg_dump custom-format dump, 0600 under the usual umask, no partial file on success or failure; restore points to pg_restore',
    { skip: (TEST_DIALECT !== 'postgres' || process.platform === 'win32') && 'PostgreSQL only' },
    async (c) => {
      const umask = process.umask(0o022);
      c.after(() => process.umask(umask));
      const t = await loadTestApp();
      apps.push(t);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-pgdump-'));
      c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'partner-api.dump');
      const res = await runCli(['backup', file], cliEnv(t));
      assert.equal(res.code, 0, res.stderr);
      assert.match(res.stdout, /^backup: postgres:\/\/.* → .*partner-api\.dump \(pg_dump custom format\)$/m);
      assert.match(res.stdout, /^credentials key: sha256:[0-9a-f]{16} \(from CREDENTIALS_KEY\)$/m);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['partner-api.dump', 'partner-api.dump.manifest.json']);
      assert.deepEqual({ dump: modeOf(file), manifest: modeOf(`${file}.manifest.json`) }, { dump: '600', manifest: '600' });
      assert.equal(fs.readFileSync(file).subarray(0, 5).toString(), 'PGDMP', 'a pg_restore archive');

      const url = new URL(cliEnv(t).DATABASE_URL ?? '');
      url.pathname = '/partner_api_no_such_database';
      const failed = await runCli(['backup', path.join(dir, 'failed.dump')], { ...cliEnv(t), DATABASE_URL: url.toString() });
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /^backup failed: pg_dump exited with 1: .*partner_api_no_such_database/m);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['partner-api.dump', 'partner-api.dump.manifest.json'], 'a failed dump leaves nothing');

      const restore = await runCli(['restore', file], cliEnv(t));
      assert.equal(restore.code, 1);
      assert.match(restore.stderr, /pg_restore/);
    },
  );

  test(
    'a backup taken under write load verifies clean, names its key, and restore refuses a database in use',
    { skip: TEST_DIALECT !== 'sqlite' && 'SQLite only' },
    async () => {
      const t = await loadTestApp();
      apps.push(t);
      const port = await freePort();
      const env = cliEnv(t, { PORT: String(port), HOST: '127.0.0.1', SANDBOX_SETTLE_MS: '100', WORKER_IDLE_MS: '20' });
      const serve = spawnCli(['serve'], env);
      children.push(serve);
      await serve.waitForOutput('partner-api listening');
      const load = purchaseLoad([`http://127.0.0.1:${port}`], { concurrency: 6 });
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-backup-'));
      const file = path.join(dir, 'copy.db');
      try {
        await waitFor('purchases and settlements to be under way', async () => load.acknowledged.length >= 30);
        const before = load.acknowledged.length;
        const res = await runCli(['backup', file], env);
        assert.equal(res.code, 0, res.stderr);
        const fingerprint = `sha256:${createHash('sha256')
          .update(Buffer.from(env.CREDENTIALS_KEY ?? '', 'base64'))
          .digest('hex')
          .slice(0, 16)}`;
        assert.match(res.stdout, new RegExp(`credentials key: ${fingerprint} \\(from CREDENTIALS_KEY\\)`));
        const manifest = JSON.parse(fs.readFileSync(`${file}.manifest.json`, 'utf8')) as {
          credentialsKey: { fingerprint: string };
        };
        assert.equal(manifest.credentialsKey.fingerprint, fingerprint);
        await waitFor('more purchases after the backup', async () => load.acknowledged.length > before + 10);

        // The copy is consistent by itself: wallets, holds, settlements and orders agree.
        const copy = await runCli(['ledger', 'verify'], { ...env, DATABASE_URL: `sqlite:${file}` });
        assert.equal(copy.code, 0, copy.stdout + copy.stderr);
        assert.match(copy.stdout, /ledger verify: OK/);

        const second = await runCli(['backup', file], env);
        assert.equal(second.code, 1, 'an existing file is never overwritten');

        const refused = await runCli(['restore', file], env);
        assert.equal(refused.code, 1, refused.stdout);
        assert.match(refused.stderr, /is in use/);
      } finally {
        await load.stop();
        serve.child.kill('SIGTERM');
        assert.equal(await serve.exited(), 0, serve.output());
      }

      // A database nobody has open takes the backup (twice: the second time over the first restore).
      const target = { ...env, DATABASE_URL: `sqlite:${path.join(dir, 'restored', 'partner-api.db')}` };
      for (let i = 0; i < 2; i++) {
        const restored = await runCli(['restore', file], target);
        assert.equal(restored.code, 0, restored.stderr);
        assert.match(restored.stdout, /the backup needs credentials key sha256:/);
        assert.doesNotMatch(restored.stdout, /WARNING/);
      }
      const verified = await runCli(['ledger', 'verify'], target);
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    },
  );

  test(
    'the backup, its manifest, the restored database and the directory restore makes are the owner’s only',
    { skip: (TEST_DIALECT !== 'sqlite' || process.platform === 'win32') && 'SQLite only' },
    async (c) => {
      // The usual umask, inherited by the CLI processes: without care, their files would be 0644.
      const umask = process.umask(0o022);
      c.after(() => process.umask(umask));
      const t = await loadTestApp();
      apps.push(t);
      const env = cliEnv(t);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-backup-'));
      c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'copy.db');
      const backedUp = await runCli(['backup', file], env);
      assert.equal(backedUp.code, 0, backedUp.stderr);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['copy.db', 'copy.db.manifest.json'], 'no .partial, -wal or -shm file beside the backup');
      const restoredFile = path.join(dir, 'restored', 'partner-api.db');
      const restored = await runCli(['restore', file], { ...env, DATABASE_URL: `sqlite:${restoredFile}` });
      assert.equal(restored.code, 0, restored.stderr);
      assert.deepEqual(
        {
          backup: modeOf(file),
          manifest: modeOf(`${file}.manifest.json`),
          restored: modeOf(restoredFile),
          restoredDir: modeOf(path.dirname(restoredFile)),
        },
        { backup: '600', manifest: '600', restored: '600', restoredDir: '700' },
      );
    },
  );

  test(
    "restore refuses without the backup's credentials key, and never makes a new key beside the restored data",
    { skip: TEST_DIALECT !== 'sqlite' && 'SQLite only' },
    async (c) => {
      const t = await loadTestApp();
      apps.push(t);
      const env = cliEnv(t);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-restore-key-'));
      c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
      const file = path.join(dir, 'copy.db');
      assert.equal((await runCli(['backup', file], env)).code, 0);
      const fingerprint = (JSON.parse(fs.readFileSync(`${file}.manifest.json`, 'utf8')) as { credentialsKey: { fingerprint: string } }).credentialsKey.fingerprint;
      const restoredDir = path.join(dir, 'restored');
      const target = { ...env, DATABASE_URL: `sqlite:${path.join(restoredDir, 'partner-api.db')}` };

      const keyless = await runCli(['restore', file], { ...target, CREDENTIALS_KEY: '' });
      assert.equal(keyless.code, 1);
      assert.match(keyless.stderr, new RegExp(`^restore: refused, nothing replaced: no credentials key\\. Set CREDENTIALS_KEY to the backup's key \\(${fingerprint}\\)`, 'm'));
      assert.equal(fs.existsSync(restoredDir), false, 'nothing restored, no key generated');

      const other = await runCli(['restore', file], { ...target, CREDENTIALS_KEY: Buffer.alloc(32, 9).toString('base64') });
      assert.equal(other.code, 1);
      assert.match(other.stderr, new RegExp(`is not the backup's ${fingerprint}`));
      assert.equal(fs.existsSync(restoredDir), false);

      // The backup's key in credentials.key beside the target serves as well as CREDENTIALS_KEY.
      fs.mkdirSync(restoredDir, { mode: 0o700 });
      fs.writeFileSync(path.join(restoredDir, 'credentials.key'), `${env.CREDENTIALS_KEY}\n`, { mode: 0o600 });
      const restored = await runCli(['restore', file], { ...target, CREDENTIALS_KEY: '' });
      assert.equal(restored.code, 0, restored.stderr);
      assert.match(restored.stdout, new RegExp(`configured now: ${fingerprint} \\(from .*credentials\\.key\\)`));
    },
  );
});
