import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { statusOfRefusal } from '../../../http/errors.js';
import { InventoryImportError } from '../../result-checker/csv.js';
import { isRefusal } from '../operations.js';
import { CodeBody, CsrfOnly, IdParams, NoticeQuery, PasswordAndCodeBody } from '../schemas.js';
import { twoFactorView } from '../models/two-factor.js';
import { codePage, twoFactorPage } from '../views/two-factor.js';
import { act, actorOf, cookieOptions, frameOf, html, PAGE, seeOther, sessionOf, SESSION_COOKIE, type ConsoleDeps } from './common.js';

/**
 * Two-factor sign-in (docs/console.md, "Two-factor sign-in"): the code step of a sign-in, the
 * holder's own setup and removal, and an admin's reset of another account's (a lost device).
 */
export const twoFactorRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { operations: ops, staff, cookies } = deps;
  const codeStep = { role: 'viewer', duringSecondFactor: true } as const;
  const enrolment = { role: 'viewer', duringTwoFactorEnrolment: true } as const;

  app.get('/console/login/code', { schema: PAGE, config: { console: codeStep } }, async (request, reply) => {
    const session = sessionOf(request);
    if (!session.secondFactorPending) return seeOther(reply, '/console');
    return html(reply, codePage(session.csrfToken));
  });

  app.post(
    '/console/login/code',
    { schema: { ...PAGE, body: CodeBody }, config: { console: { ...codeStep, action: 'staff.login' } } },
    async (request, reply) => {
      const session = sessionOf(request);
      if (!session.secondFactorPending) return seeOther(reply, '/console');
      try {
        const { token, recoveryCodesLeft } = await staff.secondFactor(session, request.body.code, request.ip);
        void reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(cookies), maxAge: cookies.sessionMaxAge });
        return seeOther(reply, recoveryCodesLeft === null ? '/console' : '/console/2fa?notice=recovery-code');
      } catch (error) {
        if (!isRefusal(error) || error instanceof InventoryImportError) throw error;
        // Counted (StaffService.secondFactor) and audited like a wrong password (sign-in-failures.ts).
        await deps.signInFailures.failed(request.ip, session.email, error.message);
        const status = error.code === 'RATE_LIMITED' ? 429 : statusOfRefusal(error.refusal);
        return html(reply, codePage(session.csrfToken, error.message), status);
      }
    },
  );

  const page = async (request: FastifyRequest, reply: FastifyReply, extra: { error?: string; recoveryCodes?: string[]; notice?: string } = {}, status = 200) => {
    const session = sessionOf(request);
    const state = await staff.twoFactorStatus(session.staffId);
    const view = twoFactorView(state, { ...extra, enrolmentRequired: session.twoFactorEnrolmentRequired });
    return html(reply, twoFactorPage(frameOf(request, 'Two-factor sign-in', '2fa', extra.notice), view), status);
  };

  /** A refusal shown on the two-factor page (and recorded), or an error thrown on. */
  const refusedOnPage = async (request: FastifyRequest, reply: FastifyReply, action: 'staff.totp_enable' | 'staff.totp_disable' | 'staff.recovery_codes_regenerate', error: unknown) => {
    if (!isRefusal(error) || error instanceof InventoryImportError) throw error;
    await ops.recordRefusal(actorOf(request), action, sessionOf(request).staffId, error.message);
    return page(request, reply, { error: error.message }, error.code === 'RATE_LIMITED' ? 429 : statusOfRefusal(error.refusal));
  };

  app.get('/console/2fa', { schema: { ...PAGE, querystring: NoticeQuery }, config: { console: enrolment } }, async (request, reply) =>
    page(request, reply, request.query.notice === undefined ? {} : { notice: request.query.notice }),
  );

  app.post(
    '/console/2fa/setup',
    { schema: { ...PAGE, body: CsrfOnly }, config: { console: { ...enrolment, action: 'staff.totp_enable' } } },
    async (request, reply) => {
      try {
        await staff.beginTwoFactor(sessionOf(request));
      } catch (error) {
        return refusedOnPage(request, reply, 'staff.totp_enable', error);
      }
      return seeOther(reply, '/console/2fa');
    },
  );

  app.post(
    '/console/2fa/confirm',
    { schema: { ...PAGE, body: PasswordAndCodeBody }, config: { console: { ...enrolment, action: 'staff.totp_enable' } } },
    async (request, reply) => {
      let recoveryCodes: string[];
      try {
        const { password, code } = request.body;
        ({ recoveryCodes } = await staff.confirmTwoFactor(actorOf(request), sessionOf(request), { password, code }));
      } catch (error) {
        return refusedOnPage(request, reply, 'staff.totp_enable', error);
      }
      // The recovery codes are shown on this answer only; htmx records the page's own address.
      void reply.header('hx-push-url', '/console/2fa');
      // The session no longer needs to set it up: the frame shows the navigation again.
      request.staff = { ...sessionOf(request), twoFactorEnrolmentRequired: false };
      return page(request, reply, { recoveryCodes });
    },
  );

  app.post(
    '/console/2fa/recovery-codes',
    { schema: { ...PAGE, body: CodeBody }, config: { console: { role: 'viewer', action: 'staff.recovery_codes_regenerate' } } },
    async (request, reply) => {
      let recoveryCodes: string[];
      try {
        ({ recoveryCodes } = await staff.regenerateRecoveryCodes(actorOf(request), sessionOf(request), request.body.code));
      } catch (error) {
        return refusedOnPage(request, reply, 'staff.recovery_codes_regenerate', error);
      }
      // Shown on this answer only, as at enrolment.
      void reply.header('hx-push-url', '/console/2fa');
      return page(request, reply, { recoveryCodes });
    },
  );

  app.post(
    '/console/2fa/disable',
    { schema: { ...PAGE, body: PasswordAndCodeBody }, config: { console: { role: 'viewer', action: 'staff.totp_disable' } } },
    async (request, reply) => {
      const { password, code } = request.body;
      try {
        await staff.disableTwoFactor(actorOf(request), sessionOf(request), { password, code });
      } catch (error) {
        return refusedOnPage(request, reply, 'staff.totp_disable', error);
      }
      return seeOther(reply, '/console/2fa?notice=2fa-off');
    },
  );

  app.post(
    '/console/staff/:id/2fa-reset',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', 'staff.totp_reset') },
    async (request, reply) => {
      await ops.resetStaffTwoFactor(actorOf(request), request.params.id);
      return seeOther(reply, '/console/staff?notice=2fa-reset');
    },
  );
};
