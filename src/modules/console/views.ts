import { html as h } from 'ghtml';
import { ORDER_STATES, type OrderRow, type StaffRole, type TopUpRow } from '../../db/schema.js';
import { formatGhs } from '../../lib/money.js';
import type { StuckDelivery, StaffOrderDetail } from '../orders/service.js';
import type { StaffProfile } from '../profiles/service.js';
import type { RcStockLine } from '../result-checker/service.js';
import type { AuditEntry } from '../audit/service.js';
import { mayAct, type StaffAccount, type StaffSession } from './service.js';

/**
 * The console's pages: plain functions from data to HTML. Every interpolation is escaped by
 * ghtml's tag (imported as `h`: a tag named `html` would have Prettier reflow the markup);
 * `!${…}` (no escaping) is used only for fragments these functions built themselves. No inline
 * script or style (the CSP forbids them): behaviour comes from htmx attributes.
 */

const ghs = (pesewas: number | string) => formatGhs(Number(pesewas));
const at = (ms: number | string | null) =>
  ms === null ? '—' : new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 19);

export interface PageFrame {
  title: string;
  session: StaffSession;
  active: string;
  notice?: string | undefined;
}

const NAV: [string, string, StaffRole][] = [
  ['dashboard', '/console', 'viewer'],
  ['top-ups', '/console/top-ups', 'viewer'],
  ['orders', '/console/orders', 'viewer'],
  ['inventory', '/console/inventory', 'viewer'],
  ['partners', '/console/partners', 'viewer'],
  ['staff', '/console/staff', 'admin'],
  ['audit', '/console/audit', 'viewer'],
];

/** htmx: no inline indicator styles (CSP), no eval, and refusals (4xx) swapped in like pages. */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  responseHandling: [
    { code: '204', swap: false },
    { code: '...', swap: true },
  ],
});

function head(title: string): string {
  return h`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<title>${title} · partner-api console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/htmx.min.js" defer></script>
</head>`;
}

export const csrfField = (token: string) => h`<input type="hidden" name="_csrf" value="${token}">`;

export function layout(frame: PageFrame, body: string): string {
  const { session } = frame;
  const links = NAV.filter(([, , role]) => mayAct(session.role, role))
    .map(([name, href]) => h`<a href="${href}"!${name === frame.active ? ' aria-current="page"' : ''}>${name}</a>`)
    .join('');
  return h`!${head(frame.title)}
<body hx-boost="true">
<header>
  <strong>partner-api console</strong>
  <nav>!${links}</nav>
  <form method="post" action="/console/logout" class="inline">
    !${csrfField(session.csrfToken)}
    <span class="who">${session.email} (${session.role})</span>
    <button type="submit">Sign out</button>
  </form>
</header>
<main>
  <h1>${frame.title}</h1>
  !${frame.notice ? h`<p class="notice" role="status">${frame.notice}</p>` : ''}
  !${body}
</main>
</body>
</html>`;
}

export function loginPage(csrf: string, error?: string): string {
  return h`!${head('Sign in')}
<body>
<main class="login">
  <h1>partner-api console</h1>
  !${error ? h`<p class="error" role="alert">${error}</p>` : ''}
  <form method="post" action="/console/login">
    !${csrfField(csrf)}
    <label>E-mail <input type="email" name="email" required autocomplete="username"></label>
    <label>Password <input type="password" name="password" required autocomplete="current-password"></label>
    <button type="submit">Sign in</button>
  </form>
</main>
</body>
</html>`;
}

export function errorPage(frame: PageFrame | null, status: number, message: string, back?: string): string {
  const body = h`<p class="error" role="alert">${message}</p>
  <p><a href="${back ?? '/console'}">Back</a></p>`;
  if (frame) return layout({ ...frame, title: frame.title || `Refused (${status})` }, body);
  return h`!${head('Error')}<body><main>!${body}</main></body></html>`;
}

function table(headers: string[], rows: string[], empty: string): string {
  if (rows.length === 0) return h`<p class="empty">${empty}</p>`;
  return h`<table><thead><tr>!${headers.map((x) => h`<th>${x}</th>`).join('')}</tr></thead><tbody>!${rows.join('')}</tbody></table>`;
}

// ---- dashboard ----

export interface DashboardData {
  activity: { orders: number; failed: number; perMinute: number; failureRate: number };
  stuck: StuckDelivery[];
  stuckAfterMs: number;
  pending: TopUpRow[];
  stock: RcStockLine[];
  lastVerify: AuditEntry | null;
}

export function verifyResult(last: AuditEntry | null): string {
  if (!last) return h`<p id="verify-result">Never run from the console.</p>`;
  const d = last.detail ?? {};
  const ok = last.outcome === 'ok' && d.ok === true;
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '?');
  const mismatches = Array.isArray(d.mismatches) ? d.mismatches.map(text).join('; ') : text(d.reason);
  const what = ok
    ? `OK: ${text(d.wallets)} wallets, ${text(d.entries)} entries`
    : `${text(d.mismatchCount)} mismatches: ${mismatches}`;
  return h`<p id="verify-result" class="${ok ? 'ok' : 'bad'}">${what} — ${at(last.at)} by ${last.actor}</p>`;
}

export function dashboardPage(frame: PageFrame, d: DashboardData): string {
  const stuckRows = d.stuck
    .slice(0, 50)
    .map(
      (s) =>
        h`<tr><td><a href="/console/orders/${s.orderId}">${s.shortReference}</a></td><td>${s.mode}</td><td>${s.msisdn}</td><td>${s.status}</td><td>${at(s.since)}</td><td>${s.outbox ? `${s.outbox.kind}, tries ${s.outbox.tries}` : 'no outbox row'}</td></tr>`,
    );
  const stockRows = d.stock.map(
    (l) =>
      h`<tr class="${l.low ? 'low' : ''}"><td>${l.packageId}</td><td>${l.name}</td><td>${l.stock}</td><td>${l.low ? 'LOW' : 'ok'}</td></tr>`,
  );
  const canVerify = mayAct(frame.session.role, 'operator');
  const verifyForm = canVerify
    ? h`<form method="post" action="/console/ledger/verify" hx-post="/console/ledger/verify" hx-target="#verify" hx-select="#verify" hx-swap="outerHTML">!${csrfField(frame.session.csrfToken)}<button type="submit">Run ledger verify</button></form>`
    : '';
  return layout(
    frame,
    h`<section class="cards">
  <div class="card"><h2>Orders per minute</h2><p class="figure">${d.activity.perMinute.toFixed(2)}</p><p>${d.activity.orders} orders in the last hour</p></div>
  <div class="card"><h2>Failure rate</h2><p class="figure">${(d.activity.failureRate * 100).toFixed(1)}%</p><p>${d.activity.failed} failed in the last hour</p></div>
  <div class="card"><h2>Stuck deliveries</h2><p class="figure">${d.stuck.length}</p><p>open longer than ${Math.round(d.stuckAfterMs / 1000)} s</p></div>
  <div class="card"><h2>Pending top-ups</h2><p class="figure">${d.pending.length}</p><p><a href="/console/top-ups">review</a></p></div>
</section>
<section>
  <h2>Ledger verify</h2>
  <div id="verify">!${verifyResult(d.lastVerify)}!${verifyForm}</div>
</section>
<section><h2>Stuck deliveries</h2>!${table(['order', 'mode', 'number', 'status', 'since', 'next step'], stuckRows, 'None.')}</section>
<section><h2>Result-checker stock</h2>!${table(['package', 'name', 'in stock', ''], stockRows, 'No packages.')}</section>`,
  );
}

// ---- top-ups ----

export function topUpsPage(frame: PageFrame, data: { pending: TopUpRow[]; decided: TopUpRow[] }): string {
  const canDecide = mayAct(frame.session.role, 'operator');
  const csrf = csrfField(frame.session.csrfToken);
  const decide = (t: TopUpRow) =>
    canDecide
      ? h`<form method="post" action="/console/top-ups/${t.id}/approve" class="inline" hx-confirm="Approve ${ghs(t.amount)} for ${t.profile_id}?">!${csrf}<button type="submit">Approve</button></form>
<form method="post" action="/console/top-ups/${t.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="500" placeholder="reason" aria-label="rejection reason"><button type="submit">Reject</button></form>`
      : 'pending';
  const pending = data.pending.map(
    (t) =>
      h`<tr id="topup-${t.id}"><td>${t.id}</td><td>${at(t.created_at)}</td><td>${t.profile_id}</td><td>${t.mode}</td><td>${ghs(t.amount)}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.note ?? ''}</td><td>!${decide(t)}</td></tr>`,
  );
  const decided = data.decided.map(
    (t) =>
      h`<tr><td>${t.id}</td><td>${at(t.created_at)}</td><td>${t.profile_id}</td><td>${t.mode}</td><td>${ghs(t.amount)}</td><td>${t.method}</td><td>${t.reference}</td><td>${t.status}${t.rejection_reason ? `: ${t.rejection_reason}` : ''}</td><td>${at(t.decided_at)} by ${t.decided_by ?? '?'}</td></tr>`,
  );
  return layout(
    frame,
    h`<section><h2>Pending (${data.pending.length})</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'note', ''], pending, 'No top-up is waiting.')}</section>
<section><h2>Decided</h2>!${table(['id', 'requested', 'profile', 'mode', 'amount', 'method', 'reference', 'decision', 'when'], decided, 'None yet.')}</section>`,
  );
}

// ---- orders ----

export interface OrderSearchForm {
  q?: string | undefined;
  profileId?: string | undefined;
  state?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

export function ordersPage(frame: PageFrame, form: OrderSearchForm, results: OrderRow[] | null): string {
  const states = ['', ...ORDER_STATES]
    .map((s) => h`<option value="${s}"!${form.state === s ? ' selected' : ''}>${s || 'any state'}</option>`)
    .join('');
  const rows = (results ?? []).map(
    (o) =>
      h`<tr><td><a href="/console/orders/${o.id}">${o.short_reference}</a></td><td>${o.id}</td><td>${at(o.created_at)}</td><td>${o.profile_id}</td><td>${o.mode}</td><td>${o.order_type}</td><td>${o.beneficiary_msisdn}</td><td>${ghs(o.amount)}</td><td>${o.state}</td></tr>`,
  );
  const found =
    results === null
      ? h`<p class="empty">Search by any criterion.</p>`
      : table(
          ['reference', 'order', 'created', 'profile', 'mode', 'type', 'number', 'amount', 'state'],
          rows,
          'No order matches.',
        );
  return layout(
    frame,
    h`<form method="get" action="/console/orders" class="search" hx-get="/console/orders" hx-target="#results" hx-select="#results" hx-swap="outerHTML" hx-push-url="true" hx-trigger="submit, input changed delay:400ms from:find input[name=q]">
  <label>Reference, order id or number <input name="q" value="${form.q ?? ''}" autofocus></label>
  <label>Profile <input name="profileId" value="${form.profileId ?? ''}"></label>
  <label>State <select name="state">!${states}</select></label>
  <label>From <input type="date" name="from" value="${form.from ?? ''}"></label>
  <label>To <input type="date" name="to" value="${form.to ?? ''}"></label>
  <button type="submit">Search</button>
</form>
<div id="results">!${found}</div>`,
  );
}

export function orderPage(frame: PageFrame, d: StaffOrderDetail, stuckAfterMs: number, now: number): string {
  const o = d.order;
  const csrf = csrfField(frame.session.csrfToken);
  const outbox = (i: StaffOrderDetail['items'][number]) =>
    i.outbox_kind
      ? `${i.outbox_kind} at ${at(i.outbox_run_at)}, tries ${String(i.outbox_tries)}${i.outbox_last_error ? `, last error: ${i.outbox_last_error}` : ''}`
      : '—';
  const items = d.items.map(
    (i) =>
      h`<tr><td>${i.idx}</td><td>${i.beneficiary_msisdn}</td><td>${i.package_label}</td><td>${ghs(i.amount)}</td><td>${i.status}</td><td>${i.attempt}</td><td>${i.provider_ref ?? '—'}</td><td>${at(i.submitted_at)}</td><td>${at(i.completed_at)}</td><td>${i.error_message ?? ''}</td><td>${outbox(i)}</td></tr>`,
  );
  const ledger = d.ledger.map(
    (e) =>
      h`<tr><td>${String(e.id)}</td><td>${at(e.created_at)}</td><td>${e.kind}</td><td>${ghs(e.available_delta)}</td><td>${ghs(e.held_delta)}</td><td>${ghs(e.available_after)}</td><td>${e.memo ?? ''}</td></tr>`,
  );
  const stuck = d.items.some(
    (i) => (i.status === 'pending' || i.status === 'processing') && now - Number(i.updated_at) > stuckAfterMs,
  );
  const actions: string[] = [];
  if (o.state === 'completed' && o.order_type === 'data' && mayAct(frame.session.role, 'admin')) {
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/reverse" hx-confirm="Reverse ${o.short_reference} and refund the partner?">!${csrf}<label>Reason <input name="reason" required maxlength="500"></label><button type="submit">Reverse order</button></form>`,
    );
  }
  if (stuck && mayAct(frame.session.role, 'operator')) {
    actions.push(
      h`<form method="post" action="/console/orders/${o.id}/retry">!${csrf}<button type="submit">Retry stuck deliveries now</button></form>`,
    );
  }
  const error = o.error_message ? h`<dt>Error</dt><dd>${o.error_message}</dd>` : '';
  const reversal = o.reversal_reason ? h`<dt>Reversed</dt><dd>${at(o.reversed_at)}: ${o.reversal_reason}</dd>` : '';
  return layout(
    frame,
    h`<dl class="facts">
  <dt>Order</dt><dd>${o.id}</dd><dt>Reference</dt><dd>${o.short_reference}</dd><dt>State</dt><dd class="state">${o.state}</dd>
  <dt>Profile</dt><dd><a href="/console/partners/${o.profile_id}">${o.profile_id}</a> (${o.mode})</dd>
  <dt>Type</dt><dd>${o.order_type}${o.is_bulk ? ' (bulk)' : ''}</dd><dt>Package</dt><dd>${o.operator_name} · ${o.package_label}</dd>
  <dt>Amount</dt><dd>${ghs(o.amount)}</dd><dt>Created</dt><dd>${at(o.created_at)}</dd><dt>Completed</dt><dd>${at(o.completed_at)}</dd>
  <dt>Payment reference</dt><dd>${o.payment_reference ?? '—'}</dd>!${error}!${reversal}
</dl>
!${actions.length ? h`<section class="actions"><h2>Actions</h2>!${actions.join('')}</section>` : ''}
<section><h2>Recipients and delivery attempts</h2>!${table(['#', 'number', 'package', 'amount', 'status', 'attempt', 'provider ref', 'submitted', 'completed', 'error', 'outbox'], items, 'No recipients.')}</section>
<section><h2>Ledger entries</h2>!${table(['id', 'when', 'kind', 'available Δ', 'held Δ', 'available after', 'memo'], ledger, 'No ledger entry.')}</section>`,
  );
}

// ---- inventory ----

export function inventoryPage(frame: PageFrame, stock: RcStockLine[]): string {
  const canLoad = mayAct(frame.session.role, 'operator');
  const rows = stock.map(
    (l) =>
      h`<tr class="${l.low ? 'low' : ''}"><td>${l.packageId}</td><td>${l.code}</td><td>${l.name}</td><td>${l.status}</td><td class="stock" data-package="${l.packageId}">${l.stock}</td><td>${l.low ? 'LOW' : 'ok'}</td></tr>`,
  );
  const options = stock.map((l) => h`<option value="${l.packageId}">${l.packageId} · ${l.name}</option>`).join('');
  const load = canLoad
    ? h`<section><h2>Load PINs</h2>
<p>A CSV with the header <code>username,password</code> and one credential a line. Duplicates are skipped and counted; a bad line rejects the whole file, naming the line. The credentials are encrypted at rest and never shown.</p>
<form method="post" action="/console/inventory/upload" enctype="multipart/form-data">
  !${csrfField(frame.session.csrfToken)}
  <label>Package <select name="packageId" required>!${options}</select></label>
  <label>CSV file <input type="file" name="file" accept=".csv,text/csv" required></label>
  <button type="submit">Upload</button>
</form></section>`
    : '';
  return layout(
    frame,
    h`<section>!${table(['package', 'code', 'name', 'status', 'in stock', ''], rows, 'No result-checker package.')}</section>!${load}`,
  );
}

// ---- partners ----

export function partnersPage(frame: PageFrame, partners: StaffProfile[]): string {
  const rows = partners.map((p) => {
    const wallets = p.wallets.map((w) => `${w.mode} ${ghs(w.available)} (held ${ghs(w.held)})`).join(' · ');
    return h`<tr><td><a href="/console/partners/${p.id}">${p.id}</a></td><td>${p.name}</td><td>${p.email}</td><td>${p.role}</td><td>${p.status}</td><td>${wallets || '—'}</td></tr>`;
  });
  return layout(frame, table(['profile', 'name', 'e-mail', 'role', 'status', 'wallets'], rows, 'No profile.'));
}

export interface PartnerKey {
  id: string;
  mode: string;
  prefix: string;
  revoked: number;
  last_used_at: number | null;
  created_at: number;
}

export function partnerPage(frame: PageFrame, p: StaffProfile, keys: PartnerKey[], newKey?: { id: string; key: string }): string {
  const admin = mayAct(frame.session.role, 'admin');
  const csrf = csrfField(frame.session.csrfToken);
  const revoke = (k: PartnerKey) =>
    admin && !k.revoked
      ? h`<form method="post" action="/console/keys/${k.id}/revoke" class="inline" hx-confirm="Revoke ${k.prefix}…? Calls with it are refused at once.">!${csrf}<input type="hidden" name="profileId" value="${p.id}"><button type="submit">Revoke</button></form>`
      : '';
  const keyRows = keys.map(
    (k) =>
      h`<tr><td>${k.id}</td><td>${k.mode}</td><td>${k.prefix}…</td><td>${k.revoked ? 'revoked' : 'active'}</td><td>${at(k.last_used_at)}</td><td>${at(k.created_at)}</td><td>!${revoke(k)}</td></tr>`,
  );
  const wallets = p.wallets.map((w) => h`<tr><td>${w.mode}</td><td>${ghs(w.available)}</td><td>${ghs(w.held)}</td></tr>`);
  const suspended = p.status !== 'Active';
  const shown = newKey
    ? h`<section class="secret" role="alert"><h2>New API key</h2><p>Shown once: copy it now and hand it to the partner. Only its hash is kept.</p><p><code id="new-key">${newKey.key}</code></p><p>key id ${newKey.id}</p></section>`
    : '';
  const createKey = admin
    ? h`<form method="post" action="/console/partners/${p.id}/keys">!${csrf}<label>Mode <select name="mode"><option value="live">live</option><option value="test">test</option></select></label><button type="submit">Create key</button></form>`
    : '';
  const access = admin
    ? h`<section><h2>Access</h2><form method="post" action="/console/partners/${p.id}/${suspended ? 'reactivate' : 'suspend'}" hx-confirm="${suspended ? 'Reactivate' : 'Suspend'} ${p.name}?">!${csrf}<button type="submit">${suspended ? 'Reactivate profile' : 'Suspend profile'}</button></form></section>`
    : '';
  return layout(
    frame,
    h`!${shown}
<dl class="facts"><dt>Profile</dt><dd>${p.id}</dd><dt>Name</dt><dd>${p.name}</dd><dt>E-mail</dt><dd>${p.email}</dd><dt>Phone</dt><dd>${p.phoneNumber}</dd><dt>Role</dt><dd>${p.role}</dd><dt>Status</dt><dd class="status">${p.status}</dd></dl>
<section><h2>Wallets</h2>!${table(['mode', 'available', 'held'], wallets, 'No wallet yet.')}</section>
<section><h2>API keys</h2>!${table(['key', 'mode', 'prefix', 'state', 'last used', 'created', ''], keyRows, 'No key.')}!${createKey}</section>
!${access}`,
  );
}

// ---- staff ----

export function staffPage(frame: PageFrame, accounts: StaffAccount[], created?: { email: string; password: string }): string {
  const csrf = csrfField(frame.session.csrfToken);
  const roles = (current: string) =>
    ['viewer', 'operator', 'admin']
      .map((r) => h`<option value="${r}"!${r === current ? ' selected' : ''}>${r}</option>`)
      .join('');
  const statuses = (current: string) =>
    ['active', 'disabled'].map((s) => h`<option value="${s}"!${s === current ? ' selected' : ''}>${s}</option>`).join('');
  const rows = accounts.map(
    (a) =>
      h`<tr><td>${a.email}</td><td>${a.role}</td><td>${a.status}</td><td>${at(a.lastLoginAt)}</td><td>${at(a.createdAt)}</td><td><form method="post" action="/console/staff/${a.id}" class="inline">!${csrf}<select name="role" aria-label="role">!${roles(a.role)}</select><select name="status" aria-label="status">!${statuses(a.status)}</select><button type="submit">Save</button></form></td></tr>`,
  );
  const shown = created
    ? h`<section class="secret" role="alert"><h2>Account created</h2><p>One-time password for ${created.email}, shown once: <code id="new-password">${created.password}</code></p></section>`
    : '';
  return layout(
    frame,
    h`!${shown}
<section>!${table(['e-mail', 'role', 'status', 'last sign-in', 'created', ''], rows, 'No staff.')}</section>
<section><h2>New staff account</h2><form method="post" action="/console/staff">!${csrf}<label>E-mail <input type="email" name="email" required></label><label>Role <select name="role">!${roles('viewer')}</select></label><button type="submit">Create</button></form></section>`,
  );
}

// ---- audit ----

export function auditPage(
  frame: PageFrame,
  entries: AuditEntry[],
  filter: { action?: string | undefined },
  nextBefore: number | null,
): string {
  const rows = entries.map(
    (e) =>
      h`<tr class="${e.outcome}"><td>${e.id}</td><td>${at(e.at)}</td><td>${e.actor}</td><td>${e.address ?? ''}</td><td>${e.action}</td><td>${e.recordType ?? ''} ${e.recordId ?? ''}</td><td>${e.outcome}</td><td>${e.detail ? JSON.stringify(e.detail) : ''}</td></tr>`,
  );
  const older =
    nextBefore !== null
      ? h`<p><a href="/console/audit?before=${nextBefore}${filter.action ? `&action=${encodeURIComponent(filter.action)}` : ''}">Older</a></p>`
      : '';
  return layout(
    frame,
    h`<form method="get" action="/console/audit" class="search"><label>Action <input name="action" value="${filter.action ?? ''}" placeholder="e.g. topup.approve"></label><button type="submit">Filter</button></form>
!${table(['#', 'when', 'who', 'from', 'action', 'record', 'outcome', 'detail'], rows, 'Nothing recorded.')}!${older}`,
  );
}

export const CONSOLE_CSS = `
:root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
body { margin: 0; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; background: #1d2330; color: #fff; flex-wrap: wrap; }
header a { color: #cfd6e4; text-decoration: none; margin-right: .8rem; }
header a[aria-current] { color: #fff; font-weight: 600; text-decoration: underline; }
header form { margin-left: auto; }
.who { margin-right: .6rem; color: #cfd6e4; }
main { padding: 1rem 1.2rem; max-width: 1400px; }
main.login { max-width: 22rem; margin: 4rem auto; }
main.login form { display: grid; gap: .8rem; }
label { display: inline-flex; flex-direction: column; gap: .2rem; font-size: .85rem; margin-right: .6rem; }
input, select, button { font: inherit; padding: .3rem .5rem; }
button { cursor: pointer; }
form.inline { display: inline-flex; gap: .3rem; align-items: end; margin: 0 .3rem .2rem 0; }
form.inline label { margin: 0; }
table { border-collapse: collapse; width: 100%; background: #fff; font-size: .85rem; }
th, td { border-bottom: 1px solid #e3e6eb; padding: .35rem .5rem; text-align: left; vertical-align: top; }
th { background: #eef0f4; }
tr.low td, tr.refused td { background: #fff1f0; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 1rem; }
.card { background: #fff; padding: .8rem 1rem; border: 1px solid #e3e6eb; }
.card h2 { font-size: .9rem; margin: 0; color: #586174; }
.figure { font-size: 1.8rem; margin: .3rem 0; }
.notice { background: #e7f6ec; border: 1px solid #9fd8b0; padding: .5rem .8rem; }
.error { background: #fff1f0; border: 1px solid #f0a8a0; padding: .5rem .8rem; }
.secret { background: #fff8e1; border: 1px solid #f0d37a; padding: .5rem .8rem; }
.ok { color: #17692f; } .bad { color: #a5211a; font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; background: #fff; padding: .8rem; border: 1px solid #e3e6eb; }
dl.facts dt { color: #586174; }
dl.facts dd { margin: 0; }
section { margin: 1.2rem 0; }
.search { margin-bottom: 1rem; display: flex; flex-wrap: wrap; align-items: end; }
code { background: #f0f1f4; padding: .1rem .3rem; word-break: break-all; }
`;
