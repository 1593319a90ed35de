import type { Statement, StatementSource } from '../../wallet/statement.js';
import { LEDGER_KINDS } from '../../wallet/postings.js';
import { at, ghs } from './frame.js';

export interface StatementLineView {
  id: number;
  at: string;
  kind: string;
  memo: string;
  /** What caused it, and where it is shown (null: nowhere to go). */
  source: { label: string; href: string | null };
  change: string;
  heldChange: string;
  availableAfter: string;
  heldAfter: string;
}

export interface StatementView {
  profileId: string;
  name: string;
  mode: string;
  from: string;
  to: string;
  kind: string;
  kinds: readonly string[];
  opening: string;
  closing: string;
  openingHeld: string;
  closingHeld: string;
  credits: string;
  debits: string;
  entries: number;
  lines: StatementLineView[];
  /** The query of this statement (mode, period, kind), for the export links and the pages. */
  query: string;
  nextHref: string | null;
  firstHref: string | null;
}

function sourceLink(s: StatementSource): { label: string; href: string | null } {
  switch (s.type) {
    case 'order':
      return { label: `order ${s.id}`, href: `/console/orders/${encodeURIComponent(s.id)}` };
    case 'rc_sale':
      return { label: `result-checker sale ${s.id}`, href: `/console/orders/${encodeURIComponent(s.id)}` };
    case 'rc_bulk':
      return { label: `result-checker bulk ${s.id}`, href: null };
    case 'top_up':
      return { label: `top-up ${s.id}`, href: `/console/top-ups/${encodeURIComponent(s.id)}` };
    case 'adjustment':
      return { label: `adjustment ${s.id}`, href: `/console/adjustments#${encodeURIComponent(s.id)}` };
    case 'opening':
      return { label: 'opening balance', href: null };
  }
}

const signed = (pesewas: number) => (pesewas > 0 ? `+${ghs(pesewas)}` : pesewas < 0 ? `−${ghs(-pesewas)}` : '—');

export function statementView(s: Statement, name: string): StatementView {
  const params = new URLSearchParams({ mode: s.mode });
  if (s.from) params.set('from', s.from);
  if (s.to) params.set('to', s.to);
  if (s.kinds[0]) params.set('kind', s.kinds[0]);
  const query = params.toString();
  const base = `/console/partners/${encodeURIComponent(s.profileId)}/statement`;
  return {
    profileId: s.profileId,
    name,
    mode: s.mode,
    from: s.from ?? '',
    to: s.to ?? '',
    kind: s.kinds[0] ?? '',
    kinds: LEDGER_KINDS,
    opening: ghs(s.opening.available),
    closing: ghs(s.closing.available),
    openingHeld: ghs(s.opening.held),
    closingHeld: ghs(s.closing.held),
    credits: ghs(s.totals.credits),
    debits: ghs(-s.totals.debits),
    entries: s.totals.entries,
    lines: s.lines.map((l) => ({
      id: l.id,
      at: at(l.at),
      kind: l.kind,
      memo: l.memo,
      source: sourceLink(l.source),
      change: signed(l.availableDelta),
      heldChange: signed(l.heldDelta),
      availableAfter: ghs(l.availableAfter),
      heldAfter: ghs(l.heldAfter),
    })),
    query,
    nextHref: s.next === null ? null : `${base}?${query}&after=${s.next}`,
    firstHref: null,
  };
}
