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

/** `cli backup` / `cli restore` (SQLite; PostgreSQL is pg_dump's job, and backup says so). */
describe(`cli backup and restore (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();

  test('on PostgreSQL it points to pg_dump', { skip: TEST_DIALECT !== 'postgres' && 'PostgreSQL only' }, async () => {
    const t = await loadTestApp();
    apps.push(t);
    const res = await runCli(['backup', path.join(os.tmpdir(), 'never.db')], cliEnv(t));
    assert.equal(res.code, 1);
    assert.match(res.stderr, /pg_dump/);
  });

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
      const restoredFile = path.join(dir, 'restored', 'partner-api.db');
      const restored = await runCli(['restore', file], { ...env, DATABASE_URL: `sqlite:${restoredFile}` });
      assert.equal(restored.code, 0, restored.stderr);
      const modeOf = (f: string) => (fs.statSync(f).mode & 0o777).toString(8);
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
});
