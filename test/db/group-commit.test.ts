import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { connect, type Database } from '../../src/db/connection.js';
import { GroupCommitter } from '../../src/db/group-commit.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { DB } from '../../src/db/schema.js';
import { WalSync } from '../../src/db/wal-sync.js';
import { postings } from '../../src/modules/wallet/postings.js';
import { WalletRepository } from '../../src/modules/wallet/repository.js';
import { WalletService } from '../../src/modules/wallet/service.js';
import { TEST_DIALECT } from '../support/app.js';
import { ROOT } from '../support/repo.js';
import { PROCESS_BUDGET_MS } from '../support/wait.js';

const sqliteOnly = { skip: TEST_DIALECT !== 'sqlite' ? 'group commit is the SQLite write path' : false };

async function freshDb(groupCommit: boolean): Promise<{ database: Database; file: string; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-gc-'));
  const file = path.join(dir, 'gc.db');
  const database = await connect(`sqlite:${file}`, { groupCommit });
  await migrateToLatest(database);
  const now = Date.now();
  await database.db
    .insertInto('profiles')
    .values({
      id: 'usr_gc',
      user_id: 'usr_gc',
      first_name: 'G',
      middle_name: '',
      last_name: 'C',
      gender: '',
      phone_number: '0244000009',
      email: 'gc@example.com',
      role: 'Agent',
      status: 'Active',
      country_code: '+233',
      country_iso: 'GH',
      country_name: 'Ghana',
      referral_code: 'GC01',
      unique_id: 'usr_gc',
      creator_id: '',
      update_meta: '{}',
      registered_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await database.unit((tx) =>
    new WalletService(database, new WalletRepository(database), Date.now).ensure(tx, 'usr_gc', 'live', 1_000, now),
  );
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
  const wallets = new WalletRepository(database);
  const results = await Promise.allSettled(
    Array.from({ length: 30 }, (_, i) =>
      database.unit(async (tx) => {
        const after = await wallets.post(
          tx,
          postings.adjustmentDebit({ walletId: id, adjustmentId: `unit-${i}`, amount: 40, reason: `unit ${i}` }),
          Date.now(),
        );
        if (!after) throw new Error(`unit ${i}: insufficient`);
        await tx.flush();
        if (i % 4 === 3) throw new Error(`unit ${i}: rejected after writing`);
        return after.available;
      }),
    ),
  );
  const wallet = await database.db
    .selectFrom('wallets')
    .select(['available', 'held'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const memos = (
    await database.db.selectFrom('ledger_entries').select('memo').where('kind', '=', 'adjustment').orderBy('id').execute()
  ).map((r) => r.memo);
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
      assert.ok(memos.every((m) => !['unit 3', 'unit 7', 'unit 11'].map((u) => `Staff adjustment: ${u}`).includes(m ?? '')));
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
        import { postings } from '${path.join(ROOT, 'src/modules/wallet/postings.ts')}';
        import { WalletRepository } from '${path.join(ROOT, 'src/modules/wallet/repository.ts')}';
        const database = await connect('sqlite:${db.file}');
        const wallets = new WalletRepository(database);
        await Promise.all(Array.from({ length: 10 }, (_, i) => database.unit(async (tx) => {
          await wallets.post(tx, postings.adjustmentDebit({ walletId: '${id}', adjustmentId: 'crash-' + i, amount: 10, reason: 'crash ' + i }), Date.now());
          await tx.flush();
          if (i === 5) process.kill(process.pid, 'SIGKILL');
        })));
      `;
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          cwd: ROOT,
          stdio: 'inherit',
        });
        // Killed by this budget instead of by itself would look the same: say so instead.
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`the child did not crash itself within ${PROCESS_BUDGET_MS} ms`));
        }, PROCESS_BUDGET_MS);
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
        const entries = await reopened.db.selectFrom('ledger_entries').select('id').where('kind', '=', 'adjustment').execute();
        assert.equal(entries.length, 0);
      } finally {
        await reopened.close();
      }
    } finally {
      fs.rmSync(path.dirname(db.file), { recursive: true, force: true });
    }
  });
});

/** An fdatasync the test completes by hand: each call waits in `pending` until released. */
function heldSync() {
  const pending: ((error?: Error) => void)[] = [];
  return {
    calls: 0,
    pending,
    fdatasync(this: { calls: number }, fd: number, done: (error: NodeJS.ErrnoException | null) => void) {
      this.calls++;
      pending.push((error) => (error ? done(error) : fs.fdatasync(fd, done)));
    },
    release(error?: Error) {
      const next = pending.shift();
      assert.ok(next, 'a sync is waiting');
      next(error);
    },
  };
}

const turns = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

async function withHeldSync(run: (c: Awaited<ReturnType<typeof committerWithHeldSync>>) => Promise<void>): Promise<void> {
  const c = await committerWithHeldSync();
  try {
    await run(c);
  } finally {
    await c.close();
  }
}

async function committerWithHeldSync() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-walsync-'));
  const file = path.join(dir, 'w.db');
  const handle = new SQLite(file);
  handle.pragma('journal_mode = WAL');
  handle.exec('create table t (id integer primary key, v text not null)');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: handle }) });
  const sync = heldSync();
  const walSync = new WalSync(`${file}-wal`, sync.fdatasync.bind(sync));
  const committer = new GroupCommitter(db, { maxBatch: 256, inTransaction: () => handle.inTransaction, walSync });
  const insert = (v: string) => committer.run(async (trx) => void (await sql`insert into t (v) values (${v})`.execute(trx)));
  const observer = new SQLite(file, { readonly: true });
  const visible = () => observer.prepare('select v from t order by id').pluck().all() as string[];
  return {
    sync,
    walSync,
    insert,
    visible,
    async close() {
      observer.close();
      await walSync.close().catch(() => {});
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe('group commit with the WAL sync off the event loop (synchronous=FULL)', () => {
  test('a group is acknowledged only when the fsync covering its commit completes', sqliteOnly, () =>
    withHeldSync(async (c) => {
      let acknowledged = 0;
      const units = ['a', 'b', 'c'].map((v) => c.insert(v).then(() => acknowledged++));
      await turns();
      assert.deepEqual(c.visible(), ['a', 'b', 'c'], 'committed in one group');
      assert.equal(c.sync.calls, 1);
      assert.equal(acknowledged, 0, 'nothing acknowledged before its fsync');
      assert.equal(c.walSync.behind, true);
      let durable = false;
      const whenDurable = c.walSync.durable().then(() => (durable = true));
      await turns();
      assert.equal(durable, false);
      c.sync.release();
      await Promise.all([...units, whenDurable]);
      assert.equal(acknowledged, 3);
      assert.equal(c.walSync.behind, false);
    }),
  );

  test('groups committed while a sync runs wait for the next one, which covers them all', sqliteOnly, () =>
    withHeldSync(async (c) => {
      const first = c.insert('first');
      await turns();
      const later = [c.insert('second'), c.insert('third')];
      await turns();
      assert.deepEqual(c.visible(), ['first', 'second', 'third']);
      assert.equal(c.sync.calls, 1, 'no second sync while the first runs');
      let laterDone = false;
      void Promise.all(later).then(() => (laterDone = true));
      c.sync.release();
      await first;
      await turns();
      assert.equal(laterDone, false, 'the first sync started before they were written');
      assert.equal(c.sync.calls, 2);
      c.sync.release();
      await Promise.all(later);
    }),
  );

  test('a failed fsync rejects its group and everything after it: nothing more is acknowledged', sqliteOnly, () =>
    withHeldSync(async (c) => {
      const unit = c.insert('lost?');
      await turns();
      c.sync.release(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
      await assert.rejects(unit, /could not sync the SQLite WAL to disk: EIO/);
      await assert.rejects(c.insert('after'), /could not sync the SQLite WAL to disk/);
      await assert.rejects(c.walSync.durable(), /could not sync/);
      assert.equal(c.walSync.behind, true, 'replies stay held');
    }),
  );
});
