import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { StaffView } from '../models/staff.js';
import { csrfField, layout, secret, table } from './layout.js';

export function staffPage(frame: PageFrame, view: StaffView): string {
  const csrf = csrfField(frame.csrfToken);
  const options = (values: readonly string[], current: string) =>
    values.map((v) => h`<option value="${v}"!${v === current ? ' selected' : ''}>${v}</option>`).join('');
  const rows = view.accounts.map(
    (a) =>
      h`<tr><td>${a.email}</td><td>${a.role}</td><td>${a.status}</td><td>${a.lastSignIn}</td><td>${a.created}</td><td>${a.twoFactor ? 'on' : 'off'}!${a.twoFactor ? h` <form method="post" action="/console/staff/${a.id}/2fa-reset" class="inline">!${csrf}<button type="submit" aria-label="reset two-factor sign-in of ${a.email}">Reset</button></form>` : ''}</td><td><form method="post" action="/console/staff/${a.id}" class="inline">!${csrf}<select name="role" aria-label="role">!${options(view.roles, a.role)}</select><select name="status" aria-label="status">!${options(view.statuses, a.status)}</select><button type="submit">Save</button></form></td></tr>`,
  );
  const created = view.created;
  const shown = !created
    ? ''
    : created.pendingRequest === null
      ? secret(
          'Account created',
          h`<p>One-time password for ${created.email}, shown once: <code id="new-password">${created.password}</code></p><p>It must be changed at the first sign-in.</p>`,
        )
      : secret(
          'Admin account requested',
          h`<p>Request ${created.pendingRequest}: ${created.email} becomes an admin only once another admin approves it here. Until then it cannot sign in.</p><p>One-time password for ${created.email}, shown once (to you only; it works once approved): <code id="new-password">${created.password}</code></p><p>It must be changed at the first sign-in. An account you created can never approve what you request.</p>`,
        );
  const requestRows = view.pending.map(
    (r) =>
      h`<tr id="${r.id}"><td>${r.id}</td><td>${r.what}</td><td>${r.email}</td><td>${r.role}</td><td>${r.requestedBy}</td><td>${r.requestedAt}</td><td>!${
        r.canApprove
          ? h`<form method="post" action="/console/staff/requests/${r.id}/approve" class="inline" hx-confirm="Make ${r.email} an admin?">!${csrf}<button type="submit">Approve</button></form>`
          : ''
      }<form method="post" action="/console/staff/requests/${r.id}/reject" class="inline">!${csrf}<input name="reason" required maxlength="300" placeholder="why not" aria-label="why not"><button type="submit">Reject</button></form></td></tr>`,
  );
  const pending =
    requestRows.length === 0
      ? ''
      : h`<section><h2>Waiting for a second admin</h2><p>A new admin, or a role raised to admin, takes effect once an admin other than its requester approves it (and not one the requester created or last reset the password of, nor one that did so to the requester's).</p>!${table(['request', 'what', 'e-mail', 'role', 'requested by', 'requested', ''], requestRows, '')}</section>`;
  return layout(
    frame,
    h`!${shown}!${pending}
<section>!${table(['e-mail', 'role', 'status', 'last sign-in', 'created', '2FA', ''], rows, 'No staff.')}</section>
<section><h2>New staff account</h2><form method="post" action="/console/staff">!${csrf}<label>E-mail <input type="email" name="email" required></label><label>Role <select name="role">!${options(view.roles, view.roles[0] ?? '')}</select></label><button type="submit">Create</button></form></section>`,
  );
}
