import type { StaffRole, TopUpGatewayEventRow, TopUpRow } from '../../../db/schema.js';
import { mayAct } from '../service.js';
import { APPROVALS_NEEDED } from '../../top-ups/four-eyes.js';
import type { Mode } from '../../../domain/types.js';
import type { Page } from '../../../lib/staff-page.js';
import type { BulkApproval } from '../operations.js';
import { at, ghs } from './frame.js';
import { href, modeSwitch, pagingLinks, partnerRef, type ModeSwitch, type PagingLinks, type PartnerRef } from './listing.js';

export interface TopUpLine {
  id: string;
  requestedAt: string;
  partner: PartnerRef;
  pending: boolean;
  mode: string;
  amount: string;
  method: string;
  reference: string;
  note: string;
  /** `approved`, or `rejected: <reason>`; empty while pending. */
  decision: string;
  /** `<when> by <who>`; empty while pending. */
  decided: string;
  /**
   * Four eyes (above TOPUP_APPROVAL_ABOVE): `0 of 2 approvals`, `1 of 2 approvals, by <who>` while
   * pending, `first approval by <who> at <when>` once decided; empty for a top-up one approval decides.
   */
  approvals: string;
  /** The reader may approve it now (pending request; a second approval needs another admin than the first). */
  canApprove: boolean;
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

/** Who reads the page. */
export interface TopUpReader {
  role: StaffRole;
  staffId: string;
}

export interface TopUpHistoryView {
  topUp: TopUpLine;
  canRecheck: boolean;
  events: { at: string; source: string; payment: string; message: string; actor: string }[];
}

/** The filter form as filled in (echoed back). */
export interface TopUpSearchForm {
  q: string;
  status: string;
  method: string;
}

export interface TopUpsView {
  form: TopUpSearchForm;
  statuses: string[];
  methods: string[];
  modes: ModeSwitch;
  lines: TopUpLine[];
  paging: PagingLinks;
  canDecide: boolean;
  /** Requests (not Mobile Money) pending on this page: the bulk approval's checkboxes. */
  selectable: number;
  /** What became of each top-up of the last bulk approval (none: no bulk approval just made). */
  bulk: BulkLine[];
  /** The CSV of every top-up the filters match (not only this page). */
  exportHref: string;
}

export interface BulkLine {
  id: string;
  /** Credited, or its first of two approvals recorded. */
  approved: boolean;
  /** `approved: GHS 20.00 credited to <partner> (live)`, `first approval recorded (1 of 2): …` or `not approved: <why>`. */
  text: string;
}

/** The four-eyes column of a top-up (see TopUpLine.approvals). */
function approvalsOf(t: TopUpRow, approvalAbove: number): string {
  const needsTwo = t.gateway === null && Number(t.amount) > approvalAbove;
  if (t.first_approved_by !== null) {
    return t.status === 'pending'
      ? `1 of ${APPROVALS_NEEDED} approvals, by ${t.first_approved_by}`
      : `first approval by ${t.first_approved_by} at ${at(t.first_approved_at)}`;
  }
  return needsTwo && t.status === 'pending' ? `0 of ${APPROVALS_NEEDED} approvals` : '';
}

/** Whether `reader` may approve `t` now; the service decides (this only hides buttons it would refuse). */
function mayApprove(t: TopUpRow, reader: TopUpReader): boolean {
  if (t.status !== 'pending' || t.gateway !== null || !mayAct(reader.role, 'operator')) return false;
  if (t.first_approved_by === null) return true;
  return reader.role === 'admin' && reader.staffId !== t.first_approved_by_staff_id;
}

function topUpLine(t: TopUpRow, names: ReadonlyMap<string, string>, reader: TopUpReader, approvalAbove: number): TopUpLine {
  const pending = t.status === 'pending';
  return {
    id: t.id,
    requestedAt: at(t.created_at),
    partner: partnerRef(t.profile_id, names),
    pending,
    mode: t.mode,
    amount: ghs(t.amount),
    method: t.method,
    reference: t.reference,
    note: t.note ?? '',
    decision: pending ? '' : `${t.status}${t.rejection_reason ? `: ${t.rejection_reason}` : ''}`,
    decided: pending ? '' : `${at(t.decided_at)} by ${t.decided_by ?? '?'}`,
    approvals: approvalsOf(t, approvalAbove),
    canApprove: mayApprove(t, reader),
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

export const topUpHistoryView = (
  data: { topUp: TopUpRow; events: TopUpGatewayEventRow[]; names: ReadonlyMap<string, string> },
  reader: TopUpReader,
  approvalAbove: number,
): TopUpHistoryView => ({
  topUp: topUpLine(data.topUp, data.names, reader, approvalAbove),
  canRecheck: data.topUp.gateway !== null && mayAct(reader.role, 'operator'),
  events: data.events.map((e) => ({
    at: at(e.created_at),
    source: e.source,
    payment: e.payment_status ?? '',
    message: e.message,
    actor: e.actor ?? '',
  })),
});

export function topUpsView(
  form: TopUpSearchForm,
  mode: Mode,
  found: Page<TopUpRow> & { names: ReadonlyMap<string, string> },
  reader: TopUpReader,
  approvalAbove: number,
  bulk: BulkApproval[] = [],
): TopUpsView {
  const lines = found.rows.map((t) => topUpLine(t, found.names, reader, approvalAbove));
  const canDecide = mayAct(reader.role, 'operator');
  return {
    form,
    statuses: ['', 'pending', 'approved', 'rejected'],
    methods: ['', 'momo', 'bank'],
    modes: modeSwitch('/console/top-ups', { ...form }, mode),
    lines,
    paging: pagingLinks('/console/top-ups', { ...form }, mode, found),
    exportHref: href('/console/top-ups.csv', { ...form, mode }),
    canDecide,
    selectable: lines.filter((t) => t.canApprove).length,
    bulk: bulk.map((b) => {
      const partner = `${partnerRef(b.profileId ?? '', found.names).name} (${b.mode ?? ''})`;
      const text = {
        approved: `approved: ${ghs(b.amount ?? 0)} credited to ${partner}`,
        first: `first approval recorded (1 of ${APPROVALS_NEEDED}): ${ghs(b.amount ?? 0)} to ${partner} waits for another admin`,
        refused: `not approved: ${b.why ?? ''}`,
      }[b.outcome];
      return { id: b.id, approved: b.outcome !== 'refused', text };
    }),
  };
}
