import type { StaffRole } from '../../../db/schema.js';
import type { AuditEntry } from '../../audit/service.js';
import type { ConsoleOperations } from '../operations.js';
import { mayAct } from '../service.js';
import { at, counted } from './frame.js';
import { stockLine, type StockLine } from './inventory.js';
import { modeSwitch, partnerRef, type ModeSwitch, type PartnerRef } from './listing.js';
import type { FloatLine } from '../../float/service.js';

/** How long ago, in words: `40 s`, `3 min`, `2 h 5 min`. */
export function ago(ms: number): string {
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.floor(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function floatLineView(l: FloatLine): FloatLineView {
  const balance =
    l.available !== null && l.currency !== null
      ? `${l.currency} ${(l.available / 100).toFixed(2)}`
      : l.readable
        ? 'not read yet'
        : 'unknown until a refusal';
  return {
    provider: l.provider,
    balance,
    readAt: l.readAt === null || l.ageMs === null ? '—' : `${at(l.readAt)} (${ago(l.ageMs)} ago)`,
    refusedAt: at(l.refusedAt),
    readError: l.readError === null ? '' : `last reading failed at ${at(l.errorAt)}: ${l.readError}`,
    low: l.low,
    lowBecause: l.lowBecause ?? '',
  };
}

export interface StuckLine {
  orderId: string;
  shortReference: string;
  partner: PartnerRef;
  mode: string;
  msisdn: string;
  status: string;
  since: string;
  nextStep: string;
}

/** A delivery whose upstream may have delivered and will not say (docs/live-delivery.md, "One delivery, many attempts"). */
export interface AttentionLine {
  orderId: string;
  shortReference: string;
  partner: PartnerRef;
  mode: string;
  msisdn: string;
  provider: string;
  reference: string;
  unknownFor: string;
  lastAnswer: string;
}

/** An upstream's float as the dashboard shows it (docs/live-delivery.md, "Float balances"). */
export interface FloatLineView {
  provider: string;
  /** `USD 1234.50`, or why there is no figure. */
  balance: string;
  /** `2026-11-25 10:00:00 (3 min ago)`, or a dash. */
  readAt: string;
  /** The last insufficient-float refusal, or a dash. */
  refusedAt: string;
  /** The last reading's failure, or empty. */
  readError: string;
  low: boolean;
  lowBecause: string;
}

/** The last ledger verify run from the console, as one line. */
export interface VerifyLine {
  text: string;
  /** null: never run. */
  ok: boolean | null;
}

export interface DashboardView {
  /** Every figure below but the floats, the findings and the stock is of this mode only. */
  modes: ModeSwitch;
  /** Deliveries needing attention, oldest first: shown before everything else. */
  attention: AttentionLine[];
  /** Each enabled upstream's float; LOW ones are shown with the attention list. */
  floats: FloatLineView[];
  lowFloats: number;
  /** Reconciliation findings no admin has resolved yet, per upstream, and in all. */
  unresolved: { provider: string; count: number }[];
  unresolvedTotal: number;
  ordersPerMinute: string;
  /** "12 orders", "1 order". */
  ordersLastHour: string;
  failureRate: string;
  failedLastHour: number;
  stuckCount: number;
  /** The first 50 of them. */
  stuck: StuckLine[];
  stuckAfter: string;
  pendingTopUps: number;
  stock: StockLine[];
  verify: VerifyLine;
  canVerify: boolean;
}

export function verifyLine(last: AuditEntry | null): VerifyLine {
  if (!last) return { text: 'Never run from the console.', ok: null };
  const d = last.detail ?? {};
  const ok = last.outcome === 'ok' && d.ok === true;
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '?');
  const mismatches = Array.isArray(d.mismatches) ? d.mismatches.map(text).join('; ') : text(d.reason);
  const what = ok
    ? `OK: ${text(d.wallets)} wallets, ${text(d.entries)} entries`
    : `${text(d.mismatchCount)} mismatches: ${mismatches}`;
  return { text: `${what} — ${at(last.at)} by ${last.actor}`, ok };
}

export function dashboardView(d: Awaited<ReturnType<ConsoleOperations['dashboard']>>, role: StaffRole): DashboardView {
  return {
    modes: modeSwitch('/console', {}, d.mode),
    attention: d.attention.map((a) => ({
      orderId: a.order_id,
      shortReference: a.short_reference,
      partner: partnerRef(a.profile_id, d.names),
      mode: a.mode,
      msisdn: a.beneficiary_msisdn,
      provider: a.provider,
      reference: a.reference,
      unknownFor: `${Math.round(a.unknownForMs / 60_000)} min`,
      lastAnswer: a.message ?? 'no answer recorded',
    })),
    floats: d.floats.map(floatLineView),
    lowFloats: d.floats.filter((l) => l.low).length,
    unresolved: [...d.unresolved].map(([provider, count]) => ({ provider, count })),
    unresolvedTotal: [...d.unresolved.values()].reduce((a, b) => a + b, 0),
    ordersPerMinute: d.activity.perMinute.toFixed(2),
    ordersLastHour: counted(d.activity.orders, 'order'),
    failureRate: `${(d.activity.failureRate * 100).toFixed(1)}%`,
    failedLastHour: d.activity.failed,
    stuckCount: d.stuck.length,
    stuck: d.stuck.slice(0, 50).map((s) => ({
      orderId: s.orderId,
      shortReference: s.shortReference,
      partner: partnerRef(s.profileId, d.names),
      mode: s.mode,
      msisdn: s.msisdn,
      status: s.status,
      since: at(s.since),
      nextStep: s.outbox ? `${s.outbox.kind}, tries ${s.outbox.tries}` : 'no outbox row',
    })),
    stuckAfter: `${Math.round(d.stuckAfterMs / 1000)} s`,
    pendingTopUps: d.pendingTopUps,
    stock: d.stock.map(stockLine),
    verify: verifyLine(d.lastVerify),
    canVerify: mayAct(role, 'operator'),
  };
}
