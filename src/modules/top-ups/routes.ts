import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors, withErrors } from '../../http/responses.js';
import { TopUpPageResponse, TopUpRequestBody, TopUpResponse, TopUpsQuery } from './schemas.js';
import type { TopUpService } from './service.js';

export const topUpRoutes: FastifyPluginAsyncTypebox<{ topUps: TopUpService }> = async (app, { topUps }) => {
  app.post(
    '/top-ups/request',
    {
      config: { failureCode: 'TOPUP_REQUEST_FAILED' },
      schema: {
        tags: ['top-ups'],
        summary: 'Ask for a wallet top-up (test mode: approved at once)',
        body: TopUpRequestBody,
        response: { 201: TopUpResponse, ...authErrors, ...withErrors(400, 409) },
      },
    },
    async (request, reply) => {
      const data = await topUps.request(request.auth, request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.get(
    '/top-ups',
    {
      config: { failureCode: 'TOPUP_REQUEST_FAILED' },
      schema: {
        tags: ['top-ups'],
        summary: 'Your top-up requests in the key’s mode, newest first',
        querystring: TopUpsQuery,
        response: { 200: TopUpPageResponse, ...authErrors, ...withErrors(400) },
      },
    },
    async (request) => ({ success: true as const, data: await topUps.list(request.auth, request.query) }),
  );
};
