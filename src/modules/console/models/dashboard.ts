import type { StaffRole } from '../../../db/schema.js';
import type { AuditEntry } from '../../audit/service.js';
import type { ConsoleOperations } from '../operations.js';
import { mayAct } from '../service.js';
import { at, counted } from './frame.js';
import { stockLine, type StockLine } from './inventory.js';

export interface StuckLine {
  orderId: string;
  shortReference: string;
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
  mode: string;
  msisdn: string;
  provider: string;
  reference: string;
  unknownFor: string;
  lastAnswer: string;
}

/** The last ledger verify run from the console, as one line. */
export interface VerifyLine {
  text: string;
  /** null: never run. */
  ok: boolean | null;
}

export interface DashboardView {
  /** Deliveries needing attention, oldest first: shown before everything else. */
  attention: AttentionLine[];
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
    attention: d.attention.map((a) => ({
      orderId: a.order_id,
      shortReference: a.short_reference,
      mode: a.mode,
      msisdn: a.beneficiary_msisdn,
      provider: a.provider,
      reference: a.reference,
      unknownFor: `${Math.round(a.unknownForMs / 60_000)} min`,
      lastAnswer: a.message ?? 'no answer recorded',
    })),
    ordersPerMinute: d.activity.perMinute.toFixed(2),
    ordersLastHour: counted(d.activity.orders, 'order'),
    failureRate: `${(d.activity.failureRate * 100).toFixed(1)}%`,
    failedLastHour: d.activity.failed,
    stuckCount: d.stuck.length,
    stuck: d.stuck.slice(0, 50).map((s) => ({
      orderId: s.orderId,
      shortReference: s.shortReference,
      mode: s.mode,
      msisdn: s.msisdn,
      status: s.status,
      since: at(s.since),
      nextStep: s.outbox ? `${s.outbox.kind}, tries ${s.outbox.tries}` : 'no outbox row',
    })),
    stuckAfter: `${Math.round(d.stuckAfterMs / 1000)} s`,
    pendingTopUps: d.pending.length,
    stock: d.stock.map(stockLine),
    verify: verifyLine(d.lastVerify),
    canVerify: mayAct(role, 'operator'),
  };
}
