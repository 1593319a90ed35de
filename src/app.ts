import { randomUUID } from 'node:crypto';
import http from 'node:http';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import apiReference from '@scalar/fastify-api-reference';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { AppContext } from './context.js';
import { answerClientError, registerErrorHandling } from './http/errors.js';
import { requireApiKey } from './http/plugins/auth.js';
import { closeAfterEarlyAnswers } from './http/plugins/early-answers.js';
import { idempotentPosts } from './http/plugins/idempotency.js';
import { registerRateLimits } from './http/plugins/rate-limits.js';
import { ErrorEnvelope } from './http/responses.js';
import { RouteIndex } from './http/route-index.js';
import { requestMetrics } from './http/plugins/request-metrics.js';
import { healthRoutes } from './http/routes/health.js';
import { metricsRoutes } from './http/routes/metrics.js';
import { docsOptions } from './http/docs.js';
import { swaggerOptions } from './http/openapi.js';
import { trustProxyOption } from './http/trust-proxy.js';
import { validatorCompiler } from './http/validation.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { consoleRoutes } from './modules/console/routes.js';
import { eventRoutes } from './modules/events/routes.js';
import { dataBundleRoutes } from './modules/data-bundles/routes.js';
import { orderRoutes } from './modules/orders/routes.js';
import { callbackRoutes } from './modules/deliveries/routes.js';
import { CALLBACK_READERS, reloadlySignatureCheck } from './providers/index.js';
import { profileRoutes } from './modules/profiles/routes.js';
import { resultCheckerRoutes } from './modules/result-checker/routes.js';
import { topUpRoutes } from './modules/top-ups/routes/api.js';
import { paystackCallbackRoutes } from './modules/top-ups/routes/paystack-callback.js';
import { walletRoutes } from './modules/wallet/routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import type { Lifecycle } from './ops/lifecycle.js';
import { metricsFor } from './ops/metrics.js';

export interface BuildAppOptions {
  /** The process logger; omitted in tests, which keep the app silent. */
  logger?: FastifyBaseLogger;
  /** What GET /readyz reports (the serve command's; omitted: always ready). */
  lifecycle?: Lifecycle;
  /** A published key for /docs to fill in (the demo's test key); omitted: none. */
  docsApiKey?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Builds the whole HTTP app without listening (tests `inject` into it; server.ts listens). */
export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const timeouts = ctx.config.httpTimeouts;
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    bodyLimit: ctx.config.bodyLimitBytes,
    // request.ip: the client's address behind the reverse proxies of TRUST_PROXY, else the peer's.
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    // Node checks the header and request timeouts every connectionsCheckingInterval (30 s by
    // default, which would let a slow client hold a connection up to twice as long as configured).
    serverFactory: (handler) =>
      http.createServer(
        {
          headersTimeout: timeouts.headersMs,
          requestTimeout: timeouts.requestMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: 1_000,
        },
        handler,
      ),
    clientErrorHandler: (error, socket) => answerClientError(error, socket),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Ids are at most 128 characters: longer segments fail validation (400); beyond 512 the router
    // refuses them itself, and frameworkErrors keeps even that in our envelope.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 512 },
    frameworkErrors: (error, _request, rawReply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      const reply = rawReply as FastifyReply;
      void reply.code(tooLong ? 414 : 400).send({
        success: false,
        error: { code: 'INVALID_REQUEST', message: tooLong ? 'A path segment is too long' : 'The URL is malformed' },
      });
    },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);

  const routeIndex = new RouteIndex();
  app.decorate('routeIndex', routeIndex);
  app.addHook('onRoute', (route) => {
    if (route.config?.catchAll === true || route.url === '*') return;
    for (const method of [route.method].flat()) if (method !== 'OPTIONS') routeIndex.add(method, route.url);
  });

  // Set as the request arrives, so error replies keep it too; a callback hook costs no promise.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  // A POST whose contract has no body (redeliver, rotate-secret, …) accepts an empty one even when
  // it says Content-Type: application/json, as most HTTP clients send it: with no body to parse the
  // type names nothing. A route with a body schema still refuses an empty body (400 INVALID_JSON).
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.headers;
    if (
      headers['content-type'] !== undefined &&
      headers['transfer-encoding'] === undefined &&
      (headers['content-length'] === undefined || headers['content-length'] === '0') &&
      request.routeOptions.schema?.body === undefined
    ) {
      delete headers['content-type'];
    }
    done();
  });

  // Metrics are counted only when they are exposed somewhere (METRICS_TOKEN or METRICS_PORT).
  const ops = ctx.config.operations;
  const metrics = ops.metricsToken !== null || ops.metricsPort !== null ? metricsFor(ctx) : null;
  if (metrics) requestMetrics(app, metrics);

  // SQLite's group commit makes a commit visible to reads while its fsync still runs (see WalSync):
  // no reply leaves before everything it could have read is on disk. Nothing to wait for on PostgreSQL.
  app.addHook('onSend', (_request, _reply, payload, done) => {
    const durable = ctx.database.whenDurable();
    if (!durable) return done(null, payload);
    durable.then(
      () => done(null, payload),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });

  // The API takes JSON only: without Fastify's text/plain parser a wrong Content-Type is a clear
  // 415 instead of a string reaching the body schema.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app, routeIndex);
  closeAfterEarlyAnswers(app);
  app.addSchema(ErrorEnvelope);

  await app.register(swagger, swaggerOptions());

  // Cross-origin requests (docs/api.md, "Conventions"): GET, POST, OPTIONS; Content-Type and X-API-KEY
  // (and PUT and DELETE of the webhooks and alert routes). Preflight needs no key.
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'X-API-KEY', 'Idempotency-Key'],
    exposedHeaders: ['X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed'],
    maxAge: 600,
  });

  await app.register(healthRoutes, { database: ctx.database, ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}) });
  await app.register(metricsRoutes, {
    registry: ops.metricsToken !== null && metrics ? metrics.registry : null,
    token: ops.metricsToken,
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/openapi.yaml', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/yaml; charset=utf-8').send(app.swagger({ yaml: true })),
  );
  await app.register(apiReference, docsOptions(options.docsApiKey));
  await app.register(callbackRoutes, {
    deliveries: ctx.deliveries,
    readers: CALLBACK_READERS,
    callbackToken: ctx.config.upstreams.callbackToken,
    reloadlySignature: reloadlySignatureCheck(ctx.config),
    log: ctx.log,
  });
  await app.register(paystackCallbackRoutes, {
    momo: ctx.momo,
    secretKeys: { live: ctx.config.momo.liveSecretKey, test: ctx.config.momo.testSecretKey },
  });

  await app.register(
    async (api) => {
      const limits = await registerRateLimits(api, {
        limits: ctx.config.rateLimits,
        redisUrl: ctx.config.redisUrl,
        redisKeyPrefix: ctx.config.redisKeyPrefix,
        warn: (obj, message) => ctx.log.warn(obj, message),
      });
      requireApiKey(api, ctx.profiles, limits.authFailures);
      limits.perKey();
      idempotentPosts(api, ctx.idempotency);
      await api.register(profileRoutes, { profiles: ctx.profiles });
      await api.register(walletRoutes, { wallets: ctx.wallets, statements: ctx.statements });
      await api.register(catalogRoutes, { catalog: ctx.catalog });
      await api.register(resultCheckerRoutes, { resultChecker: ctx.resultChecker });
      await api.register(dataBundleRoutes, { purchases: ctx.purchases });
      await api.register(orderRoutes, { orders: ctx.orders });
      await api.register(topUpRoutes, { topUps: ctx.topUps, momo: ctx.momo });
      await api.register(eventRoutes, { events: ctx.events });
      await api.register(webhookRoutes, { endpoints: ctx.webhookEndpoints });
    },
    { prefix: '/api/v1' },
  );

  // The staff console (docs/console.md): its own plugin scope (cookies, forms, CSRF, headers), off by default.
  if (ctx.config.console.enabled) {
    await app.register(consoleRoutes, {
      operations: ctx.console,
      staff: ctx.staff,
      audit: ctx.audit,
      cookieSecret: ctx.cipher.derivedKey('console-cookies'),
      secureCookie: ctx.config.console.secureCookie,
      sessionTtlMs: ctx.config.console.sessionTtlMs,
      orderStuckAfterMs: ctx.config.orderStuckAfterMs,
      clock: ctx.clock,
    });
  }

  return app;
}
