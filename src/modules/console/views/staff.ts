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
  const shown = view.created
    ? secret(
        'Account created',
        h`<p>One-time password for ${view.created.email}, shown once: <code id="new-password">${view.created.password}</code></p><p>It must be changed at the first sign-in.</p>`,
      )
    : '';
  return layout(
    frame,
    h`!${shown}
<section>!${table(['e-mail', 'role', 'status', 'last sign-in', 'created', '2FA', ''], rows, 'No staff.')}</section>
<section><h2>New staff account</h2><form method="post" action="/console/staff">!${csrf}<label>E-mail <input type="email" name="email" required></label><label>Role <select name="role">!${options(view.roles, view.roles[0] ?? '')}</select></label><button type="submit">Create</button></form></section>`,
  );
}
