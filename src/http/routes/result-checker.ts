import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { assertRcBuyer } from '../../result-checker/service.js';
import { authErrors, withErrors } from '../schemas/common.js';
import {
  RcBulkPurchaseResponse,
  RcBuyBulkBody,
  RcBuySingleBody,
  RcOrderParams,
  RcPurchaseResponse,
  RcTransactionResponse,
} from '../schemas/result-checker.js';

/** The role check runs before body validation: a caller who may not buy learns nothing about the body. */
const onlyBuyers = (code: 'RC_WALLET_BUY_FAILED' | 'RC_WALLET_BULK_BUY_FAILED') => async (request: FastifyRequest) => {
  assertRcBuyer(request.auth.role, code);
};

export const resultCheckerRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/result-checker/buy-single',
    {
      config: { failureCode: 'RC_WALLET_BUY_FAILED' },
      preValidation: onlyBuyers('RC_WALLET_BUY_FAILED'),
      schema: {
        tags: ['result-checker'],
        summary: 'Buy one result-checker credential from the wallet',
        body: RcBuySingleBody,
        response: { 200: RcPurchaseResponse, ...authErrors, ...withErrors(400, 402, 409) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await ctx.resultChecker.buySingle(request.auth, request.body),
    }),
  );

  app.post(
    '/result-checker/buy-bulk',
    {
      config: { failureCode: 'RC_WALLET_BULK_BUY_FAILED' },
      preValidation: onlyBuyers('RC_WALLET_BULK_BUY_FAILED'),
      schema: {
        tags: ['result-checker'],
        summary: 'Buy 1 to 20 result-checker credentials with one wallet debit',
        body: RcBuyBulkBody,
        response: { 200: RcBulkPurchaseResponse, ...authErrors, ...withErrors(400, 402, 409) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await ctx.resultChecker.buyBulk(request.auth, request.body.items),
    }),
  );

  app.get(
    '/result-checker/orders/:orderId/status',
    {
      schema: {
        tags: ['result-checker'],
        summary: 'One of your result-checker transactions; the credential once completed',
        params: RcOrderParams,
        response: { 200: RcTransactionResponse, ...authErrors, ...withErrors(404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await ctx.resultChecker.status(request.auth, request.params.orderId),
    }),
  );
};
