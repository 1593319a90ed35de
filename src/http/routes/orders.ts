import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Reader } from '../../orders/service.js';
import { notFound } from '../errors.js';
import { authErrors, withErrors } from '../schemas/common.js';
import { OrderParams, OrderResponse, OrdersQuery, OrdersResponse, OrderStatusResponse } from '../schemas/orders.js';

const reader = (request: FastifyRequest): Reader => ({ profileId: request.auth.profileId, mode: request.auth.mode });

export const orderRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/orders',
    {
      schema: {
        tags: ['orders'],
        summary: "The caller's orders, newest first",
        querystring: OrdersQuery,
        response: { 200: OrdersResponse, ...authErrors, ...withErrors(400) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.orders.list(reader(request), request.query) }),
  );

  app.get(
    '/orders/:orderId',
    {
      config: { failureCode: 'ORDER_NOT_FOUND' },
      schema: {
        tags: ['orders'],
        summary: 'One order, in full (bulk recipients included)',
        params: OrderParams,
        response: { 200: OrderResponse, ...authErrors, ...withErrors(404) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.orders.get(reader(request), request.params.orderId) }),
  );

  app.get(
    '/orders/:orderId/status',
    {
      config: { failureCode: 'ORDER_NOT_FOUND' },
      schema: {
        tags: ['orders'],
        summary: "An order's status",
        params: OrderParams,
        response: { 200: OrderStatusResponse, ...authErrors, ...withErrors(404) },
      },
    },
    async (request) => ({ success: true as const, data: await ctx.orders.status(reader(request), request.params.orderId) }),
  );

  // Spec 4.13, decisions §10: nothing else exists under an order; the key is still required first.
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/orders/*',
    schema: { hide: true },
    handler: async () => {
      throw notFound('Only /api/v1/orders/{orderId} and /api/v1/orders/{orderId}/status exist under /api/v1/orders/');
    },
  });
};
