import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../domain/errors.js';
import type { AuthContext, ProfileService } from '../../modules/profiles/service.js';
import { HttpError } from '../errors.js';
import type { AuthFailureLimit } from './auth-failures.js';

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
 * X-API-KEY authentication for every route registered in `app` (docs/errors.md, "Codes of the platform"). Runs at onRequest,
 * before the body is read, so an unauthenticated caller learns nothing else about the request. An
 * address past its limit of failed authentications is refused before its key is even looked at:
 * each key check holds a place of the address's budget and keeps it only if it fails (auth-failures.ts).
 */
export function requireApiKey(app: FastifyInstance, profiles: ProfileService, failures: AuthFailureLimit | null): void {
  app.decorateRequest('auth', null as unknown as AuthContext);
  app.addHook('onRequest', async (request, reply) => {
    const attempt = failures ? await failures.attempt(request.ip) : null;
    if (attempt && attempt.blockedFor !== null) {
      void reply.header('retry-after', String(attempt.blockedFor));
      const what = attempt.reason === 'failures' ? 'failed authentications' : 'authentications at once';
      throw new HttpError(429, 'RATE_LIMITED', `Too many ${what} from this address; retry in ${attempt.blockedFor} s`);
    }
    const header = request.headers['x-api-key'];
    const key = Array.isArray(header) ? header[0] : header;
    try {
      request.auth = await profiles.authenticate(key, request.routeOptions.config.authLoadsProfile === true);
    } catch (error) {
      attempt?.ended(error instanceof DomainError && error.refusal === 'unauthenticated');
      throw error;
    }
    attempt?.ended(false);
  });
}
