import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/db/connection.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { TEST_DIALECT } from '../support/app.js';

/**
 * A group commit runs each unit in a savepoint of one transaction (src/db/group-commit.ts), and
 * SQLite keeps the first image of every page a savepoint changes in a statement journal. By default
 * that journal spills to a temporary file past 64 KiB, and each page then costs two write calls:
 * under purchase load, most of the service's write calls (docs/performance.md, "The statement
 * journal in memory"). The writer keeps it in memory (temp_store = MEMORY): no temporary file is
 * ever opened by a group of units, however many pages they change.
 *
 * SQLite's unix VFS takes its temporary directory from SQLITE_TMPDIR when it first needs one, so
 * this file sets it before any connection (each test file runs in a process of its own).
 */
const tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-sqlite-tmp-'));
process.env.SQLITE_TMPDIR = tempDir;

/** Files of SQLite's temporary directory this process holds open (SQLite unlinks them at once). */
function openTemporaryFiles(): string[] {
  return fs
    .readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return fs.readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(tempDir));
}

test(
  'a group of units that change many pages opens no temporary file for its statement journal',
  { skip: TEST_DIALECT !== 'sqlite' ? 'the statement journal is SQLite’s' : process.platform !== 'linux' ? 'reads /proc/self/fd' : false },
  async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-journal-'));
    const database = await connect(`sqlite:${path.join(dir, 'journal.db')}`);
    try {
      await migrateToLatest(database);
      const seen = new Set<string>();
      // 60 units queued at once: the committer runs them in a transaction or two, one savepoint
      // each. Every unit appends 2 KiB rows to a table and its two unique indexes, so each changes
      // pages an earlier savepoint of the same transaction changed: far past 64 KiB of journal.
      await Promise.all(
        Array.from({ length: 60 }, (_, unit) =>
          database.unit(async (tx) => {
            for (let row = 0; row < 8; row++) {
              const n = unit * 8 + row;
              await tx.execute(
                tx.qb.insertInto('sandbox_submissions').values({
                  idempotency_key: `journal-${String(n).padStart(4, '0')}-${'k'.repeat(500)}`,
                  provider_ref: `ref-${String(n).padStart(4, '0')}-${'r'.repeat(500)}`,
                  msisdn: 'm'.repeat(1_000),
                  accepted_at: n,
                  submit_calls: 1,
                }),
              );
            }
            for (const file of openTemporaryFiles()) seen.add(file);
          }),
        ),
      );
      const { n } = await database.read
        .selectFrom('sandbox_submissions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(n), 480, 'every unit committed');
      assert.deepEqual([...seen], [], 'temporary files opened while the units ran');
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
      fs.rmSync(tempDir, { recursive: true, force: true });
    }
  },
);
