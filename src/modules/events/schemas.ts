import { Type, type Static, type TSchema } from 'typebox';
import { Id, Nullable, Success, Timestamp } from '../../lib/wire.js';

/** integrator-features §2: events. The record each carries is typed where the routes are composed. */

export const EVENT_PAGE_DEFAULT = 20;
export const EVENT_PAGE_MAX = 100;

export const EventsQuery = Type.Object({
  type: Type.Optional(Type.String({ description: 'Only events of this type, e.g. order.completed' })),
  limit: Type.Optional(Type.String({ description: `Default ${EVENT_PAGE_DEFAULT}; above ${EVENT_PAGE_MAX} is capped` })),
  cursor: Type.Optional(Type.String({ description: 'continueCursor of the previous page' })),
});
export type EventsQuery = Static<typeof EventsQuery>;

export const EventParams = Type.Object({ eventId: Id('event id (evt_…)') });

export const DeliveryAttempt = Type.Object({
  attemptedAt: Timestamp(),
  statusCode: Nullable(Type.Integer({ description: "The endpoint's HTTP status; null when it did not answer" })),
  error: Nullable(Type.String({ description: 'Why no answer came (timeout, connection refused, address not allowed)' })),
  durationMs: Type.Integer(),
});

export const EventDelivery = Type.Object({
  endpointId: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  attempts: Type.Array(DeliveryAttempt, { description: 'Every attempt, oldest first' }),
  lastAttemptAt: Nullable(Timestamp()),
  lastStatusCode: Nullable(Type.Integer()),
  nextAttemptAt: Nullable(Timestamp('When a pending delivery is tried next')),
});
export type EventDelivery = Static<typeof EventDelivery>;

/** The event object of integrator-features §2 around `data` (the record and, for a recipient, its entry). */
export function eventSchema<D extends TSchema>(data: D) {
  return Type.Object({
    _id: Type.String({ description: 'evt_…; also the webhook-id of every delivery of it' }),
    type: Type.String({
      description:
        'order.completed, order.failed, order.recipient.completed, order.recipient.failed, order.reversed, topup.approved, topup.rejected, wallet.balance_low',
    }),
    createdAt: Timestamp(),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    data,
  });
}

export function eventWithDeliveriesSchema<D extends TSchema>(data: D) {
  const event = eventSchema(data);
  return Type.Object({ ...event.properties, deliveries: Type.Array(EventDelivery) });
}

export function eventPageSchema<D extends TSchema>(data: D) {
  return Type.Object({ events: Type.Array(eventSchema(data)), isDone: Type.Boolean(), continueCursor: Type.String() });
}

export const RedeliverResponse = Success(
  Type.Object({ eventId: Type.String(), endpoints: Type.Integer({ description: 'How many endpoints it was queued to' }) }),
);
