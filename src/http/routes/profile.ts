import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../../context.js';
import { authErrors } from '../schemas/common.js';
import { ProfileResponse, WalletBalanceResponse } from '../schemas/profile.js';

export const profileRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/profile',
    {
      config: { authLoadsProfile: true },
      schema: { tags: ['profile'], summary: 'The profile that owns the key', response: { 200: ProfileResponse, ...authErrors } },
    },
    async (request) => ({ success: true as const, data: ctx.profiles.getProfile(request.auth) }),
  );

  app.get(
    '/wallet-balance',
    {
      schema: { tags: ['wallet'], summary: "Wallet of the key's mode", response: { 200: WalletBalanceResponse, ...authErrors } },
    },
    async (request) => ({
      success: true as const,
      data: await ctx.wallets.balanceView(request.auth.profileId, request.auth.mode),
    }),
  );
};
