import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { topUpHistoryView, topUpsView } from '../models/top-ups.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../../domain/errors.js';
import type { BulkApproval } from '../operations.js';
import { BulkApproveBody, CsrfOnly, IdParams, NoticeQuery, ReasonBody, TopUpSearchQuery } from '../schemas.js';
import { topUpPage, topUpsPage } from '../views/top-ups.js';
import { act, actorOf, frameOf, html, PAGE, requestedPage, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

const TOP_UPS_PER_PAGE = 50;

export const topUpRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  /** The list as a query asks for it, with the outcome of a bulk approval just made. */
  async function listPage(request: FastifyRequest, reply: FastifyReply, query: TopUpSearchQuery, bulk: BulkApproval[] = []) {
    const mode = query.mode ?? 'live';
    const form = { q: query.q ?? '', status: query.status ?? '', method: query.method ?? '' };
    const found = await ops.topUps(
      { mode, text: form.q.trim() || undefined, status: query.status || undefined, method: query.method || undefined },
      requestedPage(query, TOP_UPS_PER_PAGE),
    );
    const bulkNames = await ops.partnerNames(bulk.flatMap((b) => (b.profileId === null ? [] : [b.profileId])));
    const names = new Map([...found.names, ...bulkNames]);
    return html(
      reply,
      topUpsPage(
        frameOf(request, 'Top-ups', 'top-ups', query.notice),
        topUpsView(form, mode, { ...found, names }, sessionOf(request).role, bulk),
      ),
    );
  }

  app.get('/console/top-ups', { schema: { ...PAGE, querystring: TopUpSearchQuery }, config: read() }, async (request, reply) =>
    listPage(request, reply, request.query),
  );

  // Each top-up in its own unit of work, exactly as one approval; the page says what became of each.
  app.post(
    '/console/top-ups/approve',
    { schema: { ...PAGE, body: BulkApproveBody }, config: act('operator', 'topup.approve') },
    async (request, reply) => {
      const given = request.body.ids;
      const ids = given === undefined ? [] : [given].flat();
      if (ids.length === 0) throw invalid('INVALID_REQUEST', 'select at least one pending top-up to approve');
      const outcomes = await ops.approveTopUps(actorOf(request), ids);
      void reply.header('hx-push-url', '/console/top-ups?status=pending');
      return listPage(request, reply, { status: 'pending' }, outcomes);
    },
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
    const names = await ops.partnerNames([data.topUp.profile_id]);
    return html(
      reply,
      topUpPage(frameOf(request, `Top-up ${data.topUp.id}`, 'top-ups', request.query.notice), topUpHistoryView({ ...data, names }, sessionOf(request).role)),
    );
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
