/**
 * Every route of the API, in one table: what a valid call looks like, which record ids it takes,
 * its query values. The generated security tests (test/http/route-security.test.ts) and the fuzzer
 * (test/http/fuzz.test.ts) are built from it, and a route registered without an entry here fails
 * the suite.
 */

/** Records the tests create before calling the routes (see test/http/route-security.test.ts). */
export interface Records {
  /** A single data order of the caller, live mode. */
  order: string;
  /** A bulk data order of the caller with one failed recipient, live mode. */
  bulkOrder: string;
  bulkFailedMsisdn: string;
  /** A result-checker transaction of the caller, live mode. */
  rcTransaction: string;
  /** An event of the caller, live mode. */
  event: string;
  /** A webhook endpoint of the caller, live mode. */
  endpoint: string;
  /** A Mobile Money top-up of the caller waiting for its OTP, live mode (test/support/momo.ts). */
  momoTopUp: string;
}

export type RouteKind = 'public' | 'read' | 'purchase' | 'write';

export interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As registered (Fastify's pattern). */
  url: string;
  kind: RouteKind;
  /** The endpoint's own failure code for a 400, when it has one. */
  failureCode?: string;
  /** Path parameters of a valid call, from the caller's records. */
  params?: (r: Records) => Record<string, string>;
  /** Which path parameter, or body field, names a record that must belong to the caller. */
  ownedParam?: string;
  ownedBodyField?: string;
  /** The code of a 404 for a record that is not the caller's (ORDER_NOT_FOUND unless given). */
  notFoundCode?: string;
  /** A valid body (POST, PUT). */
  body?: (r: Records, n: number) => Record<string, unknown>;
  /** Query values the route reads, with one valid value each. */
  query?: Record<string, string>;
}

/** A fresh MTN number per call, so Mobile Money charges never block each other. */
export const momoPhone = (n: number) => `05570${String(n % 100_000).padStart(5, '0')}`;

/** A fresh Ghana mobile number per call, so purchases never block each other. */
export const msisdn = (n: number) => `024470${String(100 + (n % 9800)).padStart(4, '0')}`;

export const ROUTES: RouteCase[] = [
  { method: 'GET', url: '/healthz', kind: 'public' },
  { method: 'GET', url: '/readyz', kind: 'public' },
  { method: 'GET', url: '/metrics', kind: 'public' },
  { method: 'GET', url: '/openapi.json', kind: 'public' },
  { method: 'GET', url: '/openapi.yaml', kind: 'public' },
  // The API reference page (Scalar) and its script, served from the installed package.
  { method: 'GET', url: '/docs/', kind: 'public' },
  { method: 'GET', url: '/docs/js/scalar.js', kind: 'public' },
  // Upstreams' callbacks: no API key, a signature or a path token instead (test/upstreams/).
  { method: 'POST', url: '/callbacks/reloadly', kind: 'public' },
  { method: 'POST', url: '/callbacks/hubtel/:token', kind: 'public' },
  { method: 'POST', url: '/callbacks/dtone/:token', kind: 'public' },
  { method: 'POST', url: '/callbacks/paystack', kind: 'public' },
  { method: 'GET', url: '/api/v1/profile', kind: 'read' },
  { method: 'GET', url: '/api/v1/wallet-balance', kind: 'read' },
  { method: 'GET', url: '/api/v1/wallet/transactions', kind: 'read', query: { from: '0', to: '99999999999999', limit: '5' } },
  { method: 'GET', url: '/api/v1/operators', kind: 'read' },
  { method: 'GET', url: '/api/v1/operators/:operatorId/products', kind: 'read', params: () => ({ operatorId: 'op_a' }) },
  { method: 'GET', url: '/api/v1/data-packages', kind: 'read', query: { operatorId: 'op_a', productId: 'prd_a' } },
  { method: 'GET', url: '/api/v1/packages/:packageId', kind: 'read', params: () => ({ packageId: 'pkg_a_1gb' }) },
  { method: 'GET', url: '/api/v1/result-checker/packages', kind: 'read' },
  {
    method: 'POST',
    url: '/api/v1/data-bundles/buy-single',
    kind: 'purchase',
    failureCode: 'BUY_DATA_FAILED',
    body: (_r, n) => ({
      operatorId: 'op_a',
      productId: 'prd_a',
      packageId: 'pkg_a_1gb',
      beneficiaryMsisdn: msisdn(n),
      paymentReference: `ref-${n}`,
    }),
  },
  {
    method: 'POST',
    url: '/api/v1/data-bundles/buy-bulk',
    kind: 'purchase',
    failureCode: 'BUY_DATA_BULK_FAILED',
    body: (_r, n) => ({
      operatorId: 'op_a',
      productId: 'prd_a',
      items: [
        { packageId: 'pkg_a_1gb', beneficiaryMsisdn: msisdn(2 * n + 100_000) },
        { packageId: 'pkg_a_2gb', beneficiaryMsisdn: msisdn(2 * n + 100_001) },
      ],
    }),
  },
  {
    method: 'POST',
    url: '/api/v1/data-bundles/retry-recipient',
    kind: 'purchase',
    failureCode: 'BUY_DATA_BULK_FAILED',
    ownedBodyField: 'orderId',
    body: (r) => ({ orderId: r.bulkOrder, beneficiaryMsisdn: r.bulkFailedMsisdn }),
  },
  {
    method: 'GET',
    url: '/api/v1/orders',
    kind: 'read',
    query: { orderType: 'all', state: 'completed', limit: '5', cursor: 'WzE3MDAwMDAwMDAwMDAsIm9yZF94Il0' },
  },
  { method: 'GET', url: '/api/v1/orders/:orderId', kind: 'read', params: (r) => ({ orderId: r.order }), ownedParam: 'orderId' },
  {
    method: 'GET',
    url: '/api/v1/orders/:orderId/status',
    kind: 'read',
    params: (r) => ({ orderId: r.order }),
    ownedParam: 'orderId',
  },
  {
    method: 'POST',
    url: '/api/v1/result-checker/buy-single',
    kind: 'purchase',
    failureCode: 'RC_WALLET_BUY_FAILED',
    body: (_r, n) => ({ packageId: 'rcp_wassce', recipientPhone: msisdn(n) }),
  },
  {
    method: 'POST',
    url: '/api/v1/result-checker/buy-bulk',
    kind: 'purchase',
    failureCode: 'RC_WALLET_BULK_BUY_FAILED',
    body: (_r, n) => ({
      items: [
        { packageId: 'rcp_wassce', recipientPhone: msisdn(n) },
        { packageId: 'rcp_bece', recipientPhone: msisdn(n + 1) },
      ],
    }),
  },
  {
    method: 'GET',
    url: '/api/v1/result-checker/orders/:orderId/status',
    kind: 'read',
    params: (r) => ({ orderId: r.rcTransaction }),
    ownedParam: 'orderId',
  },
  {
    method: 'POST',
    url: '/api/v1/top-ups/request',
    kind: 'write',
    failureCode: 'TOPUP_REQUEST_FAILED',
    body: (_r, n) => ({ amount: 25.5, method: 'momo', reference: `MOMO-${n}`, note: 'fuzz' }),
  },
  {
    method: 'GET',
    url: '/api/v1/top-ups',
    kind: 'read',
    failureCode: 'TOPUP_REQUEST_FAILED',
    query: { status: 'pending', limit: '5', cursor: 'WzE3MDAwMDAwMDAwMDAsInR1cF94Il0' },
  },
  {
    method: 'POST',
    url: '/api/v1/top-ups/mobile-money',
    kind: 'write',
    failureCode: 'TOPUP_REQUEST_FAILED',
    body: (_r, n) => ({ amount: 10 + (n % 90), phone: momoPhone(n), network: 'MTN' }),
  },
  {
    method: 'POST',
    url: '/api/v1/top-ups/:topUpId/otp',
    kind: 'write',
    failureCode: 'TOPUP_REQUEST_FAILED',
    params: (r) => ({ topUpId: r.momoTopUp }),
    ownedParam: 'topUpId',
    notFoundCode: 'TOPUP_NOT_FOUND',
    body: () => ({ otp: '123456' }),
  },
  {
    method: 'GET',
    url: '/api/v1/top-ups/:topUpId',
    kind: 'read',
    params: (r) => ({ topUpId: r.momoTopUp }),
    ownedParam: 'topUpId',
    notFoundCode: 'TOPUP_NOT_FOUND',
  },
  { method: 'PUT', url: '/api/v1/wallet-balance/alert', kind: 'write', body: (_r, n) => ({ threshold: 10 + (n % 50) }) },
  {
    method: 'GET',
    url: '/api/v1/events',
    kind: 'read',
    query: { type: 'order.completed', limit: '5', cursor: 'WzE3MDAwMDAwMDAwMDAsImV2dF94Il0' },
  },
  {
    method: 'GET',
    url: '/api/v1/events/:eventId',
    kind: 'read',
    params: (r) => ({ eventId: r.event }),
    ownedParam: 'eventId',
    notFoundCode: 'EVENT_NOT_FOUND',
  },
  {
    method: 'POST',
    url: '/api/v1/events/:eventId/redeliver',
    kind: 'write',
    params: (r) => ({ eventId: r.event }),
    ownedParam: 'eventId',
    notFoundCode: 'EVENT_NOT_FOUND',
  },
  {
    method: 'POST',
    url: '/api/v1/webhook-endpoints',
    kind: 'write',
    failureCode: 'WEBHOOK_ENDPOINT_INVALID',
    body: (_r, n) => ({ url: `http://127.0.0.1:9/hooks/${n}`, events: ['order.completed', 'order.failed'], description: 'fuzz' }),
  },
  { method: 'GET', url: '/api/v1/webhook-endpoints', kind: 'read' },
  {
    method: 'DELETE',
    url: '/api/v1/webhook-endpoints/:endpointId',
    kind: 'write',
    params: (r) => ({ endpointId: r.endpoint }),
    ownedParam: 'endpointId',
    notFoundCode: 'WEBHOOK_ENDPOINT_NOT_FOUND',
  },
  {
    method: 'POST',
    url: '/api/v1/webhook-endpoints/:endpointId/rotate-secret',
    kind: 'write',
    params: (r) => ({ endpointId: r.endpoint }),
    ownedParam: 'endpointId',
    notFoundCode: 'WEBHOOK_ENDPOINT_NOT_FOUND',
  },
];

/** `/orders/:orderId` with `{ orderId: 'ord_1' }` → `/orders/ord_1` (values are URL-encoded). */
export function fillPath(url: string, params: Record<string, string>): string {
  return url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

export const routeKey = (route: { method: string; url: string }) => `${route.method} ${route.url}`;
