import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { KeyLine, PartnerLine, PartnerView } from '../models/partners.js';
import { csrfField, layout, secret, table } from './layout.js';

export function partnersPage(frame: PageFrame, partners: PartnerLine[]): string {
  const rows = partners.map(
    (p) =>
      h`<tr><td><a href="/console/partners/${p.id}">${p.id}</a></td><td>${p.name}</td><td>${p.email}</td><td>${p.role}</td><td>${p.status}</td><td>${p.wallets}</td></tr>`,
  );
  return layout(frame, table(['profile', 'name', 'e-mail', 'role', 'status', 'wallets'], rows, 'No profile.'));
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
    : '';
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
<section><h2>Wallets</h2>!${table(['mode', 'available', 'held'], wallets, 'No wallet yet.')}</section>
<section><h2>API keys</h2>!${table(['key', 'mode', 'prefix', 'state', 'last used', 'created', ''], keyRows, 'No key.')}!${createKey}</section>
!${access}`,
  );
}
