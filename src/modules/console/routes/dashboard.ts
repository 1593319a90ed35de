import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dashboardView } from '../models/dashboard.js';
import { CsrfOnly, NoticeQuery } from '../schemas.js';
import { dashboardPage } from '../views/dashboard.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const dashboardRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console', { schema: { ...PAGE, querystring: NoticeQuery }, config: read() }, async (request, reply) =>
    html(
      reply,
      dashboardPage(
        frameOf(request, 'Dashboard', 'dashboard', request.query.notice),
        dashboardView(await ops.dashboard(), sessionOf(request).role),
      ),
    ),
  );

  app.post(
    '/console/ledger/verify',
    { schema: { hide: true, body: CsrfOnly }, config: act('operator', 'ledger.verify') },
    async (request, reply) => {
      await ops.verifyLedger(actorOf(request));
      return seeOther(reply, '/console');
    },
  );
};
