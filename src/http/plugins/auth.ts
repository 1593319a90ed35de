import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { AuthContext, ProfileService } from '../../modules/profiles/service.js';
import { HttpError } from '../errors.js';
import type { AuthFailureLimit } from './rate-limits.js';

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
 * before the body is read, so an unauthenticated caller learns nothing else about the request. An
 * address past its limit of failed authentications is refused before its key is even looked at.
 */
export function requireApiKey(app: FastifyInstance, profiles: ProfileService, failures: AuthFailureLimit | null): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.addHook('onRequest', async (request, reply) => {
    const blockedFor = failures ? await failures.blockedFor(request) : null;
    if (blockedFor !== null) {
      void reply.header('retry-after', String(blockedFor));
      throw new HttpError(429, 'RATE_LIMITED', `Too many failed authentications from this address; retry in ${blockedFor} s`);
    }
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    try {
      request.auth = await profiles.authenticate(key, request.routeOptions.config.authLoadsProfile === true);
    } catch (error) {
      if (failures && error instanceof DomainError && error.refusal === 'unauthenticated') await failures.failed(request);
      throw error;
    }
  });
}
