import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dashboardView } from '../models/dashboard.js';
import { CsrfOnly, ModeQuery } from '../schemas.js';
import { packageFlagsView } from '../models/packages.js';
import { dashboardPage } from '../views/dashboard.js';
import { packageFlagsSection } from '../views/packages.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const dashboardRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console', { schema: { ...PAGE, querystring: ModeQuery }, config: read() }, async (request, reply) => {
    const mode = request.query.mode ?? 'live';
    const [data, flags] = await Promise.all([ops.dashboard(mode), ops.packageFlags()]);
    return html(
      reply,
      dashboardPage(
        frameOf(request, 'Dashboard', 'dashboard', request.query.notice),
        dashboardView(data, sessionOf(request).role),
        packageFlagsSection(packageFlagsView(flags)),
      ),
    );
  });

  app.post(
    '/console/ledger/verify',
    { schema: { hide: true, body: CsrfOnly }, config: act('operator', 'ledger.verify') },
    async (request, reply) => {
      await ops.verifyLedger(actorOf(request));
      return seeOther(reply, '/console');
    },
  );
};
