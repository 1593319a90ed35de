import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { statusOfRefusal } from '../../../http/errors.js';
import { InventoryImportError } from '../../result-checker/csv.js';
import { isRefusal, type Actor } from '../operations.js';
import { MIN_PASSWORD_LENGTH } from '../passwords.js';
import { CsrfOnly, LoginBody, PasswordBody } from '../schemas.js';
import { loginPage, passwordPage } from '../views/session.js';
import {
  actorOf,
  clearCookieOptions,
  cookieOptions,
  frameOf,
  html,
  LOGIN_COOKIE,
  PAGE,
  sameToken,
  seeOther,
  sessionOf,
  SESSION_COOKIE,
  type ConsoleDeps,
} from './common.js';

/** Sign-in (public), sign-out, and the holder's own password. */
export const sessionRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { operations: ops, cookies } = deps;
  const signed = cookieOptions(cookies);

  const loginForm = (reply: FastifyReply, status = 200, message?: string) => {
    const token = randomBytes(24).toString('base64url');
    void reply.setCookie(LOGIN_COOKIE, token, { ...signed, maxAge: 3600 });
    return html(reply, loginPage(token, message), status);
  };

  app.get('/console/login', { schema: PAGE }, async (_request, reply) => loginForm(reply));

  app.post('/console/login', { schema: { ...PAGE, body: LoginBody } }, async (request, reply) => {
    const { body } = request;
    const raw = request.cookies[LOGIN_COOKIE];
    const expected = raw ? request.unsignCookie(raw) : null;
    if (!expected?.valid || !expected.value || !sameToken(body._csrf, expected.value)) {
      return loginForm(reply, 403, 'The sign-in form expired: try again.');
    }
    const actor: Actor = { staffId: null, name: body.email.trim().toLowerCase().slice(0, 254), address: request.ip };
    try {
      // The sign-in's audit row is written with its session (StaffService.login).
      const { token, secondFactorPending } = await deps.staff.login(body.email, body.password, request.ip);
      void reply.clearCookie(LOGIN_COOKIE, clearCookieOptions(cookies));
      void reply.setCookie(SESSION_COOKIE, token, { ...signed, maxAge: cookies.sessionMaxAge });
      return seeOther(reply, secondFactorPending ? '/console/login/code' : '/console');
    } catch (error) {
      if (!isRefusal(error)) throw error;
      // Counted, and written as one audit row per address and minute (sign-in-failures.ts).
      await deps.signInFailures.failed(request.ip, actor.name, error.message);
      const throttled = !(error instanceof InventoryImportError) && error.code === 'RATE_LIMITED';
      return loginForm(reply, throttled ? 429 : 401, error.message);
    }
  });

  app.post(
    '/console/logout',
    { schema: { hide: true, body: CsrfOnly }, config: {
        console: {
          role: 'viewer',
          action: 'staff.logout',
          duringPasswordChange: true,
          duringSecondFactor: true,
          duringTwoFactorEnrolment: true,
        },
      },
    },
    async (request, reply) => {
      await deps.staff.logout(actorOf(request), sessionOf(request));
      void reply.clearCookie(SESSION_COOKIE, clearCookieOptions(cookies));
      return seeOther(reply, '/console/login');
    },
  );

  const passwordForm = { role: 'viewer', duringPasswordChange: true } as const;

  app.get('/console/password', { schema: PAGE, config: { console: passwordForm } }, async (request, reply) =>
    html(
      reply,
      passwordPage(frameOf(request, 'Password', 'password'), {
        required: sessionOf(request).passwordChangeRequired,
        minLength: MIN_PASSWORD_LENGTH,
      }),
    ),
  );

  app.post(
    '/console/password',
    {
      schema: { ...PAGE, body: PasswordBody },
      config: { console: { role: 'viewer', action: 'staff.change_password', duringPasswordChange: true } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const again = (status: number, error: string) =>
        html(
          reply,
          passwordPage(frameOf(request, 'Password', 'password'), {
            required: session.passwordChangeRequired,
            minLength: MIN_PASSWORD_LENGTH,
            error,
          }),
          status,
        );
      const { current, password, repeat } = request.body;
      if (password !== repeat) return again(400, 'The new password and its repetition differ.');
      try {
        await deps.staff.changePassword(actorOf(request), session, { current, next: password });
      } catch (error) {
        if (!isRefusal(error) || error instanceof InventoryImportError) throw error;
        await ops.recordRefusal(actorOf(request), 'staff.change_password', session.staffId, error.message);
        return again(statusOfRefusal(error.refusal), error.message);
      }
      return seeOther(reply, '/console?notice=password');
    },
  );
};
