import assert from 'node:assert/strict';
import type { StaffRole } from '../../src/db/schema.js';
import type { TestApp } from './app.js';
import { staffActor } from './actor.js';

/** A signed-in staff member as the browser would be: the session cookie and the page's CSRF token. */
export interface StaffClient {
  email: string;
  role: StaffRole;
  cookie: string;
  csrf: string;
  get(url: string, headers?: Record<string, string>): Promise<Page>;
  /** A form post; `_csrf` is added unless the form gives its own (or `null` to leave it out). */
  post(url: string, form?: Record<string, string | null>, headers?: Record<string, string>): Promise<Page>;
}

export interface Page {
  status: number;
  body: string;
  headers: Record<string, unknown>;
  location: string | undefined;
}

export const PASSWORD = 'correct horse battery staple';

const cookiesOf = (headers: Record<string, unknown>): string[] => {
  const raw = headers['set-cookie'];
  const all: unknown[] = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
  return all.map((c) => (typeof c === 'string' ? (c.split(';')[0] ?? '') : ''));
};

export function csrfOf(body: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(body);
  assert.ok(match?.[1], 'the page has a CSRF field');
  return match[1];
}

export async function inject(
  t: TestApp,
  method: 'GET' | 'POST',
  url: string,
  options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<Page> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  const res = await t.app.inject({
    method,
    url,
    headers: options.form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body,
    headers: res.headers,
    location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
  };
}

/** Signs in through the login form (as a browser does); the account is created first unless it exists. */
export async function signIn(t: TestApp, role: StaffRole, email = `${role}@staff.example`): Promise<StaffClient> {
  if (!(await t.ctx.staff.findByEmail(email))) await t.ctx.staff.create(staffActor(), email, role, PASSWORD);
  const form = await inject(t, 'GET', '/console/login');
  assert.equal(form.status, 200);
  const loginCookie = cookiesOf(form.headers).join('; ');
  const res = await inject(t, 'POST', '/console/login', {
    cookie: loginCookie,
    form: { _csrf: csrfOf(form.body), email, password: PASSWORD },
  });
  assert.equal(res.status, 303, res.body);
  const cookie = cookiesOf(res.headers).find((c) => c.startsWith('console_session='));
  assert.ok(cookie, 'a session cookie is set');
  const home = await inject(t, 'GET', '/console', { cookie });
  assert.equal(home.status, 200);
  const csrf = csrfOf(home.body);
  const client: StaffClient = {
    email,
    role,
    cookie,
    csrf,
    get: (url, headers) => inject(t, 'GET', url, { cookie, ...(headers ? { headers } : {}) }),
    post: (url, form = {}, headers) => {
      const fields: Record<string, string> = { _csrf: csrf };
      for (const [k, v] of Object.entries(form)) {
        if (v === null) delete fields[k];
        else fields[k] = v;
      }
      return inject(t, 'POST', url, { cookie, form: fields, ...(headers ? { headers } : {}) });
    },
  };
  return client;
}

export const CONSOLE_ENV = { CONSOLE_ENABLED: 'true', SANDBOX_SETTLE_MS: '0' };
