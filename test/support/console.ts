import assert from 'node:assert/strict';
import type { StaffRole } from '../../src/db/schema.js';
import type { TestApp } from './app.js';
import { staffActor } from './actor.js';
import { newTotpSecret, totpCode } from '../../src/modules/console/totp.js';

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

export const cookiesOf = (headers: Record<string, unknown>): string[] => {
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
  options: {
    cookie?: string;
    form?: Record<string, string>;
    headers?: Record<string, string>;
    /** The client's address (default 127.0.0.1). */
    from?: string;
  } = {},
): Promise<Page> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.cookie) headers.cookie = options.cookie;
  const res = await t.app.inject({
    method,
    url,
    headers: options.form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
    ...(options.from ? { remoteAddress: options.from } : {}),
  });
  return {
    status: res.statusCode,
    body: res.body,
    headers: res.headers,
    location: typeof res.headers.location === 'string' ? res.headers.location : undefined,
  };
}

/**
 * A staff account with PASSWORD, created unless it exists. `chosen` (the default): as if its holder
 * had already replaced the one-time password on the change-password page (test/console/password.test.ts
 * goes through that page itself); false: it must still be changed at the next sign-in.
 */
export async function ensureStaff(t: TestApp, email: string, role: StaffRole, chosen = true): Promise<string> {
  const existing = await t.ctx.staff.findByEmail(email);
  const id = existing?.id ?? (await t.ctx.staff.create(staffActor(), email, role, PASSWORD)).account.id;
  if (chosen) await t.database.db.updateTable('staff_accounts').set({ password_change_required: 0 }).where('id', '=', id).execute();
  return id;
}

/** Signs in through the login form (as a browser does): the session cookie. */
export async function login(t: TestApp, email: string, password = PASSWORD, from?: string): Promise<string> {
  const form = await inject(t, 'GET', '/console/login');
  assert.equal(form.status, 200);
  const res = await inject(t, 'POST', '/console/login', {
    cookie: cookiesOf(form.headers).join('; '),
    form: { _csrf: csrfOf(form.body), email, password },
    ...(from ? { from } : {}),
  });
  assert.equal(res.status, 303, res.body);
  const cookie = cookiesOf(res.headers).find((c) => c.startsWith('console_session='));
  assert.ok(cookie, 'a session cookie is set');
  return cookie;
}

/** A client of a signed-in session; its CSRF token is read from `page` (a page its session may see). */
export async function clientOf(t: TestApp, email: string, role: StaffRole, cookie: string, page = '/console'): Promise<StaffClient> {
  const home = await inject(t, 'GET', page, { cookie });
  assert.equal(home.status, 200, `${page}: ${home.status} ${home.location ?? ''}`);
  const csrf = csrfOf(home.body);
  return {
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
}

/** Signs in through the login form (as a browser does); the account is created first unless it exists. */
export async function signIn(t: TestApp, role: StaffRole, email = `${role}@staff.example`): Promise<StaffClient> {
  await ensureStaff(t, email, role);
  return clientOf(t, email, role, await login(t, email));
}

export const CONSOLE_ENV = { CONSOLE_ENABLED: 'true', SANDBOX_SETTLE_MS: '0' };

/** A form with a file, as a browser sends `enctype="multipart/form-data"`. */
export function multipart(fields: Record<string, string>, file: { name: string; content: string }) {
  const boundary = '----consoletest' + Math.random().toString(16).slice(2);
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.content}\r\n`,
  );
  return { payload: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---- every console route, in one table ----

/** Records the generated tests create before calling the routes (test/console/route-security.test.ts). */
export interface ConsoleRecords {
  /** Two pending live top-ups of usr_super. */
  topUpToApprove: string;
  topUpToReject: string;
  /** A pending live top-up of usr_super for the bulk approval. */
  topUpToBulkApprove: string;
  /** A Mobile Money top-up of usr_super in test mode (the built-in sandbox). */
  momoTopUp: string;
  /** A completed live data order of usr_super. */
  completedOrder: string;
  /** A live data order of usr_super whose delivery is stuck. */
  stuckOrder: string;
  /** A completed live bulk data order of usr_super, with a completed recipient `bulkRecipient`. */
  bulkOrder: string;
  bulkRecipient: string;
  /** A completed result-checker sale of usr_super (test mode). */
  rcSale: string;
  /** An active key of usr_customer. */
  key: string;
  /** A staff account no test signs in with. */
  staffAccount: string;
  /** An unresolved reconciliation finding. */
  finding: string;
  /** Pending wallet adjustments of usr_super (live), requested by another admin than the one who decides. */
  adjustmentToApprove: string;
  adjustmentToReject: string;
  /** Pending requests for a new admin, by an admin who is not the one the tests decide with. */
  staffRequestToApprove: string;
  staffRequestToReject: string;
  /** A staff account with two-factor sign-in on, no test signs in with. */
  twoFactorAccount: string;
  /** A delivery (its number) of a live event of usr_super to an enabled endpoint. */
  webhookDelivery: string;
  /** Enabled and disabled (by staff) webhook endpoints of usr_super. */
  webhookEndpointToDisable: string;
  webhookEndpointToEnable: string;
}

export interface ConsoleRouteCase {
  method: 'GET' | 'POST';
  /** As registered (Fastify's pattern). */
  url: string;
  /** The least role that may use it, or public (PUBLIC_ROUTES in src/modules/console/routes.ts). */
  role: StaffRole | 'public';
  params?: (r: ConsoleRecords) => Record<string, string>;
  /** A valid form, without its CSRF token; `n` makes values unique per call. */
  form?: (r: ConsoleRecords, n: number) => Record<string, string>;
  /** A multipart form with a file (the PIN upload). */
  upload?: (r: ConsoleRecords, n: number) => { fields: Record<string, string>; file: { name: string; content: string } };
  /** Open to a session that must still choose its password. */
  duringPasswordChange?: true;
  /** Open to a session whose password was right but whose code is still to come. */
  duringSecondFactor?: true;
  /**
   * Run before the valid call of an `ownAccount` route, on that fresh account once it is signed in:
   * more form fields (a code computed for the state it set up).
   */
  prepare?: (t: TestApp, staffId: string) => Promise<Record<string, string>>;
  /** A valid call ends or changes its own session or account: it gets a fresh account of its own. */
  ownAccount?: true;
}

/** Staff roles from least to most. */
export const ROLES: readonly StaffRole[] = ['viewer', 'operator', 'admin'];

export const CONSOLE_ROUTES: ConsoleRouteCase[] = [
  { method: 'GET', url: '/console/login', role: 'public' },
  { method: 'POST', url: '/console/login', role: 'public' },
  { method: 'GET', url: '/console/assets/htmx.min.js', role: 'public' },
  { method: 'GET', url: '/console/assets/console.css', role: 'public' },
  {
    method: 'POST',
    url: '/console/logout',
    role: 'viewer',
    form: () => ({}),
    duringPasswordChange: true,
    duringSecondFactor: true,
    ownAccount: true,
  },
  { method: 'GET', url: '/console/login/code', role: 'viewer', duringSecondFactor: true },
  { method: 'POST', url: '/console/login/code', role: 'viewer', form: () => ({ code: '123456' }), duringSecondFactor: true },
  { method: 'GET', url: '/console/2fa', role: 'viewer' },
  { method: 'POST', url: '/console/2fa/setup', role: 'viewer', form: () => ({}), ownAccount: true },
  {
    method: 'POST',
    url: '/console/2fa/confirm',
    role: 'viewer',
    form: () => ({}),
    ownAccount: true,
    prepare: async (t, staffId) => {
      await t.ctx.staff.beginTwoFactor({ id: 'none', staffId, email: '', role: 'viewer', csrfToken: '', expiresAt: 0 });
      const status = await t.ctx.staff.twoFactorStatus(staffId);
      assert.equal(status.state, 'setting-up');
      return { password: PASSWORD, code: totpCode(status.secret, Date.now()) };
    },
  },
  {
    method: 'POST',
    url: '/console/2fa/disable',
    role: 'viewer',
    form: () => ({ password: PASSWORD }),
    ownAccount: true,
    prepare: async (t, staffId) => {
      // Written as an enrolment leaves it, without ending the session the call is made with.
      const secret = newTotpSecret();
      await t.database.db
        .updateTable('staff_accounts')
        .set({ totp_secret: t.ctx.cipher.sealer('staff-totp').seal(secret), totp_enabled_at: Date.now() })
        .where('id', '=', staffId)
        .execute();
      return { code: totpCode(secret, Date.now()) };
    },
  },
  {
    method: 'POST',
    url: '/console/2fa/recovery-codes',
    role: 'viewer',
    form: () => ({}),
    ownAccount: true,
    prepare: async (t, staffId) => {
      const secret = newTotpSecret();
      await t.database.db
        .updateTable('staff_accounts')
        .set({ totp_secret: t.ctx.cipher.sealer('staff-totp').seal(secret), totp_enabled_at: Date.now() })
        .where('id', '=', staffId)
        .execute();
      return { code: totpCode(secret, Date.now()) };
    },
  },
  { method: 'GET', url: '/console/password', role: 'viewer', duringPasswordChange: true },
  {
    method: 'POST',
    url: '/console/password',
    role: 'viewer',
    form: (_r, n) => ({ current: PASSWORD, password: `my own password ${n}`, repeat: `my own password ${n}` }),
    duringPasswordChange: true,
    ownAccount: true,
  },
  { method: 'GET', url: '/console', role: 'viewer' },
  { method: 'POST', url: '/console/ledger/verify', role: 'operator', form: () => ({}) },
  { method: 'GET', url: '/console/top-ups', role: 'viewer' },
  { method: 'GET', url: '/console/top-ups.csv', role: 'viewer' },
  {
    method: 'POST',
    url: '/console/top-ups/:id/approve',
    role: 'operator',
    params: (r) => ({ id: r.topUpToApprove }),
    form: () => ({}),
  },
  { method: 'POST', url: '/console/top-ups/approve', role: 'operator', form: (r) => ({ ids: r.topUpToBulkApprove }) },
  {
    method: 'POST',
    url: '/console/top-ups/:id/reject',
    role: 'operator',
    params: (r) => ({ id: r.topUpToReject }),
    form: () => ({ reason: 'no such payment' }),
  },
  { method: 'GET', url: '/console/top-ups/:id', role: 'viewer', params: (r) => ({ id: r.momoTopUp }) },
  { method: 'POST', url: '/console/top-ups/:id/recheck', role: 'operator', params: (r) => ({ id: r.momoTopUp }), form: () => ({}) },
  { method: 'GET', url: '/console/orders', role: 'viewer' },
  { method: 'GET', url: '/console/orders.csv', role: 'viewer' },
  { method: 'GET', url: '/console/orders/:id', role: 'viewer', params: (r) => ({ id: r.completedOrder }) },
  {
    method: 'POST',
    url: '/console/orders/:id/reverse',
    role: 'admin',
    params: (r) => ({ id: r.completedOrder }),
    form: () => ({ reason: 'not delivered' }),
  },
  {
    method: 'POST',
    url: '/console/orders/:id/recipients/reverse',
    role: 'admin',
    params: (r) => ({ id: r.bulkOrder }),
    form: (r) => ({ recipient: r.bulkRecipient, reason: 'not delivered' }),
  },
  {
    method: 'POST',
    url: '/console/orders/:id/refund',
    role: 'admin',
    params: (r) => ({ id: r.rcSale }),
    form: () => ({ reason: 'bought twice' }),
  },
  { method: 'POST', url: '/console/orders/:id/retry', role: 'operator', params: (r) => ({ id: r.stuckOrder }), form: () => ({}) },
  {
    method: 'POST',
    url: '/console/orders/:id/resolve',
    role: 'admin',
    params: (r) => ({ id: r.stuckOrder }),
    form: () => ({ outcome: 'failed', note: 'the upstream has no record of it', partnerMessage: '' }),
  },
  { method: 'GET', url: '/console/inventory', role: 'viewer' },
  {
    method: 'POST',
    url: '/console/inventory/upload',
    role: 'operator',
    upload: (_r, n) => ({
      fields: { packageId: 'rcp_bece' },
      file: { name: 'pins.csv', content: `username,password\nSEC-USER-${n},SEC-PIN-${n}\n` },
    }),
  },
  { method: 'GET', url: '/console/packages', role: 'viewer' },
  { method: 'GET', url: '/console/packages/:id', role: 'viewer', params: () => ({ id: 'pkg_a_1gb' }) },
  {
    method: 'POST',
    url: '/console/packages/:id',
    role: 'admin',
    params: () => ({ id: 'pkg_a_2gb' }),
    form: (_r, n) => ({ price: `${20 + n}.50`, price_Agent: '19.75', status: 'Active' }),
  },
  {
    method: 'POST',
    url: '/console/packages/:id/routes',
    role: 'admin',
    params: () => ({ id: 'pkg_a_2gb' }),
    form: (_r, n) => ({ r0_provider: 'reloadly', r0_operatorId: String(600 + n), r0_amount: '15.50', r1_provider: 'sandbox' }),
  },
  {
    method: 'POST',
    url: '/console/operators/:id/network',
    role: 'admin',
    params: () => ({ id: 'op_off' }),
    form: (_r, n) => ({ network: ['MTN', 'TELECEL', 'AT', ''][n % 4] ?? '' }),
  },
  { method: 'GET', url: '/console/partners', role: 'viewer' },
  { method: 'GET', url: '/console/partners/:id', role: 'viewer', params: () => ({ id: 'usr_super' }) },
  {
    method: 'POST',
    url: '/console/partners/:id/keys',
    role: 'admin',
    params: () => ({ id: 'usr_customer' }),
    form: () => ({ mode: 'test' }),
  },
  {
    method: 'POST',
    url: '/console/keys/:id/revoke',
    role: 'admin',
    params: (r) => ({ id: r.key }),
    form: () => ({ profileId: 'usr_customer' }),
  },
  { method: 'POST', url: '/console/partners/:id/suspend', role: 'admin', params: () => ({ id: 'usr_agent' }), form: () => ({}) },
  {
    method: 'POST',
    url: '/console/partners/:id/reactivate',
    role: 'admin',
    params: () => ({ id: 'usr_suspended' }),
    form: () => ({}),
  },
  { method: 'GET', url: '/console/partners/new', role: 'admin' },
  {
    method: 'POST',
    url: '/console/partners',
    role: 'admin',
    form: (_r, n) => ({
      firstName: 'Abena',
      lastName: `Security ${n}`,
      phoneNumber: '0244123456',
      email: `security-${n}@partner.example`,
      role: 'Agent',
      status: 'Active',
    }),
  },
  { method: 'GET', url: '/console/partners/:id/edit', role: 'admin', params: () => ({ id: 'usr_super' }) },
  {
    method: 'POST',
    url: '/console/partners/:id',
    role: 'admin',
    params: () => ({ id: 'usr_customer' }),
    form: (_r, n) => ({
      firstName: 'Efua',
      lastName: `Renamed ${n}`,
      phoneNumber: '0201000003',
      email: 'efua@example.com',
      role: 'Customer',
    }),
  },
  { method: 'GET', url: '/console/partners/:id/statement', role: 'viewer', params: () => ({ id: 'usr_super' }) },
  { method: 'GET', url: '/console/partners/:id/statement.csv', role: 'viewer', params: () => ({ id: 'usr_super' }) },
  { method: 'GET', url: '/console/partners/:id/statement/print', role: 'viewer', params: () => ({ id: 'usr_super' }) },
  {
    method: 'POST',
    url: '/console/partners/:id/adjustments',
    role: 'admin',
    params: () => ({ id: 'usr_super' }),
    form: () => ({ mode: 'live', direction: 'credit', amount: '1.25', reason: 'goodwill credit' }),
  },
  { method: 'GET', url: '/console/adjustments', role: 'viewer' },
  {
    method: 'POST',
    url: '/console/adjustments/:id/approve',
    role: 'admin',
    params: (r) => ({ id: r.adjustmentToApprove }),
    form: () => ({}),
  },
  {
    method: 'POST',
    url: '/console/adjustments/:id/reject',
    role: 'admin',
    params: (r) => ({ id: r.adjustmentToReject }),
    form: () => ({ reason: 'no such dispute' }),
  },
  { method: 'GET', url: '/console/staff', role: 'admin' },
  {
    method: 'POST',
    url: '/console/staff',
    role: 'admin',
    form: (_r, n) => ({ email: `new-${n}@staff.example`, role: 'viewer' }),
  },
  {
    method: 'POST',
    url: '/console/staff/:id',
    role: 'admin',
    params: (r) => ({ id: r.staffAccount }),
    form: () => ({ role: 'operator', status: 'active' }),
  },
  {
    method: 'POST',
    url: '/console/staff/requests/:id/approve',
    role: 'admin',
    params: (r) => ({ id: r.staffRequestToApprove }),
    form: () => ({}),
  },
  {
    method: 'POST',
    url: '/console/staff/requests/:id/reject',
    role: 'admin',
    params: (r) => ({ id: r.staffRequestToReject }),
    form: () => ({ reason: 'no such colleague' }),
  },
  {
    method: 'POST',
    url: '/console/staff/:id/2fa-reset',
    role: 'admin',
    params: (r) => ({ id: r.twoFactorAccount }),
    form: () => ({}),
  },
  { method: 'GET', url: '/console/audit', role: 'viewer' },
  { method: 'GET', url: '/console/reconciliation', role: 'viewer' },
  { method: 'GET', url: '/console/reports/margins', role: 'viewer' },
  { method: 'GET', url: '/console/reports/margins.csv', role: 'viewer' },
  { method: 'GET', url: '/console/reports/margins/unknown-cost', role: 'viewer' },
  {
    method: 'POST',
    url: '/console/reconciliation/run',
    role: 'admin',
    form: () => ({ provider: 'dtone', from: '2026-11-24T00:00:00Z', to: '2026-11-25T00:00:00Z' }),
  },
  {
    method: 'POST',
    url: '/console/reconciliation/findings/:id/resolve',
    role: 'admin',
    params: (r) => ({ id: r.finding }),
    form: () => ({ note: 'reversed the order' }),
  },
  { method: 'GET', url: '/console/webhooks', role: 'viewer' },
  { method: 'GET', url: '/console/webhooks/deliveries/:id', role: 'viewer', params: (r) => ({ id: r.webhookDelivery }) },
  {
    method: 'POST',
    url: '/console/webhooks/deliveries/:id/redeliver',
    role: 'operator',
    params: (r) => ({ id: r.webhookDelivery }),
    form: () => ({}),
  },
  { method: 'GET', url: '/console/partners/:id/webhooks', role: 'viewer', params: () => ({ id: 'usr_super' }) },
  {
    method: 'POST',
    url: '/console/webhooks/endpoints/:id/disable',
    role: 'admin',
    params: (r) => ({ id: r.webhookEndpointToDisable }),
    form: () => ({ reason: 'answers 500 to everything' }),
  },
  {
    method: 'POST',
    url: '/console/webhooks/endpoints/:id/enable',
    role: 'admin',
    params: (r) => ({ id: r.webhookEndpointToEnable }),
    form: () => ({}),
  },
];

export const consoleRouteKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;

/** `/console/orders/:id` with `{ id: 'ord_1' }` → `/console/orders/ord_1`. */
export const fillConsolePath = (url: string, params: Record<string, string>) =>
  url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

// ---- two-factor sign-in ----

/**
 * Turns two-factor sign-in on for an account through the service (as its holder would on the
 * two-factor page), at `atMs` of the app's clock: its TOTP secret (base32) and recovery codes.
 */
export async function enrolTwoFactor(t: TestApp, staffId: string, atMs: number): Promise<{ secret: string; recoveryCodes: string[] }> {
  const holder = { id: 'none', staffId, email: '', role: 'viewer' as const, csrfToken: '', expiresAt: 0 };
  await t.ctx.staff.beginTwoFactor(holder);
  const status = await t.ctx.staff.twoFactorStatus(staffId);
  assert.equal(status.state, 'setting-up');
  const { recoveryCodes } = await t.ctx.staff.confirmTwoFactor(staffActor(), holder, { password: PASSWORD, code: totpCode(status.secret, atMs) });
  return { secret: status.secret, recoveryCodes };
}

/** The code step of a sign-in: the answer to posting `code` with the pending session `cookie`. */
export async function giveCode(t: TestApp, cookie: string, code: string, from?: string): Promise<Page> {
  const form = await inject(t, 'GET', '/console/login/code', { cookie });
  assert.equal(form.status, 200, `${form.status} ${form.location ?? ''}`);
  return inject(t, 'POST', '/console/login/code', { cookie, form: { _csrf: csrfOf(form.body), code }, ...(from ? { from } : {}) });
}
