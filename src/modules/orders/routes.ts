import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { JSON_TYPE } from '../../http/body-cache.js';
import { notHere } from '../../http/errors.js';
import { authErrors, withErrors } from '../../http/responses.js';

import {
  Order,
  OrderParams,
  OrderResponse,
  OrdersQuery,
  OrdersResponse,
  OrderStatusResponse,
} from './schemas.js';
import type { EncodedOrderPage, OrderService } from './service.js';

const EMPTY_ORDERS = '"orders":[]';
const COMMA = Buffer.from(',');
/** Fastify types a schema as a plain record; this one object is also its compiled serializer's cache key. */
const ORDER_SCHEMA = Order as unknown as Record<string, unknown>;

/**
 * The page as the route's serializer writes it: its envelope serialized with no orders, and the
 * orders' own JSON (mostly cached, see OrderService.listEncoded) put into the empty array. The
 * body is built as bytes: the orders' JSON is kept encoded, so a page is one copy of each.
 */
function pageBody(reply: FastifyReply, page: EncodedOrderPage): Buffer {
  const envelope = reply.serialize({ success: true, data: { ...page, orders: [] } }) as string;
  const at = envelope.indexOf(EMPTY_ORDERS);
  if (at < 0) throw new Error('the order page envelope has no empty orders array');
  const inside = at + EMPTY_ORDERS.length - 1;
  const parts: Buffer[] = [Buffer.from(envelope.slice(0, inside))];
  for (const [i, order] of page.orders.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(order);
  }
  parts.push(Buffer.from(envelope.slice(inside)));
  return Buffer.concat(parts);
}

export const orderRoutes: FastifyPluginAsyncTypebox<{ orders: OrderService }> = async (app, { orders }) => {
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
      const serialize = reply.compileSerializationSchema(ORDER_SCHEMA) as (order: Order) => string;
      const page = await orders.listEncoded(request.auth, request.query, (order) => Buffer.from(serialize(order)));
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
    async (request) => ({ success: true as const, data: await orders.get(request.auth, request.params.orderId) }),
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
    async (request) => ({ success: true as const, data: await orders.status(request.auth, request.params.orderId) }),
  );

  // Nothing else exists under an order; the key is still required first (docs/errors.md, "Codes of
  // the platform", NOT_FOUND).
  app.route({
    method: ['GET', 'POST'],
    url: '/orders/*',
    config: { catchAll: true },
    schema: { hide: true },
    handler: notHere(
      app.routeIndex,
      'Only /api/v1/orders/{orderId} and /api/v1/orders/{orderId}/status exist under /api/v1/orders/',
    ),
  });
};
