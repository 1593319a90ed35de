import type { Statement } from '../../wallet/statement.js';
import { LINE_TYPES, type ReadableLine } from '../../wallet/statement-lines.js';
import { at, ghs } from './frame.js';

export interface StatementLineView {
  at: string;
  type: string;
  /** The order's short reference, linked to the order's page; or the top-up or adjustment. */
  reference: { label: string; href: string | null };
  number: string;
  packageName: string;
  description: string;
  /** What the line took (a charge) or gave back / added (a refund, top-up, credit), GHS; '' for the other. */
  debit: string;
  credit: string;
  balance: string;
}

export interface StatementView {
  profileId: string;
  name: string;
  mode: string;
  from: string;
  to: string;
  /** The line type shown ('' for every line). */
  type: string;
  types: readonly string[];
  opening: string;
  closing: string;
  openingHeld: string;
  closingHeld: string;
  credits: string;
  debits: string;
  /** Net of the lines a type filter leaves out, signed; null without a filter. */
  others: string | null;
  lines: StatementLineView[];
  /** The query of this statement (mode, period, type), for the export links and the pages. */
  query: string;
  nextHref: string | null;
}

export const LINE_TYPE_LABELS: Record<string, string> = {
  order: 'purchases',
  refund: 'refunds',
  topup: 'top-ups',
  adjustment: 'adjustments',
  opening: 'opening balance',
};

function referenceOf(l: ReadableLine): { label: string; href: string | null } {
  if (l.orderId !== null) {
    return { label: l.shortReference ?? l.orderId, href: `/console/orders/${encodeURIComponent(l.orderId)}` };
  }
  if (l.topUpId !== null) return { label: l.topUpId, href: `/console/top-ups/${encodeURIComponent(l.topUpId)}` };
  if (l.adjustmentId !== null) return { label: l.adjustmentId, href: `/console/adjustments#${encodeURIComponent(l.adjustmentId)}` };
  return { label: '', href: null };
}

const signed = (pesewas: number) => (pesewas > 0 ? `+${ghs(pesewas)}` : pesewas < 0 ? `−${ghs(-pesewas)}` : ghs(0));

export function statementView(s: Statement, name: string): StatementView {
  const params = new URLSearchParams({ mode: s.mode });
  if (s.from) params.set('from', s.from);
  if (s.to) params.set('to', s.to);
  if (s.types[0]) params.set('kind', s.types[0]);
  const query = params.toString();
  const base = `/console/partners/${encodeURIComponent(s.profileId)}/statement`;
  return {
    profileId: s.profileId,
    name,
    mode: s.mode,
    from: s.from ?? '',
    to: s.to ?? '',
    type: s.types[0] ?? '',
    types: LINE_TYPES,
    opening: ghs(s.opening.available),
    closing: ghs(s.closing.available),
    openingHeld: ghs(s.opening.held),
    closingHeld: ghs(s.closing.held),
    credits: ghs(s.totals.credits),
    debits: ghs(-s.totals.debits),
    others: s.totals.others === null ? null : signed(s.totals.others),
    lines: s.lines.map((l) => ({
      at: at(l.at),
      type: l.type,
      reference: referenceOf(l),
      number: l.beneficiaryMsisdn ?? '',
      packageName: l.packageName ?? '',
      description: l.description,
      debit: l.amount < 0 ? ghs(-l.amount) : '',
      credit: l.amount >= 0 ? ghs(l.amount) : '',
      balance: ghs(l.balanceAfter),
    })),
    query,
    nextHref: s.next === null ? null : `${base}?${query}&after=${s.next}`,
  };
}
