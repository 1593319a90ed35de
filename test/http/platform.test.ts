import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

const BUY = '/api/v1/data-bundles/buy-single';

describe('HTTP platform: envelope, errors, CORS, health', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });
  });
  after(() => t.close());

  test('an unknown route is 404 NOT_FOUND in the envelope, with or without a key', async () => {
    for (const key of [undefined, KEYS.agentLive]) {
      for (const [method, url] of [
        ['GET', '/api/v1/nope'],
        ['POST', '/api/v2/profile'],
        ['GET', '/'],
        ['DELETE', '/api/v1/orders/ord_x/nope'],
      ] as const) {
        const res = await t.call(method, url, key ? { key } : {});
        assert.equal(res.status, 404, `${method} ${url}`);
        assert.equal(res.body.success, false);
        assert.equal(res.body.error.code, 'NOT_FOUND');
        assert.equal(typeof res.body.error.message, 'string');
      }
    }
  });

  test('a known path with a method it does not serve is 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const cases = [
      ['DELETE', '/api/v1/profile', 'GET, HEAD'],
      ['POST', '/api/v1/wallet-balance', 'GET, HEAD'],
      ['PUT', '/api/v1/data-bundles/buy-single', 'POST'],
      ['GET', '/api/v1/data-bundles/buy-single', 'POST'],
      ['POST', '/api/v1/orders/ord_x', 'GET, HEAD'],
      ['PATCH', '/api/v1/orders/ord_x/status', 'GET, HEAD'],
      ['POST', '/api/v1/operators/op_a/products', 'GET, HEAD'],
      // (GET /api/v1/top-ups/request is a top-up whose id is "request" since GET /top-ups/{topUpId}: 404.)
      ['GET', '/api/v1/top-ups/tup_x/otp', 'POST'],
    ] as const;
    for (const [method, url, allow] of cases) {
      const res = await t.call(method, url, { key: KEYS.agentLive });
      assert.equal(res.status, 405, `${method} ${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.headers.allow, allow, `${method} ${url}`);
      assert.equal(res.body.success, false);
      assert.equal(res.body.error.code, 'METHOD_NOT_ALLOWED');
      assert.match(res.body.error.message, new RegExp(`allowed: ${allow}`));
    }
  });

  test('a malformed JSON body is 400 INVALID_JSON', async () => {
    for (const payload of ['{"packageId": ', 'not json', '']) {
      const res = await t.call('POST', BUY, {
        key: KEYS.agentLive,
        body: payload,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.status, 400, JSON.stringify(payload));
      assert.deepEqual(res.body, { success: false, error: { code: 'INVALID_JSON', message: res.body.error.message } });
    }
  });

  test('an oversized body is 413 in the envelope and nothing is charged', async () => {
    const before = await t.wallet('usr_agent', 'live');
    const res = await t.call('POST', BUY, {
      key: KEYS.agentLive,
      body: JSON.stringify({ packageId: 'pkg_a_1gb', note: 'x'.repeat(10_000) }),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 413);
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, 'PAYLOAD_TOO_LARGE');
    assert.deepEqual(await t.wallet('usr_agent', 'live'), before);
  });

  test('a non-JSON content type is refused in the envelope on every POST route', async () => {
    for (const url of [BUY, '/api/v1/data-bundles/buy-bulk', '/api/v1/result-checker/buy-single', '/api/v1/top-ups/request']) {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
        const res = await t.call('POST', url, { key: KEYS.agentLive, body: 'a=b', headers: { 'content-type': type } });
        assert.equal(res.status, 415, `${url} ${type}`);
        assert.equal(res.body.error.code, 'UNSUPPORTED_MEDIA_TYPE');
      }
    }
  });

  test("an over-long id in a path is a 4xx in the envelope, never Fastify's own body", async () => {
    for (const length of [200, 600, 5000]) {
      const res = await t.call('GET', `/api/v1/packages/${'p'.repeat(length)}`, { key: KEYS.agentLive });
      assert.ok(res.status >= 400 && res.status < 500, `length ${length}: ${res.status}`);
      assert.equal(res.body.success, false, `length ${length}`);
      assert.equal(typeof res.body.error.code, 'string');
    }
  });

  test('the OpenAPI document names the Idempotency-Key header of every POST, the rate-limit refusal and the paymentReference lookup', async () => {
    const doc = (await t.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ path, method, op })),
    );
    const posts = operations.filter((o) => o.method === 'post' && o.path.startsWith('/api/v1/'));
    assert.ok(posts.length >= 6);
    for (const { path, op } of posts) {
      assert.ok(
        op.parameters?.some((p) => p.in === 'header' && p.name === 'idempotency-key'),
        path,
      );
      for (const status of ['409', '422', '429']) assert.ok(status in op.responses, `${path} ${status}`);
    }
    for (const { path, op } of operations.filter((o) => o.path.startsWith('/api/v1/'))) assert.ok('429' in op.responses, path);
    assert.ok(doc.paths['/api/v1/orders']?.get?.parameters?.some((p) => p.name === 'paymentReference'));
  });

  test('CORS preflight is answered without a key, with the methods and headers docs/api.md names', async () => {
    for (const url of ['/api/v1/profile', BUY, '/api/v1/operators/op_a/products']) {
      const res = await t.call('OPTIONS', url, {
        headers: {
          origin: 'https://partner.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,x-api-key',
        },
      });
      assert.equal(res.status, 204, url);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      // PUT and DELETE: the alert threshold and webhook endpoints.
      assert.equal(res.headers['access-control-allow-methods'], 'GET, POST, PUT, DELETE, OPTIONS');
      assert.equal(res.headers['access-control-allow-headers'], 'Content-Type, X-API-KEY, Idempotency-Key');
    }
    const actual = await t.call('GET', '/api/v1/profile', {
      key: KEYS.agentLive,
      headers: { origin: 'https://partner.example' },
    });
    assert.equal(actual.headers['access-control-allow-origin'], '*');
  });

  test('GET /healthz answers without a key', async () => {
    const res = await t.call('GET', '/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok' });
  });

  test('every response carries a request id; a sane caller-supplied one is echoed', async () => {
    const generated = await t.call('GET', '/api/v1/profile', { key: KEYS.agentLive });
    assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const echoed = await t.call('GET', '/api/v1/profile', { key: KEYS.agentLive, headers: { 'x-request-id': 'partner-req-42' } });
    assert.equal(echoed.headers['x-request-id'], 'partner-req-42');
    const refused = await t.call('GET', '/api/v1/profile', {
      key: KEYS.agentLive,
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    assert.notEqual(refused.headers['x-request-id'], 'bad id with spaces');
    // Error replies carry it too: no key, an unknown route, a malformed body.
    const errors = await Promise.all([
      t.call('GET', '/api/v1/profile', { headers: { 'x-request-id': 'err-401' } }),
      t.call('GET', '/api/v1/nowhere', { key: KEYS.agentLive, headers: { 'x-request-id': 'err-404' } }),
      t.call('POST', '/api/v1/data-bundles/buy-single', {
        key: KEYS.agentLive,
        body: '{"operatorId":',
        headers: { 'content-type': 'application/json', 'x-request-id': 'err-400' },
      }),
    ]);
    assert.deepEqual(
      errors.map((r) => [r.status, r.headers['x-request-id']]),
      [
        [401, 'err-401'],
        [404, 'err-404'],
        [400, 'err-400'],
      ],
    );
  });

  test('the OpenAPI document is generated from the route schemas', async () => {
    const res = await t.call('GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.equal(res.body.openapi.startsWith('3.'), true);
    for (const path of [
      '/api/v1/profile',
      '/api/v1/operators/{operatorId}/products',
      '/api/v1/data-packages',
      '/api/v1/packages/{packageId}',
      '/api/v1/wallet-balance',
      '/api/v1/result-checker/packages',
    ]) {
      assert.ok(res.body.paths[path], `OpenAPI has ${path}`);
    }
  });
});
