import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.js';
import { trustProxyOption } from '../../src/http/trust-proxy.js';
import { appWithLogLines, useTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

/** TRUST_PROXY (docs/deployment.md, "TLS in front"): request.ip is the client behind the proxies, never a spoofed one. */

const PROXY = '10.0.0.1';
const CLIENT_A = '41.66.1.10';
const CLIENT_B = '154.160.2.20';
const STRANGER = '203.0.113.9';

interface Hop {
  /** The address the request's connection comes from. */
  peer: string;
  /** X-Forwarded-For as it arrives, if any. */
  forwardedFor?: string;
}

const badKey = (i: number) => `service_live_guess${String(i).padStart(4, '0')}abcdefgh`;

async function profile(t: TestApp, hop: Hop, key: string): Promise<number> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/api/v1/profile',
    remoteAddress: hop.peer,
    headers: { 'x-api-key': key, ...(hop.forwardedFor === undefined ? {} : { 'x-forwarded-for': hop.forwardedFor }) },
  });
  return res.statusCode;
}

/** `count` bad keys, one after the other (each counted before the next), and their statuses. */
async function guesses(t: TestApp, count: number, hop: (i: number) => Hop): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push(await profile(t, hop(i), badKey(i)));
  return statuses;
}

const times = (n: number, status: number) => Array.from({ length: n }, () => status);

describe('TRUST_PROXY: the client address behind a reverse proxy', () => {
  test('through a trusted proxy, 101 bad keys from one client block that client only: another client of the same proxy still reads and buys', async (c) => {
    const t = await useTestApp(c, { env: { TRUST_PROXY: PROXY, RATE_LIMIT_AUTH_FAILURES: '100' } });
    const viaProxy = (client: string): Hop => ({ peer: PROXY, forwardedFor: client });
    assert.deepEqual(await guesses(t, 101, () => viaProxy(CLIENT_A)), [...times(100, 401), 429]);
    assert.equal(await profile(t, viaProxy(CLIENT_A), KEYS.agentLive), 429, 'client A is blocked, valid key or not');

    assert.equal(await profile(t, viaProxy(CLIENT_B), KEYS.agentLive), 200, 'client B behind the same proxy is not');
    const before = await t.wallet('usr_agent', 'live');
    const buy = await t.app.inject({
      method: 'POST',
      url: '/api/v1/data-bundles/buy-single',
      remoteAddress: PROXY,
      headers: { 'x-api-key': KEYS.agentLive, 'x-forwarded-for': CLIENT_B },
      payload: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244920011' },
    });
    assert.equal(buy.statusCode, 200, buy.body);
    assert.ok((await t.wallet('usr_agent', 'live')).available < before.available, 'the purchase was charged');
  });

  test('X-Forwarded-For is ignored from a peer that is not a trusted proxy, and a client cannot put another address before its own', async (c) => {
    const t = await useTestApp(c, { env: { TRUST_PROXY: `${PROXY},fd00:1::/64`, RATE_LIMIT_AUTH_FAILURES: '5' } });
    // Straight to the port, with a new X-Forwarded-For each time: all counted for the peer itself.
    assert.deepEqual(
      await guesses(t, 6, (i) => ({ peer: STRANGER, forwardedFor: `198.18.0.${i + 1}` })),
      [...times(5, 401), 429],
    );
    assert.equal(await profile(t, { peer: STRANGER, forwardedFor: CLIENT_B }, KEYS.agentLive), 429);
    assert.equal(await profile(t, { peer: PROXY, forwardedFor: CLIENT_B }, KEYS.agentLive), 200, 'the client it named is not blocked');

    // Through the proxy, a client's own X-Forwarded-For is kept in front of the address the proxy adds: the proxy's wins.
    for (const proxy of [PROXY, 'fd00:1::7']) {
      const client = proxy === PROXY ? CLIENT_A : '2c0f:fe38:2000::15';
      assert.deepEqual(
        await guesses(t, 6, (i) => ({ peer: proxy, forwardedFor: `198.18.1.${i + 1}, ${client}` })),
        [...times(5, 401), 429],
        proxy,
      );
      assert.equal(await profile(t, { peer: proxy, forwardedFor: CLIENT_B }, KEYS.agentLive), 200, proxy);
    }
  });

  test('a hop count: the client is that many hops back when the nearest proxy is on this host or a private network; any other peer is the client', async (c) => {
    const t = await useTestApp(c, { env: { TRUST_PROXY: '2', RATE_LIMIT_AUTH_FAILURES: '3' } });
    const cdn = '104.16.0.1';
    // client → CDN → a proxy on this host (or in the private network) → the service.
    for (const [n, nearest] of ['127.0.0.1', '10.20.0.4', '::ffff:192.168.1.9', 'fd12::4'].entries()) {
      const client = `41.66.2.${n + 1}`;
      assert.deepEqual(
        await guesses(t, 4, (i) => ({ peer: nearest, forwardedFor: `198.18.2.${i + 1}, ${client}, ${cdn}` })),
        [...times(3, 401), 429],
        nearest,
      );
      assert.equal(await profile(t, { peer: nearest, forwardedFor: `${CLIENT_B}, ${cdn}` }, KEYS.agentLive), 200, nearest);
    }
    // A peer on the internet reaching the port directly is not a proxy, whatever it writes.
    assert.deepEqual(
      await guesses(t, 4, (i) => ({ peer: STRANGER, forwardedFor: `198.18.3.${i + 1}, 198.18.4.${i + 1}` })),
      [...times(3, 401), 429],
    );
    assert.equal(await profile(t, { peer: STRANGER, forwardedFor: `${CLIENT_B}, ${cdn}` }, KEYS.agentLive), 429);
  });

  test('the request log names the client behind the proxy', async (c) => {
    const t = await useTestApp(c, { env: { TRUST_PROXY: PROXY } });
    const { app, lines } = await appWithLogLines(t);
    c.after(() => app.close());
    // Not /healthz: probes log no request line.
    await app.inject({ method: 'GET', url: '/api/v1/profile', remoteAddress: PROXY, headers: { 'x-forwarded-for': CLIENT_A } });
    const incoming = lines.map((line) => JSON.parse(line) as { msg?: string; req?: { remoteAddress?: string } });
    assert.equal(incoming.find((l) => l.msg === 'incoming request')?.req?.remoteAddress, CLIENT_A, lines.join(''));
  });

  test('without TRUST_PROXY, X-Forwarded-For is nobody’s word', async (c) => {
    const t = await useTestApp(c, { env: { RATE_LIMIT_AUTH_FAILURES: '2' } });
    assert.deepEqual(await guesses(t, 3, (i) => ({ peer: PROXY, forwardedFor: `41.66.3.${i}` })), [401, 401, 429]);
  });

  test('every value the configuration accepts is one Fastify takes', () => {
    for (const value of ['10.0.0.1', '10.0.0.0/8, 172.16.0.0/12 ,fd00::/8', '::1', '::ffff:10.0.0.1', '2001:db8::/32', '1', '32']) {
      const setting = loadConfig({ TRUST_PROXY: value }).trustProxy;
      assert.notEqual(setting.kind, 'none', value);
      assert.doesNotThrow(() => Fastify({ trustProxy: trustProxyOption(setting) }), value);
    }
    assert.deepEqual(loadConfig({}).trustProxy, { kind: 'none' });
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' ' }).trustProxy, { kind: 'none' });
  });
});
