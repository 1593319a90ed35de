import type { Database } from '../../db/connection.js';
import type { AdjustmentDirection, AdjustmentStatus, WalletAdjustmentRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Mode } from '../../domain/types.js';

export interface NewAdjustment {
  id: string;
  walletId: string;
  profileId: string;
  mode: Mode;
  direction: AdjustmentDirection;
  amount: number;
  reason: string;
  status: AdjustmentStatus;
  requestedBy: string;
  requestedByStaffId: string | null;
  decidedBy: string | null;
  decidedByStaffId: string | null;
  now: number;
}

export interface AdjustmentFilter {
  status?: AdjustmentStatus | undefined;
  profileId?: string | undefined;
  mode?: Mode | undefined;
  limit: number;
}

/** Staff adjustments of wallets (their money is in the ledger: postings.adjustmentCredit/adjustmentDebit). */
export class AdjustmentRepository {
  constructor(private readonly database: Database) {}

  async insert(tx: Tx, a: NewAdjustment): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('wallet_adjustments').values({
        id: a.id,
        wallet_id: a.walletId,
        profile_id: a.profileId,
        mode: a.mode,
        direction: a.direction,
        amount: a.amount,
        reason: a.reason,
        status: a.status,
        requested_by: a.requestedBy,
        requested_by_staff_id: a.requestedByStaffId,
        decided_by: a.decidedBy,
        decided_by_staff_id: a.decidedByStaffId,
        decision_reason: null,
        created_at: a.now,
        decided_at: a.status === 'pending' ? null : a.now,
      }),
    );
  }

  async find(tx: Tx, id: string): Promise<WalletAdjustmentRow | undefined> {
    return (await tx.execute(tx.qb.selectFrom('wallet_adjustments').selectAll().where('id', '=', id))).rows[0];
  }

  /** Decides a pending adjustment; false when it was no longer pending (someone decided first). */
  async decide(
    tx: Tx,
    id: string,
    d: { status: 'approved' | 'rejected'; by: string; byStaffId: string | null; reason: string | null; now: number },
  ): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
        .updateTable('wallet_adjustments')
        .set({ status: d.status, decided_by: d.by, decided_by_staff_id: d.byStaffId, decision_reason: d.reason, decided_at: d.now })
        .where('id', '=', id)
        .where('status', '=', 'pending'),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async list(filter: AdjustmentFilter): Promise<WalletAdjustmentRow[]> {
    let query = this.database.read.selectFrom('wallet_adjustments').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.profileId) query = query.where('profile_id', '=', filter.profileId);
    if (filter.mode) query = query.where('mode', '=', filter.mode);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  /**
   * What one admin moved alone since `since` (adjustments they requested that were applied without a
   * second admin, both directions) and what was moved alone on the partner's wallet, pesewas. On
   * PostgreSQL the requester's account and the wallet are locked first, so two requests at once are
   * counted one after the other. (SQLite runs one writing unit at a time.)
   */
  async movedAlone(tx: Tx, q: { staffId: string | null; walletId: string; profileId: string; mode: Mode; since: number }): Promise<{ byStaff: number; onWallet: number }> {
    const staffId = q.staffId;
    if (this.database.dialect === 'postgres') {
      if (staffId !== null) await tx.execute(tx.qb.selectFrom('staff_accounts').select('id').where('id', '=', staffId).forUpdate());
      await tx.execute(tx.qb.selectFrom('wallets').select('id').where('id', '=', q.walletId).forUpdate());
    }
    const alone = tx.qb
      .selectFrom('wallet_adjustments')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('amount'), eb.lit(0)).as('total'))
      .where('status', '=', 'approved')
      // By name, not staff id: the CLI's own requests (cli:<user>) have no staff id, and moved alone too.
      .whereRef('decided_by', '=', 'requested_by')
      .where('created_at', '>', q.since);
    const byStaff = staffId === null ? undefined : (await tx.execute(alone.where('requested_by_staff_id', '=', staffId).where('mode', '=', q.mode))).rows[0];
    const onWallet = (await tx.execute(alone.where('profile_id', '=', q.profileId).where('mode', '=', q.mode))).rows[0];
    return { byStaff: Number(byStaff?.total ?? 0), onWallet: Number(onWallet?.total ?? 0) };
  }

  async findById(id: string): Promise<WalletAdjustmentRow | undefined> {
    return this.database.read.selectFrom('wallet_adjustments').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
