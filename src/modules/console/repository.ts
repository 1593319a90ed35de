import type { Database } from '../../db/connection.js';
import type { StaffAccountRow, StaffRole } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';

/** Staff accounts and their sessions. */
export class StaffRepository {
  constructor(private readonly database: Database) {}

  async insertAccount(tx: Tx, account: StaffAccountRow): Promise<void> {
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

  async listAccounts(): Promise<Omit<StaffAccountRow, 'password_hash'>[]> {
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

  async updateAccount(
    tx: Tx,
    id: string,
    change: { role?: StaffRole; status?: 'active' | 'disabled'; password_hash?: string },
    now: number,
  ): Promise<void> {
    await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ ...change, updated_at: now })
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
      .select(['s.id', 's.staff_id', 's.csrf_token', 's.expires_at', 'a.email', 'a.role', 'a.status'])
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
}
