import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors } from '../../http/responses.js';
import { WalletBalanceResponse } from './schemas.js';
import type { WalletService } from './service.js';

export const walletRoutes: FastifyPluginAsyncTypebox<{ wallets: WalletService }> = async (app, { wallets }) => {
  app.get(
    '/wallet-balance',
    {
      schema: { tags: ['wallet'], summary: "Wallet of the key's mode", response: { 200: WalletBalanceResponse, ...authErrors } },
    },
    async (request) => ({ success: true as const, data: await wallets.balanceView(request.auth) }),
  );
};
