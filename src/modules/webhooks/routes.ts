import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors, withErrors } from '../../http/responses.js';
import {
  CreateEndpointBody,
  EndpointParams,
  WebhookEndpointListResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
} from './schemas.js';
import type { WebhookEndpointService } from './service.js';

/** The caller's webhook endpoints, in the key's mode (docs/webhooks.md, "Endpoints"). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ endpoints: WebhookEndpointService }> = async (app, { endpoints }) => {
  app.post(
    '/webhook-endpoints',
    {
      config: { failureCode: 'WEBHOOK_ENDPOINT_INVALID' },
      schema: {
        tags: ['webhooks'],
        summary: 'Create a webhook endpoint (its signing secret is shown only in this answer)',
        body: CreateEndpointBody,
        response: { 201: WebhookEndpointWithSecretResponse, ...authErrors, ...withErrors(400, 409) },
      },
    },
    async (request, reply) => {
      const data = await endpoints.create(request.auth, request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      schema: {
        tags: ['webhooks'],
        summary: "Your webhook endpoints in the key's mode, newest first (no secrets)",
        response: { 200: WebhookEndpointListResponse, ...authErrors },
      },
    },
    async (request) => ({ success: true as const, data: { endpoints: await endpoints.list(request.auth) } }),
  );

  app.delete(
    '/webhook-endpoints/:endpointId',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete a webhook endpoint: it is disabled and its pending deliveries stop',
        params: EndpointParams,
        response: { 200: WebhookEndpointResponse, ...authErrors, ...withErrors(400, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await endpoints.remove(request.auth, request.params.endpointId) }),
  );

  app.post(
    '/webhook-endpoints/:endpointId/rotate-secret',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
        params: EndpointParams,
        response: { 200: WebhookEndpointWithSecretResponse, ...authErrors, ...withErrors(400, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await endpoints.rotateSecret(request.auth, request.params.endpointId) }),
  );
};
