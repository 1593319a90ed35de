import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { notFound } from '../errors.js';
import {
  DataPackageResponse,
  DataPackagesQuery,
  DataPackagesResponse,
  OperatorParams,
  OperatorsResponse,
  PackageParams,
  ProductsResponse,
  RcPackagesResponse,
} from '../schemas/catalog.js';
import { authErrors, withErrors } from '../schemas/common.js';

export const catalogRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/operators',
    { schema: { tags: ['catalog'], summary: 'Active operators', response: { 200: OperatorsResponse, ...authErrors } } },
    async () => ({ success: true as const, data: await ctx.catalog.operators() }),
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
    async (request) => ({ success: true as const, data: await ctx.catalog.products(request.params.operatorId) }),
  );

  // Spec 4.3: any other path under /operators/ is rejected, with the key still required first.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/operators/*',
    schema: { hide: true },
    handler: async () => {
      throw notFound('Only /api/v1/operators/{operatorId}/products exists under /api/v1/operators/');
    },
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
    async (request) => ({
      success: true as const,
      data: await ctx.catalog.dataPackages(request.auth.role, request.query),
    }),
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
      data: await ctx.catalog.dataPackage(request.params.packageId, request.auth.role),
    }),
  );

  app.get(
    '/result-checker/packages',
    {
      schema: {
        tags: ['result-checker'],
        summary: 'Active result-checker packages with live stock',
        response: { 200: RcPackagesResponse, ...authErrors },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.catalog.rcPackages(request.auth.role) }),
  );
};
