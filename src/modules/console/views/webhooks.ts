import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { DeliveryDetailView, DeliveryLine, FailingWebhooksView, PartnerWebhooksView } from '../models/webhooks.js';
import { csrfField, layout, table } from './layout.js';

/** Links to the same page in live and test mode, the current one marked. */
const modeSwitch = (base: string, mode: string) =>
  h`<p class="modes">Mode: !${['live', 'test']
    .map((m) => h`<a href="${base}${base.includes('?') ? '&' : '?'}mode=${m}"!${m === mode ? ' aria-current="page"' : ''}>${m}</a>`)
    .join(' · ')}</p>`;

const redeliverForm = (csrf: string, d: DeliveryLine) =>
  h`<form method="post" action="/console/webhooks/deliveries/${d.id}/redeliver" class="inline" hx-confirm="Send ${d.eventType} ${d.eventId} to this endpoint again?">!${csrf}<button type="submit">Redeliver</button></form>`;

/** A partner's endpoints of one mode, each with its latest deliveries. */
export function partnerWebhooksPage(frame: PageFrame, view: PartnerWebhooksView): string {
  const csrf = csrfField(frame.csrfToken);
  const sections = view.endpoints.map((e) => {
    const rows = e.deliveries.map(
      (d) =>
        h`<tr id="delivery-${d.id}"><td><a href="${d.href}">${d.id}</a></td><td>${d.eventType}</td><td>${d.eventId}</td><td>${d.attempts}</td><td>${d.outcome}</td><td>${d.lastAttempt}</td><td>${d.nextAttempt}</td><td class="state">${d.state}</td><td>!${view.canRedeliver && e.enabled ? redeliverForm(csrf, d) : ''}</td></tr>`,
    );
    const manage = !view.canManage
      ? ''
      : e.enabled
        ? h`<form method="post" action="/console/webhooks/endpoints/${e.id}/disable" class="inline" hx-confirm="Disable ${e.url}? Its pending deliveries stop.">!${csrf}<input name="reason" required maxlength="500" placeholder="reason (the partner sees it)" aria-label="why disable ${e.id}"><button type="submit">Disable</button></form>`
        : e.deletedByPartner
          ? h`<p class="muted">Deleted by the partner: they create a new endpoint.</p>`
          : h`<form method="post" action="/console/webhooks/endpoints/${e.id}/enable" class="inline" hx-confirm="Enable ${e.url} again?">!${csrf}<button type="submit">Enable</button></form>`;
    return h`<section id="endpoint-${e.id}"><h2>${e.url}</h2>
<dl class="facts"><dt>Endpoint</dt><dd>${e.id}</dd><dt>Events</dt><dd>${e.events}</dd><dt>Description</dt><dd>${e.description || '—'}</dd><dt>Status</dt><dd class="status">${e.status}</dd><dt>Created</dt><dd>${e.created}</dd>!${e.failingSince ? h`<dt>Failing since</dt><dd>${e.failingSince}</dd>` : ''}<dt>Last 7 days</dt><dd class="recent">${e.recent}</dd><dt>Last delivery</dt><dd class="last">${e.lastResult}</dd></dl>
!${manage}
!${table(['delivery', 'event type', 'event', 'attempts', 'last answer', 'last attempt', 'next attempt', 'state', ''], rows, 'Nothing delivered yet.')}</section>`;
  });
  const base = `/console/partners/${encodeURIComponent(view.profileId)}/webhooks`;
  return layout(
    frame,
    h`<p><a href="/console/partners/${view.profileId}">Back to ${view.name}</a> · <a href="/console/webhooks?mode=${view.mode}">Failing webhooks (all partners)</a></p>
!${modeSwitch(base, view.mode)}
!${sections.length === 0 ? h`<p class="empty">No webhook endpoint in ${view.mode} mode.</p>` : sections.join('\n')}`,
  );
}

/** Failing deliveries of every partner in one mode, newest first, paged. */
export function failingWebhooksPage(frame: PageFrame, view: FailingWebhooksView): string {
  const csrf = csrfField(frame.csrfToken);
  const rows = view.lines.map(
    (d) =>
      h`<tr id="failing-${d.id}"><td><a href="${d.href}">${d.id}</a></td><td><a href="${d.partnerHref}">${d.partnerName}</a></td><td>${d.eventType}</td><td>${d.eventId}</td><td>${d.url}!${d.endpointEnabled ? '' : ' (disabled)'}</td><td>${d.attempts}</td><td>${d.outcome}</td><td>${d.lastAttempt}</td><td>${d.nextAttempt}</td><td class="state">${d.state}</td><td>!${view.canRedeliver && d.endpointEnabled ? redeliverForm(csrf, d) : ''}</td></tr>`,
  );
  const older = view.older ? h`<p><a href="${view.older}">Older</a></p>` : '';
  return layout(
    frame,
    h`!${modeSwitch('/console/webhooks', view.mode)}
<p class="muted">Deliveries that failed for good or whose last attempt failed and that are still retried, newest first.</p>
!${table(['delivery', 'partner', 'event type', 'event', 'endpoint', 'attempts', 'last answer', 'last attempt', 'next attempt', 'state', ''], rows, `No failing webhook delivery in ${view.mode} mode.`)}!${older}`,
  );
}

/** One delivery and each attempt of it; the endpoint's secret is never read, so never shown. */
export function deliveryPage(frame: PageFrame, view: DeliveryDetailView): string {
  const d = view.line;
  const rows = view.attempts.map((a) => h`<tr><td>${a.at}</td><td>${a.status}</td><td>${a.error}</td><td>${a.duration}</td></tr>`);
  const action = view.blocked
    ? h`<p class="muted" id="redeliver-blocked">${view.blocked}</p>`
    : view.canRedeliver
      ? redeliverForm(csrfField(frame.csrfToken), d)
      : '';
  return layout(
    frame,
    h`<dl class="facts"><dt>Partner</dt><dd><a href="${view.partnerHref}">${view.partnerName}</a></dd><dt>Mode</dt><dd>${view.mode}</dd><dt>Endpoint</dt><dd>${view.url} (${view.endpointId})</dd><dt>Endpoint status</dt><dd>${view.endpointStatus}</dd><dt>Event</dt><dd>${d.eventType} ${d.eventId}, created ${view.eventCreated}</dd><dt>State</dt><dd class="state">${d.state}</dd><dt>Attempts</dt><dd>${d.attempts}</dd><dt>Next attempt</dt><dd>${d.nextAttempt}</dd></dl>
!${action}
<section><h2>Attempts</h2>!${table(['when', 'HTTP status', 'error', 'duration'], rows, 'Not attempted yet.')}</section>`,
  );
}
