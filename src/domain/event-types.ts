/** What an integrator can be told about (docs/webhooks.md, "Event types"), in the words of the webhook payloads. */
export const EVENT_TYPES = [
  'order.completed',
  'order.failed',
  'order.recipient.completed',
  'order.recipient.failed',
  'order.recipient.reversed',
  'order.reversed',
  'topup.approved',
  'topup.rejected',
  'wallet.balance_low',
  'wallet.adjusted',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}
