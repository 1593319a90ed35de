import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import type { TwoFactorView } from '../models/two-factor.js';
import { csrfField, head, layout, secret } from './layout.js';
import { qrCodeSvg } from './qr-code.js';

/** The second step of a sign-in: the code of the authenticator app, or a recovery code. */
export function codePage(csrf: string, error?: string): string {
  return h`!${head('Sign-in code')}
<body>
<main class="login">
  <h1>partner-api console</h1>
  !${error ? h`<p class="error" role="alert">${error}</p>` : ''}
  <form method="post" action="/console/login/code">
    !${csrfField(csrf)}
    <label>Code from your authenticator app <input name="code" required autofocus autocomplete="one-time-code" inputmode="numeric" maxlength="32"></label>
    <p>Lost your device? Type one of your recovery codes instead.</p>
    <button type="submit">Sign in</button>
  </form>
  <form method="post" action="/console/logout">
    !${csrfField(csrf)}
    <button type="submit">Cancel</button>
  </form>
</main>
</body>
</html>`;
}

/** The secret in groups of four, as authenticator apps take it typed. */
const grouped = (secretBase32: string) => secretBase32.replace(/(.{4})/g, '$1 ').trim();

export function twoFactorPage(frame: PageFrame, view: TwoFactorView): string {
  const csrf = csrfField(frame.csrfToken);
  const error = view.error ? h`<p class="error" role="alert">${view.error}</p>` : '';
  const why = view.enrolmentRequired
    ? h`<p class="notice" role="status">Admins must sign in with a second factor here: set it up before anything else.</p>`
    : '';
  let body: string;
  if (view.state === 'on') {
    const codes = view.recoveryCodes
      ? secret(
          'Recovery codes',
          h`<p>Two-factor sign-in is on. Keep these recovery codes somewhere safe, apart from your device: each signs you in once if the device is lost. They are shown only now.</p><ul id="recovery-codes">!${view.recoveryCodes.map((c) => h`<li><code>${c}</code></li>`).join('')}</ul>`,
        )
      : '';
    const off = view.required
      ? h`<p>Admins must keep two-factor sign-in (CONSOLE_REQUIRE_2FA). If your device is lost, another admin can reset it.</p>`
      : h`<section><h2>Turn it off</h2><form method="post" action="/console/2fa/disable" class="stacked">!${csrf}<label>Password <input type="password" name="password" required autocomplete="current-password"></label><label>Code <input name="code" required autocomplete="one-time-code" inputmode="numeric" maxlength="32"></label><button type="submit">Turn off</button></form></section>`;
    const regenerate = h`<section><h2>New recovery codes</h2><p>Used some, or fear they were seen? New codes replace all the old ones, which stop working at once.</p><form method="post" action="/console/2fa/recovery-codes" class="stacked">!${csrf}<label>Code the app shows now <input name="code" required autocomplete="one-time-code" inputmode="numeric" maxlength="32"></label><button type="submit">Make new recovery codes</button></form></section>`;
    body = h`!${codes}<p id="two-factor-state">Two-factor sign-in is <strong>on</strong>; ${view.recoveryCodesLeft} unused recovery codes.</p>!${regenerate}!${off}`;
  } else if (view.state === 'setting-up') {
    body = h`!${secret(
      'Set up your authenticator app',
      h`<p>Scan this code with your authenticator app (Google Authenticator, Authy, 1Password, …):</p>!${view.qrModules ? qrCodeSvg(view.qrModules, { id: 'totp-qr', label: 'QR code of the authenticator link' }) : ''}<p>Or add the account by hand with this key, or paste the link into an app that takes one:</p><p>Key: <code id="totp-secret">${grouped(view.secret)}</code></p><p>Link: <code id="totp-uri">${view.uri}</code></p>`,
    )}
<form method="post" action="/console/2fa/confirm" class="stacked">!${csrf}<label>Your password <input type="password" name="password" required autocomplete="current-password"></label><label>Code the app shows now <input name="code" required autocomplete="one-time-code" inputmode="numeric" maxlength="32"></label><button type="submit">Confirm</button></form>
<form method="post" action="/console/2fa/setup" class="inline">!${csrf}<button type="submit">Start again with a new key</button></form>`;
  } else {
    body = h`<p id="two-factor-state">Two-factor sign-in is <strong>off</strong>: you sign in with your password alone.</p><form method="post" action="/console/2fa/setup">!${csrf}<button type="submit">Set up two-factor sign-in</button></form>`;
  }
  return layout(frame, h`!${why}!${error}!${body}`);
}
