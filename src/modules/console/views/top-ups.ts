import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { TopUpHistoryView, TopUpLine, TopUpsView } from '../models/top-ups.js';
import { csrfField, layout, table } from './layout.js';

/** A Mobile Money top-up's gateway side, in one cell. */
const momoCell = (t: TopUpLine) =>
  t.momo
    ? h`<a href="/console/top-ups/${t.id}">Mobile Money</a>: ${t.momo.payment}, ${t.momo.network} ${t.momo.phone}${t.momo.fee ? `, fee ${t.momo.fee}` : ''}${t.momo.problem ? ` — not credited: ${t.momo.problem}` : ''}`
    : '';

export function topUpsPage(frame: PageFrame, view: TopUpsView): string {
  const csrf = csrfField(frame.csrfToken);
  const recheck = (t: TopUpLine) =>
    view.canDecide
      ? h`<form method="post" action="/console/top-ups/${t.id}/recheck" class="inline">!${csrf}<button type="submit">Re-check with Paystack</button></form>`
      : '';
  const decide = (t: TopUpLine) =>
    t.momo
      ? h`!${momoCell(t)} !${recheck(t)}`
      : view.canDecide
        ? h`<form method="post" action="/console/top-ups/${t.id}/approve" class="inline" hx-confirm="Approve ${t.amount} for ${t.profileId}?">!${csrf}<button type="submit">Approve</button></form>
<form method="post" action="/console/top-ups/${t.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="500" placeholder="reason" aria-label="rejection reason"><button type="submit">Reject</button></form>`
        : 'pending';
  const pending = view.pending.map(
    (t) =>
      h`<tr id="topup-${t.id}"><td>${t.id}</td><td>${t.requestedAt}</td><td>${t.profileId}</td><td>${t.mode}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.note}</td><td>!${decide(t)}</td></tr>`,
  );
  const decided = view.decided.map(
    (t) =>
      h`<tr id="decided-${t.id}"><td>${t.id}</td><td>${t.requestedAt}</td><td>${t.profileId}</td><td>${t.mode}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.decision}</td><td>${t.decided}</td><td>!${t.momo ? h`!${momoCell(t)} !${recheck(t)}` : ''}</td></tr>`,
  );
  return layout(
    frame,
    h`<section><h2>Pending (${view.pending.length})</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'note', ''], pending, 'No top-up is waiting.')}</section>
<section><h2>Decided</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'decision', 'when', 'Mobile Money'], decided, 'None yet.')}</section>`,
  );
}

/** One Mobile Money top-up and every answer of the gateway about it. */
export function topUpPage(frame: PageFrame, view: TopUpHistoryView): string {
  const t = view.topUp;
  const csrf = csrfField(frame.csrfToken);
  const rows = view.events.map(
    (e) => h`<tr><td>${e.at}</td><td>${e.source}</td><td>${e.payment}</td><td>${e.message}</td><td>${e.actor}</td></tr>`,
  );
  const recheck = view.canRecheck
    ? h`<form method="post" action="/console/top-ups/${t.id}/recheck" class="inline">!${csrf}<button type="submit">Re-check with Paystack</button></form>`
    : '';
  return layout(
    frame,
    h`<section><h2>Top-up ${t.id}</h2>
<dl><dt>profile</dt><dd>${t.profileId} (${t.mode})</dd><dt>amount</dt><dd>${t.amount}</dd><dt>reference</dt><dd>${t.reference}</dd>
<dt>status</dt><dd>${t.decision || 'pending'}</dd><dt>decided</dt><dd>${t.decided}</dd><dt>gateway</dt><dd>!${momoCell(t) || 'none: a request staff decide'}</dd></dl>
!${recheck}</section>
<section><h2>Gateway history</h2>!${table(['when', 'source', 'payment', 'what', 'staff'], rows, 'No answer from the gateway yet.')}</section>`,
  );
}
