import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BodyCache } from '../../http/body-cache.js';
import { notHere } from '../../http/errors.js';
import { authErrors, withErrors } from '../../http/responses.js';
import {
  DataPackageResponse,
  DataPackagesQuery,
  DataPackagesResponse,
  OperatorParams,
  OperatorsResponse,
  PackageParams,
  ProductsResponse,
} from './schemas.js';
import type { CatalogService } from './service.js';

/** Package lists per catalog version, role and filter: a few per version. */
const PACKAGE_LISTS_CACHED = 1_000;

export const catalogRoutes: FastifyPluginAsyncTypebox<{ catalog: CatalogService }> = async (app, { catalog }) => {
  const packageLists = new BodyCache(PACKAGE_LISTS_CACHED);

  app.get(
    '/operators',
    { schema: { tags: ['catalog'], summary: 'Active operators', response: { 200: OperatorsResponse, ...authErrors } } },
    async (request) => ({ success: true as const, data: await catalog.operators(request.auth.catalogVersion) }),
  );

  app.get(
    '/operators/:operatorId/products',
    {
      schema: {
        tags: ['catalog'],
        summary: "An operator's products",
        params: OperatorParams,
        response: { 200: ProductsResponse, ...authErrors, ...withErrors(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await catalog.products(request.params.operatorId, request.auth.catalogVersion),
    }),
  );

  // Any other path under /operators/ is rejected, with the key still required first (docs/errors.md,
  // "Codes of the platform", NOT_FOUND).
  app.route({
    method: ['GET', 'POST'],
    url: '/operators/*',
    config: { catchAll: true },
    schema: { hide: true },
    handler: notHere(app.routeIndex, 'Only /api/v1/operators/{operatorId}/products exists under /api/v1/operators/'),
  });

  app.get(
    '/data-packages',
    {
      schema: {
        tags: ['catalog'],
        summary: "Active data packages priced for the key owner's role",
        querystring: DataPackagesQuery,
        response: { 200: DataPackagesResponse, ...authErrors, ...withErrors(400) },
      },
    },
    async (request, reply) => {
      const { role, catalogVersion } = request.auth;
      const { operatorId = '', productId = '' } = request.query;
      // A catalog version is never reused, so a body keyed by it can never be stale.
      return packageLists.send(reply, `${catalogVersion}\u0000${role}\u0000${operatorId}\u0000${productId}`, async () => ({
        success: true as const,
        data: await catalog.dataPackages(role, request.query, catalogVersion),
      }));
    },
  );

  app.get(
    '/packages/:packageId',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One data package, with status',
        params: PackageParams,
        response: { 200: DataPackageResponse, ...authErrors, ...withErrors(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await catalog.dataPackage(request.params.packageId, request.auth.role, request.auth.catalogVersion),
    }),
  );
};
