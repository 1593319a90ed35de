import type { Insertable } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { StaffAccountRow, StaffAccountsTable, StaffRequestRow, StaffRequestStatus, StaffRole } from '../../db/schema.js';
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

  async listAccounts(): Promise<Pick<StaffAccountRow, 'id' | 'email' | 'role' | 'status' | 'last_login_at' | 'created_at' | 'updated_at' | 'totp_enabled_at'>[]> {
    return this.database.read
      .selectFrom('staff_accounts')
      .select(['id', 'email', 'role', 'status', 'last_login_at', 'created_at', 'updated_at', 'totp_enabled_at'])
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
    change: { role?: StaffRole; status?: 'active' | 'disabled'; password_hash?: string; password_reset_by_staff_id?: string | null },
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
    s: {
      id: string;
      staffId: string;
      csrfToken: string;
      address: string | null;
      now: number;
      expiresAt: number;
      /** The password was right; the second factor is still to come. */
      secondFactorPending?: boolean;
    },
  ): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('staff_sessions').values({
        id: s.id,
        staff_id: s.staffId,
        csrf_token: s.csrfToken,
        address: s.address,
        created_at: s.now,
        expires_at: s.expiresAt,
        second_factor_pending: s.secondFactorPending ? 1 : 0,
      }),
    );
  }

  /** The session with its account, if both exist. */
  async findSession(id: string) {
    return this.database.read
      .selectFrom('staff_sessions as s')
      .innerJoin('staff_accounts as a', 'a.id', 's.staff_id')
      .select(['s.id', 's.staff_id', 's.csrf_token', 's.expires_at', 'a.email', 'a.role', 'a.status', 'a.password_change_required',
        's.second_factor_pending', 'a.totp_enabled_at'])
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

  // ---- requests for a second admin (docs/console.md, "Four eyes") ----

  async insertRequest(tx: Tx, row: StaffRequestRow): Promise<void> {
    await tx.execute(tx.qb.insertInto('staff_requests').values(row));
  }

  async findRequest(tx: Tx, id: string): Promise<StaffRequestRow | undefined> {
    return (await tx.execute(tx.qb.selectFrom('staff_requests').selectAll().where('id', '=', id))).rows[0];
  }

  async pendingRequestFor(tx: Tx, email: string): Promise<StaffRequestRow | undefined> {
    return (await tx.execute(tx.qb.selectFrom('staff_requests').selectAll().where('email', '=', email).where('status', '=', 'pending'))).rows[0];
  }

  /** Decides a pending request (a new account's password hash goes); false when it was no longer pending. */
  async decideRequest(
    tx: Tx,
    id: string,
    d: { status: 'approved' | 'rejected'; by: string; byStaffId: string | null; reason: string | null; now: number },
  ): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('staff_requests')
        .set({ status: d.status, decided_by: d.by, decided_by_staff_id: d.byStaffId, decision_reason: d.reason, decided_at: d.now, password_hash: null })
        .where('id', '=', id)
        .where('status', '=', 'pending'),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  async listRequests(filter: { status?: StaffRequestStatus | undefined; limit: number }): Promise<StaffRequestRow[]> {
    let query = this.database.read.selectFrom('staff_requests').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
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

  // ---- two-factor sign-in (docs/console.md, "Two-factor sign-in") ----

  async setPendingTotp(tx: Tx, id: string, sealedSecret: string, now: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('staff_accounts').set({ totp_pending_secret: sealedSecret, updated_at: now }).where('id', '=', id));
  }

  /**
   * The secret being set up becomes the account's, `step` its first code used; false when the
   * pending secret changed meanwhile (set up again in another tab) or 2FA is on already.
   */
  async enableTotp(tx: Tx, id: string, sealedPending: string, step: number, now: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ totp_secret: sealedPending, totp_pending_secret: null, totp_enabled_at: now, totp_last_step: step, updated_at: now })
        .where('id', '=', id)
        .where('totp_pending_secret', '=', sealedPending)
        .where('totp_secret', 'is', null),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  /**
   * Records `step` as the last code accepted, only if it is later than the last one: false for a
   * code of a step used already (a replay, or the same code sent twice at once).
   */
  async acceptTotpStep(tx: Tx, id: string, step: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ totp_last_step: step })
        .where('id', '=', id)
        .where('totp_secret', 'is not', null)
        .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)])),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  /** Two-factor sign-in off: the secret, a pending one and the recovery codes are gone. */
  async clearTotp(tx: Tx, id: string, now: number): Promise<void> {
    await tx.execute(
      tx.qb
        .updateTable('staff_accounts')
        .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null, updated_at: now })
        .where('id', '=', id),
    );
    await tx.execute(tx.qb.deleteFrom('staff_recovery_codes').where('staff_id', '=', id));
  }

  async replaceRecoveryCodes(tx: Tx, id: string, hashes: string[], now: number): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('staff_recovery_codes').where('staff_id', '=', id));
    await tx.execute(
      tx.qb.insertInto('staff_recovery_codes').values(hashes.map((code_hash) => ({ staff_id: id, code_hash, created_at: now, used_at: null }))),
    );
  }

  /** Marks an unused recovery code used; false when there is no such code or it was used (at once, elsewhere). */
  async useRecoveryCode(tx: Tx, id: string, hash: string, now: number): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('staff_recovery_codes')
        .set({ used_at: now })
        .where('staff_id', '=', id)
        .where('code_hash', '=', hash)
        .where('used_at', 'is', null),
    );
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  async unusedRecoveryCodes(tx: Tx, id: string): Promise<number> {
    const { rows } = await tx.execute(
      tx.qb
        .selectFrom('staff_recovery_codes')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('staff_id', '=', id)
        .where('used_at', 'is', null),
    );
    return Number(rows[0]?.n ?? 0);
  }
}
