import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { HttpError } from '../../http/errors.js';
import { authErrors, withErrors } from '../../http/responses.js';
import type { CallbackReader, ProviderName } from '../../providers/types.js';
import type { DeliveryService } from './service.js';

/** What the callback routes need: the readers of each upstream's body and the secrets that admit them. */
export interface CallbackRouteOptions {
  deliveries: DeliveryService;
  readers: { hubtel: CallbackReader; reloadly: CallbackReader; dtone: CallbackReader };
  /** PROVIDER_CALLBACK_TOKEN: the path secret of Hubtel's and DT One's callbacks; null: those routes answer 404. */
  callbackToken: string | null;
  /** Checks Reloadly's signature of a raw body; null (no RELOADLY_WEBHOOK_SECRET): the route answers 404. */
  reloadlySignature: ((rawBody: string, timestamp: string | undefined, signature: string | undefined) => boolean) | null;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

/** Callback bodies are small JSON objects (docs/live-delivery.md, "Callbacks"). */
const CALLBACK_BODY_LIMIT = 64 * 1024;
const CallbackBody = Type.Record(Type.String(), Type.Unknown());
const Received = Type.Object({ received: Type.Boolean() });
const TokenParams = Type.Object({ token: Type.String({ maxLength: 256 }) });
const rawBodies = new WeakMap<object, string>();

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * POST /callbacks/reloadly, /callbacks/hubtel/{token}, /callbacks/dtone/{token}: an upstream's word
 * that an attempt changed. Never the verdict: it only makes that attempt's status check due now
 * (DeliveryService.wake), and the status endpoint decides. Outside /api/v1: no API key, no
 * partner rate limit. An unknown reference is answered 200 and logged (the upstream would retry).
 */
export const callbackRoutes: FastifyPluginAsyncTypebox<CallbackRouteOptions> = async (app, options) => {
  // The raw body is kept for Reloadly's signature, which is over the bytes as sent.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed !== null && typeof parsed === 'object') rawBodies.set(request, text);
      done(null, parsed);
    } catch {
      done(new HttpError(400, 'INVALID_JSON', 'The body is not valid JSON'), undefined);
    }
  });

  const wake = async (provider: ProviderName, body: Record<string, unknown>) => {
    const subject = options.readers[provider as 'hubtel' | 'reloadly' | 'dtone'](body);
    const known = subject ? await options.deliveries.wake(provider, subject) : false;
    if (known) options.log.info({ provider, ...subject }, 'upstream callback: status check due now');
    else options.log.warn({ provider, subject }, 'upstream callback for no attempt of ours');
    return { received: true };
  };
  const responses = { 200: Received, ...withErrors(400, 404, 413) };
  const reloadlyResponses = { ...responses, 401: authErrors[401] };

  app.post('/callbacks/reloadly', {
      bodyLimit: CALLBACK_BODY_LIMIT,
      schema: { hide: true, tags: ['callbacks'], summary: 'Reloadly: a transaction changed', body: CallbackBody, response: reloadlyResponses },
    }, async (request) => {
    if (!options.reloadlySignature) throw new HttpError(404, 'NOT_FOUND', 'No route POST /callbacks/reloadly');
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const raw = rawBodies.get(request) ?? '';
    if (!options.reloadlySignature(raw, header('x-reloadly-request-timestamp'), header('x-reloadly-signature'))) {
      throw new HttpError(401, 'UNAUTHORIZED', 'The callback signature is missing or wrong');
    }
    return wake('reloadly', request.body);
  });

  for (const provider of ['hubtel', 'dtone'] as const) {
    app.post(
      `/callbacks/${provider}/:token`,
      {
        bodyLimit: CALLBACK_BODY_LIMIT,
        schema: { hide: true, tags: ['callbacks'], summary: `${provider}: a transaction changed`, params: TokenParams, body: CallbackBody, response: responses },
      },
      async (request) => {
        const token = options.callbackToken;
        if (token === null || !sameSecret(request.params.token, token)) {
          throw new HttpError(404, 'NOT_FOUND', `No route POST /callbacks/${provider}/…`);
        }
        return wake(provider, request.body);
      },
    );
  }
};
