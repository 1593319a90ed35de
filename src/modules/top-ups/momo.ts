import type { Database } from '../../db/connection.js';
import type { MomoNetwork, TopUpGateway, TopUpRow } from '../../db/schema.js';
import { whenRefusedBy } from '../../db/unique-indexes.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller, Owner } from '../../domain/caller.js';
import { badGateway, conflict, invalid, notFound, unavailable } from '../../domain/errors.js';
import type { Clock, Mode } from '../../domain/types.js';
import { newId } from '../../lib/ids.js';
import { formatGhs, fromGhs } from '../../lib/money.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import type { PaymentGateway, Verification } from '../../providers/paystack/gateway.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { IdempotencyService } from '../idempotency/service.js';
import type { ProfileRepository } from '../profiles/repository.js';
import type { TopUpRepository } from './repository.js';
import type { MomoTopUpBody, TopUp } from './schemas.js';
import { toTopUpView, type TopUpService } from './service.js';

const CODE = 'TOPUP_REQUEST_FAILED';

/** The network of a Ghana number's prefix (docs/mobile-money.md, "Starting a top-up"). */
const PREFIXES: Record<string, MomoNetwork> = {
  '24': 'MTN', '25': 'MTN', '53': 'MTN', '54': 'MTN', '55': 'MTN', '59': 'MTN',
  '20': 'TELECEL', '50': 'TELECEL',
  '23': 'AT', '26': 'AT', '27': 'AT', '56': 'AT', '57': 'AT',
};

export function networkOf(msisdn: string): MomoNetwork | null {
  return PREFIXES[msisdn.slice(3, 5)] ?? null;
}

export interface MomoSettings {
  minAmount: number;
  maxAmount: number;
  pollMs: number;
  chargeExpiresMs: number;
  /** MOMO_PENDING_MAX: a partner's pending charges at once, per mode. */
  pendingMax: number;
  /** MOMO_NUMBER_PROMPTS_PER_HOUR: charges one number is sent in an hour, per mode, across partners. */
  numberPromptsPerHour: number;
}

const HOUR_MS = 3_600_000;

/** The gateway that serves a mode, or null (no key: Mobile Money top-ups are unavailable there). */
export type GatewayFor = (mode: Mode, gateway?: TopUpGateway) => PaymentGateway | null;

export interface MomoLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What one check did, for the worker's log, the CLI and the console. */
export type CheckOutcome = 'credited' | 'credited-late' | 'rejected' | 'mismatch' | 'final' | 'waiting' | 'unknown' | 'done' | 'not-gateway';

/** Marks the later answer noted on a top-up rejected as not matched (noted once). */
const LATER_ANSWER = 'Later, Paystack verified';

/**
 * Mobile Money top-ups (docs/mobile-money.md): a charge through the gateway, credited exactly once
 * and only after a verification that matches amount and currency. Whatever makes the check happen
 * (the charge's own answer, the signed webhook, the worker's due checks, a staff re-check), `check`
 * decides, and the credit, the approval, its ledger entry and the topup.approved event are one unit
 * of work behind a conditional update, so a second check finds it done.
 */
export class MomoTopUpService {
  constructor(
    private readonly database: Database,
    private readonly topUps: TopUpRepository,
    private readonly decisions: TopUpService,
    private readonly profiles: ProfileRepository,
    private readonly gatewayFor: GatewayFor,
    private readonly idempotency: IdempotencyService,
    private readonly audit: AuditTrail,
    private readonly settings: MomoSettings,
    private readonly log: MomoLog,
    private readonly clock: Clock,
  ) {}

  /** POST /api/v1/top-ups/mobile-money. */
  async charge(owner: Caller, body: MomoTopUpBody): Promise<TopUp> {
    const amount = fromGhs(body.amount);
    const { minAmount, maxAmount } = this.settings;
    if (amount === null || amount < minAmount || amount > maxAmount) {
      throw invalid(CODE, `amount must be a GHS amount from ${formatGhs(minAmount)} to ${formatGhs(maxAmount)}, with at most two decimals`);
    }
    const msisdn = normaliseGhanaMsisdn(body.phone);
    if (msisdn === null) throw invalid(CODE, 'phone must be a Ghana mobile number (0551234987 or 233551234987)');
    const network = body.network ?? networkOf(msisdn);
    if (network === null) throw invalid(CODE, `phone ${body.phone} is outside the MTN, Telecel and AT prefixes: say its network`);
    const gateway = this.gatewayFor(owner.mode);
    if (!gateway) {
      throw unavailable('TOPUP_METHOD_UNAVAILABLE', `Mobile Money top-ups are not available for ${owner.mode} keys here; ask for a top-up instead`);
    }
    const profile = await this.profiles.findProfile(owner.profileId);
    const email = profile?.email.trim() ?? '';
    if (!email.includes('@')) throw invalid(CODE, 'your profile has no e-mail address, which the payment gateway needs; ask staff to add one');

    const id = newId('tup');
    const reference = id.replace(/_/g, '-');
    const now = this.clock();
    const recorded = await this.database
      .unit(async (tx) => {
        await this.withinLimits(tx, owner, msisdn, now);
        const row = await this.topUps.insertCharge(tx, {
          id,
          profileId: owner.profileId,
          mode: owner.mode,
          amount,
          reference,
          gateway: gateway.name,
          phone: msisdn,
          network,
          checkAt: now + this.settings.pollMs,
          expiresAt: now + this.settings.chargeExpiresMs,
          now,
        });
        await this.topUps.addEvent(tx, { topUpId: id, source: 'charge', paymentStatus: null, message: `charge of ${formatGhs(amount)} sent to ${network} ${msisdn}`, now });
        return row;
      })
      .catch(
        whenRefusedBy({
          top_ups_momo_pending: () => conflict(CODE, `Your Mobile Money top-up for ${msisdn} is still pending: approve or decline its prompt first`),
        }),
      );

    const answer = await gateway.charge({ reference, email, amount, phone: `0${msisdn.slice(3)}`, network, metadata: { topUpId: id } });
    const later = this.clock();
    if (answer.kind === 'refused') {
      await this.database.unit(async (tx) => {
        const rejected = await this.topUps.rejectCharge(tx, id, {
          reason: `Paystack refused the charge: ${answer.message}`,
          problem: null,
          paymentStatus: 'failed',
          now: later,
        });
        await this.topUps.addEvent(tx, { topUpId: id, source: 'charge', paymentStatus: 'failed', message: `refused: ${answer.message}`, now: later });
        if (rejected) this.decisions.decided(tx, rejected, later);
      });
      throw badGateway('TOPUP_GATEWAY_FAILED', `Paystack refused the charge: ${answer.message}; nothing was charged (top-up ${id})`);
    }
    if (answer.kind === 'unknown') {
      await this.database.unit((tx) =>
        this.topUps.addEvent(tx, { topUpId: id, source: 'charge', paymentStatus: null, message: `no answer: ${answer.message}`, now: later }),
      );
      throw badGateway(
        'TOPUP_GATEWAY_FAILED',
        `Paystack could not be reached (${answer.message}); top-up ${id} stays pending and is checked: it is credited only if the payment went through`,
      );
    }
    let row = await this.database.unit(async (tx) => {
      const updated = await this.topUps.recordPayment(tx, id, { status: answer.status, displayText: answer.displayText || answer.message, now: later });
      await this.topUps.addEvent(tx, { topUpId: id, source: 'charge', paymentStatus: answer.status, message: answer.message, now: later });
      return updated ?? recorded;
    });
    // Paid (or failed) at once: verify now instead of at the first due check.
    if (answer.status === 'success' || answer.status === 'failed') {
      await this.check(id, 'check');
      row = (await this.topUps.findById(id)) ?? row;
    }
    const view = toTopUpView(row);
    await this.database.unit((tx) => {
      this.idempotency.succeeded(tx, owner, view);
      return Promise.resolve();
    });
    return view;
  }

  /**
   * The limits on starting a charge (docs/mobile-money.md, "Limits"), read under the locks that
   * make them hold for concurrent requests: a partner has at most `pendingMax` charges pending, and a
   * number is sent at most `numberPromptsPerHour` charges an hour, whoever asks (no partner can flood
   * strangers' phones with payment prompts).
   */
  private async withinLimits(tx: Tx, owner: Caller, msisdn: string, now: number): Promise<void> {
    const { pendingMax, numberPromptsPerHour } = this.settings;
    await this.topUps.lockChargeStarts(tx, { profileId: owner.profileId, mode: owner.mode, phone: msisdn });
    const pending = await this.topUps.pendingCharges(tx, owner.profileId, owner.mode);
    if (pending >= pendingMax) {
      throw conflict(
        CODE,
        `You have ${pending} Mobile Money top-ups pending, the most allowed at once (${pendingMax}): wait until their prompts are approved, declined or expire`,
      );
    }
    const recent = await this.topUps.chargesToNumberSince(tx, msisdn, owner.mode, now - HOUR_MS);
    if (recent.count >= numberPromptsPerHour) {
      const minutes = Math.max(1, Math.ceil(((recent.first ?? now) + HOUR_MS - now) / 60_000));
      throw conflict(
        CODE,
        `${msisdn} was sent ${recent.count} payment prompts in the last hour, the most a number is sent: try again in ${minutes} min`,
      );
    }
  }

  /** POST /api/v1/top-ups/{id}/otp. */
  async submitOtp(owner: Caller, id: string, otp: string): Promise<TopUp> {
    const topUp = await this.own(owner, id);
    if (topUp.gateway === null) throw conflict(CODE, `top-up ${id} is not a Mobile Money top-up`);
    if (topUp.status !== 'pending' || topUp.payment_status !== 'send_otp') {
      throw conflict(CODE, `top-up ${id} is not waiting for an OTP (it is ${topUp.status}, payment ${topUp.payment_status ?? 'none'})`);
    }
    const gateway = this.gatewayFor(topUp.mode, topUp.gateway);
    if (!gateway) throw unavailable('TOPUP_METHOD_UNAVAILABLE', `Mobile Money top-ups are not available for ${topUp.mode} keys here`);
    const answer = await gateway.submitOtp(topUp.reference, otp.trim());
    const now = this.clock();
    if (answer.kind !== 'charge') {
      await this.database.unit((tx) =>
        this.topUps.addEvent(tx, { topUpId: id, source: 'otp', paymentStatus: topUp.payment_status, message: `OTP not taken: ${answer.message}`, now }),
      );
      if (answer.kind === 'refused') throw invalid(CODE, `Paystack did not take the OTP: ${answer.message}`);
      throw badGateway('TOPUP_GATEWAY_FAILED', `Paystack could not be reached (${answer.message}); send the OTP again`);
    }
    let row = await this.database.unit(async (tx) => {
      const updated = await this.topUps.recordPayment(tx, id, { status: answer.status, displayText: answer.displayText || answer.message, now });
      await this.topUps.addEvent(tx, { topUpId: id, source: 'otp', paymentStatus: answer.status, message: answer.message, now });
      return updated ?? topUp;
    });
    if (answer.status === 'success' || answer.status === 'failed') {
      await this.check(id, 'check');
      row = (await this.topUps.findById(id)) ?? row;
    }
    const view = toTopUpView(row);
    await this.database.unit((tx) => {
      this.idempotency.succeeded(tx, owner, view);
      return Promise.resolve();
    });
    return view;
  }

  /** GET /api/v1/top-ups/{id}: any top-up of the caller in the key's mode. */
  async get(owner: Owner, id: string): Promise<TopUp> {
    return toTopUpView(await this.own(owner, id));
  }

  private async own(owner: Owner, id: string): Promise<TopUpRow> {
    const topUp = await this.topUps.findOwn(owner, id);
    if (!topUp) throw notFound('TOPUP_NOT_FOUND', `Top-up ${id} not found`);
    return topUp;
  }

  /**
   * Asks the gateway about a charge and acts on the verified answer, once: credits a success whose
   * amount and currency match (also after a rejection for failure or expiry: the money arrived late;
   * never after a rejection as not matched, which is final), rejects a failure, an abandonment or an
   * expired charge, and keeps anything else pending for the next check.
   * `actor`: a staff re-check, audited in the same unit as its effect.
   */
  async check(id: string, source: 'webhook' | 'check' | 'recheck', actor?: Actor): Promise<CheckOutcome> {
    const topUp = await this.topUps.findById(id);
    if (!topUp || topUp.gateway === null || topUp.payment_phone === null) return 'not-gateway';
    if (topUp.status === 'approved') {
      if (actor) await this.database.unit((tx) => this.audited(tx, actor, topUp, 'done', 'already credited'));
      return 'done';
    }
    const gateway = this.gatewayFor(topUp.mode, topUp.gateway);
    const verification: Verification = gateway
      ? await gateway.verify({ reference: topUp.reference, amount: topUp.amount, phone: topUp.payment_phone, createdAt: topUp.created_at })
      : { kind: 'unknown', message: `no ${topUp.gateway} key for ${topUp.mode} mode is configured` };
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const note = (paymentStatus: string | null, message: string) =>
        this.topUps.addEvent(tx, { topUpId: id, source, paymentStatus, message, actor: actor?.name ?? null, now });
      let outcome: CheckOutcome;
      let message: string;
      if (verification.kind !== 'transaction') {
        const expired = verification.kind === 'absent' && topUp.expires_at !== null && now >= topUp.expires_at;
        outcome = expired ? await this.expire(tx, topUp, now) : 'unknown';
        message = expired ? `expired; Paystack has no such transaction (${verification.message})` : verification.message;
        if (!expired) await this.topUps.scheduleCheck(tx, id, now + this.settings.pollMs);
        await note(null, message);
      } else {
        const t = verification.transaction;
        const paid = `${t.status}: ${t.gatewayResponse || 'no gateway response'}`;
        if (t.status === 'success') {
          const problem =
            t.amount !== topUp.amount || t.currency !== 'GHS'
              ? `Paystack verified ${t.currency} ${(t.amount / 100).toFixed(2)}, not GHS ${(topUp.amount / 100).toFixed(2)}: not credited`
              : null;
          if (problem) {
            outcome = 'mismatch';
            message = problem;
            const rejected = await this.topUps.rejectCharge(tx, id, {
              reason: 'The payment could not be matched to this top-up and was not credited; staff have been told',
              problem,
              paymentStatus: 'success',
              now,
            });
            if (rejected) this.decisions.decided(tx, rejected, now);
            else await this.topUps.noteProblem(tx, id, problem, now);
            this.log.warn({ topUpId: id, reference: topUp.reference, problem }, 'mobile money payment not credited: verification differs');
          } else if (topUp.status === 'rejected' && topUp.gateway_problem !== null) {
            // Rejected as not matched: final. A changed answer is for staff to settle by an adjustment.
            outcome = 'final';
            message = `${paid}; it matches now, but the top-up was rejected as not matched, which is final: not credited, settle it by an adjustment`;
            if (!topUp.gateway_problem.includes(LATER_ANSWER)) {
              const later = `${LATER_ANSWER} ${t.currency} ${(t.amount / 100).toFixed(2)} (success): not credited, as the rejection is final; settle it by an adjustment`;
              await this.topUps.noteProblem(tx, id, `${topUp.gateway_problem}. ${later}`, now);
            }
            this.log.warn({ topUpId: id, reference: topUp.reference }, 'mobile money payment verified after its rejection as not matched: not credited, staff settle it');
          } else {
            const approved = await this.topUps.approveCharge(tx, id, { fee: t.fees, now });
            if (approved) {
              await this.decisions.credit(tx, approved, now);
              this.decisions.decided(tx, approved, now);
              outcome = topUp.status === 'rejected' ? 'credited-late' : 'credited';
              message = `${paid}; credited ${formatGhs(approved.amount)}${outcome === 'credited-late' ? ' (late: after the top-up was rejected)' : ''}`;
              if (outcome === 'credited-late') this.log.warn({ topUpId: id, reference: topUp.reference }, 'mobile money payment credited late');
            } else {
              outcome = 'done';
              message = `${paid}; already credited`;
            }
          }
        } else if (t.status === 'failed' || t.status === 'abandoned' || t.status === 'reversed') {
          const reason = t.gatewayResponse || (t.status === 'abandoned' ? 'The payer did not approve the payment' : `Payment ${t.status}`);
          const rejected = await this.topUps.rejectCharge(tx, id, { reason, problem: null, paymentStatus: 'failed', now });
          if (rejected) this.decisions.decided(tx, rejected, now);
          outcome = rejected ? 'rejected' : 'done';
          message = paid;
        } else if (topUp.expires_at !== null && now >= topUp.expires_at) {
          outcome = await this.expire(tx, topUp, now);
          message = `expired while ${paid}`;
        } else {
          outcome = 'waiting';
          message = paid;
          await this.topUps.scheduleCheck(tx, id, now + this.settings.pollMs);
        }
        await note(t.status, message);
      }
      if (actor) await this.audited(tx, actor, topUp, outcome, message);
      return outcome;
    });
  }

  private async expire(tx: Tx, topUp: TopUpRow, now: number): Promise<CheckOutcome> {
    const minutes = Math.round(this.settings.chargeExpiresMs / 60_000);
    const rejected = await this.topUps.rejectCharge(tx, topUp.id, {
      reason: `Expired: not paid within ${minutes} minute${minutes === 1 ? '' : 's'}`,
      problem: null,
      paymentStatus: 'failed',
      now,
    });
    if (rejected) this.decisions.decided(tx, rejected, now);
    return rejected ? 'rejected' : 'done';
  }

  private audited(tx: Tx, actor: Actor, topUp: TopUpRow, outcome: CheckOutcome, message: string) {
    return this.audit.record(tx, actor, 'topup.recheck', { type: 'top_up', id: topUp.id }, {
      outcome,
      message,
      profileId: topUp.profile_id,
      mode: topUp.mode,
      reference: topUp.reference,
    });
  }

  /**
   * POST /callbacks/paystack: the signature says which mode's key sent it (else 401); the reference
   * names our charge, whose check becomes due now, durably; the webhook is answered at once and the
   * check follows (or a worker does it). Never the verdict: verification decides.
   */
  async webhook(mode: Mode, body: unknown): Promise<void> {
    const event = typeof (body as { event?: unknown }).event === 'string' ? (body as { event: string }).event : 'unknown';
    const data = (body as { data?: unknown }).data;
    const reference = data !== null && typeof data === 'object' ? (data as { reference?: unknown }).reference : undefined;
    if (typeof reference !== 'string') {
      this.log.warn({ mode, event }, 'paystack webhook without a reference');
      return;
    }
    const topUp = await this.topUps.findByGatewayReference(mode, reference);
    if (!topUp) {
      this.log.warn({ mode, event, reference }, 'paystack webhook for no top-up of ours');
      return;
    }
    const now = this.clock();
    await this.database.unit(async (tx) => {
      await this.topUps.scheduleCheck(tx, topUp.id, now);
      await this.topUps.addEvent(tx, { topUpId: topUp.id, source: 'webhook', paymentStatus: null, message: `webhook ${event}`, now });
    });
    // Answered at once: the check runs after the answer, and its being due (committed above) lets a
    // worker's Mobile Money lane do it should this process stop first.
    void this.check(topUp.id, 'webhook').catch((error: unknown) =>
      this.log.error({ err: error, topUpId: topUp.id }, 'paystack webhook check failed; the worker checks it'),
    );
  }

  /** The worker's due checks: each claimed (so one worker checks it), then checked. Returns how many were checked. */
  async checkDue(limit = 50): Promise<number> {
    const now = this.clock();
    const due = await this.topUps.dueChecks(now, limit);
    let checked = 0;
    await Promise.all(
      due.map(async (row) => {
        if (row.check_at === null) return;
        const dueAt = row.check_at;
        const claimed = await this.database.singleStatement((tx) => this.topUps.claimCheck(tx, row.id, dueAt, now + this.settings.pollMs));
        if (!claimed) return;
        try {
          const outcome = await this.check(row.id, 'check');
          checked++;
          if (outcome !== 'waiting') this.log.info({ topUpId: row.id, outcome }, 'mobile money check');
        } catch (error) {
          this.log.error({ err: error, topUpId: row.id }, 'mobile money check failed; tried again later');
        }
      }),
    );
    return checked;
  }

  /** Staff (console and CLI): asks the gateway again now; audited with what it found, in the unit of its effect. */
  async recheck(actor: Actor, id: string): Promise<CheckOutcome> {
    const topUp = await this.topUps.findById(id);
    if (!topUp) throw notFound('NOT_FOUND', `no top-up ${id}`);
    if (topUp.gateway === null) throw conflict('INVALID_REQUEST', `top-up ${id} is not a Mobile Money top-up: there is no gateway to ask`);
    return this.check(id, 'recheck', actor);
  }

  /** Staff: the top-up and its gateway history. */
  async history(id: string) {
    const topUp = await this.topUps.findById(id);
    if (!topUp) throw notFound('NOT_FOUND', `no top-up ${id}`);
    return { topUp, events: await this.topUps.events(id) };
  }

  /**
   * Paystack's successful Mobile Money transactions of a period against our top-ups of `mode`: paid
   * there but not credited here, credited here but not successful there, amounts that differ.
   */
  async reconcile(mode: Mode, from: Date, to: Date): Promise<{ checked: number; problems: string[] }> {
    const gateway = this.gatewayFor(mode);
    if (!gateway) throw unavailable('TOPUP_METHOD_UNAVAILABLE', `no Paystack key for ${mode} mode is configured`);
    const listed = await gateway.successfulTransactions(from, to);
    if (!listed.ok) throw badGateway('TOPUP_GATEWAY_FAILED', `Paystack's transactions could not be read: ${listed.message}`);
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const t of listed.transactions) {
      seen.add(t.reference);
      const topUp = await this.topUps.findByGatewayReference(mode, t.reference);
      if (!topUp) problems.push(`${t.reference}: paid at Paystack (${t.currency} ${(t.amount / 100).toFixed(2)}) but no top-up here has this reference`);
      else if (topUp.status !== 'approved') problems.push(`${t.reference}: paid at Paystack but top-up ${topUp.id} is ${topUp.status} here, not credited`);
      else if (t.amount !== topUp.amount || t.currency !== 'GHS') {
        problems.push(`${t.reference}: Paystack says ${t.currency} ${(t.amount / 100).toFixed(2)}, top-up ${topUp.id} credited ${formatGhs(topUp.amount)}`);
      }
    }
    const ours = await this.topUps.approvedCharges(mode, from.getTime(), to.getTime());
    for (const topUp of ours) {
      if (!seen.has(topUp.reference)) problems.push(`${topUp.reference}: top-up ${topUp.id} credited ${formatGhs(topUp.amount)} here but not successful at Paystack in the period`);
    }
    return { checked: listed.transactions.length + ours.length, problems };
  }
}
