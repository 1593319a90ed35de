import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { authErrors, withErrors } from '../../http/responses.js';
import {
  RcBulkPurchaseResponse,
  RcBuyBulkBody,
  RcBuySingleBody,
  RcOrderParams,
  RcPackagesResponse,
  RcPurchaseResponse,
  RcTransactionResponse,
} from './schemas.js';
import { assertRcBuyer, type ResultCheckerService } from './service.js';

/** The role check runs before body validation: a caller who may not buy learns nothing about the body. */
const onlyBuyers = (code: 'RC_WALLET_BUY_FAILED' | 'RC_WALLET_BULK_BUY_FAILED') => async (request: FastifyRequest) => {
  assertRcBuyer(request.auth.role, code);
};

export const resultCheckerRoutes: FastifyPluginAsyncTypebox<{ resultChecker: ResultCheckerService }> = async (app, { resultChecker }) => {
  app.get(
    '/result-checker/packages',
    {
      schema: {
        tags: ['result-checker'],
        summary: 'Active result-checker packages with live stock',
        response: { 200: RcPackagesResponse, ...authErrors },
      },
    },
    async (request) => ({ success: true as const, data: await resultChecker.packages(request.auth.role) }),
  );

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
      data: await resultChecker.buySingle(request.auth, request.body),
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
      data: await resultChecker.buyBulk(request.auth, request.body),
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
      data: await resultChecker.status(request.auth, request.params.orderId),
    }),
  );
};
