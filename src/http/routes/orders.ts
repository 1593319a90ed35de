import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import type { EncodedOrderPage, Reader } from '../../orders/service.js';
import { JSON_TYPE } from '../body-cache.js';
import { notHere } from '../plugins/errors.js';
import { authErrors, withErrors } from '../schemas/common.js';
import { Order, OrderParams, OrderResponse, OrdersQuery, OrdersResponse, OrderStatusResponse } from '../schemas/orders.js';

const reader = (request: FastifyRequest): Reader => ({ profileId: request.auth.profileId, mode: request.auth.mode });

const EMPTY_ORDERS = '"orders":[]';
/** Fastify types a schema as a plain record; this one object is also its compiled serializer's cache key. */
const ORDER_SCHEMA = Order as unknown as Record<string, unknown>;

/**
 * The page as the route's serializer writes it: its envelope serialized with no orders, and the
 * orders' own JSON (mostly cached, see OrderService.listEncoded) put into the empty array.
 */
function pageBody(reply: FastifyReply, page: EncodedOrderPage): string {
  const envelope = String(reply.serialize({ success: true, data: { ...page, orders: [] } }));
  const at = envelope.indexOf(EMPTY_ORDERS);
  if (at < 0) throw new Error('the order page envelope has no empty orders array');
  const inside = at + EMPTY_ORDERS.length - 1;
  return `${envelope.slice(0, inside)}${page.orders.join(',')}${envelope.slice(inside)}`;
}

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
    async (request, reply) => {
      // The route's own serializer for one order (Fastify compiles it once per route and schema).
      const encode = reply.compileSerializationSchema(ORDER_SCHEMA) as (order: Order) => string;
      const page = await ctx.orders.listEncoded(reader(request), request.query, encode);
      return reply.type(JSON_TYPE).send(pageBody(reply, page));
    },
  );

  app.get(
    '/orders/:orderId',
    {
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
    method: ['GET', 'POST'],
    url: '/orders/*',
    config: { catchAll: true },
    schema: { hide: true },
    handler: notHere(app.routeIndex, 'Only /api/v1/orders/{orderId} and /api/v1/orders/{orderId}/status exist under /api/v1/orders/'),
  });
};
