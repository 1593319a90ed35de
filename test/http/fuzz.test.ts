import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { ERROR_CODES } from '../../src/domain/errors.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { momoTopUpAwaitingOtp, startRoutesPaystack } from '../support/momo.js';
import type { RunningPaystackSimulator } from '../../src/providers/paystack/simulator.js';
import { KEYS } from '../support/keys.js';
import { ROUTES, type Records, type RouteCase } from '../support/api-routes.js';

/**
 * Property-based fuzzing of every body field, path id and query value of every route, on the
 * engine of this run. For any request: no 5xx, a JSON envelope whose error code is documented,
 * and a refused request moves no money. A fixed seed in CI (FUZZ_SEED), FUZZ_RUNS to go further.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

const DOCUMENTED = new Set<string>(ERROR_CODES);
const API_ROUTES = ROUTES.filter((r) => r.kind !== 'public');

const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'ord_\u0000x',
  'rcp_\u0000',
  'bell\u0007',
  'esc\u001b[2J',
  'del\u007f',
  'new\nline',
  '\r\n\r\nX-Injected: 1',
  'lone\ud800',
  '\udfff',
  '👍🏾',
  'Ñandú ü',
  "' or 1=1 --",
  '"; drop table orders; --',
  '%00',
  '../../etc/passwd',
  'x'.repeat(10_000),
  'y'.repeat(1_000_000),
  '0244123456',
  '+233 24 412 3456',
  '__proto__',
  'constructor',
);

const nastyNumbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(0, -1, -0.01, 0.001, 12.345, 1e308, -1e308, 1e21, Number.MAX_SAFE_INTEGER, 2 ** 53 + 1, 100_000.01),
);

/** Any JSON value a careless or hostile client might put in a field. */
const weird: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.string({ unit: 'binary', maxLength: 40 }),
  nastyNumbers,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(nastyStrings, nastyNumbers, fc.constant(null)), { maxLength: 25 }),
  fc.dictionary(
    fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype')),
    fc.oneof(nastyStrings, nastyNumbers),
    { maxKeys: 4 },
  ),
);

/** Every path to a scalar or array in a body: `['items', 0, 'packageId']`. */
function fieldPaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => fieldPaths(v, [...prefix, i]))];
  if (typeof value === 'object' && value !== null) {
    return [...(prefix.length ? [prefix] : []), ...Object.entries(value).flatMap(([k, v]) => fieldPaths(v, [...prefix, k]))];
  }
  return [prefix];
}

function setAt(target: unknown, path: (string | number)[], value: unknown, remove: boolean): unknown {
  const copy = structuredClone(target);
  if (path.length === 0) return value;
  let node = copy as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Bytes of a URL component, every one percent-encoded (lone surrogates become U+FFFD, as on the wire). */
function percentEncode(text: string): string {
  return [...new TextEncoder().encode(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

interface FuzzRequest {
  route: RouteCase;
  key: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  what: string;
}

const keys = fc.constantFrom(KEYS.superLive, KEYS.superTest, KEYS.agentLive, KEYS.customerLive);

function requests(records: Records): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      route: fc.constantFrom(...API_ROUTES),
      key: keys,
      n: fc.nat({ max: 1_000_000 }),
      mutation: fc.nat({ max: 99 }),
      pick: fc.nat(),
      value: weird,
      contentType: fc.constantFrom(
        'application/json',
        'application/json',
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        '',
      ),
    })
    .map(({ route, key, n, mutation, pick, value, contentType }): FuzzRequest => {
      let params = route.params?.(records) ?? {};
      let query = { ...route.query };
      let body: unknown = route.body?.(records, n);
      let raw: string | undefined;
      let what: string;
      const paramNames = Object.keys(params);
      const queryNames = Object.keys(query);
      if (mutation < 25 && paramNames.length > 0) {
        const name = paramNames[pick % paramNames.length] as string;
        params = { ...params, [name]: typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined') };
        what = `path ${name}`;
      } else if (mutation < 50 && queryNames.length > 0) {
        const name = queryNames[pick % queryNames.length] as string;
        query = { ...query, [name]: typeof value === 'string' ? value : (JSON.stringify(value) ?? '') };
        what = `query ${name}`;
      } else if (body !== undefined && mutation < 85) {
        const paths = fieldPaths(body);
        const path = paths[pick % paths.length] ?? [];
        body = setAt(body, path, value, mutation % 7 === 0);
        what = `body ${path.join('.') || '(whole)'}${mutation % 7 === 0 ? ' removed' : ''}`;
      } else if (body !== undefined && mutation < 92) {
        // Texts JSON.stringify cannot make: a duplicated key, prototype keys, a second object.
        const valid = JSON.stringify(body);
        const field = Object.keys(body as object)[pick % Object.keys(body as object).length] ?? 'x';
        const variants = [
          `${valid.slice(0, -1)},"${field}":${JSON.stringify(value) ?? 'null'}}`,
          `{"__proto__":{"isAdmin":true},${valid.slice(1)}`,
          `{"constructor":{"prototype":{"isAdmin":true}},${valid.slice(1)}`,
          `${valid}${valid}`,
          `${valid.slice(0, -1)}`,
        ];
        raw = variants[pick % variants.length];
        what = `raw body variant ${pick % variants.length}`;
      } else {
        body = value;
        what = 'whole body';
      }
      const search = Object.entries(query)
        .map(([k, v]) => `${k}=${percentEncode(v)}`)
        .join('&');
      const path = route.url.replace(/:([A-Za-z]+)/g, (_, name: string) => percentEncode(params[name] ?? ''));
      const headers: Record<string, string> = { 'x-api-key': key };
      let payload: string | undefined;
      if (route.method === 'POST' || route.method === 'PUT') {
        payload = raw ?? JSON.stringify(body) ?? '';
        if (contentType !== '') headers['content-type'] = contentType;
      }
      return {
        route,
        key,
        method: route.method,
        url: `${path}${search ? `?${search}` : ''}`,
        headers,
        ...(payload === undefined ? {} : { payload }),
        what,
      };
    });
}

describe(`fuzzing every route (${RUNS} runs, seed ${SEED})`, () => {
  let t: TestApp;
  let records: Records;
  let paystack: RunningPaystackSimulator;

  before(async () => {
    paystack = await startRoutesPaystack();
    t = await createTestApp({ env: { RATE_LIMIT_MAX: '0', ...paystack.env } });
    const single = await t.call('POST', '/api/v1/data-bundles/buy-single', {
      key: KEYS.superLive,
      body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244610051' },
    });
    const rc = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244610052' },
    });
    assert.deepEqual([single.status, rc.status], [200, 200]);
    const endpoint = await t.call('POST', '/api/v1/webhook-endpoints', {
      key: KEYS.superLive,
      body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] },
    });
    const topUp = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superTest,
      body: { amount: 5, method: 'momo', reference: 'FUZZ-EVT' },
    });
    const events = await t.call('GET', '/api/v1/events', { key: KEYS.superTest });
    assert.deepEqual([endpoint.status, topUp.status, events.status], [201, 201, 200]);
    records = {
      order: single.body.data.orderId,
      bulkOrder: single.body.data.orderId,
      bulkFailedMsisdn: '0244610051',
      rcTransaction: rc.body.data.transactionId,
      event: events.body.data.events[0]._id,
      endpoint: endpoint.body.data._id,
      momoTopUp: await momoTopUpAwaitingOtp(t),
    };
  });
  after(async () => {
    await t.close();
    await paystack.close();
  });

  async function wallets() {
    return t.database.db.selectFrom('wallets').select(['id', 'available', 'held']).orderBy('id').execute();
  }

  test('no 5xx, always the envelope with a documented code, and a refused request moves no money', async () => {
    const seen = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requests(records), async (request) => {
        const before = await wallets();
        const res = await t.app.inject({
          method: request.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
          url: request.url,
          headers: request.headers,
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        const where = `${request.method} ${request.url.slice(0, 200)} (${request.what}) → ${res.statusCode} ${res.body.slice(0, 300)}`;
        assert.ok(res.statusCode < 500, where);
        const body = JSON.parse(res.body) as { success?: unknown; error?: { code?: unknown; message?: unknown } };
        if (res.statusCode >= 400) {
          assert.equal(body.success, false, where);
          assert.ok(typeof body.error?.code === 'string' && DOCUMENTED.has(body.error.code), `undocumented code: ${where}`);
          assert.equal(typeof body.error?.message, 'string', where);
          assert.doesNotMatch(String(body.error?.message), /select |insert |update |\bat .*\.ts:\d+/i, where);
          assert.deepEqual(await wallets(), before, `a refused request moved money: ${where}`);
        } else {
          assert.equal(body.success, true, where);
        }
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // The fuzzer must reach past validation too, or it tests nothing but the schema.
    assert.ok((seen.get(200) ?? 0) + (seen.get(201) ?? 0) > 0, `no request succeeded: ${JSON.stringify([...seen])}`);
    assert.ok(
      [...seen.keys()].some((s) => s >= 400),
      `no request was refused: ${JSON.stringify([...seen])}`,
    );
  });
});
