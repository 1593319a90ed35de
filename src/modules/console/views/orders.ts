import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { OrdersView, OrderView } from '../models/orders.js';
import { csrfField, layout, table } from './layout.js';
import { modeSwitchBar, pagingBar, partnerLink } from './listing.js';

export function ordersPage(frame: PageFrame, view: OrdersView): string {
  const { form } = view;
  const choices = (values: string[], chosen: string, any: string) =>
    values.map((s) => h`<option value="${s}"!${chosen === s ? ' selected' : ''}>${s || any}</option>`).join('');
  const rows = view.results.map(
    (o) =>
      h`<tr id="order-${o.id}"><td><a href="/console/orders/${o.id}">${o.shortReference}</a></td><td>${o.id}</td><td>${o.createdAt}</td><td>!${partnerLink(o.partner)}</td><td>${o.paymentReference}</td><td>${o.type}</td><td>${o.msisdn}</td><td>${o.amount}</td><td>${o.state}</td></tr>`,
  );
  // Inside the results: a search swaps it with them, so it always carries the filters shown.
  const exportLink = h`<p class="export"><a href="${view.exportHref}" hx-boost="false" download>Export CSV</a> <span class="muted">every order these filters match, not only this page</span></p>`;
  const found = h`!${exportLink}!${table(
    ['reference', 'order', 'created', 'partner', 'payment reference', 'type', 'number', 'amount', 'state'],
    rows,
    'No order matches.',
  )}!${pagingBar(view.paging)}`;
  return layout(
    frame,
    h`!${modeSwitchBar(view.modes)}
<form method="get" action="/console/orders" class="search" hx-get="/console/orders" hx-target="#results" hx-select="#results" hx-swap="outerHTML" hx-push-url="true" hx-trigger="submit, input changed delay:400ms from:find input[name=q]">
  <input type="hidden" name="mode" value="${view.modes.current}">
  <label>Reference, order id or number <input name="q" value="${form.q}" placeholder="or payment reference, partner name" autofocus></label>
  <label>Profile <input name="profileId" value="${form.profileId}"></label>
  <label>State <select name="state">!${choices(view.states, form.state, 'any state')}</select></label>
  <label>Type <select name="type">!${choices(view.types, form.type, 'any type')}</select></label>
  <label>From <input type="date" name="from" value="${form.from}"></label>
  <label>To <input type="date" name="to" value="${form.to}"></label>
  <button type="submit">Search</button>
</form>
<div id="results">!${found}</div>`,
  );
}

export function orderPage(frame: PageFrame, o: OrderView): string {
  const csrf = csrfField(frame.csrfToken);
  const recipientAction = (i: OrderView['recipients'][number]) => {
    if (i.reversal) return h`reversed ${i.reversal}`;
    if (!i.canReverse) return '';
    return h`<form method="post" action="/console/orders/${o.id}/recipients/reverse" class="reverse-recipient" hx-confirm="Reverse ${i.msisdn} and refund the partner for it?">!${csrf}<input type="hidden" name="recipient" value="${i.msisdn}"><label>Reason <input name="reason" required maxlength="500"></label><button type="submit">Reverse</button></form>`;
  };
  const items = o.recipients.map(
    (i) =>
      h`<tr data-recipient="${i.msisdn}"><td>${i.idx}</td><td>${i.msisdn}</td><td>${i.package}</td><td>${i.amount}</td><td>${i.status}</td><td>${i.attempt}</td><td>${i.providerRef}</td><td>${i.submittedAt}</td><td>${i.completedAt}</td><td>${i.error}</td><td>${i.outbox}</td><td>!${recipientAction(i)}</td></tr>`,
  );
  const ledger = o.ledger.map(
    (e) =>
      h`<tr><td>${e.id}</td><td>${e.at}</td><td>${e.kind}</td><td>${e.available}</td><td>${e.held}</td><td>${e.availableAfter}</td><td>${e.memo}</td></tr>`,
  );
  const actions: string[] = [];
  if (o.canReverse) {
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/reverse" hx-confirm="Reverse ${o.shortReference} and refund the partner?">!${csrf}<label>Reason <input name="reason" required maxlength="500"></label><button type="submit">Reverse order</button></form>`,
    );
  }
  if (o.canRefund) {
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/refund" hx-confirm="Refund ${o.shortReference} and void its credential?">!${csrf}<label>Reason <input name="reason" required maxlength="500"></label><button type="submit">Refund</button></form>`,
    );
  }
  if (o.canRetry) {
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/retry">!${csrf}<button type="submit">Retry stuck deliveries now</button></form>`,
    );
  }
  if (o.resolvable.length > 0) {
    const options = o.resolvable.map((m) => h`<option value="${m}">${m}</option>`).join('');
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/resolve" hx-confirm="Settle this delivery by hand? Check with the upstream first.">!${csrf}<label>Recipient <select name="recipient">!${options}</select></label><label>Outcome <select name="outcome"><option value="completed">delivered</option><option value="failed">failed (refund)</option></select></label><label>Internal note (staff only: the audit trail and this page) <input name="note" required maxlength="500" placeholder="what the upstream said, a ticket number"></label><label>Message to the partner, if failed (their order's errorMessage) <input name="partnerMessage" maxlength="300" placeholder="${o.defaultPartnerMessage}"></label><button type="submit">Resolve delivery</button></form>`,
    );
  }
  const attempts = o.attempts.map(
    (a) =>
      h`<tr><td>${a.reference}</td><td>${a.msisdn}</td><td>${a.provider}</td><td>${a.status}</td><td>${a.transactionId}</td><td>${a.cost}</td><td>${a.createdAt}</td><td>${a.resolvedAt}</td><td>${a.message}</td></tr>`,
  );
  const error = o.error ? h`<dt>Error</dt><dd>${o.error}</dd>` : '';
  const reversal = o.reversal ? h`<dt>Reversed</dt><dd>${o.reversal}</dd>` : '';
  return layout(
    frame,
    h`<dl class="facts">
  <dt>Order</dt><dd>${o.id}</dd><dt>Reference</dt><dd>${o.shortReference}</dd><dt>State</dt><dd class="state">${o.state}</dd>
  <dt>Partner</dt><dd>!${partnerLink(o.partner)} (${o.partner.id}, ${o.mode})</dd>
  <dt>Type</dt><dd>${o.type}</dd><dt>Package</dt><dd>${o.package}</dd>
  <dt>Amount</dt><dd>${o.amount}</dd><dt>Created</dt><dd>${o.createdAt}</dd><dt>Completed</dt><dd>${o.completedAt}</dd>
  <dt>Payment reference</dt><dd>${o.paymentReference}</dd>!${error}!${reversal}
</dl>
!${actions.length ? h`<section class="actions"><h2>Actions</h2>!${actions.join('')}</section>` : ''}
!${
  o.credential
    ? h`<section><h2>Credential</h2>!${table(['credential', 'state', 'buyer', 'assigned', 'refunded', 'reason'], [h`<tr class="credential"><td>${o.credential.id}</td><td class="credential-state">${o.credential.state}</td><td>${o.credential.buyer}</td><td>${o.credential.assignedAt}</td><td>${o.credential.refundedAt}</td><td>${o.credential.reason}</td></tr>`], 'No credential.')}</section>`
    : h`<section><h2>Recipients and delivery attempts</h2>!${table(['#', 'number', 'package', 'amount', 'status', 'attempt', 'provider ref', 'submitted', 'completed', 'error', 'outbox', 'reversal'], items, 'No recipients.')}</section>`
}
<section><h2>Upstream attempts</h2>!${table(['reference', 'number', 'upstream', 'status', 'transaction', 'cost', 'made', 'resolved', 'message'], attempts, 'No attempt yet.')}</section>
<section><h2>Ledger entries</h2>!${table(['id', 'when', 'kind', 'available Δ', 'held Δ', 'available after', 'memo'], ledger, 'No ledger entry.')}</section>`,
  );
}
