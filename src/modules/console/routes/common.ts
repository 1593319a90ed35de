import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StaffRole } from '../../../db/schema.js';
import type { Clock } from '../../../domain/types.js';
import type { Actor, AuditAction, AuditTrail } from '../../audit/service.js';
import { pageFrame, type PageFrame } from '../models/frame.js';
import type { ConsoleOperations } from '../operations.js';
import type { LiveSession, StaffService } from '../service.js';
import type { SignInFailures } from '../sign-in-failures.js';
import { HtmlPage } from '../schemas.js';
import { invalid } from '../../../domain/errors.js';
import { pageRequest, type PageRequest } from '../../../lib/staff-page.js';

/** What a console page needs, declared on its route (`config.console`); see ../routes.ts. */
export interface ConsoleAccess {
  /** The least role that may use it. */
  role: StaffRole;
  /** An action's audit name: a refusal for the role is recorded under it. */
  action?: AuditAction;
  /** Open to a session whose holder must still choose a password (the change-password page, sign-out). */
  duringPasswordChange?: true;
  /** Open to a session whose password was right but whose code is still to come (the code form, sign-out). */
  duringSecondFactor?: true;
  /** Open to an admin who must set up two-factor sign-in first (CONSOLE_REQUIRE_2FA): its pages, sign-out. */
  duringTwoFactorEnrolment?: true;
}

/** What every resource's routes are given by the console plugin. */
export interface ConsoleDeps {
  operations: ConsoleOperations;
  staff: StaffService;
  audit: AuditTrail;
  signInFailures: SignInFailures;
  cookies: ConsoleCookies;
  orderStuckAfterMs: number;
  clock: Clock;
}

export interface ConsoleCookies {
  secure: boolean;
  /** Seconds. */
  sessionMaxAge: number;
}

export const SESSION_COOKIE = 'console_session';
export const LOGIN_COOKIE = 'console_login';

export const cookieOptions = (cookies: ConsoleCookies) => ({
  path: '/console',
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: cookies.secure,
  signed: true,
});

export const clearCookieOptions = (cookies: ConsoleCookies) => ({
  path: '/console',
  httpOnly: true,
  sameSite: 'strict' as const,
  secure: cookies.secure,
});

/** A page any signed-in staff member may read, or one that needs more. */
export const read = (role: StaffRole = 'viewer'): { console: ConsoleAccess } => ({ console: { role } });
/** An action: its least role and its audit name. */
export const act = (role: StaffRole, action: AuditAction): { console: ConsoleAccess } => ({ console: { role, action } });

/** Every page is HTML and none is in the API's OpenAPI document. */
export const PAGE = { hide: true, response: { 200: HtmlPage } } as const;

/** Messages of the redirect after an action (`?notice=`): a fixed list, so nothing is reflected. */
const NOTICES: Record<string, string> = {
  approved: 'Top-up approved: the wallet is credited.',
  'first-approval': 'First approval recorded (1 of 2): the top-up stays pending until another admin approves it; nothing moved yet.',
  rejected: 'Top-up rejected.',
  reversed: 'Order reversed: the partner is refunded.',
  'recipient-reversed': 'Recipient reversed: the partner is refunded for it.',
  refunded: 'Result checker refunded: the partner is refunded and the credential is void.',
  retried: 'Stuck deliveries are due again: the worker picks them up now.',
  resolved: 'Delivery resolved by hand: settled, and the partner told.',
  revoked: 'Key revoked.',
  suspended: 'Profile suspended: its keys are refused from now on.',
  reactivated: 'Profile reactivated.',
  saved: 'Saved.',
  adjusted: 'Adjustment applied: the wallet moved and the partner is told.',
  adjustment_pending:
    'Adjustment recorded: it waits for a second admin to approve it (with what you, or anyone on this wallet, moved alone in the last 24 hours it is above the threshold).',
  staff_requested: 'Raising the role to admin is recorded: it takes effect once another admin approves it.',
  staff_request_approved: 'Request approved: the account is an admin now (its sessions ended).',
  staff_request_rejected: 'Request rejected: nothing changed.',
  adjustment_approved: 'Adjustment approved: the wallet moved and the partner is told.',
  adjustment_rejected: 'Adjustment rejected: nothing moved.',
  routes: 'Routes saved.',
  'routes-checked': 'Routes saved: each new route was read at its upstream, which offers it.',
  'routes-unchecked': 'Routes saved. A route to an upstream not enabled here was saved without a check at that upstream.',
  'routes-below-cost': 'Routes saved below cost, as you confirmed: the dashboard flags the package until its prices cover its routes.',
  'saved-below-cost': 'Saved below cost, as you confirmed: the dashboard flags the package until its prices cover its routes.',
  network: "Operator's network saved: purchases check numbers against it from now on.",
  password: 'Password changed: your other sessions have ended.',
  reconciling: 'Reconciliation queued: a worker runs it shortly; reload to see its result.',
  finding: 'Finding marked resolved.',
  'recheck-credited': 'Re-checked with Paystack: paid, and now credited.',
  'recheck-credited-late': 'Re-checked with Paystack: paid after it was rejected, and now credited (late).',
  'recheck-rejected': 'Re-checked with Paystack: not paid; rejected.',
  'recheck-mismatch': 'Re-checked with Paystack: paid with another amount or currency; not credited (see the history).',
  'recheck-final':
    'Re-checked with Paystack: it reports the payment as matching now, but the top-up was rejected as not matched, which is final: not credited; settle it by an adjustment.',
  'recheck-waiting': 'Re-checked with Paystack: still waiting for the payer.',
  'recheck-unknown': 'Re-checked: Paystack gave no usable answer; the worker asks again.',
  'recheck-done': 'Re-checked: already decided; nothing changed.',
  '2fa-off': 'Two-factor sign-in is off.',
  redelivered: 'Redelivery queued: the worker sends the event to the endpoint again shortly.',
  'webhook-disabled': 'Endpoint disabled: nothing more is sent to it, and its pending deliveries failed.',
  'webhook-enabled': 'Endpoint enabled: new events go to it again; redeliver the failed ones that should still arrive.',
  '2fa-reset': 'Two-factor sign-in removed: the account signs in with its password alone until it sets it up again.',
  'recovery-code': 'Signed in with a recovery code: it cannot be used again. Set up a new device when you can.',
};

export const html = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

/** A CSV download named `fileName` (only letters, digits, dots, dashes and underscores are kept in it). */
export const csvReply = (reply: FastifyReply, fileName: string, body: string) =>
  reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`)
    .send(body);

export const seeOther = (reply: FastifyReply, url: string) => reply.code(303).header('location', url).send();

/** Whether a form's token is the expected one (in constant time). */
export function sameToken(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The session of a request that needs one (the plugin's hook has made sure it has one). */
export function sessionOf(request: FastifyRequest): LiveSession {
  if (!request.staff) throw new Error(`console route ${request.url} ran without a session`);
  return request.staff;
}

/** Who acts, as the audit trail records it. */
export const actorOf = (request: FastifyRequest): Actor => ({
  staffId: request.staff?.staffId ?? null,
  name: request.staff?.email ?? 'anonymous',
  address: request.ip,
});

export const frameOf = (request: FastifyRequest, title: string, active: string, notice?: string): PageFrame =>
  pageFrame(sessionOf(request), title, active, notice === undefined ? undefined : NOTICES[notice]);

/** The page a list's links ask for (`older` / `newer` cursors); a cursor this console did not write is refused. */
export function requestedPage(links: { older?: string | undefined; newer?: string | undefined }, limit: number): PageRequest {
  const page = pageRequest(links, limit);
  if (!page) throw invalid('INVALID_REQUEST', 'the page link is not valid: start again from the first page');
  return page;
}

/** The id a request's path names, as the audit trail records it (refusals before the handler ran). */
export function recordOf(request: FastifyRequest): string | null {
  const params: unknown = request.params;
  if (typeof params !== 'object' || params === null || !('id' in params)) return null;
  return typeof params.id === 'string' ? params.id.slice(0, 128) : null;
}
