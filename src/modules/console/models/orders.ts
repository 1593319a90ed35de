import { ORDER_STATES, type OrderRow, type ProviderAttemptRow, type StaffRole } from '../../../db/schema.js';
import type { StaffOrderDetail } from '../../orders/service.js';
import { PARTNER_MESSAGES } from '../../deliveries/partner-messages.js';
import { mayAct } from '../service.js';
import type { Mode } from '../../../domain/types.js';
import type { Page } from '../../../lib/staff-page.js';
import { at, ghs } from './frame.js';
import { href, modeSwitch, pagingLinks, partnerRef, type ModeSwitch, type PagingLinks, type PartnerRef } from './listing.js';

/** The search form as the staff member filled it in (echoed back). */
export interface OrderSearchForm {
  q: string;
  profileId: string;
  state: string;
  type: string;
  from: string;
  to: string;
}

export interface OrderLine {
  id: string;
  shortReference: string;
  createdAt: string;
  partner: PartnerRef;
  paymentReference: string;
  type: string;
  msisdn: string;
  amount: string;
  state: string;
}

export interface OrdersView {
  form: OrderSearchForm;
  /** The state filter's choices ('' for any). */
  states: string[];
  /** The type filter's choices ('' for any). */
  types: string[];
  modes: ModeSwitch;
  results: OrderLine[];
  paging: PagingLinks;
  /** The CSV of every order the filters match (not only this page). */
  exportHref: string;
}

export interface RecipientLine {
  idx: number;
  msisdn: string;
  package: string;
  amount: string;
  status: string;
  attempt: number;
  providerRef: string;
  submittedAt: string;
  completedAt: string;
  error: string;
  /** The delivery's outbox step, or a dash. */
  outbox: string;
  /** `<when>: <reason>` of a recipient reversed on its own. */
  reversal: string | null;
  /** Whether an admin is offered to reverse it (a completed recipient of a completed bulk order). */
  canReverse: boolean;
}

export interface LedgerLine {
  id: string;
  at: string;
  kind: string;
  available: string;
  held: string;
  availableAfter: string;
  memo: string;
}

export interface OrderView {
  id: string;
  shortReference: string;
  state: string;
  partner: PartnerRef;
  mode: string;
  /** `data`, or `data (bulk)`. */
  type: string;
  package: string;
  amount: string;
  createdAt: string;
  completedAt: string;
  paymentReference: string;
  error: string | null;
  /** `<when>: <reason>` of a reversed order. */
  reversal: string | null;
  recipients: RecipientLine[];
  ledger: LedgerLine[];
  /** Every submission to an upstream, oldest first. */
  attempts: AttemptLine[];
  canReverse: boolean;
  /** A completed result-checker sale, to an admin: refund it (its credential is voided). */
  canRefund: boolean;
  canRetry: boolean;
  /** Numbers of the deliveries still open, which an admin may resolve by hand (empty: none, or not an admin). */
  resolvable: string[];
  /** What the partner reads of a delivery failed by hand when staff write no message of their own. */
  defaultPartnerMessage: string;
  /** A result-checker sale's credential (it has no recipients): null for other orders. */
  credential: CredentialLine | null;
}

export interface CredentialLine {
  id: string;
  /** assigned, refunded (voided), not issued (out of stock: refunded), or pending. */
  state: string;
  buyer: string;
  assignedAt: string;
  refundedAt: string;
  reason: string;
}

/** What the staff read of a sale's credential (its secret is never shown). */
export type StaffSale = {
  state: string;
  credential_id: string | null;
  buyer_phone: string;
  error_message: string | null;
  refunded_at: number | null;
  refund_reason: string | null;
  assigned_at: number | null;
  voided_at: number | null;
  void_reason: string | null;
};

function credentialLine(sale: StaffSale): CredentialLine {
  const state =
    sale.voided_at !== null || sale.refunded_at !== null
      ? 'refunded (credential voided)'
      : sale.state === 'failed'
        ? 'not issued: out of stock (refunded)'
        : sale.credential_id !== null
          ? 'assigned'
          : sale.state;
  return {
    id: sale.credential_id ?? '—',
    state,
    buyer: sale.buyer_phone,
    assignedAt: at(sale.assigned_at),
    refundedAt: at(sale.refunded_at ?? sale.voided_at),
    reason: sale.refund_reason ?? sale.void_reason ?? sale.error_message ?? '',
  };
}

export interface AttemptLine {
  reference: string;
  msisdn: string;
  provider: string;
  status: string;
  transactionId: string;
  cost: string;
  createdAt: string;
  resolvedAt: string;
  message: string;
}

const orderLine = (o: OrderRow, names: ReadonlyMap<string, string>): OrderLine => ({
  id: o.id,
  shortReference: o.short_reference,
  createdAt: at(o.created_at),
  partner: partnerRef(o.profile_id, names),
  paymentReference: o.payment_reference ?? '',
  type: o.order_type,
  msisdn: o.beneficiary_msisdn,
  amount: ghs(o.amount),
  state: o.state,
});

export function ordersView(form: OrderSearchForm, mode: Mode, found: Page<OrderRow> & { names: ReadonlyMap<string, string> }): OrdersView {
  const filters = { ...form };
  return {
    form,
    states: ['', ...ORDER_STATES],
    types: ['', 'data', 'result_checker'],
    modes: modeSwitch('/console/orders', filters, mode),
    results: found.rows.map((o) => orderLine(o, found.names)),
    paging: pagingLinks('/console/orders', filters, mode, found),
    exportHref: href('/console/orders.csv', { ...filters, mode }),
  };
}

/** An order's page; `now` and `stuckAfterMs` tell whether a delivery is stuck (and may be retried). */
export function orderView(
  d: StaffOrderDetail & { attempts: ProviderAttemptRow[]; names: ReadonlyMap<string, string>; sale?: StaffSale | null },
  role: StaffRole,
  stuckAfterMs: number,
  now: number,
): OrderView {
  const o = d.order;
  const admin = mayAct(role, 'admin');
  const bulkCompleted = o.is_bulk === 1 && o.order_type === 'data' && o.state === 'completed';
  const stuck = d.items.some(
    (i) => (i.status === 'pending' || i.status === 'processing') && now - Number(i.updated_at) > stuckAfterMs,
  );
  return {
    id: o.id,
    shortReference: o.short_reference,
    state: o.state,
    partner: partnerRef(o.profile_id, d.names),
    mode: o.mode,
    type: `${o.order_type}${o.is_bulk ? ' (bulk)' : ''}`,
    // A result-checker order has no operator: its package alone, without a leading separator.
    package: [o.operator_name, o.package_label].filter(Boolean).join(' · '),
    amount: ghs(o.amount),
    createdAt: at(o.created_at),
    completedAt: at(o.completed_at),
    paymentReference: o.payment_reference ?? '—',
    error: o.error_message || null,
    reversal: o.reversal_reason ? `${at(o.reversed_at)}: ${o.reversal_reason}` : null,
    recipients: d.items.map((i) => ({
      idx: Number(i.idx),
      msisdn: i.beneficiary_msisdn,
      package: i.package_label,
      amount: ghs(i.amount),
      status: i.status,
      attempt: Number(i.attempt),
      providerRef: i.provider_ref ?? '—',
      submittedAt: at(i.submitted_at),
      completedAt: at(i.completed_at),
      error: i.error_message ?? '',
      outbox: i.outbox_kind
        ? `${i.outbox_kind} at ${at(i.outbox_run_at)}, tries ${String(i.outbox_tries)}${i.outbox_last_error ? `, last error: ${i.outbox_last_error}` : ''}`
        : '—',
      reversal: i.reversal_reason ? `${at(i.reversed_at)}: ${i.reversal_reason}` : null,
      canReverse: admin && bulkCompleted && i.status === 'completed' && i.reversed_at === null,
    })),
    ledger: d.ledger.map((e) => ({
      id: String(e.id),
      at: at(e.created_at),
      kind: e.kind,
      available: ghs(e.available_delta),
      held: ghs(e.held_delta),
      availableAfter: ghs(e.available_after),
      memo: e.memo ?? '',
    })),
    attempts: d.attempts.map((a) => ({
      reference: a.reference,
      msisdn: d.items.find((i) => i.id === a.order_item_id)?.beneficiary_msisdn ?? '—',
      provider: a.provider,
      status: a.status,
      transactionId: a.provider_transaction_id ?? '—',
      cost: a.cost === null ? '—' : ghs(a.cost),
      createdAt: at(a.created_at),
      resolvedAt: at(a.resolved_at),
      message: `${a.message ?? ''}${a.resolved_by ? ` (resolved by ${a.resolved_by})` : ''}`,
    })),
    canReverse: o.state === 'completed' && o.order_type === 'data' && admin,
    canRefund: o.state === 'completed' && o.order_type === 'result_checker' && admin,
    canRetry: stuck && mayAct(role, 'operator'),
    resolvable: mayAct(role, 'admin')
      ? d.items.filter((i) => i.status === 'pending' || i.status === 'processing').map((i) => i.beneficiary_msisdn)
      : [],
    defaultPartnerMessage: PARTNER_MESSAGES.resolvedFailed,
    credential: d.sale ? credentialLine(d.sale) : null,
  };
}
