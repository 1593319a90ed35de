import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors, withErrors } from '../../../http/responses.js';
import type { MomoTopUpService } from '../momo.js';
import { MomoTopUpBody, OtpBody, TopUpPageResponse, TopUpParams, TopUpRequestBody, TopUpResponse, TopUpsQuery } from '../schemas.js';
import type { TopUpService } from '../service.js';

export const topUpRoutes: FastifyPluginAsyncTypebox<{ topUps: TopUpService; momo: MomoTopUpService }> = async (app, { topUps, momo }) => {
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

  app.post(
    '/top-ups/mobile-money',
    {
      config: { failureCode: 'TOPUP_REQUEST_FAILED' },
      schema: {
        tags: ['top-ups'],
        summary: 'Top up the wallet from a Mobile Money wallet through Paystack: credited once the payment is verified',
        body: MomoTopUpBody,
        response: { 201: TopUpResponse, ...authErrors, ...withErrors(400, 409, 502, 503) },
      },
    },
    async (request, reply) => {
      const data = await momo.charge(request.auth, request.body);
      return reply.status(201).send({ success: true as const, data });
    },
  );

  app.post(
    '/top-ups/:topUpId/otp',
    {
      config: { failureCode: 'TOPUP_REQUEST_FAILED' },
      schema: {
        tags: ['top-ups'],
        summary: 'Send the OTP a Mobile Money charge in send_otp asks for',
        params: TopUpParams,
        body: OtpBody,
        response: { 200: TopUpResponse, ...authErrors, ...withErrors(400, 404, 409, 502, 503) },
      },
    },
    async (request) => ({ success: true as const, data: await momo.submitOtp(request.auth, request.params.topUpId, request.body.otp) }),
  );

  app.get(
    '/top-ups/:topUpId',
    {
      config: { failureCode: 'TOPUP_REQUEST_FAILED' },
      schema: {
        tags: ['top-ups'],
        summary: 'One of your top-ups (Mobile Money ones with their payment)',
        params: TopUpParams,
        response: { 200: TopUpResponse, ...authErrors, ...withErrors(400, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await momo.get(request.auth, request.params.topUpId) }),
  );
};
