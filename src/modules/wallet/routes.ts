import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors, withErrors } from '../../http/responses.js';
import { WalletAlertBody, WalletBalanceResponse, WalletTransactionsQuery, WalletTransactionsResponse } from './schemas.js';
import type { WalletService } from './service.js';
import type { StatementService } from './statement.js';

export const walletRoutes: FastifyPluginAsyncTypebox<{ wallets: WalletService; statements: StatementService }> = async (
  app,
  { wallets, statements },
) => {
  app.get(
    '/wallet-balance',
    {
      schema: { tags: ['wallet'], summary: "Wallet of the key's mode", response: { 200: WalletBalanceResponse, ...authErrors } },
    },
    async (request) => ({ success: true as const, data: await wallets.balanceView(request.auth) }),
  );

  app.put(
    '/wallet-balance/alert',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Set or clear the low-balance alert (wallet.balance_low when available falls below it)',
        body: WalletAlertBody,
        response: { 200: WalletBalanceResponse, ...authErrors, ...withErrors(400) },
      },
    },
    async (request) => ({ success: true as const, data: await wallets.setAlert(request.auth, request.body.threshold) }),
  );

  app.get(
    '/wallet/transactions',
    {
      schema: {
        tags: ['wallet'],
        summary: "The statement of the key's wallet: one line per order, refund, top-up or adjustment, newest first",
        querystring: WalletTransactionsQuery,
        response: { 200: WalletTransactionsResponse, ...authErrors, ...withErrors(400) },
      },
    },
    async (request) => ({ success: true as const, data: await statements.transactions(request.auth, request.query) }),
  );
};
