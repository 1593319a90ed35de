import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyRequest } from 'fastify';
import { authErrors, withErrors } from '../../http/responses.js';
import {
  BuyBulkBody,
  BuyBulkResponse,
  BuySingleBody,
  BuySingleResponse,
  RetryRecipientBody,
  RetryRecipientResponse,
} from './schemas.js';
import { requireBulkRole, type PurchaseService } from './service.js';

/** buy-bulk: an item count outside 2..20 is 422; every other validation error stays 400 (docs/errors.md, "Endpoint codes"). */
function itemCountStatus(error: FastifyError): number | undefined {
  const first = error.validation?.[0];
  return first && first.instancePath === '/items' && (first.keyword === 'minItems' || first.keyword === 'maxItems')
    ? 422
    : undefined;
}

/** The role rule comes before the body is judged: a Customer learns only that bulk is not for them. */
const bulkRoleFirst = async (request: FastifyRequest) => requireBulkRole(request.auth);

export const dataBundleRoutes: FastifyPluginAsyncTypebox<{ purchases: PurchaseService }> = async (app, { purchases }) => {
  app.post(
    '/data-bundles/buy-single',
    {
      config: { failureCode: 'BUY_DATA_FAILED' },
      schema: {
        tags: ['data bundles'],
        summary: 'Buy a data bundle for one recipient',
        body: BuySingleBody,
        response: { 200: BuySingleResponse, ...authErrors, ...withErrors(400, 402, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await purchases.buySingle(request.auth, request.body) }),
  );

  app.post(
    '/data-bundles/buy-bulk',
    {
      config: { failureCode: 'BUY_DATA_BULK_FAILED', validationStatus: itemCountStatus },
      preValidation: bulkRoleFirst,
      schema: {
        tags: ['data bundles'],
        summary: 'Buy data bundles for 2 to 20 recipients (Agent, SuperAgent)',
        body: BuyBulkBody,
        response: { 200: BuyBulkResponse, ...authErrors, ...withErrors(400, 402, 409, 422) },
      },
    },
    async (request) => ({ success: true as const, data: await purchases.buyBulk(request.auth, request.body) }),
  );

  app.post(
    '/data-bundles/retry-recipient',
    {
      config: { failureCode: 'BUY_DATA_BULK_FAILED' },
      preValidation: bulkRoleFirst,
      schema: {
        tags: ['data bundles'],
        summary: 'Charge and resubmit a failed recipient of a bulk order',
        body: RetryRecipientBody,
        response: { 200: RetryRecipientResponse, ...authErrors, ...withErrors(400, 402, 404, 409) },
      },
    },
    async (request) => ({ success: true as const, data: await purchases.retryRecipient(request.auth, request.body) }),
  );
};
