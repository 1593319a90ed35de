import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ordersCsv } from '../exports.js';
import { orderView, ordersView } from '../models/orders.js';
import { CsrfOnly, IdParams, NoticeQuery, OrderSearchQuery, ReasonBody, RecipientReasonBody, ResolveBody } from '../schemas.js';
import { orderPage, ordersPage } from '../views/orders.js';
import { act, actorOf, csvReply, frameOf, html, PAGE, requestedPage, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

const ORDERS_PER_PAGE = 50;

/** A UTC day (`2026-01-31`) as the time it starts. */
const dayStart = (date: string | undefined) => (date ? Date.parse(`${date}T00:00:00Z`) : undefined);

/** What the list's query asks for (the page and the export alike); `to` includes its day. */
function orderFilterOf(q: OrderSearchQuery) {
  const to = dayStart(q.to);
  return {
    mode: q.mode ?? 'live',
    text: q.q?.trim() || undefined,
    profileId: q.profileId?.trim() || undefined,
    state: q.state || undefined,
    type: q.type || undefined,
    from: dayStart(q.from),
    to: to === undefined ? undefined : to + 86_400_000,
  };
}

export const orderRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, deps) => {
  const { operations: ops } = deps;

  app.get('/console/orders', { schema: { ...PAGE, querystring: OrderSearchQuery }, config: read() }, async (request, reply) => {
    const q = request.query;
    const mode = q.mode ?? 'live';
    const form = { q: q.q ?? '', profileId: q.profileId ?? '', state: q.state ?? '', type: q.type ?? '', from: q.from ?? '', to: q.to ?? '' };
    const found = await ops.searchOrders(orderFilterOf(q), requestedPage(q, ORDERS_PER_PAGE));
    return html(reply, ordersPage(frameOf(request, 'Orders', 'orders'), ordersView(form, mode, found)));
  });

  // The list's filters, every page of it (exports.ts).
  app.get(
    '/console/orders.csv',
    { schema: { hide: true, querystring: OrderSearchQuery, response: { 200: Type.String() } }, config: read() },
    async (request, reply) => {
      const filter = orderFilterOf(request.query);
      const csv = await ordersCsv(ops, filter);
      return csvReply(reply, `orders-${filter.mode}-${new Date(deps.clock()).toISOString().slice(0, 10)}.csv`, csv);
    },
  );

  app.get(
    '/console/orders/:id',
    { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() },
    async (request, reply) => {
      const order = orderView(await ops.order(request.params.id), sessionOf(request).role, deps.orderStuckAfterMs, deps.clock());
      return html(reply, orderPage(frameOf(request, `Order ${order.shortReference}`, 'orders', request.query.notice), order));
    },
  );

  app.post(
    '/console/orders/:id/reverse',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'order.reverse') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.reverseOrder(actorOf(request), id, request.body.reason);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=reversed`);
    },
  );

  app.post(
    '/console/orders/:id/recipients/reverse',
    { schema: { hide: true, params: IdParams, body: RecipientReasonBody }, config: act('admin', 'order.reverse_recipient') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.reverseRecipient(actorOf(request), id, request.body.recipient, request.body.reason);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=recipient-reversed`);
    },
  );

  app.post(
    '/console/orders/:id/refund',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'rc.refund') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.refundResultChecker(actorOf(request), id, request.body.reason);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=refunded`);
    },
  );

  app.post(
    '/console/orders/:id/retry',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'order.retry') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.retryOrder(actorOf(request), id);
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=retried`);
    },
  );

  app.post(
    '/console/orders/:id/resolve',
    { schema: { hide: true, params: IdParams, body: ResolveBody }, config: act('admin', 'order.resolve') },
    async (request, reply) => {
      const { id } = request.params;
      const { outcome, note, partnerMessage, recipient } = request.body;
      await ops.resolveDelivery(actorOf(request), {
        order: id,
        outcome,
        note,
        // The field is sent empty when staff keep the standard message, and with a delivered outcome.
        ...(partnerMessage?.trim() && outcome === 'failed' ? { partnerMessage } : {}),
        ...(recipient ? { msisdn: recipient } : {}),
      });
      return seeOther(reply, `/console/orders/${encodeURIComponent(id)}?notice=resolved`);
    },
  );
};
