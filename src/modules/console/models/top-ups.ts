import type { StaffRole, TopUpGatewayEventRow, TopUpRow } from '../../../db/schema.js';
import { mayAct } from '../service.js';
import { at, ghs } from './frame.js';

export interface TopUpLine {
  id: string;
  requestedAt: string;
  profileId: string;
  mode: string;
  amount: string;
  method: string;
  reference: string;
  note: string;
  /** `approved`, or `rejected: <reason>`; empty while pending. */
  decision: string;
  /** `<when> by <who>`; empty while pending. */
  decided: string;
  /** Mobile Money top-ups: the gateway's side (decided by the gateway, never by hand); null for requests. */
  momo: MomoLine | null;
}

export interface MomoLine {
  /** The payment's status at the gateway. */
  payment: string;
  phone: string;
  network: string;
  /** The gateway's fee, once verified (GHS), or empty. */
  fee: string;
  /** Why a verified payment was not credited, or empty. */
  problem: string;
}

export interface TopUpHistoryView {
  topUp: TopUpLine;
  canRecheck: boolean;
  events: { at: string; source: string; payment: string; message: string; actor: string }[];
}

export interface TopUpsView {
  pending: TopUpLine[];
  decided: TopUpLine[];
  canDecide: boolean;
}

function topUpLine(t: TopUpRow): TopUpLine {
  const pending = t.status === 'pending';
  return {
    id: t.id,
    requestedAt: at(t.created_at),
    profileId: t.profile_id,
    mode: t.mode,
    amount: ghs(t.amount),
    method: t.method,
    reference: t.reference,
    note: t.note ?? '',
    decision: pending ? '' : `${t.status}${t.rejection_reason ? `: ${t.rejection_reason}` : ''}`,
    decided: pending ? '' : `${at(t.decided_at)} by ${t.decided_by ?? '?'}`,
    momo:
      t.gateway === null
        ? null
        : {
            payment: t.payment_status ?? 'pending',
            phone: t.payment_phone ?? '',
            network: t.payment_network ?? '',
            fee: t.gateway_fee === null ? '' : ghs(t.gateway_fee),
            problem: t.gateway_problem ?? '',
          },
  };
}

export const topUpHistoryView = (data: { topUp: TopUpRow; events: TopUpGatewayEventRow[] }, role: StaffRole): TopUpHistoryView => ({
  topUp: topUpLine(data.topUp),
  canRecheck: data.topUp.gateway !== null && mayAct(role, 'operator'),
  events: data.events.map((e) => ({
    at: at(e.created_at),
    source: e.source,
    payment: e.payment_status ?? '',
    message: e.message,
    actor: e.actor ?? '',
  })),
});

export const topUpsView = (data: { pending: TopUpRow[]; decided: TopUpRow[] }, role: StaffRole): TopUpsView => ({
  pending: data.pending.map(topUpLine),
  decided: data.decided.map(topUpLine),
  canDecide: mayAct(role, 'operator'),
});
