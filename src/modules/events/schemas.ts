import { Type, type Static, type TSchema } from 'typebox';
import { Count, EXAMPLE, Id, Nullable, Success, Text, Timestamp } from '../../lib/wire.js';

/** Events (docs/webhooks.md, "Event types"). The record each carries is typed where the routes are composed. */

export const EVENT_PAGE_DEFAULT = 20;
export const EVENT_PAGE_MAX = 100;

export const EventsQuery = Type.Object({
  type: Type.Optional(Text('Only events of this type', 'order.completed')),
  limit: Type.Optional(Text(`Page size: default ${EVENT_PAGE_DEFAULT}; above ${EVENT_PAGE_MAX} is capped`, '20')),
  cursor: Type.Optional(Text('continueCursor of the previous page')),
});
export type EventsQuery = Static<typeof EventsQuery>;

export const EventParams = Type.Object({ eventId: Id('event id (evt_…)', EXAMPLE.eventId) });

export const DeliveryAttempt = Type.Object({
  attemptedAt: Timestamp('When the attempt was made', 1764063003400),
  statusCode: Nullable(Count("The endpoint's HTTP status; null when it did not answer", 200)),
  error: Nullable(Text('Why no answer came (timeout, connection refused, address not allowed)', 'timeout after 10000 ms')),
  durationMs: Count('How long the attempt took', 84),
});

export const EventDelivery = Type.Object({
  endpointId: Text('The endpoint (we_…)', EXAMPLE.endpointId),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')], {
    description: 'pending while attempts remain, succeeded after a 2xx, failed once the retry schedule is spent',
  }),
  attempts: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first' }),
  lastAttemptAt: Nullable(Timestamp('When it was last tried', 1764063003400)),
  lastStatusCode: Nullable(Count('Status of the last answer', 200)),
  nextAttemptAt: Nullable(Timestamp('When a pending delivery is tried next', 1764063303400)),
});
export type EventDelivery = Static<typeof EventDelivery>;

/** The event object (docs/webhooks.md, "Event types") around `data` (the record and, for a recipient, its entry). */
export function eventSchema<D extends TSchema>(data: D) {
  return Type.Object({
    _id: Text('evt_…; also the webhook-id of every delivery of it', EXAMPLE.eventId),
    type: Type.String({
      description:
        'order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.recipient.reversed, order.reversed, topup.approved, topup.rejected, wallet.balance_low, wallet.adjusted',
      examples: ['order.completed'],
    }),
    createdAt: Timestamp('When the change happened', 1764063003150),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: 'The mode of the record (and of the keys that see it)',
    }),
    data: { ...data, description: 'The record as its GET endpoint returns it (a recipient event adds its recipient entry)' },
  });
}

export function eventWithDeliveriesSchema<D extends TSchema>(data: D) {
  const event = eventSchema(data);
  return Type.Object({
    ...event.properties,
    deliveries: Type.Array(EventDelivery, { description: 'Its delivery to each of your endpoints, with every attempt' }),
  });
}

export function eventPageSchema<D extends TSchema>(data: D) {
  return Type.Object({
    events: Type.Array(eventSchema(data), { description: "Your events in the key's mode, newest first" }),
    isDone: Type.Boolean({ description: 'true when there are no more pages', examples: [true] }),
    continueCursor: Text('Pass as cursor to get the next page', 'WzE3NjQwNjMwMDMxNTAsImV2dF8wMWthc3FkOGowIl0'),
  });
}

export const RedeliverResponse = Success(
  Type.Object({ eventId: Text('The event', EXAMPLE.eventId), endpoints: Count('How many endpoints it was queued to', 1) }),
);
