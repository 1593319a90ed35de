import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { authErrors } from '../../http/responses.js';
import { ProfileResponse } from './schemas.js';
import type { ProfileService } from './service.js';

export const profileRoutes: FastifyPluginAsyncTypebox<{ profiles: ProfileService }> = async (app, { profiles }) => {
  app.get(
    '/profile',
    {
      config: { authLoadsProfile: true },
      schema: { tags: ['profile'], summary: 'The profile that owns the key', response: { 200: ProfileResponse, ...authErrors } },
    },
    async (request) => ({ success: true as const, data: profiles.profileView(request.auth) }),
  );
};
