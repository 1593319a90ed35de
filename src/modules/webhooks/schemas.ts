import { Type, type Static } from 'typebox';
import { EXAMPLE, Id, Nullable, Success, Text, Timestamp } from '../../lib/wire.js';

/** Webhook endpoints (docs/webhooks.md, "Endpoints"). */

export const MAX_ENDPOINTS_PER_OWNER = 16;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({
      description:
        'Where events are POSTed: https:// (http:// in test mode and outside production); private addresses are refused in production',
      examples: ['https://shop.example.com.gh/hooks/partner-api'],
    }),
    events: Type.Array(Type.String(), {
      description: 'Event types to receive, or ["*"] for every type',
      examples: [['order.completed', 'order.failed']],
    }),
    description: Type.Optional(
      Nullable(Type.String({ description: 'Your label for it', examples: ['Order outcomes for the shop'] })),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://shop.example.com.gh/hooks/partner-api',
        events: ['order.completed', 'order.failed'],
        description: 'Order outcomes for the shop',
      },
    ],
  },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

const endpointFields = {
  _id: Text('Endpoint id (we_…)', EXAMPLE.endpointId),
  url: Text('Where events are POSTed', 'https://shop.example.com.gh/hooks/partner-api'),
  events: Type.Array(Type.String(), {
    description: 'Event types it receives; ["*"]: every type',
    examples: [['order.completed', 'order.failed']],
  }),
  description: Nullable(Text('Your label for it', 'Order outcomes for the shop')),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')], {
    description: 'enabled: receives events; disabled: deliveries stopped',
  }),
  disabledReason: Nullable(Text('Why deliveries stopped: deleted, 410 Gone, or failing for three days; null while enabled')),
  createdAt: Timestamp('When it was created'),
};

export const WebhookEndpoint = Type.Object(endpointFields);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** The endpoint with its signing secret: only in the answers to create and rotate-secret. */
export const WebhookEndpointWithSecret = Type.Object({
  ...endpointFields,
  secret: Text(
    'whsec_<base64 of 32 random bytes>: shown once, keep it to verify signatures',
    'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3zE0AJcQp3k=',
  ),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const EndpointParams = Type.Object({ endpointId: Id('webhook endpoint id (we_…)', EXAMPLE.endpointId) });

export const WebhookEndpointResponse = Success(WebhookEndpoint);
export const WebhookEndpointWithSecretResponse = Success(WebhookEndpointWithSecret);
export const WebhookEndpointListResponse = Success(
  Type.Object({
    endpoints: Type.Array(WebhookEndpoint, { description: "Your endpoints in the key's mode, newest first (no secrets)" }),
  }),
);
