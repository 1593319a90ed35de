import type { Insertable } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { StaffAccountRow, StaffAccountsTable, StaffRole } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';

/** Staff accounts and their sessions. */
export class StaffRepository {
  constructor(private readonly database: Database) {}

  /** A new account must choose its own password at first sign-in unless the row says otherwise. */
  async insertAccount(tx: Tx, account: Insertable<StaffAccountsTable>): Promise<void> {
    await tx.execute(tx.qb.insertInto('staff_accounts').values(account));
  }

  async findAccountByEmail(email: string): Promise<StaffAccountRow | undefined> {
    return this.database.read.selectFrom('staff_accounts').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async findAccountByEmailInUnit(tx: Tx, email: string): Promise<StaffAccountRow | undefined> {
    return (await tx.execute(tx.qb.selectFrom('staff_accounts').selectAll().where('email', '=', email))).rows[0];
  }

  async findAccount(tx: Tx, id: string): Promise<StaffAccountRow | undefined> {
    return (await tx.execute(tx.qb.selectFrom('staff_accounts').selectAll().where('id', '=', id))).rows[0];
  }

  async listAccounts(): Promise<Omit<StaffAccountRow, 'password_hash' | 'password_change_required'>[]> {
    return this.database.read
      .selectFrom('staff_accounts')
      .select(['id', 'email', 'role', 'status', 'last_login_at', 'created_at', 'updated_at'])
      .orderBy('email')
      .execute();
  }

  /**
   * The active admins, locked on PostgreSQL until the unit ends: two admins demoting each other at
   * once would each count two admins and leave none; with the lock the second waits and counts one.
   * (SQLite runs one writing unit at a time.)
   */
  async activeAdmins(tx: Tx): Promise<string[]> {
    let query = tx.qb.selectFrom('staff_accounts').select('id').where('role', '=', 'admin').where('status', '=', 'active');
    if (this.database.dialect === 'postgres') query = query.forUpdate();
    const { rows } = await tx.execute(query);
    return rows.map((r) => r.id);
  }

  /** A password set here (a reset) is one its holder did not choose: they must change it at next sign-in. */
  async updateAccount(
    tx: Tx,
    id: string,
    change: { role?: StaffRole; status?: 'active' | 'disabled'; password_hash?: string },
    now: number,
  ): Promise<void> {
    const oneTime = change.password_hash === undefined ? {} : { password_change_required: 1 };
    await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ ...change, ...oneTime, updated_at: now })
        .where('id', '=', id),
    );
  }

  async recordLogin(tx: Tx, id: string, now: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('staff_accounts').set({ last_login_at: now }).where('id', '=', id));
  }

  // ---- sessions ----

  async insertSession(
    tx: Tx,
    s: { id: string; staffId: string; csrfToken: string; address: string | null; now: number; expiresAt: number },
  ): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('staff_sessions').values({
        id: s.id,
        staff_id: s.staffId,
        csrf_token: s.csrfToken,
        address: s.address,
        created_at: s.now,
        expires_at: s.expiresAt,
      }),
    );
  }

  /** The session with its account, if both exist. */
  async findSession(id: string) {
    return this.database.read
      .selectFrom('staff_sessions as s')
      .innerJoin('staff_accounts as a', 'a.id', 's.staff_id')
      .select(['s.id', 's.staff_id', 's.csrf_token', 's.expires_at', 'a.email', 'a.role', 'a.status', 'a.password_change_required'])
      .where('s.id', '=', id)
      .executeTakeFirst();
  }

  async deleteSession(tx: Tx, id: string): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('staff_sessions').where('id', '=', id));
  }

  async deleteSessionsOf(tx: Tx, staffId: string): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('staff_sessions').where('staff_id', '=', staffId));
  }

  async deleteExpiredSessions(tx: Tx, now: number): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('staff_sessions').where('expires_at', '<=', now));
  }

  // ---- the holder's own password ----

  async findAccountById(id: string): Promise<StaffAccountRow | undefined> {
    return this.database.read.selectFrom('staff_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * The password its holder chose, replacing `previousHash`; false when the password changed
   * meanwhile (a reset, another change), so a change never overwrites one it did not check.
   */
  async setOwnPassword(tx: Tx, id: string, previousHash: string, hash: string, now: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ password_hash: hash, password_change_required: 0, updated_at: now })
        .where('id', '=', id)
        .where('password_hash', '=', previousHash),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  async deleteSessionsOfExcept(tx: Tx, staffId: string, keptSessionId: string): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('staff_sessions').where('staff_id', '=', staffId).where('id', '!=', keptSessionId));
  }
}
