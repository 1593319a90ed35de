import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { parse } from 'yaml';
import { EVENT_TYPES } from '../../src/domain/event-types.js';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { responseViolation } from '../support/openapi.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */

/**
 * The OpenAPI document (GET /openapi.json, /openapi.yaml): valid OpenAPI 3.1, complete (every
 * route of the app, every error status with its codes, every field described with an example),
 * and the response check every `t.call` runs against it is able to fail.
 */

/** Routes outside the API document: the documentation itself, and the Prometheus metrics (text, behind their own token). */
const DOCUMENTATION_ROUTES = new Set(['/openapi.json', '/openapi.yaml', '/docs/', '/docs/js/scalar.js', '/metrics']);
/** The upstreams' callbacks (docs/live-delivery.md, "Callbacks") are not part of the partners' API. */
const UPSTREAM_CALLBACK = /^\/callbacks\//;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

function operations(doc: any): { path: string; method: string; op: any }[] {
  return Object.entries<any>(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] })),
  );
}

/** Every property below `schema` that has no description, or (a leaf) no example. */
function undocumentedFields(schema: any, where: string, out: string[]): string[] {
  if (!schema || typeof schema !== 'object' || schema.$ref) return out;
  for (const branch of schema.anyOf ?? []) undocumentedFields(branch, where, out);
  if (schema.items) undocumentedFields(schema.items, `${where}[]`, out);
  for (const [name, property] of Object.entries<any>(schema.properties ?? {})) {
    const branches = [property, ...(property.anyOf ?? [])];
    const nested = branches.some((b) => b.properties || b.items?.properties);
    const described = branches.some((b) => typeof b.description === 'string' && b.description.length > 0);
    const exemplified = branches.some(
      (b) => b.examples !== undefined || b.example !== undefined || b.const !== undefined || b.enum !== undefined,
    );
    // success and data are the envelope; a cursor has no meaningful example.
    if (!described && !['success', 'data'].includes(name)) out.push(`${where}.${name}: no description`);
    if (!nested && !exemplified && !['success', 'cursor', 'paymentGatewayStatus', 'disabledReason'].includes(name))
      out.push(`${where}.${name}: no example`);
    undocumentedFields(property, `${where}.${name}`, out);
  }
  return out;
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  before(async () => {
    t = await createTestApp();
    doc = (await t.call('GET', '/openapi.json')).body;
  });
  after(() => t.close());

  test('is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1));
  });

  test('GET /openapi.yaml is the same document in YAML', async () => {
    const res = await t.call('GET', '/openapi.yaml');
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-type']), /^application\/yaml/);
    assert.deepEqual(parse(res.body as string), doc);
  });

  test('every route the app registers is documented, and only those', () => {
    const registered = t.app.routeIndex
      .list()
      .filter((r) => r.method !== 'HEAD' && !DOCUMENTATION_ROUTES.has(r.url) && !UPSTREAM_CALLBACK.test(r.url))
      .map((r) => `${r.method.toLowerCase()} ${r.url.replace(/:([A-Za-z]+)/g, '{$1}')}`)
      .sort();
    const documented = operations(doc)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    assert.deepEqual(documented, registered);
  });

  test('every operation has a tag, a summary, a unique operationId and the API key scheme (none for /healthz and /readyz)', () => {
    const tags = new Set(doc.tags.map((tag: any) => tag.name));
    const ids = new Set<string>();
    assert.deepEqual(doc.components.securitySchemes.apiKey, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-KEY',
      description: doc.components.securitySchemes.apiKey.description,
    });
    assert.deepEqual(doc.security, [{ apiKey: [] }]);
    for (const { path, method, op } of operations(doc)) {
      const where = `${method} ${path}`;
      assert.equal(op.tags?.length, 1, where);
      assert.ok(tags.has(op.tags[0]), `${where}: tag ${op.tags[0]} is declared`);
      assert.ok(op.summary, where);
      assert.ok(op.operationId && !ids.has(op.operationId), `${where}: operationId ${op.operationId}`);
      ids.add(op.operationId);
      if (path.startsWith('/api/v1/')) assert.equal(op.security, undefined, `${where} uses the document's API key`);
      else assert.deepEqual(op.security, [], where);
    }
  });

  test('every POST documents the Idempotency-Key header and the refusals it brings', () => {
    const posts = operations(doc).filter((o) => o.method === 'post');
    assert.ok(posts.length >= 9);
    for (const { path, op } of posts) {
      const header = op.parameters?.find((p: any) => p.in === 'header' && p.name === 'idempotency-key');
      assert.ok(header?.description?.includes('IDEMPOTENCY_KEY_REUSED'), path);
      assert.ok(op.responses['409'].description.includes('IDEMPOTENCY_KEY_IN_USE'), path);
      assert.ok(op.responses['422'].description.includes('IDEMPOTENCY_KEY_REUSED'), path);
      assert.ok(op.responses['400'].description.includes('IDEMPOTENCY_KEY_INVALID'), path);
    }
  });

  test('every error status under /api/v1 is the envelope, lists its codes, and has an example per code that fits the envelope', async () => {
    const known = new Set<string>(ERROR_CODES);
    for (const { path, method, op } of operations(doc)) {
      const statuses = Object.keys(op.responses);
      if (path.startsWith('/api/v1/'))
        for (const status of ['400', '401', '403', '429', '500'])
          assert.ok(statuses.includes(status), `${method} ${path} ${status}`);
      for (const status of statuses.filter((s) => Number(s) >= 400 && path.startsWith('/api/v1/'))) {
        const where = `${method} ${path} ${status}`;
        const media = op.responses[status].content['application/json'];
        assert.deepEqual(media.schema, { $ref: '#/components/schemas/ErrorEnvelope' }, where);
        const codes = Object.keys(media.examples);
        assert.ok(codes.length > 0, where);
        for (const code of codes) {
          assert.ok(known.has(code), `${where}: ${code} is a documented code`);
          assert.ok(op.responses[status].description.includes(code), `${where}: description names ${code}`);
          assert.equal(media.examples[code].value.error.code, code, where);
        }
      }
    }
    // The specific codes of the contract are where an integrator looks for them.
    const buy = doc.paths['/api/v1/data-bundles/buy-single'].post.responses;
    assert.match(buy['402'].description, /BUY_DATA_FAILED/);
    assert.match(doc.paths['/api/v1/data-bundles/buy-bulk'].post.responses['422'].description, /BUY_DATA_BULK_FAILED/);
    assert.match(doc.paths['/api/v1/orders'].get.responses['400'].description, /INVALID_ORDER_TYPE/);
    assert.match(doc.paths['/api/v1/orders/{orderId}'].get.responses['404'].description, /ORDER_NOT_FOUND/);
    assert.match(doc.paths['/api/v1/packages/{packageId}'].get.responses['404'].description, /PACKAGE_NOT_FOUND/);
  });

  test('every request and response field has a description and every leaf an example', () => {
    const missing: string[] = [];
    for (const { path, method, op } of operations(doc)) {
      for (const parameter of op.parameters ?? []) {
        if (!parameter.description) missing.push(`${method} ${path} ${parameter.name}: no description`);
        const exemplified = parameter.example !== undefined || parameter.schema?.examples || parameter.schema?.anyOf;
        if (!exemplified && parameter.name !== 'cursor') missing.push(`${method} ${path} ${parameter.name}: no example`);
      }
      const body = op.requestBody?.content['application/json'];
      if (body) {
        undocumentedFields(body.schema, `${method} ${path} body`, missing);
        if (body.example === undefined && body.examples === undefined) missing.push(`${method} ${path} body: no example`);
      }
      for (const [status, response] of Object.entries<any>(op.responses)) {
        undocumentedFields(response.content?.['application/json']?.schema, `${method} ${path} ${status}`, missing);
      }
    }
    for (const [type, item] of Object.entries<any>(doc.webhooks))
      undocumentedFields(item.post.requestBody.content['application/json'].schema, `webhook ${type}`, missing);
    assert.deepEqual(missing, []);
  });

  test('examples use Ghanaian numbers and GHS, and the getting-started text lists the sandbox test numbers', () => {
    const buy = doc.paths['/api/v1/data-bundles/buy-single'].post;
    const body = buy.requestBody.content['application/json'];
    assert.deepEqual(Object.keys(body.examples), ['purchase', 'validateOnly', 'allowPortedNumber'], 'both features shown by example');
    for (const example of Object.values<any>(body.examples))
      assert.match(example.value.beneficiaryMsisdn, /^0(20|24|25|26|27|50|53|54|55|59)\d{7}$/);
    assert.match(body.schema.properties.beneficiaryMsisdn.description, /0000 fails/);
    const order = doc.paths['/api/v1/orders/{orderId}'].get.responses['200'].content['application/json'].schema.properties.data;
    assert.match(order.properties.beneficiaryMsisdn.examples[0], /^233\d{9}$/);
    assert.deepEqual(order.properties.currency.const, 'GHS');
    for (const ending of ['0000', '0001', '0002', '0003', '0004'])
      assert.ok(doc.info.description.includes(`\`${ending}\``), ending);
    for (const topic of ['Keys and modes', 'The envelope', 'poll', 'webhook', 'Sandbox test numbers'])
      assert.ok(doc.info.description.includes(topic), topic);
  });

  test('the webhook payloads of every event type are under `webhooks`, with the signature headers', () => {
    assert.deepEqual(Object.keys(doc.webhooks).sort(), [...EVENT_TYPES].sort());
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const schema = item.post.requestBody.content['application/json'].schema;
      assert.equal(schema.properties.type.const, type);
      assert.deepEqual(
        item.post.parameters.map((p: any) => p.name),
        ['webhook-id', 'webhook-timestamp', 'webhook-signature'],
      );
      assert.ok(schema.properties.data.properties.object, type);
      if (type.startsWith('order.recipient.')) assert.ok(schema.properties.data.properties.recipient, type);
    }
  });

  test('the response check fails a body that breaks the document, and a status it does not list', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/wallet-balance', headers: { 'x-api-key': KEYS.superLive } });
    const answer = {
      method: 'GET',
      url: '/api/v1/wallet-balance',
      status: 200,
      contentType: res.headers['content-type'] as string,
      body: res.json(),
    };
    assert.equal(await responseViolation(doc, answer), null);
    // The same answer against a document whose schema is wrong.
    const wrong = structuredClone(doc);
    wrong.paths['/api/v1/wallet-balance'].get.responses['200'].content[
      'application/json'
    ].schema.properties.data.properties.availableBalance = {
      type: 'string',
    };
    assert.match(
      (await responseViolation(wrong, answer)) ?? '',
      /violates the OpenAPI document \(getWalletBalance\).*availableBalance/,
    );
    // A body the document does not allow, and a status it does not list.
    const tampered = { ...answer, body: { success: true, data: { ...answer.body.data, currency: 'USD' } } };
    assert.match((await responseViolation(doc, tampered)) ?? '', /violates/);
    assert.match((await responseViolation(doc, { ...answer, status: 418 })) ?? '', /status not documented/);
    // An answer outside every operation must still be the error envelope.
    assert.match(
      (await responseViolation(doc, { ...answer, url: '/api/v1/nowhere', status: 404, body: { error: 'x' } })) ?? '',
      /not the error envelope/,
    );
  });
});
