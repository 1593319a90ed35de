import type { StaffRole, TopUpRow } from '../../../db/schema.js';
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
  };
}

export const topUpsView = (data: { pending: TopUpRow[]; decided: TopUpRow[] }, role: StaffRole): TopUpsView => ({
  pending: data.pending.map(topUpLine),
  decided: data.decided.map(topUpLine),
  canDecide: mayAct(role, 'operator'),
});
