import type { FastifyDynamicSwaggerOptions, SwaggerTransformObject } from '@fastify/swagger';
import type { FastifySchema, RouteOptions } from 'fastify';
import { Type, type TSchema } from 'typebox';
import type { ErrorCode } from '../domain/errors.js';
import { eventSchema } from '../modules/events/schemas.js';
import { BulkRecipient, Order } from '../modules/orders/schemas.js';
import { TopUp } from '../modules/top-ups/schemas.js';
import { WalletAdjustment, WalletBalance } from '../modules/wallet/schemas.js';

/**
 * The OpenAPI 3.1 document served at GET /openapi.json and /openapi.yaml and rendered at /docs.
 * The route schemas (each module's schemas.ts) describe the fields; this file adds what every
 * route shares: the getting-started text, tags, the API-key scheme, the Idempotency-Key header of
 * every POST, each error status with the codes it carries and an example, the response headers,
 * and the webhook payloads (OpenAPI 3.1 `webhooks`).
 */

const errorRef = Type.Ref('ErrorEnvelope');

const IdempotencyKeyHeader = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      examples: ['5f0c2a8e-3b7d-4c1e-9a64-2d8f1b7e6c30'],
      description:
        'Makes the request safe to retry (1 to 255 printable ASCII characters). The first request with a key runs; a later one with ' +
        'the same key and the same method, path and body gets the first answer again, with `Idempotent-Replayed: true`, and nothing ' +
        'runs twice. The same key with another request is 422 IDEMPOTENCY_KEY_REUSED; while the first still runs, 409 ' +
        'IDEMPOTENCY_KEY_IN_USE with Retry-After. Keys are kept 24 hours (IDEMPOTENCY_TTL_HOURS), per profile and mode.',
    }),
  ),
});

export const GETTING_STARTED = `Resellers ("Super Agents") call this API with an API key to read the catalog of Ghanaian mobile
operators, data bundles and exam result checkers, hold a prepaid GHS wallet, buy bundles for one
recipient or up to twenty, and track their orders.

## Getting started

**Keys and modes.** Send your key in the \`X-API-KEY\` header on every call under \`/api/v1\`.
A \`service_test_…\` key works in test mode: its own test wallet, test orders and test top-ups
(approved at once), orders delivered by the sandbox. A \`service_live_…\` key sees only live data.
A missing, unknown or revoked key is 401 \`UNAUTHORIZED\`; a suspended profile 403 \`PROFILE_SUSPENDED\`.
\`npm run demo\` prints a working test key (\`service_test_demoAmaMensahTest0001\`).

**The envelope.** Every answer is \`{ "success": true, "data": … }\` or
\`{ "success": false, "error": { "code": "…", "message": "…" } }\`. Act on \`error.code\` (each
operation lists its codes per status); show \`message\` to people. Money is GHS (numbers with at
most two decimals), times are unix milliseconds, phone numbers are Ghana mobile numbers in any
common format, normalised to \`233…\`.

**Buying and following an order.** \`POST /api/v1/data-bundles/buy-single\` charges the wallet and
answers at once with \`status: "processing"\` (the envelope's \`data\` holds a \`success: true\` of
its own). Send an \`Idempotency-Key\` on every POST so a retry after a timeout never buys twice.
Then either **poll** \`GET /api/v1/orders/{orderId}/status\` (state \`Processing\` → \`Completed\`
or \`Failed\`; the full order at \`GET /api/v1/orders/{orderId}\` spells states in lower case) every
few seconds, or register a **webhook** endpoint (\`POST /api/v1/webhook-endpoints\`) and receive
\`order.completed\` / \`order.failed\` events signed with Standard Webhooks (see *Webhooks* below).
A failed order is refunded in full.

**Sandbox test numbers.** In test mode (and in live mode while no real provider is configured) the
last four digits of the recipient number choose the outcome:

| number ends in | outcome |
|---|---|
| \`0000\` | fails after the settle delay: "Sandbox: delivery failed" (refunded) |
| \`0001\` | completes slowly (ten times the settle delay) |
| \`0002\` | refused at submission: fails at once, "Sandbox: number not eligible for this bundle" |
| \`0003\` | the provider times out twice, then accepts; completes once |
| \`0004\` | the provider errors on the first poll, then completes |
| anything else | completes after the settle delay (\`SANDBOX_SETTLE_MS\`, 3 s by default) |

For example \`0244123456\` completes and \`0244120000\` fails.

**Limits.** 6000 requests per key per minute by default (429 \`RATE_LIMITED\` with \`Retry-After\`;
every answer carries \`RateLimit\` and \`RateLimit-Policy\`); bulk data purchases take 2 to 20
recipients, result-checker bulk 1 to 20 items; order pages hold at most 100.`;

export const TAGS = [
  { name: 'profile', description: 'The profile that owns the API key: the first connectivity check.' },
  { name: 'wallet', description: "The prepaid GHS wallet of the key's mode, its statement (transactions) and its low-balance alert." },
  { name: 'catalog', description: "Operators, products and data packages, priced for the key owner's role." },
  { name: 'data bundles', description: 'Buy data bundles for one recipient or 2 to 20; retry a failed bulk recipient.' },
  { name: 'orders', description: 'Your orders, newest first; one order in full, or its status projection.' },
  {
    name: 'result-checker',
    description: 'Exam result-checker credentials (WASSCE, BECE), bought from the wallet and issued at once.',
  },
  { name: 'top-ups', description: 'Ask for wallet top-ups; staff approve them (test mode: approved at once).' },
  { name: 'events', description: "Everything that changed, as events in the key's mode (kept 30 days)." },
  { name: 'webhooks', description: 'Endpoints that receive events, signed with Standard Webhooks v1.' },
  { name: 'ops', description: 'Service health, without a key.' },
];

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'No valid API key',
  402: 'Insufficient wallet balance',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body too large',
  414: 'A path segment is too long',
  415: 'Request body is not JSON',
  422: 'Unprocessable',
  429: 'Too many requests',
  500: 'A fault of ours',
  502: 'The payment gateway refused or could not be reached',
  503: 'Not ready, or not available here',
};

/** A realistic message per code, for the examples. */
const EXAMPLE_MESSAGES: Record<ErrorCode, string> = {
  UNAUTHORIZED: 'Missing or invalid API key',
  INVALID_JSON: 'Request body is not valid JSON',
  INVALID_REQUEST: 'querystring.limit must be integer',
  NOT_FOUND: 'Operator op_unknown not found',
  METHOD_NOT_ALLOWED: 'DELETE is not allowed on /api/v1/orders; allowed: GET',
  PAYLOAD_TOO_LARGE: 'Request body is too large',
  UNSUPPORTED_MEDIA_TYPE: 'Request body must be application/json',
  PROFILE_NOT_FOUND: 'The profile of this key cannot be found',
  PROFILE_SUSPENDED: 'This profile is suspended',
  ORDER_NOT_FOUND: 'Order ord_01jd6x4m2k8q9r7t5v3w1y0z2a not found',
  PACKAGE_NOT_FOUND: 'Package pkg_mtn_100gb not found',
  INVALID_ORDER_TYPE: 'orderType must be one of airtime, voice, afa, registration, top_up, result_checker, data, all',
  TOPUP_REQUEST_FAILED: 'A top-up with reference MOMO-2611240931 already exists',
  TOPUP_NOT_FOUND: 'Top-up tup_01kasqc4f6h8j2k4m6n8p0r2s4 not found',
  TOPUP_METHOD_UNAVAILABLE: 'Mobile Money top-ups are not available for live keys yet; ask for a top-up instead',
  TOPUP_GATEWAY_FAILED: 'Paystack refused the charge: Invalid phone number; nothing was charged',
  BUY_DATA_FAILED: 'Insufficient wallet balance: GHS 3.20 available, GHS 5.40 required',
  BUY_DATA_BULK_FAILED: 'items must have 2 to 20 entries',
  RC_WALLET_BUY_FAILED: 'No WASSCE credential in stock; nothing was charged',
  RC_WALLET_BULK_BUY_FAILED: 'Every item failed; nothing was charged',
  INTERNAL_ERROR: 'Internal server error',
  RATE_LIMITED: 'Rate limit of 6000 requests per 60 s exceeded for this API key; retry in 12 s',
  IDEMPOTENCY_KEY_INVALID: 'Idempotency-Key must be 1 to 255 printable ASCII characters, sent once',
  IDEMPOTENCY_KEY_REUSED: 'This Idempotency-Key was used with a different request (method, path or body)',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this Idempotency-Key is still being processed; retry in a moment',
  EVENT_NOT_FOUND: 'Event evt_01jd6x4m2k8q9r7t5v3w1y0z2a not found',
  WEBHOOK_ENDPOINT_INVALID: 'url must start with https:// for a live endpoint',
  WEBHOOK_ENDPOINT_NOT_FOUND: 'Webhook endpoint we_01jd6x4m2k8q9r7t5v3w1y0z2a not found',
  BELOW_COST: 'pkg_a_1gb would sell below cost: the Agent price GHS 9.00 is below the cost of route #0 (hubtel), GHS 10.00',
  ROUTE_NOT_OFFERED: 'the upstream does not offer route #0 (hubtel): Hubtel does not offer bundle DATA99 for this number',
};

/** The 404 code of a route that reads a record by id. */
const NOT_FOUND_CODES: [RegExp, ErrorCode][] = [
  [/^\/api\/v1\/operators\//, 'NOT_FOUND'],
  [/^\/api\/v1\/packages\//, 'PACKAGE_NOT_FOUND'],
  [/^\/api\/v1\/events\//, 'EVENT_NOT_FOUND'],
  [/^\/api\/v1\/webhook-endpoints\//, 'WEBHOOK_ENDPOINT_NOT_FOUND'],
  [/^\/api\/v1\/top-ups\//, 'TOPUP_NOT_FOUND'],
];

/** Routes only Agents and SuperAgents may use (403 with the route's failure code for other roles). */
const ROLE_RESTRICTED = /^\/api\/v1\/(data-bundles\/(buy-bulk|retry-recipient)|result-checker\/buy-)/;

interface RouteFacts {
  method: string;
  url: string;
  failureCode: ErrorCode | undefined;
}

/** The codes a route's error status carries, in the order a client meets them. */
export function errorCodes({ method, url, failureCode }: RouteFacts, status: number): ErrorCode[] {
  const own = failureCode ?? 'INVALID_REQUEST';
  const writes = method === 'POST' || method === 'PUT';
  switch (status) {
    case 400: {
      const codes: ErrorCode[] = url === '/api/v1/orders' ? ['INVALID_REQUEST', 'INVALID_ORDER_TYPE'] : [own];
      if (writes) codes.push('INVALID_JSON');
      if (method === 'POST') codes.push('IDEMPOTENCY_KEY_INVALID');
      return codes;
    }
    case 401:
      return ['UNAUTHORIZED'];
    case 402:
      return [own];
    case 403:
      return ROLE_RESTRICTED.test(url) ? ['PROFILE_SUSPENDED', own] : ['PROFILE_SUSPENDED'];
    case 404:
      return [NOT_FOUND_CODES.find(([pattern]) => pattern.test(url))?.[1] ?? 'ORDER_NOT_FOUND'];
    case 409:
      return method === 'POST' ? [own, 'IDEMPOTENCY_KEY_IN_USE'] : [own];
    case 413:
      return ['PAYLOAD_TOO_LARGE'];
    case 414:
      return ['INVALID_REQUEST'];
    case 415:
      return ['UNSUPPORTED_MEDIA_TYPE'];
    case 422:
      return url === '/api/v1/data-bundles/buy-bulk'
        ? ['BUY_DATA_BULK_FAILED', 'IDEMPOTENCY_KEY_REUSED']
        : ['IDEMPOTENCY_KEY_REUSED'];
    case 429:
      return ['RATE_LIMITED'];
    case 502:
      return ['TOPUP_GATEWAY_FAILED'];
    case 503:
      return ['TOPUP_METHOD_UNAVAILABLE'];
    default:
      return ['INTERNAL_ERROR'];
  }
}

/** Facts the route transform records for the whole-document pass (keyed `get /api/v1/orders/{orderId}`). */
const routeFacts = new Map<string, RouteFacts>();

const openapiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

/** Per route: the refusals the platform adds (rate limits, idempotency, body parsing), as $refs to the envelope. */
export function documentRoute({ schema, url, route }: { schema: FastifySchema; url: string; route: RouteOptions }): {
  schema: FastifySchema;
  url: string;
} {
  if (!url.startsWith('/api/v1/') || schema.hide === true) return { schema, url };
  const methods = [route.method].flat();
  for (const method of methods) {
    routeFacts.set(`${method.toLowerCase()} ${openapiPath(url)}`, { method, url, failureCode: route.config?.failureCode });
  }
  // Any URL can be malformed (400); a path segment beyond 512 characters is refused by the router (414).
  const responses = {
    ...(schema.response as Record<string, unknown> | undefined),
    400: errorRef,
    ...(url.includes('/:') ? { 414: errorRef } : {}),
    429: errorRef,
  };
  if (!methods.includes('POST') && !methods.includes('PUT')) return { schema: { ...schema, response: responses }, url };
  const bodyErrors = { 413: errorRef, 415: errorRef };
  if (!methods.includes('POST')) return { schema: { ...schema, response: { ...responses, ...bodyErrors } }, url };
  return {
    schema: {
      ...schema,
      headers: schema.headers ?? IdempotencyKeyHeader,
      response: { ...responses, ...bodyErrors, 409: errorRef, 422: errorRef },
    },
    url,
  };
}

type Json = Record<string, unknown>;
interface Operation {
  operationId?: string;
  requestBody?: { content?: Record<string, { examples?: Record<string, { summary?: string; value?: unknown }> }> };
  tags?: string[];
  responses: Record<string, Json & { content?: Record<string, Json> }>;
  security?: unknown[];
}

const HEADERS = {
  'X-Request-Id': {
    description: 'The id of this request (yours when you sent a sane `X-Request-Id`); quote it when you report a problem',
    schema: { type: 'string', examples: ['0f8e7a52-6c1d-4b39-9f0e-2a7c5d8b3e61'] },
  },
  RateLimit: {
    description: 'Requests left in the current window of your key and seconds until it resets (IETF RateLimit header fields)',
    schema: { type: 'string', examples: ['"default";r=5987;t=41'] },
  },
  'RateLimit-Policy': {
    description: 'The per-key limit: q requests per w seconds',
    schema: { type: 'string', examples: ['"default";q=6000;w=60'] },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying (on 429, and on 409 IDEMPOTENCY_KEY_IN_USE)',
    schema: { type: 'string', examples: ['1'] },
  },
  'Idempotent-Replayed': {
    description: '`true` when this is the stored answer to an earlier request with the same Idempotency-Key: nothing ran again',
    schema: { type: 'string', enum: ['true'] },
  },
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

/** Lower-camel operation ids from method and path: `POST /api/v1/data-bundles/buy-single` → `postDataBundlesBuySingle`. */
function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, '/')
    .split(/[/-]/)
    .filter((w) => w !== '')
    .map((w) =>
      w.startsWith('{') ? `By${w.slice(1, 2).toUpperCase()}${w.slice(2, -1)}` : w.charAt(0).toUpperCase() + w.slice(1),
    );
  return `${method}${words.join('')}`;
}

/** Friendlier ids for the operations an integrator calls most (the TypeScript client uses them too). */
const OPERATION_IDS: Record<string, string> = {
  'get /api/v1/profile': 'getProfile',
  'get /api/v1/wallet-balance': 'getWalletBalance',
  'put /api/v1/wallet-balance/alert': 'setWalletAlert',
  'get /api/v1/wallet/transactions': 'listWalletTransactions',
  'get /api/v1/operators': 'listOperators',
  'get /api/v1/operators/{operatorId}/products': 'listProducts',
  'get /api/v1/data-packages': 'listDataPackages',
  'get /api/v1/packages/{packageId}': 'getDataPackage',
  'post /api/v1/data-bundles/buy-single': 'buyDataSingle',
  'post /api/v1/data-bundles/buy-bulk': 'buyDataBulk',
  'post /api/v1/data-bundles/retry-recipient': 'retryBulkRecipient',
  'get /api/v1/orders': 'listOrders',
  'get /api/v1/orders/{orderId}': 'getOrder',
  'get /api/v1/orders/{orderId}/status': 'getOrderStatus',
  'get /api/v1/result-checker/packages': 'listResultCheckerPackages',
  'post /api/v1/result-checker/buy-single': 'buyResultCheckerSingle',
  'post /api/v1/result-checker/buy-bulk': 'buyResultCheckerBulk',
  'get /api/v1/result-checker/orders/{orderId}/status': 'getResultCheckerTransaction',
  'post /api/v1/top-ups/request': 'requestTopUp',
  'get /api/v1/top-ups': 'listTopUps',
  'post /api/v1/top-ups/mobile-money': 'topUpByMobileMoney',
  'post /api/v1/top-ups/{topUpId}/otp': 'submitTopUpOtp',
  'get /api/v1/top-ups/{topUpId}': 'getTopUp',
  'get /api/v1/events': 'listEvents',
  'get /api/v1/events/{eventId}': 'getEvent',
  'post /api/v1/events/{eventId}/redeliver': 'redeliverEvent',
  'post /api/v1/webhook-endpoints': 'createWebhookEndpoint',
  'get /api/v1/webhook-endpoints': 'listWebhookEndpoints',
  'delete /api/v1/webhook-endpoints/{endpointId}': 'deleteWebhookEndpoint',
  'post /api/v1/webhook-endpoints/{endpointId}/rotate-secret': 'rotateWebhookSecret',
  'get /healthz': 'getHealth',
  'get /readyz': 'getReadiness',
};

function errorResponse(status: number, codes: ErrorCode[]) {
  const examples = Object.fromEntries(
    codes.map((code) => [code, { summary: code, value: { success: false, error: { code, message: EXAMPLE_MESSAGES[code] } } }]),
  );
  const headers: Record<string, unknown> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (status === 429 || status === 409) headers['Retry-After'] = headerRef('Retry-After');
  return {
    description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.map((c) => `\`${c}\``).join(', ')}`,
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, examples } },
  };
}

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK: the payload is in `data`',
  '201': 'Created: the new record is in `data`',
  '202': 'Accepted: queued; the payload is in `data`',
};

/** The event payloads POSTed to webhook endpoints, one per event type (docs/webhooks.md, "Event types"). */
function webhooks(): Json {
  const order = { ...Order, description: 'The order as GET /api/v1/orders/{orderId} returns it' };
  const recipient = { ...BulkRecipient, description: 'The bulk recipient entry the event is about' };
  const topUp = { ...TopUp, description: 'The top-up as GET /api/v1/top-ups lists it' };
  const wallet = { ...WalletBalance, description: 'The wallet as GET /api/v1/wallet-balance returns it' };
  const events: [string, string, TSchema][] = [
    [
      'order.completed',
      'A single order, or a bulk order, reached `completed` (a bulk order: at least one recipient completed).',
      Type.Object({ object: order }),
    ],
    [
      'order.failed',
      'A single order, or a bulk order whose recipients all failed, reached `failed`; the wallet was refunded.',
      Type.Object({ object: order }),
    ],
    [
      'order.recipient.completed',
      'One recipient of a bulk order was delivered; `recipient` is its entry.',
      Type.Object({ object: order, recipient }),
    ],
    [
      'order.recipient.failed',
      'One recipient of a bulk order failed and was refunded; `recipient` is its entry.',
      Type.Object({ object: order, recipient }),
    ],
    [
      'order.recipient.reversed',
      'Staff reversed one completed recipient of a bulk order: its amount was refunded; `recipient` is its entry (reversedAt and reversalReason set, status still completed).',
      Type.Object({ object: order, recipient }),
    ],
    [
      'order.reversed',
      'A completed order was refunded by staff (a bulk order: also when its last completed recipient was reversed on its own; a result checker: its credential was voided).',
      Type.Object({ object: order }),
    ],
    ['topup.approved', 'Staff approved a top-up request: the wallet was credited.', Type.Object({ object: topUp })],
    ['topup.rejected', 'Staff rejected a top-up request.', Type.Object({ object: topUp })],
    [
      'wallet.balance_low',
      'The available balance fell below the alert threshold (once per crossing).',
      Type.Object({ object: wallet }),
    ],
    [
      'wallet.adjusted',
      'Staff credited or debited the wallet with a reason (an adjustment); `object` is the adjustment with the balances after it.',
      Type.Object({ object: { ...WalletAdjustment, description: 'The adjustment, with the balances after it' } }),
    ],
  ];
  const signatureHeaders = [
    {
      name: 'webhook-id',
      description: 'The event id (evt_…), the same on every retry: use it to drop duplicates',
      example: 'evt_01jd6x4m2k8q9r7t5v3w1y0z2a',
    },
    {
      name: 'webhook-timestamp',
      description: 'Unix seconds of this attempt; refuse old ones (e.g. older than 5 minutes)',
      example: '1764060000',
    },
    {
      name: 'webhook-signature',
      description:
        '`v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">` keyed with the base64-decoded secret after `whsec_`; ' +
        'two space-separated signatures for 24 h after a secret rotation. The `standardwebhooks` packages verify it.',
      example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
    },
  ];
  return Object.fromEntries(
    events.map(([type, description, data]) => {
      const schema = eventSchema(data);
      return [
        type,
        {
          post: {
            summary: `${type} event`,
            description: `${description}\n\nSent by POST to each enabled endpoint subscribed to \`${type}\` (or \`*\`), at least once, in no guaranteed order. Answer 2xx within 10 s; anything else is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h. 410 disables the endpoint.`,
            tags: ['webhooks'],
            operationId: `webhook_${type.replace(/\./g, '_')}`,
            security: [],
            parameters: signatureHeaders.map(({ name, description: text, example }) => ({
              in: 'header',
              name,
              required: true,
              description: text,
              schema: { type: 'string', examples: [example] },
            })),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { ...schema, properties: { ...schema.properties, type: { ...schema.properties.type, const: type } } },
                },
              },
            },
            responses: {
              '2XX': { description: 'Received: delivery succeeded' },
              '410': { description: 'Gone: the endpoint is disabled at once' },
            },
          },
        },
      ];
    }),
  );
}

/**
 * A body with several examples (a purchase, its dry run, a ported number): each named by what it
 * shows instead of example1, example2, so the reference lists "validateOnly" and "allowPortedNumber".
 */
function nameBodyExamples(operation: Operation): void {
  const media = operation.requestBody?.content?.['application/json'];
  if (!media?.examples) return;
  const named: Record<string, { summary: string; value: unknown }> = {};
  for (const [i, example] of Object.values(media.examples).entries()) {
    const text = JSON.stringify(example.value ?? null);
    const [name, summary] = text.includes('"validateOnly":true')
      ? ['validateOnly', 'Dry run: would it go through? Nothing is bought']
      : text.includes('"allowPortedNumber":true')
        ? ['allowPortedNumber', "A number ported to the operator's network"]
        : i === 0
          ? ['purchase', 'A purchase']
          : [`example${i + 1}`, `Example ${i + 1}`];
    named[name in named ? `${name}${i + 1}` : name] = { summary, value: example.value };
  }
  media.examples = named;
}

/** The whole-document pass: operation ids, error responses with codes and examples, headers, webhooks. */
export function finishDocument({ openapiObject }: { openapiObject: Json }): Json {
  const paths = openapiObject.paths as Record<string, Record<string, Operation>>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method} ${path}`;
      operation.operationId = OPERATION_IDS[key] ?? operationIdOf(method, path);
      nameBodyExamples(operation);
      const facts = routeFacts.get(key);
      if (!facts) {
        operation.security = [];
        for (const [status, response] of Object.entries(operation.responses)) {
          const code = Number(status);
          // Outside /api/v1 (health, readiness): the route's own shapes, described by status.
          operation.responses[status] = { ...response, description: code >= 400 ? (STATUS_TEXT[code] ?? 'Error') : 'OK' };
        }
        continue;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const code = Number(status);
        if (code >= 400) {
          operation.responses[status] = errorResponse(code, errorCodes(facts, code));
          continue;
        }
        const headers: Record<string, unknown> = {
          'X-Request-Id': headerRef('X-Request-Id'),
          RateLimit: headerRef('RateLimit'),
          'RateLimit-Policy': headerRef('RateLimit-Policy'),
        };
        if (method === 'post') headers['Idempotent-Replayed'] = headerRef('Idempotent-Replayed');
        operation.responses[status] = { ...response, description: SUCCESS_DESCRIPTIONS[status] ?? 'OK', headers };
      }
    }
  }
  const components = openapiObject.components as Json;
  return {
    ...openapiObject,
    components: { ...components, headers: HEADERS },
    webhooks: webhooks(),
  };
}

export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Partner API',
        version: '1.0.0',
        summary: 'Partner Wallet, Catalog and Ordering API (v1) for Ghanaian resellers',
        description: GETTING_STARTED,
      },
      servers: [{ url: '/', description: 'This server: the origin this document is served from' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-KEY',
            description: 'Your API key: `service_live_…` for live data, `service_test_…` for test mode.',
          },
        },
      },
      security: [{ apiKey: [] }],
    },
    // Components keep the names given by $id (ErrorEnvelope), not def-0; const stays const (OpenAPI 3.1 is JSON Schema 2020-12).
    convertConstToEnum: false,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform: documentRoute,
    transformObject: finishDocument as unknown as SwaggerTransformObject,
  };
}
