import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';
import { csrfField, head, layout } from './layout.js';

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

/** The change-password form; `required`: the account may do nothing else until it is sent. */
export function passwordPage(frame: PageFrame, view: { required: boolean; minLength: number; error?: string }): string {
  const why = view.required
    ? h`<p class="notice" role="status">You signed in with a one-time password: choose your own before anything else.</p>`
    : '';
  return layout(
    frame,
    h`!${why}
!${view.error ? h`<p class="error" role="alert">${view.error}</p>` : ''}
<form method="post" action="/console/password" class="stacked">
  !${csrfField(frame.csrfToken)}
  <label>Current password <input type="password" name="current" required autocomplete="current-password"></label>
  <label>New password <input type="password" name="password" required minlength="${view.minLength}" autocomplete="new-password"></label>
  <label>New password again <input type="password" name="repeat" required minlength="${view.minLength}" autocomplete="new-password"></label>
  <p>At least ${view.minLength} characters. Your other sessions end when it is changed.</p>
  <button type="submit">Change password</button>
</form>`,
  );
}
