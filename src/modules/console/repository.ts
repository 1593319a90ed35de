import type { Database } from '../../db/connection.js';
import type { AuditRow, StaffAccountRow, StaffRole } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';

export interface NewAuditEntry {
  staffId: string | null;
  actor: string;
  action: string;
  recordType: string | null;
  recordId: string | null;
  address: string | null;
  outcome: 'ok' | 'refused';
  detail: object | null;
  now: number;
}

export interface AuditFilter {
  action?: string | undefined;
  actor?: string | undefined;
  recordId?: string | undefined;
  /** Rows with a smaller id (the next page). */
  beforeId?: number | undefined;
  limit: number;
}

/** Staff accounts, their sessions and the audit trail. */
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

  async activeAdmins(tx: Tx): Promise<string[]> {
    const { rows } = await tx.execute(
      tx.qb.selectFrom('staff_accounts').select('id').where('role', '=', 'admin').where('status', '=', 'active'),
    );
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

  // ---- audit ----

  async appendAudit(tx: Tx, e: NewAuditEntry): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('audit_log').values({
        staff_id: e.staffId,
        actor: e.actor,
        action: e.action,
        record_type: e.recordType,
        record_id: e.recordId,
        address: e.address,
        outcome: e.outcome,
        detail: e.detail === null ? null : JSON.stringify(e.detail),
        created_at: e.now,
      }),
    );
  }

  async listAudit(f: AuditFilter): Promise<AuditRow[]> {
    let query = this.database.read.selectFrom('audit_log').selectAll();
    if (f.action !== undefined) query = query.where('action', '=', f.action);
    if (f.actor !== undefined) query = query.where('actor', '=', f.actor);
    if (f.recordId !== undefined) query = query.where('record_id', '=', f.recordId);
    if (f.beforeId !== undefined) query = query.where('id', '<', f.beforeId);
    const rows = await query.orderBy('id', 'desc').limit(f.limit).execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), created_at: Number(r.created_at) }));
  }
}
