import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { authErrors, withErrors } from '../schemas/common.js';
import { TopUpPageResponse, TopUpRequestBody, TopUpResponse, TopUpsQuery } from '../schemas/top-ups.js';

export const topUpRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
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
      const data = await ctx.topUps.request(request.auth, request.body);
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
    async (request) => ({ success: true as const, data: await ctx.topUps.list(request.auth, request.query) }),
  );
};
