import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { packagesView, packageView, pricingFromForm, routesFromForm } from '../models/packages.js';
import { IdParams, NoticeQuery, OperatorNetworkBody, PackageBody, RoutesBody } from '../schemas.js';
import { errorPage } from '../views/layout.js';
import { packagePage, packagesPage } from '../views/packages.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

export const packageRoutes: FastifyPluginAsyncTypebox<ConsoleDeps> = async (app, { operations: ops }) => {
  app.get('/console/packages', { schema: { ...PAGE, querystring: NoticeQuery }, config: read() }, async (request, reply) => {
    const [{ packages, policy }, operators] = await Promise.all([ops.packages(), ops.operators()]);
    const view = packagesView(packages, policy, operators, sessionOf(request).role);
    return html(reply, packagesPage(frameOf(request, 'Data packages', 'packages', request.query.notice), view));
  });

  app.post(
    '/console/operators/:id/network',
    { schema: { hide: true, params: IdParams, body: OperatorNetworkBody }, config: act('admin', 'operator.network') },
    async (request, reply) => {
      const network = request.body.network === '' ? null : request.body.network;
      await ops.setOperatorNetwork(actorOf(request), request.params.id, network);
      return seeOther(reply, `/console/packages?notice=network#operator-${encodeURIComponent(request.params.id)}`);
    },
  );

  app.get(
    '/console/packages/:id',
    { schema: { ...PAGE, params: IdParams, querystring: NoticeQuery }, config: read() },
    async (request, reply) => {
      const { id } = request.params;
      const found = await ops.package(id);
      if (!found)
        return html(reply, errorPage(frameOf(request, 'Not found', 'packages'), 404, `No data package ${id}.`, '/console/packages'), 404);
      const view = packageView(found, found.policy, sessionOf(request).role);
      return html(reply, packagePage(frameOf(request, `Package ${id}`, 'packages', request.query.notice), view));
    },
  );

  app.post(
    '/console/packages/:id',
    { schema: { hide: true, params: IdParams, body: PackageBody }, config: act('admin', 'package.update') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.updatePackage(actorOf(request), id, pricingFromForm(request.body));
      return seeOther(reply, `/console/packages/${encodeURIComponent(id)}?notice=saved`);
    },
  );

  app.post(
    '/console/packages/:id/routes',
    { schema: { hide: true, params: IdParams, body: RoutesBody }, config: act('admin', 'package.routes.set') },
    async (request, reply) => {
      const { id } = request.params;
      await ops.setPackageRoutes(actorOf(request), id, routesFromForm(request.body as RoutesBody), { guardActive: true });
      return seeOther(reply, `/console/packages/${encodeURIComponent(id)}?notice=routes`);
    },
  );
};
