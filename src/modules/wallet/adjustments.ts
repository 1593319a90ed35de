import type { Database } from '../../db/connection.js';
import type { AdjustmentDirection, AdjustmentStatus, WalletAdjustmentRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import { formatGhs, fromGhs, toGhs } from '../../lib/money.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import { assertFourEyes } from '../four-eyes/service.js';
import type { EventRecorder } from '../events/service.js';
import type { AdjustmentRepository, NewAdjustment } from './adjustment-repository.js';
import { postings } from './postings.js';
import type { Balances, WalletRepository } from './repository.js';
import type { WalletAdjustment } from './schemas.js';

const DAY_MS = 24 * 60 * 60_000;

/** The largest single adjustment, GHS (a typo guard; a larger correction is several). */
export const ADJUSTMENT_MAX_GHS = 1_000_000;
const REASON_MAX = 300;

export interface AdjustmentRequest {
  profileId: string;
  mode: Mode;
  direction: AdjustmentDirection;
  /** GHS, at most two decimals. */
  amount: number;
  reason: string;
}

export interface AdjustmentOutcome {
  id: string;
  status: AdjustmentStatus;
  /** Pesewas. */
  amount: number;
  /** The balances after it when it was applied now; null while it waits for approval. */
  balances: Balances | null;
}

/**
 * Staff corrections of a wallet (docs/console.md, "Wallet adjustments"). An admin credits or debits
 * available with a reason; it is applied at once while what its admin, and what the wallet, had
 * moved alone in the last 24 hours plus this one stays within ADJUSTMENT_APPROVAL_ABOVE; above it, it
 * waits until a second admin approves it (assertFourEyes) or anyone rejects it. The money moves only when it is
 * applied: in one unit with its ledger entry (postings.adjustmentCredit/adjustmentDebit, never below
 * zero), its audit row and the partner's `wallet.adjusted` event.
 */
export class AdjustmentService {
  constructor(
    private readonly database: Database,
    private readonly adjustments: AdjustmentRepository,
    private readonly wallets: WalletRepository,
    private readonly events: EventRecorder,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    /** Pesewas: an adjustment above it needs a second admin. */
    readonly approvalAbove: number,
  ) {}

  async request(actor: Actor, r: AdjustmentRequest): Promise<AdjustmentOutcome> {
    // The CLI requests as cli:<user>, with no staff account: any admin may then approve it.
    const staffId = actor.staffId;
    const amount = fromGhs(r.amount);
    if (amount === null || amount <= 0 || amount > ADJUSTMENT_MAX_GHS * 100) {
      throw invalid('INVALID_REQUEST', `amount must be a GHS amount above 0 and at most ${ADJUSTMENT_MAX_GHS}, with at most two decimals`);
    }
    const reason = reasonOf(r.reason);
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const wallet = await this.wallets.findInUnit(tx, { profileId: r.profileId, mode: r.mode });
      if (!wallet) throw notFound('PROFILE_NOT_FOUND', `profile ${r.profileId} has no ${r.mode} wallet`);
      if (r.direction === 'debit' && Number(wallet.available) < amount) {
        throw conflict(
          'INVALID_REQUEST',
          `a debit of ${formatGhs(amount)} would take the ${r.mode} wallet below zero (available ${formatGhs(Number(wallet.available))})`,
        );
      }
      // The threshold counts what was moved alone in the last 24 hours, by this admin and on this wallet.
      const alone = await this.adjustments.movedAlone(tx, { staffId, walletId: wallet.id, profileId: r.profileId, mode: r.mode, since: now - DAY_MS });
      const counted = Math.max(alone.byStaff, alone.onWallet) + amount;
      const status: AdjustmentStatus = counted > this.approvalAbove ? 'pending' : 'approved';
      const row = {
        id: newId('adj'),
        walletId: wallet.id,
        profileId: r.profileId,
        mode: r.mode,
        direction: r.direction,
        amount,
        reason,
        status,
        requestedBy: actor.name,
        requestedByStaffId: staffId,
        decidedBy: status === 'approved' ? actor.name : null,
        decidedByStaffId: status === 'approved' ? staffId : null,
        now,
      };
      await this.adjustments.insert(tx, row);
      const detail = {
        profileId: r.profileId,
        mode: r.mode,
        direction: r.direction,
        amount: toGhs(amount),
        reason,
        status,
        movedAloneIn24h: { byRequester: toGhs(alone.byStaff), onWallet: toGhs(alone.onWallet) },
      };
      await this.audit.record(tx, actor, 'wallet.adjust', { type: 'adjustment', id: row.id }, detail);
      if (status === 'pending') return { id: row.id, status, amount, balances: null };
      const balances = await this.apply(tx, { ...toRowShape(row), decided_at: now }, now);
      return { id: row.id, status, amount, balances };
    });
  }

  /** A second admin approves a pending adjustment: the money moves now. */
  async approve(actor: Actor, id: string): Promise<AdjustmentOutcome> {
    const staffId = namedAdmin(actor, 'approve');
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const row = await this.pending(tx, id);
      await assertFourEyes(tx, { what: `adjustment ${id}`, requestedByStaffId: row.requested_by_staff_id, approverStaffId: staffId });
      if (!(await this.adjustments.decide(tx, id, { status: 'approved', by: actor.name, byStaffId: staffId, reason: null, now }))) {
        throw conflict('INVALID_REQUEST', `adjustment ${id} was decided meanwhile`);
      }
      const balances = await this.apply(tx, { ...row, decided_at: now }, now);
      await this.audit.record(tx, actor, 'wallet.adjust.approve', { type: 'adjustment', id }, {
        profileId: row.profile_id,
        mode: row.mode,
        direction: row.direction,
        amount: toGhs(Number(row.amount)),
        requestedBy: row.requested_by,
        availableAfter: toGhs(balances.available),
      });
      return { id, status: 'approved', amount: Number(row.amount), balances };
    });
  }

  /** Refuses a pending adjustment (its requester may withdraw it too): nothing moves. */
  async reject(actor: Actor, id: string, reason: string): Promise<AdjustmentOutcome> {
    const staffId = actor.staffId;
    const why = reasonOf(reason);
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const row = await this.pending(tx, id);
      if (!(await this.adjustments.decide(tx, id, { status: 'rejected', by: actor.name, byStaffId: staffId, reason: why, now }))) {
        throw conflict('INVALID_REQUEST', `adjustment ${id} was decided meanwhile`);
      }
      await this.audit.record(tx, actor, 'wallet.adjust.reject', { type: 'adjustment', id }, {
        profileId: row.profile_id,
        mode: row.mode,
        direction: row.direction,
        amount: toGhs(Number(row.amount)),
        requestedBy: row.requested_by,
        reason: why,
      });
      return { id, status: 'rejected', amount: Number(row.amount), balances: null };
    });
  }

  list(filter: { status?: AdjustmentStatus | undefined; profileId?: string | undefined; mode?: Mode | undefined; limit?: number }) {
    return this.adjustments.list({ ...filter, limit: filter.limit ?? 200 });
  }

  find(id: string) {
    return this.adjustments.findById(id);
  }

  private async pending(tx: Tx, id: string): Promise<WalletAdjustmentRow> {
    const row = await this.adjustments.find(tx, id);
    if (!row) throw notFound('NOT_FOUND', `no adjustment ${id}`);
    if (row.status !== 'pending') throw conflict('INVALID_REQUEST', `adjustment ${id} is already ${row.status}`);
    return row;
  }

  /** The posting, refused (and the unit with it) when a debit would take available below zero; then the event. */
  private async apply(tx: Tx, row: WalletAdjustmentRow, now: number): Promise<Balances> {
    const amount = Number(row.amount);
    const facts = { walletId: row.wallet_id, adjustmentId: row.id, amount, reason: row.reason };
    const posting = row.direction === 'credit' ? postings.adjustmentCredit(facts) : postings.adjustmentDebit(facts);
    const balances = await this.wallets.post(tx, posting, now);
    if (!balances) {
      throw conflict('INVALID_REQUEST', `a debit of ${formatGhs(amount)} would take the ${row.mode} wallet below zero; nothing moved`);
    }
    const object: WalletAdjustment = {
      _id: row.id,
      userProfileId: row.profile_id,
      mode: row.mode,
      direction: row.direction,
      amount: toGhs(amount),
      reason: row.reason,
      availableBalance: toGhs(balances.available),
      heldBalance: toGhs(balances.held),
      createdAt: Number(row.created_at),
      appliedAt: now,
    };
    this.events.record(tx, { profileId: row.profile_id, mode: row.mode }, 'wallet.adjusted', { object }, now);
    return balances;
  }
}

/** Adjustments are approved by named admin accounts (the console's session, or the CLI's --approver with its password). */
function namedAdmin(actor: Actor, what: string): string {
  if (actor.staffId === null) {
    throw invalid('INVALID_REQUEST', `to ${what} an adjustment, approve it in the console (or from the CLI with --approver <e-mail> --password-stdin)`);
  }
  return actor.staffId;
}

function reasonOf(reason: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw invalid('INVALID_REQUEST', 'a reason is required');
  if (trimmed.length > REASON_MAX) throw invalid('INVALID_REQUEST', `the reason is longer than ${REASON_MAX} characters`);
  return trimmed;
}

function toRowShape(r: NewAdjustment): WalletAdjustmentRow {
  return {
    id: r.id,
    wallet_id: r.walletId,
    profile_id: r.profileId,
    mode: r.mode,
    direction: r.direction,
    amount: r.amount,
    reason: r.reason,
    status: r.status,
    requested_by: r.requestedBy,
    requested_by_staff_id: r.requestedByStaffId,
    decided_by: r.decidedBy,
    decided_by_staff_id: r.decidedByStaffId,
    decision_reason: null,
    created_at: r.now,
    decided_at: null,
  };
}
