import type { FastifyInstance } from 'fastify';
import type { AuthContext, ProfileService } from '../../modules/profiles/service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext;
  }
  interface FastifyContextConfig {
    /** The route shows the caller's profile: authentication reads the whole row with the key. */
    authLoadsProfile?: boolean;
  }
}

/**
 * X-API-KEY authentication for every route registered in `app` (spec §5). Runs at onRequest,
 * before the body is read, so an unauthenticated caller learns nothing else about the request.
 */
export function requireApiKey(app: FastifyInstance, profiles: ProfileService): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.addHook('onRequest', async (request) => {
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    request.auth = await profiles.authenticate(key, request.routeOptions.config.authLoadsProfile === true);
  });
}
