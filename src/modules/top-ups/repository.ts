import { sql } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { MomoNetwork, PaymentStatus, TopUpGateway, TopUpRow, TopUpStatus } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';
import type { KeysetPosition } from '../../lib/cursor.js';
import { recordLedgerEntries, walletNetsAgainstRecords } from '../wallet/ledger-verify-repository.js';
import { keysetSeek } from '../../db/keyset.js';
import type { PageRequest } from '../../lib/staff-page.js';
import { profileNameLike } from '../profiles/repository.js';

/** The console's top-up list: the criteria every way of matching shares. */
export interface StaffTopUpFilter {
  mode: Mode;
  status?: TopUpStatus | undefined;
  method?: 'momo' | 'bank' | undefined;
}

/** One way a staff search finds top-ups; a search by text reads each way on its own and merges the reads. */
export type StaffTopUpMatch = { by: 'every' } | { by: 'id' | 'reference'; value: string } | { by: 'partner_name'; text: string };

export interface NewTopUp {
  id: string;
  profileId: string;
  mode: Mode;
  amount: number;
  method: 'momo' | 'bank';
  reference: string;
  note: string | null;
  status: TopUpStatus;
  decidedAt: number | null;
  decidedBy: string | null;
  now: number;
}

/** A Mobile Money charge as recorded before the gateway is called. */
export interface NewCharge {
  id: string;
  profileId: string;
  mode: Mode;
  amount: number;
  reference: string;
  gateway: TopUpGateway;
  phone: string;
  network: MomoNetwork;
  checkAt: number;
  expiresAt: number;
  now: number;
}

export interface GatewayEvent {
  topUpId: string;
  source: 'charge' | 'otp' | 'webhook' | 'check' | 'recheck' | 'expiry';
  paymentStatus: string | null;
  message: string;
  actor?: string | null;
  now: number;
}

export class TopUpRepository {
  constructor(private readonly database: Database) {}

  /** The new top-up; a reference the owner already used is refused by top_ups_reference. */
  async insert(tx: Tx, t: NewTopUp): Promise<TopUpRow> {
    const query = tx.qb
      .insertInto('top_ups')
      .values({
        id: t.id,
        profile_id: t.profileId,
        mode: t.mode,
        amount: t.amount,
        currency: 'GHS',
        method: t.method,
        reference: t.reference,
        note: t.note,
        status: t.status,
        rejection_reason: null,
        decided_at: t.decidedAt,
        decided_by: t.decidedBy,
        created_at: t.now,
        updated_at: t.now,
      })
      .returningAll();
    const [row] = (await tx.execute(query)).rows;
    if (!row) throw new Error(`top-up ${t.id} was not written`);
    return row;
  }

  /** Newest first, keyset-paginated on (created_at, id); reads `limit` rows. */
  async listOwn(owner: Owner, filter: { status?: TopUpStatus | undefined; after?: KeysetPosition | null; limit: number }) {
    let query = this.database.read
      .selectFrom('top_ups')
      .selectAll()
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode);
    if (filter.status) query = query.where('status', '=', filter.status);
    const after = filter.after;
    if (after) {
      query = query.where((eb) =>
        // Row values: the index is sought to the cursor (see orders/repository.ts orderListQuery).
        eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)),
      );
    }
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  /** Staff view across profiles (CLI), newest first. */
  async list(filter: { status?: TopUpStatus | undefined; mode?: Mode | undefined; limit: number }) {
    let query = this.database.read.selectFrom('top_ups').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.mode) query = query.where('mode', '=', filter.mode);
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
  }

  /** A page's read of the top-ups one way of matching finds (see StaffTopUpMatch). */
  async searchForStaff(match: StaffTopUpMatch, f: StaffTopUpFilter, page: PageRequest): Promise<TopUpRow[]> {
    let query = this.database.read.selectFrom('top_ups as t').selectAll('t').where('t.mode', '=', f.mode);
    if (match.by === 'id') query = query.where('t.id', '=', match.value);
    if (match.by === 'reference') query = query.where('t.reference', '=', match.value);
    if (match.by === 'partner_name') {
      const text = match.text;
      query = query.where('t.profile_id', 'in', (eb) => eb.selectFrom('profiles as p').select('p.id').where(profileNameLike('p', text)));
    }
    if (f.status !== undefined) query = query.where('t.status', '=', f.status);
    if (f.method !== undefined) query = query.where('t.method', '=', f.method);
    const seek = keysetSeek('t.created_at', 't.id', page);
    if (seek.where) query = query.where(seek.where);
    return query.orderBy('t.created_at', seek.order).orderBy('t.id', seek.order).limit(page.limit + 1).execute();
  }

  /** How many top-ups of a mode wait for a decision (the console's dashboard). */
  async countPending(mode: Mode): Promise<number> {
    const row = await this.database.read
      .selectFrom('top_ups')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('mode', '=', mode)
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async find(tx: Tx, id: string) {
    return (await tx.execute(tx.qb.selectFrom('top_ups').selectAll().where('id', '=', id))).rows[0];
  }

  /** Moves a pending top-up to its decision; undefined when it is not pending (or unknown). */
  async decidePending(
    tx: Tx,
    id: string,
    decision: { status: 'approved' | 'rejected'; rejectionReason: string | null; decidedBy: string; now: number },
  ) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        status: decision.status,
        rejection_reason: decision.rejectionReason,
        decided_at: decision.now,
        decided_by: decision.decidedBy,
        updated_at: decision.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      // Staff never decide a Mobile Money top-up by hand: the gateway's verified answer does.
      .where('gateway', 'is', null)
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  /**
   * The first of two approvals on a pending request that has none yet (it stays pending); undefined
   * when it is no longer pending, or another first approval came first.
   */
  async recordFirstApproval(tx: Tx, id: string, approval: { by: string; staffId: string | null; now: number }) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        first_approved_by: approval.by,
        first_approved_by_staff_id: approval.staffId,
        first_approved_at: approval.now,
        updated_at: approval.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('gateway', 'is', null)
      .where('first_approved_at', 'is', null)
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  // ---- Mobile Money charges (docs/mobile-money.md) ----

  /** The charge, pending, written before the gateway is called; the partner's second pending charge for the phone is refused by top_ups_momo_pending. */
  async insertCharge(tx: Tx, c: NewCharge): Promise<TopUpRow> {
    const query = tx.qb
      .insertInto('top_ups')
      .values({
        id: c.id,
        profile_id: c.profileId,
        mode: c.mode,
        amount: c.amount,
        currency: 'GHS',
        method: 'momo',
        reference: c.reference,
        note: null,
        status: 'pending',
        rejection_reason: null,
        decided_at: null,
        decided_by: null,
        created_at: c.now,
        updated_at: c.now,
        gateway: c.gateway,
        payment_status: 'pending',
        payment_display_text: null,
        payment_phone: c.phone,
        payment_network: c.network,
        check_at: c.checkAt,
        expires_at: c.expiresAt,
      })
      .returningAll();
    const [row] = (await tx.execute(query)).rows;
    if (!row) throw new Error(`top-up ${c.id} was not written`);
    return row;
  }

  /**
   * Serialises the start of charges by one partner and to one number (a mode each) until the unit
   * ends, so the limits read below hold under concurrency. SQLite's one writer serialises units
   * already; PostgreSQL takes two transaction-level advisory locks, always in this order.
   */
  async lockChargeStarts(tx: Tx, c: { profileId: string; mode: Mode; phone: string }): Promise<void> {
    if (this.database.dialect !== 'postgres') return;
    for (const key of [`momo-partner:${c.mode}:${c.profileId}`, `momo-number:${c.mode}:${c.phone}`]) {
      await tx.execute(tx.qb.selectNoFrom(sql<null>`pg_advisory_xact_lock(hashtext(${key}))`.as('locked')));
    }
  }

  /** How many Mobile Money charges of a partner are pending in `mode`. */
  async pendingCharges(tx: Tx, profileId: string, mode: Mode): Promise<number> {
    const query = tx.qb
      .selectFrom('top_ups')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('profile_id', '=', profileId)
      .where('mode', '=', mode)
      .where('status', '=', 'pending')
      .where('payment_phone', 'is not', null);
    const [row] = (await tx.execute(query)).rows;
    return Number(row?.n ?? 0);
  }

  /** The Mobile Money charges sent to a number in `mode` since `since`, by any partner: how many, and the first one's time. */
  async chargesToNumberSince(tx: Tx, phone: string, mode: Mode, since: number): Promise<{ count: number; first: number | null }> {
    const query = tx.qb
      .selectFrom('top_ups')
      .select((eb) => [eb.fn.countAll<string | number>().as('n'), eb.fn.min('created_at').as('first')])
      .where('payment_phone', '=', phone)
      .where('mode', '=', mode)
      .where('created_at', '>=', since);
    const [row] = (await tx.execute(query)).rows;
    return { count: Number(row?.n ?? 0), first: row?.first === null || row?.first === undefined ? null : Number(row.first) };
  }

  /** The gateway's word on a charge still pending; undefined when it is no longer pending. */
  async recordPayment(tx: Tx, id: string, payment: { status: PaymentStatus; displayText: string | null; checkAt?: number; now: number }) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        payment_status: payment.status,
        ...(payment.displayText === null ? {} : { payment_display_text: payment.displayText }),
        ...(payment.checkAt === undefined ? {} : { check_at: payment.checkAt }),
        updated_at: payment.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  /**
   * A verified payment credited: the charge becomes approved from pending, or from rejected when the
   * money arrived late after a failure or an expiry; never from a rejection as not matched (a
   * gateway problem: final, staff settle it). Undefined when it was not changed (approved already by
   * a second webhook, check or worker; or rejected as not matched).
   */
  async approveCharge(tx: Tx, id: string, fields: { fee: number | null; now: number }) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        status: 'approved',
        rejection_reason: null,
        decided_at: fields.now,
        decided_by: 'paystack',
        payment_status: 'success',
        gateway_fee: fields.fee,
        check_at: null,
        updated_at: fields.now,
      })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('status', '=', 'pending'), eb.and([eb('status', '=', 'rejected'), eb('gateway_problem', 'is', null)])]))
      .where('gateway', 'is not', null)
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  /** A pending charge rejected (failed, abandoned, expired, or paid with another amount: `problem`); undefined when not pending. */
  async rejectCharge(tx: Tx, id: string, fields: { reason: string; problem: string | null; paymentStatus: PaymentStatus; now: number }) {
    const query = tx.qb
      .updateTable('top_ups')
      .set({
        status: 'rejected',
        rejection_reason: fields.reason,
        gateway_problem: fields.problem,
        decided_at: fields.now,
        decided_by: 'paystack',
        payment_status: fields.paymentStatus,
        check_at: null,
        updated_at: fields.now,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .returningAll();
    return (await tx.execute(query)).rows[0];
  }

  /** Notes a problem on a charge that is already decided (a mismatched late payment). */
  async noteProblem(tx: Tx, id: string, problem: string, now: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('top_ups').set({ gateway_problem: problem, updated_at: now }).where('id', '=', id));
  }

  /** Makes a pending charge's check due at `at` (a webhook: now). */
  async scheduleCheck(tx: Tx, id: string, at: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('top_ups').set({ check_at: at }).where('id', '=', id).where('status', '=', 'pending'));
  }

  /** Charges whose check is due, oldest first. */
  async dueChecks(now: number, limit: number) {
    return this.database.read
      .selectFrom('top_ups')
      .select(['id', 'check_at'])
      .where('check_at', 'is not', null)
      .where('check_at', '<=', now)
      .orderBy('check_at')
      .limit(limit)
      .execute();
  }

  /** Claims a due check for this worker by moving it to `next`; false when another worker took it first. */
  async claimCheck(tx: Tx, id: string, dueAt: number, next: number): Promise<boolean> {
    const result = await tx.execute(tx.qb.updateTable('top_ups').set({ check_at: next }).where('id', '=', id).where('check_at', '=', dueAt));
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** A top-up of the gateway by the reference it was given, in `mode`. */
  async findByGatewayReference(mode: Mode, reference: string) {
    return this.database.read
      .selectFrom('top_ups')
      .selectAll()
      .where('reference', '=', reference)
      .where('mode', '=', mode)
      .where('gateway', 'is not', null)
      .executeTakeFirst();
  }

  async findOwn(owner: Owner, id: string) {
    return this.database.read
      .selectFrom('top_ups')
      .selectAll()
      .where('id', '=', id)
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode)
      .executeTakeFirst();
  }

  async findById(id: string) {
    return this.database.read.selectFrom('top_ups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Approved gateway top-ups of `mode` created in [from, to). */
  async approvedCharges(mode: Mode, from: number, to: number) {
    return this.database.read
      .selectFrom('top_ups')
      .selectAll()
      .where('mode', '=', mode)
      .where('gateway', '=', 'paystack')
      .where('status', '=', 'approved')
      .where('created_at', '>=', from)
      .where('created_at', '<', to)
      .orderBy('created_at')
      .execute();
  }

  /** Fees Paystack kept on live Mobile Money top-ups credited in [from, to) (the margin report's cost). */
  async liveGatewayFees(from: number, to: number): Promise<{ profile_id: string; decided_at: number; gateway_fee: number }[]> {
    const rows = await this.database.read
      .selectFrom('top_ups')
      .select(['profile_id', 'decided_at', 'gateway_fee'])
      .where('mode', '=', 'live')
      .where('gateway', '=', 'paystack')
      .where('status', '=', 'approved')
      .where('gateway_fee', 'is not', null)
      .where('decided_at', '>=', from)
      .where('decided_at', '<', to)
      .execute();
    return rows.map((r) => ({ profile_id: r.profile_id, decided_at: Number(r.decided_at), gateway_fee: Number(r.gateway_fee) }));
  }

  addEvent(tx: Tx, e: GatewayEvent): Promise<unknown> {
    return tx.execute(
      tx.qb.insertInto('top_up_gateway_events').values({
        top_up_id: e.topUpId,
        source: e.source,
        payment_status: e.paymentStatus,
        message: e.message.slice(0, 500),
        actor: e.actor ?? null,
        created_at: e.now,
      }),
    );
  }

  async events(topUpId: string) {
    return this.database.read.selectFrom('top_up_gateway_events').selectAll().where('top_up_id', '=', topUpId).orderBy('id').execute();
  }

  // ---- ledger verify (read-only, inside its snapshot) ----

  /** Per wallet: the net of its top_up entries (ledger_net) and the total of its approved top-ups (records_total). */
  async walletTopUpTotals(tx: Tx) {
    const approved = tx.db.selectFrom('top_ups').select(['profile_id', 'mode', 'amount']).where('status', '=', 'approved');
    return walletNetsAgainstRecords(tx, ['top_up'], approved.as('t'));
  }

  /** Per top-up: its ledger entries (count, net, and how many sit on a wallet that is not the owner's). */
  async topUpLedgerEntries(tx: Tx) {
    const topUps = tx.db.selectFrom('top_ups').select(['id', 'profile_id', 'mode', 'status', 'amount']);
    const columns = ['t.id', 't.status', 't.amount'] as const;
    return recordLedgerEntries(tx, topUps.as('t'), 'top_up_id').select(columns).groupBy(columns).execute();
  }

  /** top_up ledger entries that name no top-up, or one that does not exist. */
  async orphanTopUpEntries(tx: Tx) {
    return tx.db
      .selectFrom('ledger_entries as l')
      .leftJoin('top_ups as t', 't.id', 'l.top_up_id')
      .select(['l.id', 'l.top_up_id'])
      .where('l.kind', '=', 'top_up')
      .where('t.id', 'is', null)
      .orderBy('l.id')
      .execute();
  }
}
