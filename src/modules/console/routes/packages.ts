import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteChange } from '../../package-routes/service.js';
import { packagesView, packageView, pricingFromForm, routesFromForm } from '../models/packages.js';
import { IdParams, NoticeQuery, OperatorNetworkBody, PackageBody, RoutesBody } from '../schemas.js';
import { errorPage } from '../views/layout.js';
import { packagePage, packagesPage } from '../views/packages.js';
import { act, actorOf, frameOf, html, PAGE, read, seeOther, sessionOf, type ConsoleDeps } from './common.js';

/** The notice after a routes save: below cost (confirmed), saved without a check at an upstream, or read at each. */
function routesNotice(saved: RouteChange): string {
  if (saved.belowCost.length > 0) return 'routes-below-cost';
  if (saved.checks.some((c) => c.checked === 'not-enabled')) return 'routes-unchecked';
  return saved.checks.some((c) => c.checked === 'offered') ? 'routes-checked' : 'routes';
}

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
      const saved = await ops.updatePackage(actorOf(request), id, pricingFromForm(request.body), { belowCost: request.body.belowCost === 'yes' });
      return seeOther(reply, `/console/packages/${encodeURIComponent(id)}?notice=${saved.belowCost.length > 0 ? 'saved-below-cost' : 'saved'}`);
    },
  );

  app.post(
    '/console/packages/:id/routes',
    { schema: { hide: true, params: IdParams, body: RoutesBody }, config: act('admin', 'package.routes.set') },
    async (request, reply) => {
      const { id } = request.params;
      const body = request.body as RoutesBody;
      const saved = await ops.setPackageRoutes(actorOf(request), id, routesFromForm(body), { guardActive: true, belowCost: body.belowCost === 'yes' });
      return seeOther(reply, `/console/packages/${encodeURIComponent(id)}?notice=${routesNotice(saved)}`);
    },
  );
};
