import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { resolveCredentialsKey } from '../../src/modules/result-checker/credential-crypto.js';

/** What the service creates on disk is its user's alone: files 0600, directories 0700 (docs/deployment.md). */

const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

test('a new SQLite database, its WAL and shared-memory files and the directory made for it are the owner’s only', { skip: process.platform === 'win32' }, async (c) => {
  // The usual umask, whatever this process was started with: without care, files would be 0644.
  const umask = process.umask(0o022);
  c.after(() => process.umask(umask));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-modes-'));
  c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'data', 'partner-api.db');

  const database = await connect(`sqlite:${file}`, { createDirectory: true });
  try {
    await migrateToLatest(database);
    await database.db.insertInto('operators').values({ id: 'op_x', code: 'X', name: 'X', status: 'Active', created_at: 0, updated_at: 0 }).execute();
    assert.ok(fs.existsSync(`${file}-wal`) && fs.existsSync(`${file}-shm`), 'WAL mode files exist');
    assert.deepEqual(
      { dir: modeOf(path.dirname(file)), db: modeOf(file), wal: modeOf(`${file}-wal`), shm: modeOf(`${file}-shm`) },
      { dir: '700', db: '600', wal: '600', shm: '600' },
    );
  } finally {
    await database.close();
  }
});

test('the generated credentials key and the directory made for it are the owner’s only', { skip: process.platform === 'win32' }, (c) => {
  const umask = process.umask(0o022);
  c.after(() => process.umask(umask));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-modes-'));
  c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const keyDir = path.join(dir, 'data');
  resolveCredentialsKey(null, keyDir, () => {});
  assert.deepEqual({ dir: modeOf(keyDir), key: modeOf(path.join(keyDir, 'credentials.key')) }, { dir: '700', key: '600' });
});
