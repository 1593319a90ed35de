import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connection.js';
import { TEST_DIALECT } from '../support/app.js';
import { waitFor } from '../support/wait.js';

test('a long-running process checkpoints the WAL from a background thread', { skip: TEST_DIALECT !== 'sqlite' ? 'SQLite WAL only' : false }, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-ckpt-'));
  const file = path.join(dir, 'c.db');
  const warnings: string[] = [];
  const database = await connect(`sqlite:${file}`, { backgroundCheckpoint: { onError: (m) => warnings.push(m) } });
  try {
    await database.unit(async (tx) => void (await tx.execute(sql`create table filler (v text not null)`.compile(tx.qb))));
    const before = fs.statSync(file).size;
    // ~2 MB through group commits: far below the writer's own checkpoint threshold (16 000 pages).
    await Promise.all(
      Array.from({ length: 100 }, () =>
        database.unit(async (tx) => void (await tx.execute(sql`insert into filler (v) select hex(randomblob(5000)) from (select 1 union all select 2)`.compile(tx.qb)))),
      ),
    );
    // The pages reach the database file without the writer checkpointing.
    await waitFor('the background checkpoint to copy the pages into the database file', async () => fs.statSync(file).size >= before + 1_000_000);
    assert.deepEqual(warnings, []);
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
