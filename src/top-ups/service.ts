import type { Database, Executor } from '../db/connection.js';
import { isUniqueViolation } from '../db/dialect.js';
import type { Mode, TopUpRow, TopUpStatus } from '../db/schema.js';
import { badRequest, conflict } from '../http/errors.js';
import {
  TOP_UP_MAX_GHS,
  TOP_UP_PAGE_DEFAULT,
  TOP_UP_PAGE_MAX,
  type TopUp,
  type TopUpPage,
  type TopUpRequestBody,
} from '../http/schemas/top-ups.js';
import { decodeCursor, encodeCursor } from '../lib/cursor.js';
import { newId } from '../lib/ids.js';
import { fromGhs, toGhs } from '../lib/money.js';
import { ensureWallet, post } from '../wallet/service.js';
import * as repo from './repository.js';

const CODE = 'TOPUP_REQUEST_FAILED';
const MAX_REFERENCE = 100;
const MAX_NOTE = 500;

export interface Owner {
  profileId: string;
  mode: Mode;
}

/** A staff decision the CLI refuses (unknown top-up, already decided, missing reason). */
export class TopUpDecisionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TopUpDecisionError';
  }
}

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
  };
}

/** Credits the owner's wallet of the top-up's mode, once (the idempotency key is per top-up). */
async function credit(trx: Executor, t: TopUpRow, now: number): Promise<void> {
  const { walletId } = await ensureWallet(trx, t.profile_id, t.mode, 0, now);
  const after = await post(
    trx,
    {
      walletId,
      kind: 'top_up',
      availableDelta: t.amount,
      heldDelta: 0,
      topUpId: t.id,
      idempotencyKey: `topup:${t.id}`,
      memo: `Top-up ${t.method} ${t.reference}`,
    },
    now,
  );
  if (!after) throw new Error(`credit of top-up ${t.id} was refused`);
}

export class TopUpService {
  constructor(private readonly database: Database) {}

  /**
   * decisions.md §7. Live requests wait for staff; test-mode requests are approved at once,
   * crediting the test wallet in the same transaction.
   */
  async request(owner: Owner, body: TopUpRequestBody): Promise<TopUp> {
    const amount = fromGhs(body.amount);
    if (amount === null || amount <= 0 || amount > TOP_UP_MAX_GHS * 100) {
      throw badRequest(CODE, `amount must be a GHS amount above 0 and at most ${TOP_UP_MAX_GHS}, with at most two decimals`);
    }
    const reference = body.reference.trim();
    if (reference === '') throw badRequest(CODE, 'reference must not be empty');
    if (reference.length > MAX_REFERENCE) throw badRequest(CODE, `reference must be at most ${MAX_REFERENCE} characters`);
    const note = body.note?.trim() || null;
    if (note !== null && note.length > MAX_NOTE) throw badRequest(CODE, `note must be at most ${MAX_NOTE} characters`);

    const id = newId('tup');
    try {
      const row = await this.database.transaction(async (trx) => {
        const now = Date.now();
        const autoApprove = owner.mode === 'test';
        const inserted = await repo.insertTopUp(trx, {
          id,
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
        if (autoApprove) await credit(trx, inserted, now);
        return inserted;
      });
      return toTopUpView(row);
    } catch (error) {
      // Caught outside the transaction: on PostgreSQL the violation has aborted it.
      if (isUniqueViolation(error, 'top_ups_reference')) {
        throw conflict(CODE, `A top-up request with reference "${reference}" already exists`);
      }
      throw error;
    }
  }

  async list(owner: Owner, query: { status?: TopUpStatus | undefined; limit?: number | undefined; cursor?: string | undefined }): Promise<TopUpPage> {
    const limit = query.limit ?? TOP_UP_PAGE_DEFAULT;
    if (!Number.isInteger(limit) || limit < 1) throw badRequest(CODE, 'limit must be an integer from 1 to 100');
    const pageSize = Math.min(limit, TOP_UP_PAGE_MAX);
    const after = query.cursor === undefined || query.cursor === '' ? null : decodeCursor(query.cursor);
    if (query.cursor && !after) throw badRequest(CODE, 'cursor is not a valid continueCursor');

    const rows = await repo.listOwnTopUps(this.database.read, owner, { status: query.status, after, limit: pageSize + 1 });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      topUps: page.map(toTopUpView),
      isDone: rows.length <= pageSize,
      continueCursor: last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : (query.cursor ?? ''),
    };
  }

  // ---- staff (CLI) ----

  async listForStaff(filter: { status?: TopUpStatus | undefined; mode?: Mode | undefined; limit: number }): Promise<TopUpRow[]> {
    return repo.listTopUps(this.database.read, filter);
  }

  /** Approves a pending top-up and credits the wallet exactly once, in one transaction. */
  async approve(id: string, decidedBy: string): Promise<TopUpRow> {
    return this.database.transaction(async (trx) => {
      const now = Date.now();
      const row = await repo.decidePending(trx, id, { status: 'approved', rejectionReason: null, decidedBy, now });
      if (!row) throw await this.refusal(trx, id);
      await credit(trx, row, now);
      return row;
    });
  }

  async reject(id: string, reason: string, decidedBy: string): Promise<TopUpRow> {
    const trimmed = reason.trim();
    if (trimmed === '') throw new TopUpDecisionError('a rejection needs a reason (--reason "...")');
    if (trimmed.length > MAX_NOTE) throw new TopUpDecisionError(`the reason must be at most ${MAX_NOTE} characters`);
    return this.database.transaction(async (trx) => {
      const row = await repo.decidePending(trx, id, { status: 'rejected', rejectionReason: trimmed, decidedBy, now: Date.now() });
      if (!row) throw await this.refusal(trx, id);
      return row;
    });
  }

  private async refusal(trx: Executor, id: string): Promise<TopUpDecisionError> {
    const existing = await repo.findTopUp(trx, id);
    if (!existing) return new TopUpDecisionError(`no top-up ${id}`);
    const when = existing.decided_at ? ` at ${new Date(existing.decided_at).toISOString()}` : '';
    return new TopUpDecisionError(`top-up ${id} was already ${existing.status}${when}; a decision cannot be changed`);
  }
}
