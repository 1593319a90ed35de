import { html as h } from 'ghtml';
import type { DashboardView, VerifyLine } from '../models/dashboard.js';
import type { PageFrame } from '../models/frame.js';
import { csrfField, layout, table } from './layout.js';
import { modeSwitchBar, partnerLink } from './listing.js';

export function verifyResult(v: VerifyLine): string {
  if (v.ok === null) return h`<p id="verify-result">${v.text}</p>`;
  return h`<p id="verify-result" class="${v.ok ? 'ok' : 'bad'}">${v.text}</p>`;
}

/** `packageFlags`: the data packages' flags (views/packages.ts, packageFlagsSection), shown with the findings. */
export function dashboardPage(frame: PageFrame, d: DashboardView, packageFlags = ''): string {
  const stuckRows = d.stuck.map(
    (s) =>
      h`<tr><td><a href="/console/orders/${s.orderId}">${s.shortReference}</a></td><td>!${partnerLink(s.partner)}</td><td>${s.msisdn}</td><td>${s.status}</td><td>${s.since}</td><td>${s.nextStep}</td></tr>`,
  );
  const attentionRows = d.attention.map(
    (a) =>
      h`<tr class="bad"><td><a href="/console/orders/${a.orderId}">${a.shortReference}</a></td><td>!${partnerLink(a.partner)}</td><td>${a.msisdn}</td><td>${a.provider}</td><td>${a.reference}</td><td>${a.unknownFor}</td><td>${a.lastAnswer}</td></tr>`,
  );
  const attention =
    d.attention.length === 0
      ? ''
      : h`<section id="needs-attention"><h2>Needs attention: ${d.attention.length}</h2><p>The upstream may have delivered these and has not said so. Check with it, then resolve each order as delivered or failed.</p>!${table(['order', 'partner', 'number', 'upstream', 'attempt', 'unknown for', 'last answer'], attentionRows, 'None.')}</section>`;
  const floatRows = d.floats.map(
    (f) =>
      h`<tr class="${f.low ? 'bad' : ''}" id="float-${f.provider}"><td>${f.provider}</td><td>${f.balance}</td><td>${f.readAt}</td><td>${f.refusedAt}</td><td>${f.low ? `LOW: ${f.lowBecause}` : 'ok'}</td><td>${f.readError}</td></tr>`,
  );
  const lowFloat =
    d.lowFloats === 0
      ? ''
      : h`<section id="low-float"><h2>Low float: ${d.lowFloats}</h2><p>Top up these upstreams' prepaid float: while it is short, their orders go to the next route or fail.</p>!${table(['upstream', 'balance', 'read at', 'refused for float', '', ''], floatRows.filter((_, i) => d.floats[i]?.low), 'None.')}</section>`;
  const findings =
    d.unresolvedTotal === 0
      ? ''
      : h`<section id="unresolved-findings"><h2>Unresolved reconciliation findings: ${d.unresolvedTotal}</h2><p>!${d.unresolved.map((u) => h`${u.provider}: ${u.count}`).join(', ')}. <a href="/console/reconciliation">Review them</a>.</p></section>`;
  const stockRows = d.stock.map(
    (l) =>
      h`<tr class="${l.low ? 'low' : ''}"><td>${l.packageId}</td><td>${l.name}</td><td>${l.stock}</td><td>${l.low ? 'LOW' : 'ok'}</td></tr>`,
  );
  const verifyForm = d.canVerify
    ? h`<form method="post" action="/console/ledger/verify" hx-post="/console/ledger/verify" hx-target="#verify" hx-select="#verify" hx-swap="outerHTML">!${csrfField(frame.csrfToken)}<button type="submit">Run ledger verify</button></form>`
    : '';
  return layout(
    frame,
    h`!${modeSwitchBar(d.modes)}!${attention}!${lowFloat}!${findings}!${packageFlags}<section class="cards" id="figures-${d.modes.current}">
  <div class="card"><h2>Orders per minute</h2><p class="figure">${d.ordersPerMinute}</p><p>${d.ordersLastHour} in the last hour</p></div>
  <div class="card"><h2>Failure rate</h2><p class="figure">${d.failureRate}</p><p>${d.failedLastHour} failed in the last hour</p></div>
  <div class="card"><h2>Stuck deliveries</h2><p class="figure">${d.stuckCount}</p><p>open longer than ${d.stuckAfter}</p></div>
  <div class="card"><h2>Pending top-ups</h2><p class="figure">${d.pendingTopUps}</p><p><a href="/console/top-ups?mode=${d.modes.current}&amp;status=pending">review</a></p></div>
</section>
<section>
  <h2>Ledger verify</h2>
  <div id="verify">!${verifyResult(d.verify)}!${verifyForm}</div>
</section>
<section id="floats"><h2>Upstream float</h2>!${table(['upstream', 'balance', 'read at', 'refused for float', '', 'reading'], floatRows, 'No upstream is enabled.')}</section>
<section><h2>Stuck deliveries</h2>!${table(['order', 'partner', 'number', 'status', 'since', 'next step'], stuckRows, 'None.')}</section>
<section><h2>Result-checker stock</h2>!${table(['package', 'name', 'in stock', ''], stockRows, 'No packages.')}</section>`,
  );
}
