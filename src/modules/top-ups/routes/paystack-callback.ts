import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Mode } from '../../../domain/types.js';
import { HttpError } from '../../../http/errors.js';
import { authErrors, withErrors } from '../../../http/responses.js';
import { PAYSTACK_SIGNATURE_HEADER, verifyPaystackSignature } from '../../../providers/paystack/signature.js';
import type { MomoTopUpService } from '../momo.js';

export interface PaystackCallbackOptions {
  momo: MomoTopUpService;
  /** The Paystack secret key of each mode that has one (the sandbox sends no webhooks). */
  secretKeys: { live: string | null; test: string | null };
}

const BODY_LIMIT = 64 * 1024;
const rawBodies = new WeakMap<object, string>();

/**
 * POST /callbacks/paystack (docs/mobile-money.md, "Crediting"): Paystack's word that a charge
 * changed, signed with the secret key of its mode over the raw body. This plugin's own JSON parser
 * keeps the raw text; Fastify's encapsulation leaves every other route's parser as it is.
 */
export const paystackCallbackRoutes: FastifyPluginAsyncTypebox<PaystackCallbackOptions> = async (app, options) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    try {
      const parsed = JSON.parse(text) as unknown;
      rawBodies.set(request, text);
      done(null, parsed);
    } catch {
      done(new HttpError(400, 'INVALID_JSON', 'The body is not valid JSON'), undefined);
    }
  });

  app.post(
    '/callbacks/paystack',
    {
      bodyLimit: BODY_LIMIT,
      schema: {
        hide: true,
        tags: ['callbacks'],
        summary: 'Paystack: a charge changed',
        body: Type.Record(Type.String(), Type.Unknown()),
        response: { 200: Type.Object({ received: Type.Boolean() }), ...withErrors(400, 404, 413), 401: authErrors[401] },
      },
    },
    async (request) => {
      const modes = (['live', 'test'] as const).filter((mode) => options.secretKeys[mode] !== null);
      if (modes.length === 0) throw new HttpError(404, 'NOT_FOUND', 'No route POST /callbacks/paystack');
      const header = request.headers[PAYSTACK_SIGNATURE_HEADER];
      const signature = Array.isArray(header) ? header[0] : header;
      const raw = rawBodies.get(request) ?? '';
      const mode: Mode | undefined = modes.find((m) => verifyPaystackSignature(raw, signature, options.secretKeys[m] ?? ''));
      if (!mode) throw new HttpError(401, 'UNAUTHORIZED', 'The webhook signature is missing or wrong');
      await options.momo.webhook(mode, request.body);
      return { received: true };
    },
  );
};
