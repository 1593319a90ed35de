import type { Database } from '../../db/connection.js';
import type { StaffRole, TopUpRow, TopUpStatus } from '../../db/schema.js';
import { whenRefusedBy } from '../../db/unique-indexes.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller, Owner } from '../../domain/caller.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { newId } from '../../lib/ids.js';
import { fromGhs, toGhs } from '../../lib/money.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { EventRecorder } from '../events/service.js';
import type { IdempotencyService } from '../idempotency/service.js';
import { postings } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import type { WalletService } from '../wallet/service.js';
import { mergeReads, readPage, type Page, type PageRequest } from '../../lib/staff-page.js';
import { assertFourEyes } from '../four-eyes/service.js';
import { APPROVALS_NEEDED, namedApprovalRefusal, secondApprovalRefusal, type TopUpApprover } from './four-eyes.js';
import type { StaffTopUpFilter, StaffTopUpMatch, TopUpRepository } from './repository.js';
import {
  TOP_UP_MAX_GHS,
  TOP_UP_PAGE_DEFAULT,
  TOP_UP_PAGE_MAX,
  type TopUp,
  type TopUpPage,
  type TopUpRequestBody,
} from './schemas.js';

const CODE = 'TOPUP_REQUEST_FAILED';
const MAX_REFERENCE = 100;
const MAX_NOTE = 500;

export function toTopUpView(t: TopUpRow): TopUp {
  return {
    _id: t.id,
    amount: toGhs(t.amount),
    currency: 'GHS',
    method: t.method,
    reference: t.reference,
    note: t.note,
    status: t.status,
    createdAt: t.created_at,
    decidedAt: t.decided_at,
    rejectionReason: t.rejection_reason,
    payment:
      t.gateway === null || t.payment_phone === null || t.payment_network === null
        ? null
        : {
            gateway: 'paystack',
            status: t.payment_status ?? 'pending',
            displayText: t.payment_display_text ?? '',
            phone: t.payment_phone,
            network: t.payment_network,
          },
  };
}

/** What the audit trail keeps of a decided top-up (GHS, like every amount staff read). */
const auditDetail = (t: TopUpRow) => ({ amount: toGhs(t.amount), profileId: t.profile_id, mode: t.mode, reference: t.reference });

export class TopUpService {
  constructor(
    private readonly database: Database,
    private readonly topUps: TopUpRepository,
    private readonly wallets: WalletRepository,
    private readonly walletService: WalletService,
    private readonly idempotency: IdempotencyService,
    private readonly events: EventRecorder,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    /** Pesewas (TOPUP_APPROVAL_ABOVE): approving a request above it takes two staff members. */
    readonly approvalAbove: number,
  ) {}

  /**
   * docs/api.md, "Top-ups". Live requests wait for staff; test-mode requests are approved at once,
   * crediting the test wallet in the same unit of work.
   */
  async request(owner: Caller, body: TopUpRequestBody): Promise<TopUp> {
    const amount = fromGhs(body.amount);
    if (amount === null || amount <= 0 || amount > TOP_UP_MAX_GHS * 100) {
      throw invalid(CODE, `amount must be a GHS amount above 0 and at most ${TOP_UP_MAX_GHS}, with at most two decimals`);
    }
    const reference = body.reference.trim();
    if (reference === '') throw invalid(CODE, 'reference must not be empty');
    if (reference.length > MAX_REFERENCE) throw invalid(CODE, `reference must be at most ${MAX_REFERENCE} characters`);
    const note = body.note?.trim() || null;
    if (note !== null && note.length > MAX_NOTE) throw invalid(CODE, `note must be at most ${MAX_NOTE} characters`);

    const view = await this.database
      .unit(async (tx) => {
        const now = this.clock();
        const autoApprove = owner.mode === 'test';
        const topUp = await this.topUps.insert(tx, {
          id: newId('tup'),
          profileId: owner.profileId,
          mode: owner.mode,
          amount,
          method: body.method,
          reference,
          note,
          status: autoApprove ? 'approved' : 'pending',
          decidedAt: autoApprove ? now : null,
          decidedBy: autoApprove ? 'test-mode' : null,
          now,
        });
        if (autoApprove) await this.credit(tx, topUp, now);
        const view = toTopUpView(topUp);
        if (autoApprove) this.decided(tx, topUp, now);
        // The answer kept with the caller's Idempotency-Key, if any, written with the request.
        this.idempotency.succeeded(tx, owner, view);
        return view;
      })
      .catch(
        whenRefusedBy({
          top_ups_reference: () => conflict(CODE, `A top-up request with reference "${reference}" already exists`),
        }),
      );
    return view;
  }

  async list(
    owner: Owner,
    query: { status?: TopUpStatus | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<TopUpPage> {
    const limit = query.limit ?? TOP_UP_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1) throw invalid(CODE, 'limit must be an integer from 1 to 100');
    const pageSize = Math.min(limit, TOP_UP_PAGE_MAX);
    const after = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
    if (query.cursor && !after) throw invalid(CODE, 'cursor is not a valid continueCursor');

    const rows = await this.topUps.listOwn(owner, { status: query.status, after, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      topUps: page.map(toTopUpView),
      isDone: rows.length <= pageSize,
      continueCursor: last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : (query.cursor ?? ''),
    };
  }

  // ---- staff (CLI) ----

  /** A page of top-ups for staff, newest first: `text` is a top-up id, its reference, or part of the partner's name. */
  async searchForStaff(filter: StaffTopUpFilter & { text?: string | undefined }, page: PageRequest): Promise<Page<TopUpRow>> {
    const { text: given, ...criteria } = filter;
    const text = given?.trim() || undefined;
    const matches: StaffTopUpMatch[] =
      text === undefined
        ? [{ by: 'every' }]
        : [
            { by: 'id', value: text },
            { by: 'reference', value: text },
            { by: 'partner_name', text },
          ];
    return readPage(page, async (p) =>
      mergeReads(await Promise.all(matches.map((match) => this.topUps.searchForStaff(match, criteria, p))), p),
    );
  }

  /** How many top-ups of a mode wait for a decision. */
  countPending(mode: Mode): Promise<number> {
    return this.topUps.countPending(mode);
  }

  async listForStaff(filter: { status?: TopUpStatus | undefined; mode?: Mode | undefined; limit: number }): Promise<TopUpRow[]> {
    return this.topUps.list(filter);
  }

  /**
   * Staff approve a pending top-up. At or below TOPUP_APPROVAL_ABOVE one approval decides it; above
   * it the first approval (a named operator or admin) is recorded and audited while the top-up stays
   * pending, and the second (another admin: secondApprovalRefusal) decides it. The deciding approval
   * credits the wallet exactly once, with its ledger entry, the topup.approved event and the audit
   * row, in one unit of work. `role` is the approver's staff role (null: the CLI's own user). The
   * row returned is still `pending` after a first approval.
   */
  async approve(actor: Actor, id: string, role: StaffRole | null = null): Promise<TopUpRow> {
    const approver: TopUpApprover = { actor, role };
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const existing = await this.topUps.find(tx, id);
      if (!existing || existing.status !== 'pending' || existing.gateway !== null) throw await this.refusal(tx, id);
      const needsTwo = Number(existing.amount) > this.approvalAbove;
      if (needsTwo) {
        const unnamed = namedApprovalRefusal(existing, approver, this.approvalAbove);
        if (unnamed) throw unnamed;
        if (existing.first_approved_at === null) return this.firstApproval(tx, actor, existing, now);
        const refusal = secondApprovalRefusal(existing, approver);
        if (refusal) throw refusal;
        await assertFourEyes(tx, {
          what: `top-up ${id}`,
          requestedByStaffId: existing.first_approved_by_staff_id,
          approverStaffId: actor.staffId,
        });
      }
      const decidedBy = actor.name;
      const topUp = await this.topUps.decidePending(tx, id, { status: 'approved', rejectionReason: null, decidedBy, now });
      if (!topUp) throw await this.refusal(tx, id);
      await this.credit(tx, topUp, now);
      this.decided(tx, topUp, now);
      const firstApproval = needsTwo ? { firstApprovedBy: topUp.first_approved_by } : {};
      await this.audit.record(tx, actor, 'topup.approve', { type: 'top_up', id }, { ...auditDetail(topUp), ...firstApproval });
      return topUp;
    });
  }

  /** The first of two approvals: recorded and audited; nothing moves and the partner still reads `pending`. */
  private async firstApproval(tx: Tx, actor: Actor, existing: TopUpRow, now: number): Promise<TopUpRow> {
    const id = existing.id;
    const topUp = await this.topUps.recordFirstApproval(tx, id, { by: actor.name, staffId: actor.staffId, now });
    if (!topUp) {
      const again = await this.topUps.find(tx, id);
      if (again?.status === 'pending' && again.first_approved_by !== null) {
        throw conflict('INVALID_REQUEST', `top-up ${id} was approved once meanwhile by ${again.first_approved_by}: reload it`);
      }
      throw await this.refusal(tx, id);
    }
    await this.audit.record(tx, actor, 'topup.approve.first', { type: 'top_up', id }, {
      ...auditDetail(topUp),
      approvals: `1 of ${APPROVALS_NEEDED}`,
    });
    return topUp;
  }

  async reject(actor: Actor, id: string, reason: string): Promise<TopUpRow> {
    const trimmed = reason.trim();
    if (trimmed === '') throw invalid('INVALID_REQUEST', 'a rejection needs a reason (--reason "...")');
    if (trimmed.length > MAX_NOTE) throw invalid('INVALID_REQUEST', `the reason must be at most ${MAX_NOTE} characters`);
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const decidedBy = actor.name;
      const topUp = await this.topUps.decidePending(tx, id, { status: 'rejected', rejectionReason: trimmed, decidedBy, now });
      if (!topUp) throw await this.refusal(tx, id);
      this.decided(tx, topUp, now);
      const firstApproval = topUp.first_approved_by === null ? {} : { firstApprovedBy: topUp.first_approved_by };
      await this.audit.record(tx, actor, 'topup.reject', { type: 'top_up', id }, { reason: trimmed, ...auditDetail(topUp), ...firstApproval });
      return topUp;
    });
  }

  /** topup.approved or topup.rejected, with the top-up as GET /top-ups lists it (also for Mobile Money decisions). */
  decided(tx: Tx, topUp: TopUpRow, now: number): void {
    const type = topUp.status === 'approved' ? 'topup.approved' : 'topup.rejected';
    this.events.record(tx, { profileId: topUp.profile_id, mode: topUp.mode }, type, { object: toTopUpView(topUp) }, now);
  }

  /** The top-up's amount to its owner's wallet of its mode, once (the ledger key is per top-up); inside the caller's unit. */
  async credit(tx: Tx, topUp: TopUpRow, now: number): Promise<void> {
    const { walletId } = await this.walletService.ensure(tx, topUp.profile_id, topUp.mode, 0, now);
    const after = await this.wallets.post(
      tx,
      postings.topUpCredit({ walletId, topUpId: topUp.id, amount: topUp.amount, method: topUp.method, reference: topUp.reference }),
      now,
    );
    if (!after) throw new Error(`credit of top-up ${topUp.id} was refused`);
  }

  private async refusal(tx: Tx, id: string) {
    const existing = await this.topUps.find(tx, id);
    if (!existing) return notFound('NOT_FOUND', `no top-up ${id}`);
    if (existing.gateway !== null) {
      return conflict('INVALID_REQUEST', `top-up ${id} is a Mobile Money top-up: only the gateway's verified answer decides it (re-check it instead)`);
    }
    const when = existing.decided_at ? ` at ${new Date(existing.decided_at).toISOString()}` : '';
    return conflict('INVALID_REQUEST', `top-up ${id} was already ${existing.status}${when}; a decision cannot be changed`);
  }
}
