import { html as h } from 'ghtml';
import type { PageFrame } from '../models/frame.js';

/**
 * The console's pages: plain functions from view models (../models/) to HTML. Every interpolation
 * is escaped by ghtml's tag (imported as `h`: a tag named `html` would have Prettier reflow the
 * markup); `!${…}` (no escaping) is used only for fragments these functions built themselves. No
 * inline script or style (the CSP forbids them): behaviour comes from htmx attributes.
 */

/**
 * htmx: no inline indicator styles (CSP), no eval, refusals (4xx) swapped in like pages, and no
 * history cache: htmx would otherwise keep copies of the pages it leaves in sessionStorage (a key
 * or a password shown once, partners' details) and show them again on Back without asking the
 * server, even after sign-out. Back reloads the page from the server instead.
 */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  responseHandling: [
    { code: '204', swap: false },
    { code: '...', swap: true },
  ],
});

export function head(title: string): string {
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
  const links = frame.nav
    .map((link) => h`<a href="${link.href}"!${link.current ? ' aria-current="page"' : ''}>${link.name}</a>`)
    .join('');
  return h`!${head(frame.title)}
<body hx-boost="true">
<header>
  <strong>partner-api console</strong>
  <nav>!${links}</nav>
  <form method="post" action="/console/logout" class="inline">
    !${csrfField(frame.csrfToken)}
    <span class="who">${frame.who}</span>
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

/** A secret shown once (a new key, a one-time password): never kept in htmx's history either. */
export const secret = (title: string, body: string) =>
  h`<section class="secret" role="alert" hx-history="false"><h2>${title}</h2>!${body}</section>`;

/** A refusal or an error; `back` is a path of the console (see routes.ts, backLink). */
export function errorPage(frame: PageFrame | null, status: number, message: string, back = '/console'): string {
  const body = h`<p class="error" role="alert">${message}</p>
  <p><a href="${back}">Back</a></p>`;
  if (frame) return layout({ ...frame, title: frame.title || `Refused (${status})` }, body);
  return h`!${head('Error')}<body><main>!${body}</main></body></html>`;
}

export function table(headers: string[], rows: string[], empty: string): string {
  if (rows.length === 0) return h`<p class="empty">${empty}</p>`;
  return h`<table><thead><tr>!${headers.map((x) => h`<th>${x}</th>`).join('')}</tr></thead><tbody>!${rows.join('')}</tbody></table>`;
}
