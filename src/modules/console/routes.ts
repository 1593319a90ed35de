import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import { statusOfRefusal } from '../../http/errors.js';
import { InventoryImportError } from '../result-checker/csv.js';
import { isRefusal, type Actor, type ConsoleOperations } from './operations.js';
import {
  AuditQuery,
  CsrfOnly,
  HtmlPage,
  IdParams,
  KeyBody,
  LoginBody,
  NoticeQuery,
  OrderSearchQuery,
  ReasonBody,
  RevokeBody,
  StaffCreateBody,
  StaffUpdateBody,
  UploadBody,
} from './schemas.js';
import { mayAct, type StaffService, type StaffSession } from './service.js';
import * as views from './views.js';

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffSession | null;
  }
  interface FastifyContextConfig {
    /** A console page or action: the least role it needs and, for an action, its audit name. */
    console?: { role: StaffRole; action?: string };
  }
}

export interface ConsoleRouteOptions {
  operations: ConsoleOperations;
  staff: StaffService;
  /** Signs the cookies (derived from the credentials key). */
  cookieSecret: Buffer;
  secureCookie: boolean;
  sessionTtlMs: number;
  orderStuckAfterMs: number;
  clock: () => number;
}

const SESSION_COOKIE = 'console_session';
const LOGIN_COOKIE = 'console_login';
const HTMX = fs.readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'));

/** Console responses may not be framed, sniffed, or run a script or style from anywhere but here. */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

/** Messages of the redirect after an action (`?notice=`): a fixed list, so nothing is reflected. */
const NOTICES: Record<string, string> = {
  approved: 'Top-up approved: the wallet is credited.',
  rejected: 'Top-up rejected.',
  reversed: 'Order reversed: the partner is refunded.',
  retried: 'Stuck deliveries are due again: the worker picks them up now.',
  revoked: 'Key revoked.',
  suspended: 'Profile suspended: its keys are refused from now on.',
  reactivated: 'Profile reactivated.',
  saved: 'Saved.',
};

const html = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);
const seeOther = (reply: FastifyReply, url: string) => reply.code(303).header('location', url).send();

function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const dayStart = (date: string | undefined) => (date ? Date.parse(`${date}T00:00:00Z`) : undefined);

/**
 * The staff console (docs/console.md), served under /console when CONSOLE_ENABLED=true. Pages are
 * rendered here; every action goes through ConsoleOperations to the services the API and the CLI
 * use. Authentication is a staff session cookie only: X-API-KEY is never looked at.
 */
export async function consoleRoutes(app: FastifyInstance, opts: ConsoleRouteOptions): Promise<void> {
  const { operations: ops } = opts;
  await app.register(cookie, { secret: opts.cookieSecret, hook: 'onRequest' });
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: 2 * 1024 * 1024, files: 1, fields: 5, parts: 6 },
  });
  app.decorateRequest('staff', null);

  const cookieOptions = {
    path: '/console',
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: opts.secureCookie,
    signed: true,
  };
  const recordOf = (request: FastifyRequest) => {
    const id = (request.params as { id?: unknown } | undefined)?.id;
    return typeof id === 'string' ? id.slice(0, 128) : null;
  };
  const clearOptions = { path: '/console', httpOnly: true, sameSite: 'strict' as const, secure: opts.secureCookie };
  const actorOf = (request: FastifyRequest): Actor => ({
    staffId: request.staff?.staffId ?? null,
    name: request.staff?.email ?? 'anonymous',
    address: request.ip,
  });
  const frame = (request: FastifyRequest, title: string, active: string, notice?: string): views.PageFrame => {
    if (!request.staff) throw new Error('a console page without a session');
    return { title, active, session: request.staff, notice: notice === undefined ? undefined : NOTICES[notice] };
  };

  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
    // The API's CORS answer is not the console's: no other origin may read a console page.
    reply.removeHeader('access-control-allow-origin');
    reply.removeHeader('access-control-expose-headers');
    return payload;
  });

  app.setErrorHandler((failure: unknown, request, reply) => {
    const back =
      typeof request.headers.referer === 'string' && request.headers.referer.includes('/console')
        ? request.headers.referer
        : '/console';
    const page = (status: number, message: string) =>
      html(
        reply,
        views.errorPage(request.staff ? frame(request, `Refused (${status})`, '') : null, status, message, back),
        status,
      );
    if (failure instanceof InventoryImportError) return page(400, failure.message);
    if (failure instanceof DomainError) return page(statusOfRefusal(failure.refusal), failure.message);
    const error = failure as FastifyError;
    if (error.validation) return page(400, `The form is not valid: ${error.message}`);
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
      return page(error.statusCode, error.message);
    request.log.error({ err: error }, 'console request failed');
    return page(500, 'Something went wrong on our side; nothing more is known here (see the server log).');
  });

  // Who is asking: a signed session cookie, nothing else.
  app.addHook('onRequest', async (request, reply) => {
    const needs = request.routeOptions.config.console;
    if (!needs) return;
    const raw = request.cookies[SESSION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    request.staff = unsigned?.valid && unsigned.value ? await opts.staff.session(unsigned.value) : null;
    if (!request.staff) {
      if (raw) void reply.clearCookie(SESSION_COOKIE, clearOptions);
      if (request.method === 'GET') return seeOther(reply, '/console/login');
      return html(reply, views.errorPage(null, 401, 'Your session has ended: sign in again.', '/console/login'), 401);
    }
    if (!mayAct(request.staff.role, needs.role)) {
      if (needs.action)
        await ops.recordRefusal(
          actorOf(request),
          needs.action,
          recordOf(request),
          `role ${request.staff.role} may not (needs ${needs.role})`,
        );
      return html(
        reply,
        views.errorPage(
          frame(request, 'Not allowed', ''),
          403,
          `This needs the ${needs.role} role; you are ${request.staff.role}.`,
        ),
        403,
      );
    }
  });

  // Every form carries the session's CSRF token; checked before the form is even validated.
  app.addHook('preValidation', async (request, reply) => {
    const needs = request.routeOptions.config.console;
    if (request.method !== 'POST' || !needs || !request.staff) return;
    const given = (request.body as { _csrf?: unknown } | undefined)?._csrf ?? request.headers['x-csrf-token'];
    if (!sameToken(given, request.staff.csrfToken)) {
      await ops.recordRefusal(actorOf(request), needs.action ?? request.url, recordOf(request), 'missing or wrong CSRF token');
      return html(
        reply,
        views.errorPage(
          frame(request, 'Refused', ''),
          403,
          'The form has expired or did not come from the console: reload the page and try again.',
        ),
        403,
      );
    }
  });

  const page = { schema: { hide: true, response: { 200: HtmlPage } } };
  const read = (role: StaffRole = 'viewer') => ({ console: { role } });
  const act = (role: StaffRole, action: string) => ({ console: { role, action } });

  // ---- assets (our own origin: no CDN) ----

  app.get('/console/assets/htmx.min.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').send(HTMX),
  );
  app.get('/console/assets/console.css', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').send(views.CONSOLE_CSS),
  );

  // ---- sign-in ----

  app.get('/console/login', page, async (request, reply) => {
    const token = randomBytes(24).toString('base64url');
    void reply.setCookie(LOGIN_COOKIE, token, { ...cookieOptions, maxAge: 3600 });
    return html(reply, views.loginPage(token));
  });

  app.post('/console/login', { schema: { hide: true, body: LoginBody, response: { 200: HtmlPage } } }, async (request, reply) => {
    const body = request.body as LoginBody;
    const raw = request.cookies[LOGIN_COOKIE];
    const expected = raw ? request.unsignCookie(raw) : null;
    const retry = (status: number, message: string) => {
      const token = randomBytes(24).toString('base64url');
      void reply.setCookie(LOGIN_COOKIE, token, { ...cookieOptions, maxAge: 3600 });
      return html(reply, views.loginPage(token, message), status);
    };
    if (!expected?.valid || !expected.value || !sameToken(body._csrf, expected.value)) {
      return retry(403, 'The sign-in form expired: try again.');
    }
    const actor: Actor = { staffId: null, name: body.email.trim().toLowerCase().slice(0, 254), address: request.ip };
    try {
      const { token } = await opts.staff.login(body.email, body.password, request.ip);
      void reply.clearCookie(LOGIN_COOKIE, clearOptions);
      void reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions, maxAge: Math.floor(opts.sessionTtlMs / 1000) });
      return seeOther(reply, '/console');
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await ops.recordRefusedSignIn(actor, { reason: error.message });
      const throttled = !(error instanceof InventoryImportError) && error.code === 'RATE_LIMITED';
      return retry(throttled ? 429 : 401, error.message);
    }
  });

  app.post(
    '/console/logout',
    { schema: { hide: true, body: CsrfOnly }, config: act('viewer', 'staff.logout') },
    async (request, reply) => {
      const session = request.staff as StaffSession;
      await opts.staff.logout(actorOf(request), session);
      void reply.clearCookie(SESSION_COOKIE, clearOptions);
      return seeOther(reply, '/console/login');
    },
  );

  // ---- dashboard ----

  app.get('/console', { ...page, config: read() }, async (request, reply) =>
    html(reply, views.dashboardPage(frame(request, 'Dashboard', 'dashboard'), await ops.dashboard())),
  );

  app.post(
    '/console/ledger/verify',
    { schema: { hide: true, body: CsrfOnly }, config: act('operator', 'ledger.verify') },
    async (request, reply) => {
      await ops.verifyLedger(actorOf(request));
      return seeOther(reply, '/console');
    },
  );

  // ---- top-ups ----

  app.get(
    '/console/top-ups',
    { schema: { hide: true, querystring: NoticeQuery, response: { 200: HtmlPage } }, config: read() },
    async (request, reply) => {
      const { notice } = request.query as NoticeQuery;
      return html(reply, views.topUpsPage(frame(request, 'Top-ups', 'top-ups', notice), await ops.topUps()));
    },
  );

  app.post(
    '/console/top-ups/:id/approve',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'topup.approve') },
    async (request, reply) => {
      await ops.approveTopUp(actorOf(request), (request.params as IdParams).id);
      return seeOther(reply, '/console/top-ups?notice=approved');
    },
  );

  app.post(
    '/console/top-ups/:id/reject',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('operator', 'topup.reject') },
    async (request, reply) => {
      await ops.rejectTopUp(actorOf(request), (request.params as IdParams).id, (request.body as ReasonBody).reason);
      return seeOther(reply, '/console/top-ups?notice=rejected');
    },
  );

  // ---- orders ----

  app.get(
    '/console/orders',
    { schema: { hide: true, querystring: OrderSearchQuery, response: { 200: HtmlPage } }, config: read() },
    async (request, reply) => {
      const q = request.query as OrderSearchQuery;
      const searched = Boolean(q.q?.trim() || q.profileId?.trim() || q.state || q.from || q.to);
      const to = dayStart(q.to);
      const results = searched
        ? await ops.searchOrders({
            text: q.q?.trim() || undefined,
            profileId: q.profileId?.trim() || undefined,
            state: q.state || undefined,
            from: dayStart(q.from),
            to: to === undefined ? undefined : to + 86_400_000,
            limit: 100,
          })
        : null;
      return html(reply, views.ordersPage(frame(request, 'Orders', 'orders'), q, results));
    },
  );

  app.get(
    '/console/orders/:id',
    { schema: { hide: true, params: IdParams, querystring: NoticeQuery, response: { 200: HtmlPage } }, config: read() },
    async (request, reply) => {
      const detail = await ops.order((request.params as IdParams).id);
      const { notice } = request.query as NoticeQuery;
      return html(
        reply,
        views.orderPage(
          frame(request, `Order ${detail.order.short_reference}`, 'orders', notice),
          detail,
          opts.orderStuckAfterMs,
          opts.clock(),
        ),
      );
    },
  );

  app.post(
    '/console/orders/:id/reverse',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'order.reverse') },
    async (request, reply) => {
      const { id } = request.params as IdParams;
      await ops.reverseOrder(actorOf(request), id, (request.body as ReasonBody).reason);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=reversed`);
    },
  );

  app.post(
    '/console/orders/:id/retry',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'order.retry') },
    async (request, reply) => {
      const { id } = request.params as IdParams;
      await ops.retryOrder(actorOf(request), id);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=retried`);
    },
  );

  // ---- result-checker inventory ----

  app.get('/console/inventory', { ...page, config: read() }, async (request, reply) =>
    html(reply, views.inventoryPage(frame(request, 'Result-checker inventory', 'inventory'), await ops.stock())),
  );

  app.post(
    '/console/inventory/upload',
    { schema: { hide: true, body: UploadBody, response: { 200: HtmlPage } }, config: act('operator', 'rc.import') },
    async (request, reply) => {
      const body = request.body as UploadBody;
      const csv = Buffer.isBuffer(body.file) ? body.file.toString('utf8') : String(body.file);
      const result = await ops.importCredentials(actorOf(request), body.packageId, csv, 'upload');
      const notice = `Loaded into ${body.packageId}: added ${result.added}, skipped ${result.skipped} (duplicates); in stock now ${result.stock}.`;
      return html(
        reply,
        views.inventoryPage({ ...frame(request, 'Result-checker inventory', 'inventory'), notice }, await ops.stock()),
      );
    },
  );

  // ---- partners and keys ----

  app.get('/console/partners', { ...page, config: read() }, async (request, reply) =>
    html(reply, views.partnersPage(frame(request, 'Partners', 'partners'), await ops.partners())),
  );

  const partnerPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    profileId: string,
    extra: { notice?: string; newKey?: { id: string; key: string } } = {},
  ) => {
    const found = await ops.partner(profileId);
    if (!found)
      return html(
        reply,
        views.errorPage(frame(request, 'Not found', 'partners'), 404, `No profile ${profileId}.`, '/console/partners'),
        404,
      );
    const f = frame(request, `Partner ${found.profile.name}`, 'partners', extra.notice);
    return html(
      reply,
      views.partnerPage(
        f,
        found.profile,
        found.keys.map((k) => ({
          ...k,
          last_used_at: k.last_used_at === null ? null : Number(k.last_used_at),
          created_at: Number(k.created_at),
        })),
        extra.newKey,
      ),
    );
  };

  app.get(
    '/console/partners/:id',
    { schema: { hide: true, params: IdParams, querystring: NoticeQuery, response: { 200: HtmlPage } }, config: read() },
    async (request, reply) =>
      partnerPage(request, reply, (request.params as IdParams).id, { notice: (request.query as NoticeQuery).notice }),
  );

  app.post(
    '/console/partners/:id/keys',
    { schema: { hide: true, params: IdParams, body: KeyBody, response: { 200: HtmlPage } }, config: act('admin', 'key.create') },
    async (request, reply) => {
      const { id } = request.params as IdParams;
      const created = await ops.createKey(actorOf(request), id, (request.body as KeyBody).mode);
      return partnerPage(request, reply, id, { newKey: created });
    },
  );

  app.post(
    '/console/keys/:id/revoke',
    { schema: { hide: true, params: IdParams, body: RevokeBody }, config: act('admin', 'key.revoke') },
    async (request, reply) => {
      await ops.revokeKey(actorOf(request), (request.params as IdParams).id);
      const profileId = (request.body as RevokeBody).profileId;
      return seeOther(
        reply,
        profileId ? `/console/partners/${encodeURIComponent(profileId)}?notice=revoked` : '/console/partners',
      );
    },
  );

  for (const [path, status, notice] of [
    ['suspend', 'Suspended', 'suspended'],
    ['reactivate', 'Active', 'reactivated'],
  ] as const) {
    app.post(
      `/console/partners/:id/${path}`,
      { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', `profile.${path}`) },
      async (request, reply) => {
        const { id } = request.params as IdParams;
        await ops.setProfileStatus(actorOf(request), id, status);
        return seeOther(reply, `/console/partners/${encodeURIComponent(id)}?notice=${notice}`);
      },
    );
  }

  // ---- staff ----

  app.get(
    '/console/staff',
    { schema: { hide: true, querystring: NoticeQuery, response: { 200: HtmlPage } }, config: read('admin') },
    async (request, reply) =>
      html(
        reply,
        views.staffPage(frame(request, 'Staff', 'staff', (request.query as NoticeQuery).notice), await ops.staffAccounts()),
      ),
  );

  app.post(
    '/console/staff',
    { schema: { hide: true, body: StaffCreateBody, response: { 200: HtmlPage } }, config: act('admin', 'staff.create') },
    async (request, reply) => {
      const body = request.body as StaffCreateBody;
      const { account, password } = await ops.createStaff(actorOf(request), body.email, body.role);
      return html(
        reply,
        views.staffPage(frame(request, 'Staff', 'staff'), await ops.staffAccounts(), { email: account.email, password }),
      );
    },
  );

  app.post(
    '/console/staff/:id',
    { schema: { hide: true, params: IdParams, body: StaffUpdateBody }, config: act('admin', 'staff.update') },
    async (request, reply) => {
      const body = request.body as StaffUpdateBody;
      await ops.updateStaff(actorOf(request), (request.params as IdParams).id, { role: body.role, status: body.status });
      return seeOther(reply, '/console/staff?notice=saved');
    },
  );

  // ---- audit ----

  app.get(
    '/console/audit',
    { schema: { hide: true, querystring: AuditQuery, response: { 200: HtmlPage } }, config: read() },
    async (request, reply) => {
      const q = request.query as AuditQuery;
      const limit = 100;
      const entries = await ops.audit({ action: q.action?.trim() || undefined, beforeId: q.before, limit });
      const last = entries.at(-1);
      return html(
        reply,
        views.auditPage(
          frame(request, 'Audit trail', 'audit'),
          entries,
          { action: q.action },
          entries.length === limit && last ? last.id : null,
        ),
      );
    },
  );
}
