import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_DIALECT, type TestDatabase } from '../support/app.js';

/** A release rolled back after a newer one migrated the database still starts on it (docs/deployment.md, "Upgrades and migrations"). */
describe(`migrations of a newer release (${TEST_DIALECT})`, () => {
  const dbs: TestDatabase[] = [];
  after(async () => {
    for (const db of dbs) await db.drop();
  });

  const record = (testDb: TestDatabase, name: string) =>
    sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`.execute(testDb.database.db);

  test('migrations after the last one this release knows are reported, not refused', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    await record(testDb, '9999_from_a_newer_release');
    const told: string[][] = [];
    assert.deepEqual(await migrateToLatest(testDb.database, { onNewerSchema: (names) => told.push(names) }), []);
    assert.deepEqual(told, [['9999_from_a_newer_release']]);
  });

  test('an unknown migration among the known ones is still refused', async () => {
    const testDb = await createTestDatabase();
    dbs.push(testDb);
    await record(testDb, '0001b_unknown');
    await assert.rejects(migrateToLatest(testDb.database), /does not know: 0001b_unknown/);
  });
});
