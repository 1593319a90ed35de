import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { useTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

/** Per API key and per address, with the IETF RateLimit headers (docs/api.md, "Rate limits"). */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function parseRateLimit(header: unknown): { remaining: number; reset: number } {
  const match = /^"default";r=(\d+);t=(\d+)$/.exec(String(header));
  assert.ok(match, `RateLimit header: ${String(header)}`);
  return { remaining: Number(match[1]), reset: Number(match[2]) };
}

const profile = (t: TestApp, key: string) => t.call('GET', '/api/v1/profile', { key });

describe('rate limits', () => {
  test('per API key: the headers count down, the request past the limit is 429 RATE_LIMITED with Retry-After', async (c) => {
    const t = await useTestApp(c, { env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_S: '30' } });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await profile(t, KEYS.agentLive);
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-policy'], '"default";q=5;w=30');
      const { remaining, reset } = parseRateLimit(res.headers.ratelimit);
      seen.push(remaining);
      assert.ok(reset >= 1 && reset <= 30, `t=${reset}`);
    }
    assert.deepEqual(seen, [4, 3, 2, 1, 0]);
    const limited = await profile(t, KEYS.agentLive);
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { success: false, error: { code: 'RATE_LIMITED', message: limited.body.error.message } });
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 30, `Retry-After ${String(limited.headers['retry-after'])}`);
    assert.equal(parseRateLimit(limited.headers.ratelimit).remaining, 0);
    // A purchase is refused too, before it runs.
    const before = await t.wallet('usr_agent', 'live');
    const buy = await t.call('POST', '/api/v1/data-bundles/buy-single', {
      key: KEYS.agentLive,
      body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244920011' },
    });
    assert.equal(buy.status, 429);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), before);

    // Every other key has its own budget, the same profile's test key included.
    for (const key of [KEYS.agentTest, KEYS.superLive]) {
      const res = await profile(t, key);
      assert.equal(res.status, 200, key);
      assert.equal(parseRateLimit(res.headers.ratelimit).remaining, 4, key);
    }
  });

  test('RATE_LIMIT_MAX=0 turns the per-key limit off: no headers, no 429', async (c) => {
    const t = await useTestApp(c, { env: { RATE_LIMIT_MAX: '0' } });
    for (let i = 0; i < 20; i++) {
      const res = await profile(t, KEYS.agentLive);
      assert.equal(res.status, 200);
      assert.equal(res.headers.ratelimit, undefined);
    }
  });

  test('failed authentications per address: past RATE_LIMIT_AUTH_FAILURES the address is refused, valid key or not', async (c) => {
    const t = await useTestApp(c, { env: { RATE_LIMIT_AUTH_FAILURES: '3' } });
    for (let i = 0; i < 3; i++) assert.equal((await profile(t, `service_live_guess${i}abcdefgh`)).status, 401);
    const blocked = await profile(t, 'service_live_guess9abcdefgh');
    assert.equal(blocked.status, 429);
    assert.equal(blocked.body.error.code, 'RATE_LIMITED');
    assert.ok(Number(blocked.headers['retry-after']) >= 1);
    // A valid key from that address learns nothing more either, so a guess cannot be confirmed.
    assert.equal((await profile(t, KEYS.agentLive)).status, 429);
    // Another address is not concerned.
    const elsewhere = await t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: { 'x-api-key': KEYS.agentLive }, remoteAddress: '10.1.2.3' });
    assert.equal(elsewhere.statusCode, 200);
  });

  // Each store: this process's memory, and Redis (a prefix of its own per test).
  const stores = [
    ['in memory', () => ({})],
    ['in Redis', () => ({ REDIS_URL, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` })],
  ] as const;
  const fromAddress = (t: TestApp, key: string, remoteAddress: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/profile', headers: { 'x-api-key': key }, remoteAddress }).then((res) => res.statusCode);
  const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((n, s) => ({ ...n, [s]: (n[s] ?? 0) + 1 }), {});

  for (const [where, storeEnv] of stores) {
    test(`${where}: of 60 simultaneous bad keys from one address, only the limit's worth are looked up (401), the rest refused (429); other addresses are unaffected`, async (c) => {
      const t = await useTestApp(c, { env: { RATE_LIMIT_AUTH_FAILURES: '10', ...storeEnv() } });
      const burst = await Promise.all(
        Array.from({ length: 60 }, (_, i) => fromAddress(t, `service_live_burst${String(i).padStart(2, '0')}abcdefgh`, '198.51.100.20')),
      );
      assert.deepEqual(tally(burst), { 401: 10, 429: 50 });
      assert.equal(await fromAddress(t, KEYS.agentLive, '198.51.100.20'), 429);
      assert.equal(await fromAddress(t, KEYS.agentLive, '198.51.100.21'), 200);
    });

    test(`${where}: valid keys do not spend the failure budget, not even many at once`, async (c) => {
      const t = await useTestApp(c, { env: { RATE_LIMIT_AUTH_FAILURES: '3', ...storeEnv() } });
      const address = '198.51.100.30';
      // More requests in flight than the limit: they wait for a place instead of being refused.
      const valid = await Promise.all(Array.from({ length: 40 }, () => fromAddress(t, KEYS.agentLive, address)));
      assert.deepEqual(tally(valid), { 200: 40 });
      const after: number[] = [];
      for (let i = 0; i < 4; i++) after.push(await fromAddress(t, `service_live_after${i}abcdefgh`, address));
      assert.deepEqual(after, [401, 401, 401, 429]);
    });
  }

  test('with Redis, two app instances share one budget per key', async (c) => {
    const prefix = `test-${randomBytes(4).toString('hex')}:`;
    const env = { RATE_LIMIT_MAX: '6', RATE_LIMIT_WINDOW_S: '60', REDIS_URL, REDIS_KEY_PREFIX: prefix };
    const t = await useTestApp(c, { env });
    const second = await buildApp({ ...t.ctx, config: loadConfig({ ...env, DATABASE_URL: t.testDb.url }) });
    c.after(() => second.close());
    const apps = [t.app, second];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await apps[i % 2]!.inject({ method: 'GET', url: '/api/v1/profile', headers: { 'x-api-key': KEYS.superLive } });
      statuses.push(res.statusCode);
    }
    assert.deepEqual(statuses, [200, 200, 200, 200, 200, 200, 429, 429]);
    // The shared counter is under the prefix, named after the key (not "undefinedundefined-key:").
    const redis = new Redis(REDIS_URL);
    c.after(() => redis.quit());
    const stored = await redis.keys(`${prefix}rate-limit:*`);
    assert.ok(stored.length > 0, 'a per-key counter is in Redis');
    for (const key of stored) assert.match(key, new RegExp(`^${prefix}rate-limit:key:[^:]+$`));
  });

  test('Redis unreachable: requests are served without limits, and the log says so', async (c) => {
    const warnings: string[] = [];
    const t = await useTestApp(c, { env: { RATE_LIMIT_MAX: '2', REDIS_URL: 'redis://127.0.0.1:1' } });
    const app = await buildApp({ ...t.ctx, log: { ...t.ctx.log, warn: (_obj: object, message?: string) => warnings.push(message ?? '') } });
    c.after(() => app.close());
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ method: 'GET', url: '/api/v1/profile', headers: { 'x-api-key': KEYS.superLive } });
      assert.equal(res.statusCode, 200);
    }
    assert.ok(
      warnings.some((w) => /Redis is unreachable: rate limits are not enforced/.test(w)),
      warnings.join('\n'),
    );
  });
});
