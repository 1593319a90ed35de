import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { topUpsCsv } from '../exports.js';
import { topUpHistoryView, topUpsView } from '../models/top-ups.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../../../domain/errors.js';
import type { BulkApproval } from '../operations.js';
import { BulkApproveBody, CsrfOnly, IdParams, NoticeQuery, ReasonBody, TopUpSearchQuery } from '../schemas.js';
import { topUpPage, topUpsPage } from '../views/top-ups.js';
import { act, actorOf, csvReply, frameOf, html, PAGE, requestedPage, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

const TOP_UPS_PER_PAGE = 50;

/** Who reads the page: what they may do with each top-up depends on it (four eyes). */
const staffOf = (request: FastifyRequest) => ({ role: sessionOf(request).role, staffId: sessionOf(request).staffId });

/** What the list's query asks for (the page and the export alike). */
const topUpFilterOf = (query: TopUpSearchQuery) => ({
  mode: query.mode ?? 'live',
  text: query.q?.trim() || undefined,
  status: query.status || undefined,
  method: query.method || undefined,
});

export const topUpRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops, clock }) => {
  /** The list as a query asks for it, with the outcome of a bulk approval just made. */
  async function listPage(request: FastifyRequest, reply: FastifyReply, query: TopUpSearchQuery, bulk: BulkApproval[] = []) {
    const mode = query.mode ?? 'live';
    const form = { q: query.q ?? '', status: query.status ?? '', method: query.method ?? '' };
    const found = await ops.topUps(topUpFilterOf(query), requestedPage(query, TOP_UPS_PER_PAGE));
    const bulkNames = await ops.partnerNames(bulk.flatMap((b) => (b.profileId === null ? [] : [b.profileId])));
    const names = new Map([...found.names, ...bulkNames]);
    return html(
      reply,
      topUpsPage(
        frameOf(request, 'Top-ups', 'top-ups', query.notice),
        topUpsView(form, mode, { ...found, names }, staffOf(request), ops.topUpApprovalAbove, bulk),
      ),
    );
  }

  app.get('/console/top-ups', { schema: { ...PAGE, querystring: TopUpSearchQuery }, config: read() }, async (request, reply) =>
    listPage(request, reply, request.query),
  );

  // The list's filters, every page of it (exports.ts).
  app.get(
    '/console/top-ups.csv',
    { schema: { hide: true, querystring: TopUpSearchQuery, response: { 200: Type.String() } }, config: read() },
    async (request, reply) => {
      const filter = topUpFilterOf(request.query);
      const csv = await topUpsCsv(ops, filter);
      return csvReply(reply, `top-ups-${filter.mode}-${new Date(clock()).toISOString().slice(0, 10)}.csv`, csv);
    },
  );

  // Each top-up in its own unit of work, exactly as one approval; the page says what became of each.
  app.post(
    '/console/top-ups/approve',
    { schema: { ...PAGE, body: BulkApproveBody }, config: act('operator', 'topup.approve') },
    async (request, reply) => {
      const given = request.body.ids;
      const ids = given === undefined ? [] : [given].flat();
      if (ids.length === 0) throw invalid('INVALID_REQUEST', 'select at least one pending top-up to approve');
      const outcomes = await ops.approveTopUps(actorOf(request), ids, sessionOf(request).role);
      void reply.header('hx-push-url', '/console/top-ups?status=pending');
      return listPage(request, reply, { status: 'pending' }, outcomes);
    },
  );

  app.post(
    '/console/top-ups/:id/approve',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'topup.approve') },
    async (request, reply) => {
      const row = await ops.approveTopUp(actorOf(request), request.params.id, sessionOf(request).role);
      return seeOther(reply, `/console/top-ups?notice=${row.status === 'approved' ? 'approved' : 'first-approval'}`);
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
      topUpPage(
        frameOf(request, `Top-up ${data.topUp.id}`, 'top-ups', request.query.notice),
        topUpHistoryView({ ...data, names }, staffOf(request), ops.topUpApprovalAbove),
      ),
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
