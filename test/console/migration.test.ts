import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createTestDatabase, type TestDatabase } from '../support/app.js';

let testDb: TestDatabase;
before(async () => {
  testDb = await createTestDatabase();
});
after(() => testDb.drop());

test('0010_console: the audit trail is append-only in the database itself', async () => {
  const db = testDb.database.db;
  const row = await db
    .insertInto('audit_log')
    .values({
      staff_id: null,
      actor: 'cli:test',
      action: 'staff.create',
      record_type: 'staff',
      record_id: 'stf_1',
      address: null,
      outcome: 'ok',
      detail: null,
      created_at: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await assert.rejects(db.updateTable('audit_log').set({ action: 'edited' }).where('id', '=', row.id).execute(), /append-only/);
  await assert.rejects(db.deleteFrom('audit_log').where('id', '=', row.id).execute(), /append-only/);
  const kept = await db.selectFrom('audit_log').select(['action']).execute();
  assert.deepEqual(kept, [{ action: 'staff.create' }]);
});

test('0010_console: staff e-mails are unique and roles are closed', async () => {
  const db = testDb.database.db;
  const base = {
    role: 'viewer' as const,
    password_hash: 'x',
    status: 'active' as const,
    last_login_at: null,
    created_at: 1,
    updated_at: 1,
  };
  await db
    .insertInto('staff_accounts')
    .values({ ...base, id: 'stf_a', email: 'a@example.com' })
    .execute();
  await assert.rejects(
    db
      .insertInto('staff_accounts')
      .values({ ...base, id: 'stf_b', email: 'a@example.com' })
      .execute(),
  );
  await assert.rejects(
    db
      .insertInto('staff_accounts')
      .values({ ...base, id: 'stf_c', email: 'c@example.com', role: 'root' as 'admin' })
      .execute(),
  );
});

test('0012_staff_password_change: an account starts with a password to change (the default existing accounts get too); the flag is 0 or 1', async () => {
  const db = testDb.database.db;
  const account = (id: string, email: string) => ({
    id,
    email,
    role: 'viewer' as const,
    password_hash: 'x',
    status: 'active' as const,
    last_login_at: null,
    created_at: 1,
    updated_at: 1,
  });
  await db.insertInto('staff_accounts').values(account('stf_flag', 'flag@example.com')).execute();
  const row = await db.selectFrom('staff_accounts').select('password_change_required').where('id', '=', 'stf_flag').executeTakeFirstOrThrow();
  assert.equal(Number(row.password_change_required), 1);
  await assert.rejects(
    db
      .insertInto('staff_accounts')
      .values({ ...account('stf_bad', 'bad@example.com'), password_change_required: 2 })
      .execute(),
  );
});
