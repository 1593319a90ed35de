import { Type, type Static } from 'typebox';
import { Id, Nullable, Success, Timestamp } from '../../lib/wire.js';

/** integrator-features §2: webhook endpoints. */

export const MAX_ENDPOINTS_PER_OWNER = 16;
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({ description: 'Where events are POSTed: https:// (http:// in test mode and outside production)' }),
    events: Type.Array(Type.String(), { description: 'Event types to receive, or ["*"] for every type' }),
    description: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: false },
);
export type CreateEndpointBody = Static<typeof CreateEndpointBody>;

const endpointFields = {
  _id: Type.String({ description: 'we_…' }),
  url: Type.String(),
  events: Type.Array(Type.String(), { description: 'Event types it receives; ["*"]: every type' }),
  description: Nullable(Type.String()),
  status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
  disabledReason: Nullable(Type.String({ description: 'Why deliveries stopped: deleted, 410 Gone, or failing for three days' })),
  createdAt: Timestamp(),
};

export const WebhookEndpoint = Type.Object(endpointFields);
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

/** The endpoint with its signing secret: only in the answers to create and rotate-secret. */
export const WebhookEndpointWithSecret = Type.Object({
  ...endpointFields,
  secret: Type.String({ description: 'whsec_<base64 of 32 random bytes>: shown once, keep it to verify signatures' }),
});
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const EndpointParams = Type.Object({ endpointId: Id('webhook endpoint id (we_…)') });

export const WebhookEndpointResponse = Success(WebhookEndpoint);
export const WebhookEndpointWithSecretResponse = Success(WebhookEndpointWithSecret);
export const WebhookEndpointListResponse = Success(Type.Object({ endpoints: Type.Array(WebhookEndpoint) }));
