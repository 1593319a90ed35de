import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { connect, type Database } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { ensureWallet, post } from '../../src/wallet/service.js';
import { TEST_DIALECT } from '../helpers/app.js';
import { ROOT } from '../helpers/cli.js';

const sqliteOnly = { skip: TEST_DIALECT !== 'sqlite' ? 'group commit is the SQLite write path' : false };

async function freshDb(groupCommit: boolean): Promise<{ database: Database; file: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-gc-'));
  const file = path.join(dir, 'gc.db');
  const database = await connect(`sqlite:${file}`, { groupCommit });
  await migrateToLatest(database);
  const now = Date.now();
  await database.db.insertInto('profiles').values({
    id: 'usr_gc', user_id: 'usr_gc', first_name: 'G', middle_name: '', last_name: 'C', gender: '', phone_number: '0244000009',
    email: 'gc@example.com', role: 'Agent', status: 'Active', country_code: '+233', country_iso: 'GH', country_name: 'Ghana',
    referral_code: 'GC01', unique_id: 'usr_gc', creator_id: '', update_meta: '{}', registered_at: now, created_at: now, updated_at: now,
  }).execute();
  await database.transaction((trx) => ensureWallet(trx, 'usr_gc', 'live', 1_000, now));
  return {
    database,
    file,
    async drop() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function walletId(database: Database) {
  const row = await database.db.selectFrom('wallets').select('id').where('profile_id', '=', 'usr_gc').executeTakeFirstOrThrow();
  return row.id;
}

/** 30 concurrent debits of 40 pesewas from a wallet of 1000; every 4th fails after writing its entry. */
async function workload(database: Database) {
  const id = await walletId(database);
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      database.transaction(async (trx) => {
        const after = await post(trx, { walletId: id, kind: 'rc_debit', availableDelta: -40, heldDelta: 0, memo: `unit ${i}` }, Date.now());
        if (!after) throw new Error(`unit ${i}: insufficient`);
        if (i % 4 === 3) throw new Error(`unit ${i}: rejected after writing`);
        return after.available;
      }),
    ),
  );
  const wallet = await database.db.selectFrom('wallets').select(['available', 'held']).where('id', '=', id).executeTakeFirstOrThrow();
  const memos = (await database.db.selectFrom('ledger_entries').select('memo').where('kind', '=', 'rc_debit').orderBy('id').execute()).map((r) => r.memo);
  return { results: results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)), wallet, memos };
}

describe('group commit (SQLite write path)', () => {
  test('units that fail inside a group are rejected alone; the rest commit', sqliteOnly, async () => {
    const db = await freshDb(true);
    try {
      const { results, wallet, memos } = await workload(db.database);
      // 1000 pesewas afford 25 debits of 40; units 3, 7, 11, … roll back and free their money.
      const committed = results.filter((r) => typeof r === 'number');
      const rejectedAfterWriting = results.filter((r) => typeof r === 'string' && r.includes('after writing'));
      const insufficient = results.filter((r) => typeof r === 'string' && r.includes('insufficient'));
      assert.equal(rejectedAfterWriting.length + committed.length + insufficient.length, 30);
      assert.equal(rejectedAfterWriting.length, 7);
      assert.equal(committed.length, 23);
      assert.equal(insufficient.length, 0);
      assert.equal(wallet.available, 1000 - 23 * 40);
      assert.equal(memos.length, 23, 'no ledger entry of a rejected unit survives');
      assert.ok(memos.every((m) => !['unit 3', 'unit 7', 'unit 11'].includes(m ?? '')));
    } finally {
      await db.drop();
    }
  });

  test('results are identical to one transaction per unit', sqliteOnly, async () => {
    const grouped = await freshDb(true);
    const single = await freshDb(false);
    try {
      const a = await workload(grouped.database);
      const b = await workload(single.database);
      assert.deepEqual(a, b);
    } finally {
      await grouped.drop();
      await single.drop();
    }
  });

  test('a crash in the middle of a group leaves nothing of the group written', sqliteOnly, async () => {
    const db = await freshDb(true);
    const id = await walletId(db.database);
    await db.database.close();
    try {
      // A child process queues 10 units; the 6th kills the process after 5 have written.
      const script = `
        import { connect } from '${path.join(ROOT, 'src/db/connection.ts')}';
        import { post } from '${path.join(ROOT, 'src/wallet/service.ts')}';
        const database = await connect('sqlite:${db.file}');
        await Promise.all(Array.from({ length: 10 }, (_, i) => database.transaction(async (trx) => {
          await post(trx, { walletId: '${id}', kind: 'rc_debit', availableDelta: -10, heldDelta: 0, memo: 'crash ' + i }, Date.now());
          if (i === 5) process.kill(process.pid, 'SIGKILL');
        })));
      `;
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: 'inherit' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('error', reject);
        child.on('exit', (exitCode, signal) => {
          clearTimeout(timer);
          resolve(signal === 'SIGKILL' ? null : exitCode);
        });
      });
      assert.equal(code, null, 'the child died by SIGKILL');
      const reopened = await connect(`sqlite:${db.file}`);
      try {
        const wallet = await reopened.db.selectFrom('wallets').select('available').where('id', '=', id).executeTakeFirstOrThrow();
        assert.equal(wallet.available, 1000);
        const entries = await reopened.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'rc_debit').execute();
        assert.equal(entries.length, 0);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(path.dirname(db.file), { recursive: true, force: true });
    }
  });
});
