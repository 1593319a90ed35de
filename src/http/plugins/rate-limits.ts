import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { RateLimits } from '../../config.js';
import { HttpError } from '../errors.js';
import { authFailureLimit, MemoryAttemptStore, RedisAttemptStore, type AuthFailureLimit } from './auth-failures.js';

/**
 * Rate limits (docs/api.md, "Rate limits"), counted in this process's memory, or in Redis when several
 * processes serve one database. Per API key, on every authenticated request, with the IETF
 * RateLimit and RateLimit-Policy headers (@fastify/rate-limit's counters); and failed
 * authentications per client address, so keys cannot be guessed at speed (auth-failures.ts). Redis
 * unreachable: the requests are served without limits (fail open), and the log says so at most
 * once a minute.
 */

export interface RateLimitSetup {
  limits: RateLimits;
  redisUrl: string | null;
  redisKeyPrefix: string;
  warn(obj: object, message: string): void;
}

/** Checks one request against a limit; `increment: false` only reads the count. */
type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

const LOG_EVERY_MS = 60_000;

/** One minute, the window of the failed-authentication limit. */
const AUTH_FAILURE_WINDOW_MS = 60_000;

function redisClient(setup: RateLimitSetup): Redis {
  // No queue while disconnected and no retry of a command: a limit check fails at once (and is
  // skipped) instead of holding the request until Redis is back.
  const redis = new Redis(setup.redisUrl ?? '', { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectTimeout: 2_000 });
  let lastLogged = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - lastLogged < LOG_EVERY_MS) return;
    lastLogged = Date.now();
    setup.warn({ err: error.message }, 'Redis is unreachable: rate limits are not enforced until it is back');
  });
  return redis;
}

/** How long the app waits for Redis at start before it serves without it (and says so). */
const REDIS_READY_WAIT_MS = 2_000;

/** Resolves once Redis is ready, or after REDIS_READY_WAIT_MS: limits hold from the first request when it answers. */
async function readyOrLater(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    new Promise<void>((resolve) => redis.once('ready', () => resolve())),
    new Promise<void>((resolve) => (timer = setTimeout(resolve, REDIS_READY_WAIT_MS))),
  ]);
  clearTimeout(timer);
}

/**
 * Registers the counters in `app` (the /api/v1 scope). Returns the failed-authentication limit for
 * the key check to use, and `perKey` to be added once authentication has run.
 */
export async function registerRateLimits(app: FastifyInstance, setup: RateLimitSetup): Promise<{ authFailures: AuthFailureLimit | null; perKey: () => void }> {
  const redis = setup.redisUrl ? redisClient(setup) : null;
  const { perKeyMax, windowS, authFailuresPerMinute } = setup.limits;
  // The per-key limit's settings are the plugin's own, and perKey() takes them without options:
  // a limiter made with options gets a store keyed by its route's method and URL, which a limiter
  // outside a route lacks (Redis keys read "rate-limit:undefinedundefined-key:…").
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    max: perKeyMax,
    timeWindow: windowS * 1000,
    keyGenerator: (request) => `key:${request.auth.keyId}`,
    ...(redis ? { redis, nameSpace: `${setup.redisKeyPrefix}rate-limit:` } : {}),
  });
  if (redis) {
    app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
    await readyOrLater(redis);
  }

  let authFailures: AuthFailureLimit | null = null;
  if (authFailuresPerMinute > 0) {
    const store = redis
      ? new RedisAttemptStore(redis, setup.redisKeyPrefix, AUTH_FAILURE_WINDOW_MS)
      : new MemoryAttemptStore(AUTH_FAILURE_WINDOW_MS);
    authFailures = authFailureLimit(store, authFailuresPerMinute);
  }

  const perKey = () => {
    if (perKeyMax === 0) return;
    const limiter: Limiter = app.createRateLimit();
    app.addHook('onRequest', async (request, reply) => {
      const state = await limiter(request);
      if (state.isAllowed) return;
      const reset = state.ttl > 0 ? state.ttlInSeconds : windowS;
      void reply.header('ratelimit-policy', `"default";q=${state.max};w=${windowS}`);
      void reply.header('ratelimit', `"default";r=${state.remaining};t=${reset}`);
      if (state.isExceeded) {
        void reply.header('retry-after', String(reset));
        throw new HttpError(429, 'RATE_LIMITED', `Rate limit of ${state.max} requests per ${windowS} s exceeded for this API key; retry in ${reset} s`);
      }
    });
  };
  return { authFailures, perKey };
}
