import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DELETED_BY_PARTNER } from '../../webhooks/service.js';
import { parseDeliveryId } from '../../webhooks/staff.js';
import { deliveryDetailView, failingWebhooksView, partnerWebhooksView } from '../models/webhooks.js';
import { CsrfOnly, FailingWebhooksQuery, IdParams, NoticeQuery, PartnerWebhooksQuery, ReasonBody } from '../schemas.js';
import { errorPage } from '../views/layout.js';
import { deliveryPage, failingWebhooksPage, partnerWebhooksPage } from '../views/webhooks.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

/**
 * Partners' webhooks (docs/console.md, "Webhooks"): a partner's endpoints and their deliveries,
 * failing deliveries of every partner, one delivery with its attempts; redeliver (operator), disable
 * and enable an endpoint (admin).
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  const notFound = (request: FastifyRequest, reply: FastifyReply, what: string, back: string) =>
    html(reply, errorPage(frameOf(request, 'Not found', 'webhooks'), 404, what, back), 404);

  const partnerPage = (profileId: string, mode: string, notice: string) =>
    `/console/partners/${encodeURIComponent(profileId)}/webhooks?mode=${mode}&notice=${notice}`;

  app.get(
    '/console/webhooks',
    { schema: { ...PAGE, querystring: FailingWebhooksQuery }, config: read() },
    async (request, reply) => {
      const page = await ops.failingWebhooks(request.query.mode ?? 'live', request.query.before ?? null);
      return html(reply, failingWebhooksPage(frameOf(request, 'Failing webhooks', 'webhooks'), failingWebhooksView(page, sessionOf(request).role)));
    },
  );

  app.get(
    '/console/webhooks/deliveries/:id',
    { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() },
    async (request, reply) => {
      const id = parseDeliveryId(request.params.id);
      const detail = id === null ? null : await ops.webhookDelivery(id);
      if (!detail)
        return notFound(request, reply, `No webhook delivery ${request.params.id} (events and their deliveries are deleted after the retention period).`, '/console/webhooks');
      return html(
        reply,
        deliveryPage(
          frameOf(request, `Webhook delivery ${detail.deliveryId}`, 'webhooks', request.query.notice),
          deliveryDetailView(detail, sessionOf(request).role),
        ),
      );
    },
  );

  app.post(
    '/console/webhooks/deliveries/:id/redeliver',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('operator', 'webhook.redeliver') },
    async (request, reply) => {
      const id = parseDeliveryId(request.params.id);
      if (id === null) return notFound(request, reply, `No webhook delivery ${request.params.id}.`, '/console/webhooks');
      await ops.redeliverWebhook(actorOf(request), id);
      return seeOther(reply, `/console/webhooks/deliveries/${id}?notice=redelivered`);
    },
  );

  app.get(
    '/console/partners/:id/webhooks',
    { schema: { ...PAGE, params: IdParams, querystring: PartnerWebhooksQuery }, config: read() },
    async (request, reply) => {
      const { id } = request.params;
      const found = await ops.partner(id);
      if (!found) return notFound(request, reply, `No profile ${id}.`, '/console/partners');
      const mode = request.query.mode ?? 'live';
      const endpoints = await ops.webhookEndpoints(id, mode);
      const view = partnerWebhooksView(found.profile, mode, endpoints, sessionOf(request).role, DELETED_BY_PARTNER);
      return html(reply, partnerWebhooksPage(frameOf(request, `Webhooks of ${view.name}`, 'partners', request.query.notice), view));
    },
  );

  app.post(
    '/console/webhooks/endpoints/:id/disable',
    { schema: { hide: true, params: IdParams, body: ReasonBody }, config: act('admin', 'webhook.disable') },
    async (request, reply) => {
      const owner = await ops.disableWebhookEndpoint(actorOf(request), request.params.id, request.body.reason);
      return seeOther(reply, partnerPage(owner.profileId, owner.mode, 'webhook-disabled'));
    },
  );

  app.post(
    '/console/webhooks/endpoints/:id/enable',
    { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', 'webhook.enable') },
    async (request, reply) => {
      const owner = await ops.enableWebhookEndpoint(actorOf(request), request.params.id);
      return seeOther(reply, partnerPage(owner.profileId, owner.mode, 'webhook-enabled'));
    },
  );
};
