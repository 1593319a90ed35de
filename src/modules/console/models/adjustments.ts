import type { StaffRole, WalletAdjustmentRow } from '../../../db/schema.js';
import { mayAct } from '../service.js';
import type { Mode } from '../../../domain/types.js';
import { at, ghs } from './frame.js';
import { modeSwitch, partnerRef, type ModeSwitch, type PartnerRef } from './listing.js';

export interface AdjustmentLine {
  id: string;
  partner: PartnerRef;
  mode: string;
  direction: string;
  amount: string;
  reason: string;
  status: string;
  requestedBy: string;
  requestedAt: string;
  decidedBy: string;
  decidedAt: string;
  decisionReason: string;
  /** Approve/reject offered: an admin, on a pending one; approving is not offered to its requester. */
  canReject: boolean;
  canApprove: boolean;
}

export interface AdjustmentsView {
  modes: ModeSwitch;
  pending: AdjustmentLine[];
  decided: AdjustmentLine[];
  approvalAbove: string;
}

export function adjustmentsView(
  rows: WalletAdjustmentRow[],
  session: { role: StaffRole; staffId: string },
  approvalAbovePesewas: number,
  shown: { mode: Mode; names: ReadonlyMap<string, string> },
): AdjustmentsView {
  const admin = mayAct(session.role, 'admin');
  const line = (a: WalletAdjustmentRow): AdjustmentLine => ({
    id: a.id,
    partner: partnerRef(a.profile_id, shown.names),
    mode: a.mode,
    direction: a.direction,
    amount: ghs(a.amount),
    reason: a.reason,
    status: a.status,
    requestedBy: a.requested_by,
    requestedAt: at(a.created_at),
    decidedBy: a.decided_by ?? '—',
    decidedAt: at(a.decided_at),
    decisionReason: a.decision_reason ?? '',
    canReject: admin && a.status === 'pending',
    canApprove: admin && a.status === 'pending' && a.requested_by_staff_id !== session.staffId,
  });
  return {
    modes: modeSwitch('/console/adjustments', {}, shown.mode),
    pending: rows.filter((a) => a.status === 'pending').map(line).reverse(),
    decided: rows.filter((a) => a.status !== 'pending').map(line),
    approvalAbove: ghs(approvalAbovePesewas),
  };
}
