import type { StaffRole, TopUpGatewayEventRow, TopUpRow } from '../../../db/schema.js';
import { mayAct } from '../service.js';
import type { Mode } from '../../../domain/types.js';
import type { Page } from '../../../lib/staff-page.js';
import type { BulkApproval } from '../operations.js';
import { at, ghs } from './frame.js';
import { modeSwitch, pagingLinks, partnerRef, type ModeSwitch, type PagingLinks, type PartnerRef } from './listing.js';

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
}

export interface BulkLine {
  id: string;
  approved: boolean;
  /** `approved: GHS 20.00 credited to <partner> (live)` or `not approved: <why>`. */
  text: string;
}

function topUpLine(t: TopUpRow, names: ReadonlyMap<string, string>): TopUpLine {
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
  role: StaffRole,
): TopUpHistoryView => ({
  topUp: topUpLine(data.topUp, data.names),
  canRecheck: data.topUp.gateway !== null && mayAct(role, 'operator'),
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
  role: StaffRole,
  bulk: BulkApproval[] = [],
): TopUpsView {
  const lines = found.rows.map((t) => topUpLine(t, found.names));
  const canDecide = mayAct(role, 'operator');
  return {
    form,
    statuses: ['', 'pending', 'approved', 'rejected'],
    methods: ['', 'momo', 'bank'],
    modes: modeSwitch('/console/top-ups', { ...form }, mode),
    lines,
    paging: pagingLinks('/console/top-ups', { ...form }, mode, found),
    canDecide,
    selectable: canDecide ? lines.filter((t) => t.pending && t.momo === null).length : 0,
    bulk: bulk.map((b) => ({
      id: b.id,
      approved: b.approved,
      text: b.approved
        ? `approved: ${ghs(b.amount ?? 0)} credited to ${partnerRef(b.profileId ?? '', found.names).name} (${b.mode ?? ''})`
        : `not approved: ${b.why ?? ''}`,
    })),
  };
}
