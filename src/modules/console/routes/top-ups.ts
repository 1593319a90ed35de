import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { topUpHistoryView, topUpsView } from '../models/top-ups.js';
import { CsrfOnly, IdParams, NoticeQuery, ReasonBody } from '../schemas.js';
import { topUpPage, topUpsPage } from '../views/top-ups.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const topUpRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/top-ups', { schema: { ...PAGE, querystring: NoticeQuery }, config: read() }, async (request, reply) =>
    html(
      reply,
      topUpsPage(
        frameOf(request, 'Top-ups', 'top-ups', request.query.notice),
        topUpsView(await ops.topUps(), sessionOf(request).role),
      ),
    ),
  );

  app.post(
    '/console/top-ups/:id/approve',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'topup.approve') },
    async (request, reply) => {
      await ops.approveTopUp(actorOf(request), request.params.id);
      return seeOther(reply, '/console/top-ups?notice=approved');
    },
  );

  app.post(
    '/console/top-ups/:id/reject',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('operator', 'topup.reject') },
    async (request, reply) => {
      await ops.rejectTopUp(actorOf(request), request.params.id, request.body.reason);
      return seeOther(reply, '/console/top-ups?notice=rejected');
    },
  );

  app.get('/console/top-ups/:id', { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() }, async (request, reply) => {
    const data = await ops.topUpHistory(request.params.id);
    return html(reply, topUpPage(frameOf(request, `Top-up ${data.topUp.id}`, 'top-ups', request.query.notice), topUpHistoryView(data, sessionOf(request).role)));
  });

  app.post(
    '/console/top-ups/:id/recheck',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'topup.recheck') },
    async (request, reply) => {
      const outcome = await ops.recheckTopUp(actorOf(request), request.params.id);
      return seeOther(reply, `/console/top-ups/${encodeURIComponent(request.params.id)}?notice=recheck-${outcome}`);
    },
  );
};
