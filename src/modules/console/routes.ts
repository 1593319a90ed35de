import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../domain/types.js';
import { DomainError } from '../../domain/errors.js';
import { statusOfRefusal } from '../../http/errors.js';
import type { AuditTrail } from '../audit/service.js';
import { InventoryImportError } from '../result-checker/csv.js';
import type { ConsoleOperations } from './operations.js';
import { adjustmentRoutes } from './routes/adjustments.js';
import { assetRoutes } from './routes/assets.js';
import { auditRoutes } from './routes/audit.js';
import {
  actorOf,
  clearCookieOptions,
  frameOf,
  html,
  recordOf,
  sameToken,
  seeOther,
  SESSION_COOKIE,
  type ConsoleAccess,
  type ConsoleDeps,
} from './routes/common.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { inventoryRoutes } from './routes/inventory.js';
import { orderRoutes } from './routes/orders.js';
import { packageRoutes } from './routes/packages.js';
import { reconciliationRoutes } from './routes/reconciliation.js';
import { reportRoutes } from './routes/reports.js';
import { partnerRoutes } from './routes/partners.js';
import { sessionRoutes } from './routes/session.js';
import { staffRoutes } from './routes/staff.js';
import { topUpRoutes } from './routes/top-ups.js';
import { twoFactorRoutes } from './routes/two-factor.js';
import { webhookRoutes } from './routes/webhooks.js';
import { mayAct, type LiveSession, type StaffService } from './service.js';
import { SignInFailures } from './sign-in-failures.js';
import { errorPage } from './views/layout.js';

declare module 'fastify' {
  interface FastifyRequest {
    staff: LiveSession | null;
  }
  interface FastifyContextConfig {
    /** A console page or action: the least role it needs (see ConsoleAccess). */
    console?: ConsoleAccess;
  }
}

export interface ConsoleRouteOptions {
  operations: ConsoleOperations;
  staff: StaffService;
  audit: AuditTrail;
  /** Signs the cookies (derived from the credentials key). */
  cookieSecret: Buffer;
  secureCookie: boolean;
  sessionTtlMs: number;
  orderStuckAfterMs: number;
  clock: Clock;
}

/**
 * The console's only routes open without a session: the sign-in page and form (which has a CSRF
 * token of its own) and the static assets. Every other route must say which role it needs
 * (`config.console`), or the console refuses to start.
 */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  'GET /console/login',
  'POST /console/login',
  'GET /console/assets/htmx.min.js',
  'GET /console/assets/console.css',
]);

/** `METHOD /url` as registered; a HEAD route is its GET's. */
const routeKey = (method: string, url: string | undefined) => `${method === 'HEAD' ? 'GET' : method} ${url ?? ''}`;

/** Console responses may not be framed, sniffed, stored, or run a script or style from anywhere but here. */
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

/**
 * Where an error page's Back link goes: the page the request came from when that is a console page
 * of this very origin (its path and query only), else the dashboard. `Referer` is the client's to
 * write: anything else (another origin, `//host`, `javascript:`, a path outside /console) is not
 * followed.
 */
export function backLink(referer: string | undefined, host: string): string {
  if (!referer) return '/console';
  try {
    const from = new URL(referer);
    if (from.protocol !== 'http:' && from.protocol !== 'https:') return '/console';
    if (from.username !== '' || from.password !== '' || from.host !== new URL(`${from.protocol}//${host}`).host) return '/console';
    const path = from.pathname;
    return path === '/console' || path.startsWith('/console/') ? `${path}${from.search}` : '/console';
  } catch {
    return '/console';
  }
}

/**
 * The staff console (docs/console.md), served under /console when CONSOLE_ENABLED=true. One file
 * per resource under ./routes/, each page built from a view model (./models/) and rendered by
 * ./views/; every action goes through ConsoleOperations to the services the API and the CLI use.
 * Authentication is a staff session cookie only: X-API-KEY is never looked at.
 *
 * Denied by default: a route is either on PUBLIC_ROUTES or declares the least role it needs; a
 * route with neither stops the console from starting, and a request the hooks cannot classify is
 * refused.
 */
export async function consoleRoutes(app: FastifyInstance, opts: ConsoleRouteOptions): Promise<void> {
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (PUBLIC_ROUTES.has(routeKey(method, route.url)) || route.config?.console) continue;
      throw new Error(
        `console route ${method} ${route.url} declares no role (config.console) and is not public (PUBLIC_ROUTES in src/modules/console/routes.ts)`,
      );
    }
  });

  await app.register(cookie, { secret: opts.cookieSecret, hook: 'onRequest' });
  await app.register(formbody, { bodyLimit: 16 * 1024 });
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fileSize: 2 * 1024 * 1024, files: 1, fields: 5, parts: 6 },
  });
  app.decorateRequest('staff', null);

  const signInFailures = new SignInFailures(opts.audit, opts.clock, (error) =>
    app.log.error({ err: error }, 'failed sign-ins could not be recorded'),
  );
  app.addHook('onClose', () => signInFailures.close());

  const deps: ConsoleDeps = {
    operations: opts.operations,
    staff: opts.staff,
    audit: opts.audit,
    signInFailures,
    cookies: { secure: opts.secureCookie, sessionMaxAge: Math.floor(opts.sessionTtlMs / 1000) },
    orderStuckAfterMs: opts.orderStuckAfterMs,
    clock: opts.clock,
  };

  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) void reply.header(name, value);
    // The API's CORS answer is not the console's: no other origin may read a console page.
    reply.removeHeader('access-control-allow-origin');
    reply.removeHeader('access-control-expose-headers');
    return payload;
  });

  app.setErrorHandler((failure: unknown, request, reply) => {
    const back = backLink(request.headers.referer, request.host);
    const page = (status: number, message: string) =>
      html(reply, errorPage(request.staff ? frameOf(request, `Refused (${status})`, '') : null, status, message, back), status);
    if (failure instanceof InventoryImportError) return page(400, failure.message);
    if (failure instanceof DomainError) return page(statusOfRefusal(failure.refusal), failure.message);
    const error = failure as { validation?: unknown; statusCode?: unknown; message?: unknown };
    const message = typeof error.message === 'string' ? error.message : 'the request is not valid';
    if (error.validation) return page(400, `The form is not valid: ${message}`);
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)
      return page(error.statusCode, message);
    request.log.error({ err: failure }, 'console request failed');
    return page(500, 'Something went wrong on our side; nothing more is known here (see the server log).');
  });

  // Who is asking (a signed session cookie, nothing else), and whether they may.
  app.addHook('onRequest', async (request, reply) => {
    if (PUBLIC_ROUTES.has(routeKey(request.method, request.routeOptions.url))) return;
    const access = request.routeOptions.config.console;
    // Unreachable while the onRoute hook above holds: refused all the same.
    if (!access) return html(reply, errorPage(null, 404, 'No such console page.'), 404);
    const raw = request.cookies[SESSION_COOKIE];
    const unsigned = raw ? request.unsignCookie(raw) : null;
    request.staff = unsigned?.valid && unsigned.value ? await opts.staff.session(unsigned.value) : null;
    if (!request.staff) {
      if (raw) void reply.clearCookie(SESSION_COOKIE, clearCookieOptions(deps.cookies));
      if (request.method === 'GET' || request.method === 'HEAD') return seeOther(reply, '/console/login');
      return html(reply, errorPage(null, 401, 'Your session has ended: sign in again.', '/console/login'), 401);
    }
    // A sign-in half done (the password, not yet the code) reaches the code form and sign-out only.
    if (request.staff.secondFactorPending && !access.duringSecondFactor) {
      if (request.method === 'GET' || request.method === 'HEAD') return seeOther(reply, '/console/login/code');
      return html(reply, errorPage(null, 403, 'Give your sign-in code first.', '/console/login/code'), 403);
    }
    if (request.staff.passwordChangeRequired && !access.duringPasswordChange) {
      if (request.method === 'GET' || request.method === 'HEAD') return seeOther(reply, '/console/password');
      return html(
        reply,
        errorPage(frameOf(request, 'Refused (403)', ''), 403, 'Choose your own password first.', '/console/password'),
        403,
      );
    }
    if (request.staff.twoFactorEnrolmentRequired && !request.staff.passwordChangeRequired && !access.duringTwoFactorEnrolment) {
      if (request.method === 'GET' || request.method === 'HEAD') return seeOther(reply, '/console/2fa');
      return html(
        reply,
        errorPage(frameOf(request, 'Refused (403)', ''), 403, 'Set up two-factor sign-in first.', '/console/2fa'),
        403,
      );
    }
    if (!mayAct(request.staff.role, access.role)) {
      if (access.action)
        await opts.operations.recordRefusal(
          actorOf(request),
          access.action,
          recordOf(request),
          `role ${request.staff.role} may not (needs ${access.role})`,
        );
      return html(
        reply,
        errorPage(frameOf(request, 'Not allowed', ''), 403, `This needs the ${access.role} role; you are ${request.staff.role}.`),
        403,
      );
    }
  });

  // Every form that changes something carries the session's CSRF token; checked before the form is even validated.
  app.addHook('preValidation', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    if (PUBLIC_ROUTES.has(routeKey(request.method, request.routeOptions.url))) return;
    const session = request.staff;
    if (!session) throw new Error(`console route ${request.url} reached its form without a session`);
    const body: unknown = request.body;
    const fromForm = typeof body === 'object' && body !== null && '_csrf' in body ? body._csrf : undefined;
    if (!sameToken(fromForm ?? request.headers['x-csrf-token'], session.csrfToken)) {
      await opts.operations.recordRefusal(
        actorOf(request),
        request.routeOptions.config.console?.action ?? request.url,
        recordOf(request),
        'missing or wrong CSRF token',
      );
      return html(
        reply,
        errorPage(
          frameOf(request, 'Refused', ''),
          403,
          'The form has expired or did not come from the console: reload the page and try again.',
        ),
        403,
      );
    }
  });

  // An unknown path under /console is an HTML page, 404, signed in or not: the session hook above
  // answers it (no route declares a role), so it says no more than that there is no such page.
  await app.register(
    async (scope) => {
      scope.setNotFoundHandler((_request, reply) => html(reply, errorPage(null, 404, 'No such console page.'), 404));
    },
    { prefix: '/console' },
  );

  for (const routes of [
    assetRoutes,
    sessionRoutes,
    twoFactorRoutes,
    dashboardRoutes,
    topUpRoutes,
    orderRoutes,
    inventoryRoutes,
    packageRoutes,
    partnerRoutes,
    adjustmentRoutes,
    staffRoutes,
    auditRoutes,
    reconciliationRoutes,
    reportRoutes,
    webhookRoutes,
  ])
    await app.register(routes, deps);
}
