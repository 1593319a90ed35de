import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authErrors, withErrors } from '../../http/responses.js';
import { Success } from '../../lib/wire.js';
import { BulkRecipient, Order } from '../orders/schemas.js';
import { TopUp } from '../top-ups/schemas.js';
import { WalletAdjustment, WalletBalance } from '../wallet/schemas.js';
import { EventParams, EventsQuery, RedeliverResponse, eventPageSchema, eventWithDeliveriesSchema } from './schemas.js';
import type { EventService } from './service.js';

/** What an event carries: the record as its GET endpoint returns it; a recipient event adds the recipient's entry. */
const EventData = Type.Object({
  object: Type.Union([Order, TopUp, WalletBalance, WalletAdjustment], {
    description:
      'An order as GET /orders/{orderId}, a top-up as in GET /top-ups, the wallet as GET /wallet-balance, or a staff adjustment of the wallet (wallet.adjusted)',
  }),
  recipient: Type.Optional({
    ...BulkRecipient,
    description: 'order.recipient.* events: the bulk recipient entry the event is about',
  }),
});

/** The caller's events, in the key's mode (docs/webhooks.md, "Event types"). */
export const eventRoutes: FastifyPluginAsyncTypebox<{ events: EventService }> = async (app, { events }) => {
  app.get(
    '/events',
    {
      schema: {
        tags: ['events'],
        summary: "Your events in the key's mode, newest first (kept 30 days)",
        querystring: EventsQuery,
        response: { 200: Success(eventPageSchema(EventData)), ...authErrors, ...withErrors(400) },
      },
    },
    async (request) => ({ success: true as const, data: await events.list(request.auth, request.query) }),
  );

  app.get(
    '/events/:eventId',
    {
      schema: {
        tags: ['events'],
        summary: 'One event, with its deliveries to your endpoints and every attempt',
        params: EventParams,
        response: { 200: Success(eventWithDeliveriesSchema(EventData)), ...authErrors, ...withErrors(400, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await events.get(request.auth, request.params.eventId) }),
  );

  app.post(
    '/events/:eventId/redeliver',
    {
      schema: {
        tags: ['events'],
        summary: 'Send an event again to each of your enabled endpoints that subscribe to its type',
        params: EventParams,
        response: { 202: RedeliverResponse, ...authErrors, ...withErrors(400, 404) },
      },
    },
    async (request, reply) => {
      const data = await events.redeliver(request.auth, request.params.eventId);
      return reply.status(202).send({ success: true as const, data });
    },
  );
};
