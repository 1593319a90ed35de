import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { KeyLine, PartnersView, PartnerView } from '../models/partners.js';
import { csrfField, layout, secret, table } from './layout.js';
import { modeSwitchBar, pagingBar } from './listing.js';

export function partnersPage(frame: PageFrame, view: PartnersView): string {
  const rows = view.lines.map(
    (p) =>
      h`<tr id="partner-${p.id}"><td><a href="/console/partners/${p.id}">${p.name || p.id}</a></td><td>${p.id}</td><td>${p.email}</td><td>${p.phone}</td><td>${p.role}</td><td>${p.status}</td><td>${p.available}</td><td>${p.held}</td></tr>`,
  );
  const statuses = view.statuses
    .map((s) => h`<option value="${s}"!${view.form.status === s ? ' selected' : ''}>${s || 'any status'}</option>`)
    .join('');
  const add = view.canManage ? h`<p><a href="/console/partners/new">New partner</a></p>` : '';
  const mode = view.modes.current;
  return layout(
    frame,
    h`!${add}!${modeSwitchBar(view.modes)}
<form method="get" action="/console/partners" class="search">
  <input type="hidden" name="mode" value="${mode}">
  <label>Name, e-mail, phone or profile id <input name="q" value="${view.form.q}"></label>
  <label>Status <select name="status">!${statuses}</select></label>
  <button type="submit">Search</button>
</form>
!${table(['partner', 'profile', 'e-mail', 'phone', 'role', 'status', `${mode} available`, `${mode} held`], rows, 'No partner matches.')}
!${pagingBar(view.paging)}`,
  );
}

export function partnerPage(frame: PageFrame, p: PartnerView): string {
  const csrf = csrfField(frame.csrfToken);
  const revoke = (k: KeyLine) =>
    p.canManage && k.state === 'active'
      ? h`<form method="post" action="/console/keys/${k.id}/revoke" class="inline" hx-confirm="Revoke ${k.prefix}…? Calls with it are refused at once.">!${csrf}<input type="hidden" name="profileId" value="${p.id}"><button type="submit">Revoke</button></form>`
      : '';
  const keyRows = p.keys.map(
    (k) =>
      h`<tr><td>${k.id}</td><td>${k.mode}</td><td>${k.prefix}…</td><td>${k.state}</td><td>${k.lastUsed}</td><td>${k.created}</td><td>!${revoke(k)}</td></tr>`,
  );
  const wallets = p.wallets.map((w) => h`<tr><td>${w.mode}</td><td>${w.available}</td><td>${w.held}</td></tr>`);
  const shown = p.newKey
    ? secret(
        'New API key',
        h`<p>Shown once: copy it now and hand it to the partner. Only its hash is kept.</p><p><code id="new-key">${p.newKey.key}</code></p><p>key id ${p.newKey.id}</p>`,
      )
    : p.newKeys.length > 0
      ? secret(
          'First API keys',
          h`<p>Shown once: copy them now and hand them to the partner. Only their hashes are kept.</p>!${p.newKeys
            .map((k) => h`<p>${k.mode}: <code id="new-key-${k.mode}">${k.key}</code> (key id ${k.id})</p>`)
            .join('')}`,
        )
      : '';
  const adjust = p.canManage
    ? h`<section><h2>Adjust a wallet</h2><form method="post" action="/console/partners/${p.id}/adjustments" class="adjust">!${csrf}<label>Wallet <select name="mode"><option value="live">live</option><option value="test">test</option></select></label><label>Direction <select name="direction"><option value="credit">credit</option><option value="debit">debit</option></select></label><label>Amount (GHS) <input name="amount" required inputmode="decimal" maxlength="40"></label><label>Reason <input name="reason" required maxlength="300"></label><button type="submit">Adjust</button></form><p class="muted">Above ${p.approvalAbove} a second admin approves it first (Adjustments).</p></section>`
    : '';
  const links = h`<p><a href="/console/partners/${p.id}/statement?mode=live">Live statement</a> · <a href="/console/partners/${p.id}/statement?mode=test">Test statement</a> · <a href="/console/partners/${p.id}/webhooks?mode=live">Live webhooks</a> · <a href="/console/partners/${p.id}/webhooks?mode=test">Test webhooks</a>!${p.canManage ? h` · <a href="/console/partners/${p.id}/edit">Edit details</a>` : ''}</p>`;
  const createKey = p.canManage
    ? h`<form method="post" action="/console/partners/${p.id}/keys">!${csrf}<label>Mode <select name="mode"><option value="live">live</option><option value="test">test</option></select></label><button type="submit">Create key</button></form>`
    : '';
  const access = p.canManage
    ? h`<section><h2>Access</h2><form method="post" action="/console/partners/${p.id}/${p.suspended ? 'reactivate' : 'suspend'}" hx-confirm="${p.suspended ? 'Reactivate' : 'Suspend'} ${p.name}?">!${csrf}<button type="submit">${p.suspended ? 'Reactivate profile' : 'Suspend profile'}</button></form></section>`
    : '';
  return layout(
    frame,
    h`!${shown}
<dl class="facts"><dt>Profile</dt><dd>${p.id}</dd><dt>Name</dt><dd>${p.name}</dd><dt>E-mail</dt><dd>${p.email}</dd><dt>Phone</dt><dd>${p.phone}</dd><dt>Role</dt><dd>${p.role}</dd><dt>Status</dt><dd class="status">${p.status}</dd></dl>
!${links}
<section><h2>Wallets</h2>!${table(['mode', 'available', 'held'], wallets, 'No wallet yet.')}</section>
!${adjust}
<section><h2>API keys</h2>!${table(['key', 'mode', 'prefix', 'state', 'last used', 'created', ''], keyRows, 'No key.')}!${createKey}</section>
!${access}`,
  );
}

export interface PartnerFormValues {
  firstName: string;
  middleName: string;
  lastName: string;
  phoneNumber: string;
  email: string;
  role: string;
  status: string;
}

const ROLE_CHOICES = ['Agent', 'SuperAgent', 'Customer', 'Staff'];

/** The partner form: a new partner (with its status) or an existing one's details. */
export function partnerFormPage(frame: PageFrame, action: string, v: PartnerFormValues, isNew: boolean): string {
  const csrf = csrfField(frame.csrfToken);
  const roles = ROLE_CHOICES.map((r) => h`<option value="${r}"!${r === v.role ? ' selected' : ''}>${r}</option>`).join('');
  const status = isNew
    ? h`<label>Status <select name="status"><option value="Active"!${v.status !== 'Suspended' ? ' selected' : ''}>Active</option><option value="Suspended"!${v.status === 'Suspended' ? ' selected' : ''}>Suspended</option></select></label>`
    : '';
  return layout(
    frame,
    h`<form method="post" action="${action}" class="stacked">!${csrf}
<label>First name <input name="firstName" required maxlength="100" value="${v.firstName}"></label>
<label>Middle name <input name="middleName" maxlength="100" value="${v.middleName}"></label>
<label>Last name <input name="lastName" required maxlength="100" value="${v.lastName}"></label>
<label>Phone <input name="phoneNumber" required maxlength="32" value="${v.phoneNumber}"></label>
<label>E-mail <input name="email" type="email" required maxlength="254" value="${v.email}"></label>
<label>Role <select name="role">!${roles}</select></label>
!${status}
<button type="submit">${isNew ? 'Create partner, wallets and keys' : 'Save'}</button>
</form>`,
  );
}
