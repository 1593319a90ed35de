import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { partnerLines, partnerView } from '../models/partners.js';
import { CsrfOnly, IdParams, KeyBody, NoticeQuery, RevokeBody } from '../schemas.js';
import { errorPage } from '../views/layout.js';
import { partnerPage, partnersPage } from '../views/partners.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const partnerRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/partners', { schema: PAGE, config: read() }, async (request, reply) =>
    html(reply, partnersPage(frameOf(request, 'Partners', 'partners'), partnerLines(await ops.partners()))),
  );

  const partnerPageOf = async (
    request: FastifyRequest,
    reply: FastifyReply,
    profileId: string,
    extra: { notice?: string | undefined; newKey?: { id: string; key: string } } = {},
  ) => {
    const found = await ops.partner(profileId);
    if (!found)
      return html(
        reply,
        errorPage(frameOf(request, 'Not found', 'partners'), 404, `No profile ${profileId}.`, '/console/partners'),
        404,
      );
    const view = partnerView(found, sessionOf(request).role, extra.newKey ?? null);
    return html(reply, partnerPage(frameOf(request, `Partner ${view.name}`, 'partners', extra.notice), view));
  };

  app.get(
    '/console/partners/:id',
    { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() },
    async (request, reply) => partnerPageOf(request, reply, request.params.id, { notice: request.query.notice }),
  );

  app.post(
    '/console/partners/:id/keys',
    { schema: { ...PAGE, params: IdParams, body: KeyBody }, config: act('admin', 'key.create') },
    async (request, reply) => {
      const { id } = request.params;
      const created = await ops.createKey(actorOf(request), id, request.body.mode);
      // The page shows the key once; htmx records the partner's page, not this form, as the address.
      void reply.header('hx-push-url', `/console/partners/${encodeURIComponent(id)}`);
      return partnerPageOf(request, reply, id, { newKey: created });
    },
  );

  app.post(
    '/console/keys/:id/revoke',
    { schema: { hide: true, params: IdParams, body: RevokeBody }, config: act('admin', 'key.revoke') },
    async (request, reply) => {
      await ops.revokeKey(actorOf(request), request.params.id);
      const { profileId } = request.body;
      return seeOther(reply, profileId ? `/console/partners/${encodeURIComponent(profileId)}?notice=revoked` : '/console/partners');
    },
  );

  for (const [path, status, notice] of [
    ['suspend', 'Suspended', 'suspended'],
    ['reactivate', 'Active', 'reactivated'],
  ] as const) {
    app.post(
      `/console/partners/:id/${path}`,
      { schema: { hide: true, params: IdParams, body: CsrfOnly }, config: act('admin', `profile.${path}`) },
      async (request, reply) => {
        const { id } = request.params;
        await ops.setProfileStatus(actorOf(request), id, status);
        return seeOther(reply, `/console/partners/${encodeURIComponent(id)}?notice=${notice}`);
      },
    );
  }
};
