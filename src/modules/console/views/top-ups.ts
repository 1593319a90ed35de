import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { TopUpHistoryView, TopUpLine, TopUpsView } from '../models/top-ups.js';
import { csrfField, layout, table } from './layout.js';
import { modeSwitchBar, pagingBar, partnerLink } from './listing.js';

/** A Mobile Money top-up's gateway side, in one cell. */
const momoCell = (t: TopUpLine) =>
  t.momo
    ? h`<a href="/console/top-ups/${t.id}">Mobile Money</a>: ${t.momo.payment}, ${t.momo.network} ${t.momo.phone}${t.momo.fee ? `, fee ${t.momo.fee}` : ''}${t.momo.problem ? ` — not credited: ${t.momo.problem}` : ''}`
    : '';

export function topUpsPage(frame: PageFrame, view: TopUpsView): string {
  const csrf = csrfField(frame.csrfToken);
  const { form } = view;
  const choices = (values: string[], chosen: string, any: string) =>
    values.map((s) => h`<option value="${s}"!${chosen === s ? ' selected' : ''}>${s || any}</option>`).join('');
  const recheck = (t: TopUpLine) =>
    view.canDecide
      ? h`<form method="post" action="/console/top-ups/${t.id}/recheck" class="inline">!${csrf}<button type="submit">Re-check with Paystack</button></form>`
      : '';
  const approve = (t: TopUpLine) =>
    t.canApprove
      ? h`<form method="post" action="/console/top-ups/${t.id}/approve" class="inline" hx-confirm="Approve ${t.amount} for ${t.partner.name}?">!${csrf}<button type="submit">Approve</button></form>`
      : h`<span class="muted">another admin gives the second approval</span>`;
  const decide = (t: TopUpLine) =>
    t.momo
      ? h`!${momoCell(t)} !${recheck(t)}`
      : view.canDecide
        ? h`!${approve(t)}
<form method="post" action="/console/top-ups/${t.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="500" placeholder="reason" aria-label="rejection reason"><button type="submit">Reject</button></form>`
        : 'pending';
  // The checkboxes belong to the bulk form by its id: the rows' own forms cannot sit inside it.
  const pick = (t: TopUpLine) =>
    t.canApprove ? h`<input type="checkbox" name="ids" value="${t.id}" form="bulk-approve" aria-label="select ${t.id}">` : '';
  const pendingStatus = (t: TopUpLine) => (t.approvals ? h`pending<br><span class="approvals">${t.approvals}</span>` : 'pending');
  const rows = view.lines.map((t) =>
    t.pending
      ? h`<tr id="topup-${t.id}"><td>!${pick(t)}</td><td>${t.id}</td><td>${t.requestedAt}</td><td>!${partnerLink(t.partner)}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.note}</td><td>!${pendingStatus(t)}</td><td>!${decide(t)}</td></tr>`
      : h`<tr id="decided-${t.id}"><td></td><td>${t.id}</td><td>${t.requestedAt}</td><td>!${partnerLink(t.partner)}</td><td>${t.amount}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.note}</td><td>${t.decision}<br><span class="muted">${t.decided}${t.approvals ? `; ${t.approvals}` : ''}</span></td><td>!${t.momo ? h`!${momoCell(t)} !${recheck(t)}` : ''}</td></tr>`,
  );
  const bulkForm =
    view.selectable > 0
      ? h`<form method="post" action="/console/top-ups/approve" id="bulk-approve" hx-confirm="Approve every selected top-up?">!${csrf}<button type="submit">Approve selected</button></form>`
      : '';
  const bulk =
    view.bulk.length === 0
      ? ''
      : h`<section id="bulk-result" role="status"><h2>Bulk approval</h2><ul>!${view.bulk
          .map((b) => h`<li id="bulk-${b.id}" class="${b.approved ? 'ok' : 'bad'}">${b.id}: ${b.text}</li>`)
          .join('')}</ul></section>`;
  return layout(
    frame,
    h`!${bulk}!${modeSwitchBar(view.modes)}
<form method="get" action="/console/top-ups" class="search">
  <input type="hidden" name="mode" value="${view.modes.current}">
  <label>Top-up id, reference or partner <input name="q" value="${form.q}"></label>
  <label>Status <select name="status">!${choices(view.statuses, form.status, 'any status')}</select></label>
  <label>Method <select name="method">!${choices(view.methods, form.method, 'any method')}</select></label>
  <button type="submit">Search</button>
</form>
!${bulkForm}
<p class="export"><a href="${view.exportHref}" hx-boost="false" download>Export CSV</a> <span class="muted">every top-up these filters match, not only this page</span></p>
!${table(['', 'id', 'requested', 'partner', 'amount', 'method', 'reference', 'note', 'status', ''], rows, 'No top-up matches.')}
!${pagingBar(view.paging)}`,
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
<dl><dt>partner</dt><dd>!${partnerLink(t.partner)} (${t.mode})</dd><dt>amount</dt><dd>${t.amount}</dd><dt>reference</dt><dd>${t.reference}</dd>
<dt>status</dt><dd>${t.decision || 'pending'}</dd><dt>approvals</dt><dd>${t.approvals || (t.momo ? 'none: the gateway decides' : 'one')}</dd><dt>decided</dt><dd>${t.decided}</dd><dt>gateway</dt><dd>!${momoCell(t) || 'none: a request staff decide'}</dd></dl>
!${recheck}</section>
<section><h2>Gateway history</h2>!${table(['when', 'source', 'payment', 'what', 'staff'], rows, 'No answer from the gateway yet.')}</section>`,
  );
}
