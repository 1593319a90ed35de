import { html as h } from 'ghtml';
import { csrfField, head } from './layout.js';

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
