import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { describe, test } from 'node:test';
import { hostOf } from '../../src/modules/webhooks/url-policy.js';
import { KEYS } from '../support/keys.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { buySingle } from '../support/orders.js';
import { approvedTopUp, createEndpoint, startWorkers, verified, webhookApp } from '../support/webhooks.js';
import { staffActor } from '../support/actor.js';

type App = Awaited<ReturnType<typeof webhookApp>>;

const create = (t: App, body: unknown, key: string = KEYS.superLive) =>
  t.call('POST', '/api/v1/webhook-endpoints', { key, body });

const eventsOf = async (t: App, key: string, query = '') => {
  const res = await t.call('GET', `/api/v1/events${query}`, { key });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as {
    events: { _id: string; type: string; mode: string; data: { object: { _id?: string } } }[];
    isDone: boolean;
    continueCursor: string;
  };
};

describe('webhook endpoints (docs/webhooks.md, "Endpoints")', () => {
  test('bad endpoints are 400 WEBHOOK_ENDPOINT_INVALID with the reason; the 17th enabled endpoint is 409', async (c) => {
    const t = await webhookApp(c);
    const refusals: [unknown, RegExp][] = [
      [{ url: 'not a url', events: ['*'] }, /valid absolute URL/],
      [{ url: 'ftp://example.com/hook', events: ['*'] }, /https:\/\/ or http:\/\//],
      [{ url: 'https://user:pw@example.com/hook', events: ['*'] }, /user name or password/],
      [{ url: 'http://127.0.0.1:9/hook', events: [] }, /at least one event type/],
      [{ url: 'http://127.0.0.1:9/hook', events: ['order.shipped'] }, /unknown event type "order.shipped"/],
      [{ url: 'http://127.0.0.1:9/hook', events: ['*', 'order.completed'] }, /either \["\*"\]/],
      [{ url: 'http://127.0.0.1:9/hook', events: ['*'], description: 'x'.repeat(1000) }, /description/],
    ];
    for (const [body, message] of refusals) {
      const res = await create(t, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'WEBHOOK_ENDPOINT_INVALID', JSON.stringify(res.body));
      assert.match(res.body.error.message, message);
    }
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push((await createEndpoint(t, KEYS.superLive, `${receiver.url}/${i}`)).id);
    const seventeenth = await create(t, { url: `${receiver.url}/16`, events: ['*'] });
    assert.equal(seventeenth.status, 409);
    assert.equal(seventeenth.body.error.code, 'WEBHOOK_ENDPOINT_INVALID');
    // The limit is per profile and mode: the test mode has room, and a deleted endpoint frees its place.
    assert.equal((await create(t, { url: receiver.url, events: ['*'] }, KEYS.superTest)).status, 201);
    assert.equal((await t.call('DELETE', `/api/v1/webhook-endpoints/${ids[0]}`, { key: KEYS.superLive })).status, 200);
    assert.equal((await create(t, { url: `${receiver.url}/16`, events: ['*'] })).status, 201);
  });

  test('created: the secret once; listed and deleted without it; another profile cannot see or touch it', async (c) => {
    const t = await webhookApp(c);
    const created = await create(t, {
      url: 'http://127.0.0.1:9/hook',
      events: ['order.completed', 'topup.approved'],
      description: 'orders',
    });
    assert.equal(created.status, 201);
    const endpoint = created.body.data;
    assert.match(endpoint._id, /^we_/);
    assert.match(endpoint.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(endpoint.secret.slice('whsec_'.length), 'base64').length, 32);
    assert.deepEqual(endpoint.events, ['order.completed', 'topup.approved']);
    assert.equal(endpoint.status, 'enabled');

    const stored = await t.database.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', endpoint._id)
      .executeTakeFirstOrThrow();
    assert.ok(!JSON.stringify(stored).includes(endpoint.secret.slice('whsec_'.length)), 'the secret is sealed at rest');

    const listed = await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive });
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.endpoints.map((e: { _id: string }) => e._id),
      [endpoint._id],
    );
    assert.ok(!JSON.stringify(listed.body).includes('whsec_'), 'no secret in the list');
    // Other modes and profiles see nothing, and cannot delete or rotate it.
    for (const key of [KEYS.superTest, KEYS.agentLive]) {
      const other = await t.call('GET', '/api/v1/webhook-endpoints', { key });
      assert.deepEqual(other.body.data.endpoints, []);
      for (const [method, path] of [
        ['DELETE', `/api/v1/webhook-endpoints/${endpoint._id}`],
        ['POST', `/api/v1/webhook-endpoints/${endpoint._id}/rotate-secret`],
      ] as const) {
        const res = await t.call(method, path, { key });
        assert.equal(res.status, 404, `${method} ${path} with another key`);
        assert.equal(res.body.error.code, 'WEBHOOK_ENDPOINT_NOT_FOUND');
      }
    }
    const deleted = await t.call('DELETE', `/api/v1/webhook-endpoints/${endpoint._id}`, { key: KEYS.superLive });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.status, 'disabled');
    assert.equal(deleted.body.data.secret, undefined);
  });

  test('private, loopback, link-local and metadata addresses are refused when not allowed; names are checked on what they resolve to', async (c) => {
    const t = await webhookApp(c, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    for (const url of [
      'http://127.0.0.1/hook',
      'http://localhost:8080/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://10.1.2.3/hook',
      'http://192.168.1.10/hook',
      'http://172.16.0.5/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[fd00:ec2::254]/hook',
      'http://0.0.0.0/hook',
      'http://2130706433/hook', // 127.0.0.1 written as one number
      'http://100.100.100.200/hook', // carrier-grade NAT, a cloud metadata address
      'http://[fe80::1]/hook',
      'http://[fec0::1]/hook', // site-local (deprecated)
      'http://[ff02::1]/hook',
      // IPv6 forms that carry an IPv4 address: refused whatever the address, public ones included.
      'http://[::127.0.0.1]/hook', // IPv4-compatible
      'http://[::8.8.8.8]/hook',
      'http://[::ffff:8.8.8.8]/hook', // IPv4-mapped
      'http://[::ffff:0:127.0.0.1]/hook', // IPv4-translated
      'http://[::ffff:0:8.8.8.8]/hook',
      'http://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
      'http://[2002:808:808::1]/hook', // 6to4 of 8.8.8.8
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', // Teredo
      'http://[2001::7f00:1]/hook',
      'http://[64:ff9b::7f00:1]/hook', // NAT64, well-known prefix
      'http://[64:ff9b::808:808]/hook',
      'http://[64:ff9b:1::a00:1]/hook', // NAT64, local-use prefix
      'http://192.88.99.1/hook', // the 6to4 relay anycast
    ]) {
      const res = await create(t, { url, events: ['*'] });
      assert.equal(res.status, 400, url);
      assert.equal(res.body.error.code, 'WEBHOOK_ENDPOINT_INVALID', url);
      // That it is not allowed, and never the address: a name's would tell the service's internal DNS.
      assert.match(res.body.error.message, /^url is not allowed: it (is|resolves to) an address webhooks may not reach/, url);
      const host = hostOf(new URL(url));
      const addresses = isIP(host) !== 0 ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
      for (const address of addresses) assert.ok(!res.body.error.message.includes(address), `${url}: ${res.body.error.message}`);
    }
    // Public addresses still pass (an address is checked without a lookup, and nothing is sent on creation).
    for (const url of [
      'http://8.8.8.8/hook',
      'https://41.66.1.10/hook',
      'https://[2606:4700:4700::1111]/hook',
      'https://[2c0f:fe38:2000::15]:8443/hook',
    ]) {
      const res = await create(t, { url, events: ['*'] });
      assert.equal(res.status, 201, `${url}: ${JSON.stringify(res.body)}`);
    }
  });

  test('an endpoint whose address turns private after creation gets no request: the attempt fails at delivery, without naming the address', async (c) => {
    const t = await webhookApp(c, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    // Stand for names that resolved to a public address when created and were re-pointed later:
    // the API would refuse them now, so they are written straight to the table. One is an address,
    // the other a name that resolves to it.
    const now = Date.now();
    const endpoints = new Map<string, string>();
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const endpointId = `we_${randomBytes(8).toString('hex')}`;
      endpoints.set(endpointId, url);
      await t.database.db
        .insertInto('webhook_endpoints')
        .values({
          id: endpointId,
          profile_id: 'usr_super',
          mode: 'live',
          url,
          description: null,
          status: 'enabled',
          secret: t.ctx.cipher.sealer('webhook-secrets').seal(`whsec_${randomBytes(32).toString('base64')}`),
          created_at: now,
          updated_at: now,
        })
        .execute();
      await t.database.db.insertInto('webhook_subscriptions').values({ endpoint_id: endpointId, event_type: '*' }).execute();
    }
    startWorkers(t, c);
    await approvedTopUp(t, KEYS.superLive, 'PRIVATE-LATER');
    const [event] = (await eventsOf(t, KEYS.superLive, '?type=topup.approved')).events;
    const deliveries = await waitFor('the refused attempts', async () => {
      const shown = await t.call('GET', `/api/v1/events/${event?._id}`, { key: KEYS.superLive });
      const ds = shown.body.data.deliveries as { endpointId: string; attempts: { statusCode: number | null; error: string }[] }[];
      return ds.length === 2 && ds.every((d) => d.attempts.length > 0) ? ds : undefined;
    });
    const attempts = deliveries.map((d) => ({ url: endpoints.get(d.endpointId), ...d.attempts[0] }));
    assert.deepEqual(
      attempts.filter((a) => a.statusCode !== null || !/^not allowed: .+ an address webhooks may not reach/.test(a.error ?? '') || a.error?.includes('127.0.0.1')),
      [],
    );
    assert.equal(receiver.received.length, 0);
  });

  test('in production a live endpoint must use https; a test endpoint may use http', async (c) => {
    const t = await webhookApp(c, {
      env: { NODE_ENV: 'production', CREDENTIALS_KEY: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' },
    });
    const live = await create(t, { url: 'http://127.0.0.1:9/hook', events: ['*'] });
    assert.equal(live.status, 400);
    assert.match(live.body.error.message, /live endpoint must use https/);
    assert.equal((await create(t, { url: 'https://127.0.0.1:9/hook', events: ['*'] })).status, 201);
    assert.equal((await create(t, { url: 'http://127.0.0.1:9/hook', events: ['*'] }, KEYS.superTest)).status, 201);
  });

  test('test-mode events reach only test endpoints and live events only live ones; only the subscribed types arrive', async (c) => {
    const t = await webhookApp(c);
    const live = await startReceiver();
    const test_ = await startReceiver();
    const agents = await startReceiver();
    c.after(() => Promise.all([live.close(), test_.close(), agents.close()]));
    const liveEndpoint = await createEndpoint(t, KEYS.superLive, live.url, ['topup.approved']);
    const testEndpoint = await createEndpoint(t, KEYS.superTest, test_.url);
    await createEndpoint(t, KEYS.agentLive, agents.url);
    startWorkers(t, c);

    const liveOrder = (await buySingle(t, KEYS.superLive, '0241234561')).body.data.orderId as string;
    await approvedTopUp(t, KEYS.superLive, 'LIVE-TOPUP');
    const testOrder = (await buySingle(t, KEYS.superTest, '0241234562')).body.data.orderId as string;
    await waitFor(
      'the test order to complete',
      async () => (await eventsOf(t, KEYS.superTest, '?type=order.completed')).events.length === 1,
    );
    const [liveTopUpEvent] = (await eventsOf(t, KEYS.superLive, '?type=topup.approved')).events;
    await waitFor('the live top-up webhook', async () => live.received.length === 1);
    await waitFor('the test order webhook', async () =>
      test_.received.some((r) => verified(testEndpoint.secret, r).type === 'order.completed'),
    );

    const liveBodies = live.received.map((r) => verified(liveEndpoint.secret, r));
    assert.deepEqual(
      liveBodies.map((e) => e._id),
      [liveTopUpEvent?._id],
      'the live endpoint got only its subscribed type',
    );
    for (const body of test_.received.map((r) => verified(testEndpoint.secret, r))) {
      assert.equal(body.mode, 'test');
      assert.notEqual(body.data.object._id, liveOrder);
    }
    assert.ok(test_.received.some((r) => verified(testEndpoint.secret, r).data.object._id === testOrder));
    assert.equal(agents.received.length, 0, "another profile's endpoint hears nothing of usr_super");

    // Events: own profile and mode only; another profile's event is 404.
    const liveEvents = await eventsOf(t, KEYS.superLive);
    assert.ok(liveEvents.events.every((e) => e.mode === 'live'));
    const testEvents = await eventsOf(t, KEYS.superTest);
    assert.ok(testEvents.events.every((e) => e.mode === 'test'));
    assert.ok(!testEvents.events.some((e) => e._id === liveTopUpEvent?._id));
    for (const key of [KEYS.superTest, KEYS.agentLive]) {
      for (const [method, path] of [
        ['GET', `/api/v1/events/${liveTopUpEvent?._id}`],
        ['POST', `/api/v1/events/${liveTopUpEvent?._id}/redeliver`],
      ] as const) {
        const res = await t.call(method, path, { key });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.error.code, 'EVENT_NOT_FOUND');
      }
    }
  });

  test('events page newest first with a cursor, filter by type, and refuse a bad type, limit or cursor', async (c) => {
    const t = await webhookApp(c);
    for (let i = 0; i < 5; i++) await approvedTopUp(t, KEYS.superLive, `PAGE-${i}`);
    const rejected = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { amount: 5, method: 'momo', reference: 'PAGE-R' },
    });
    await t.ctx.topUps.reject(staffActor('staff@test'), rejected.body.data._id, 'no such transfer');

    const all = await eventsOf(t, KEYS.superLive);
    assert.equal(all.events.length, 6);
    assert.equal(all.events[0]?.type, 'topup.rejected', 'newest first');
    const seen: string[] = [];
    let cursor = '';
    for (;;) {
      const page = await eventsOf(t, KEYS.superLive, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.events.map((e) => e._id));
      if (page.isDone) break;
      assert.equal(page.events.length, 2);
      cursor = page.continueCursor;
    }
    assert.deepEqual(
      seen,
      all.events.map((e) => e._id),
    );
    const approvals = await eventsOf(t, KEYS.superLive, '?type=topup.approved');
    assert.equal(approvals.events.length, 5);
    assert.ok(approvals.events.every((e) => e.type === 'topup.approved'));

    for (const query of ['?type=order.shipped', '?limit=0', '?limit=abc', '?cursor=garbage']) {
      const res = await t.call('GET', `/api/v1/events${query}`, { key: KEYS.superLive });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', query);
    }
    const unknown = await t.call('GET', '/api/v1/events/evt_doesnotexist', { key: KEYS.superLive });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'EVENT_NOT_FOUND');
  });

  test('rotation: during the overlap both secrets verify the same delivery; after it only the new one signs', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    const rotated = await t.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, { key: KEYS.superLive });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const newSecret = rotated.body.data.secret as string;
    assert.notEqual(newSecret, endpoint.secret);
    startWorkers(t, c);

    await approvedTopUp(t, KEYS.superLive, 'ROTATE-1');
    await waitFor('the delivery during the overlap', async () => receiver.received.length === 1);
    const during = receiver.received[0]!;
    assert.equal(during.headers['webhook-signature']?.split(' ').length, 2, 'two signatures');
    assert.equal(verified(endpoint.secret, during).type, 'topup.approved');
    assert.equal(verified(newSecret, during).type, 'topup.approved');

    // The overlap ends (24 h later): only the new secret signs.
    await t.database.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_until: Date.now() - 1 })
      .where('id', '=', endpoint.id)
      .execute();
    await approvedTopUp(t, KEYS.superLive, 'ROTATE-2');
    await waitFor('the delivery after the overlap', async () => receiver.received.length === 2);
    const after = receiver.received[1]!;
    assert.equal(after.headers['webhook-signature']?.split(' ').length, 1);
    assert.equal(verified(newSecret, after).type, 'topup.approved');
    assert.throws(() => verified(endpoint.secret, after), /signature/i);
  });

  test('low balance: one wallet.balance_low per crossing, again only after the balance rose above the threshold', async (c) => {
    const t = await webhookApp(c);
    const set = await t.call('PUT', '/api/v1/wallet-balance/alert', { key: KEYS.superLive, body: { threshold: 495 } });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.data.alertThreshold, 495);
    assert.equal((await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.superLive })).body.data.alertThreshold, 495);
    const lows = async () => (await eventsOf(t, KEYS.superLive, '?type=wallet.balance_low')).events;

    assert.equal((await lows()).length, 0, 'setting a threshold raises nothing by itself');
    await buySingle(t, KEYS.superLive, '0241234571'); // 500 → 491.5: crosses
    await buySingle(t, KEYS.superLive, '0241234572'); // 483: still below
    const first = await lows();
    assert.equal(first.length, 1);
    assert.equal((first[0]?.data.object as { availableBalance?: number }).availableBalance, 491.5);
    await approvedTopUp(t, KEYS.superLive, 'LOW-UP'); // 493: below still, no rise above
    await approvedTopUp(t, KEYS.superLive, 'LOW-UP-2'); // 503: above again
    await buySingle(t, KEYS.superLive, '0241234573'); // 494.5: crosses again
    assert.equal((await lows()).length, 2);
    // The test wallet has its own threshold (none): its purchases raise nothing.
    await buySingle(t, KEYS.superTest, '0241234574');
    assert.equal((await eventsOf(t, KEYS.superTest, '?type=wallet.balance_low')).events.length, 0);

    const off = await t.call('PUT', '/api/v1/wallet-balance/alert', { key: KEYS.superLive, body: { threshold: null } });
    assert.equal(off.body.data.alertThreshold, null);
    for (const body of [{ threshold: -1 }, { threshold: 1.234 }, { threshold: '50' }, {}, { threshold: 50, extra: 1 }]) {
      const res = await t.call('PUT', '/api/v1/wallet-balance/alert', { key: KEYS.superLive, body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'INVALID_REQUEST', JSON.stringify(res.body));
    }
  });

  test('events older than the retention are purged with their deliveries and attempts; newer ones stay', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    const { webhooks } = startWorkers(t, c);
    await approvedTopUp(t, KEYS.superLive, 'OLD-1');
    await approvedTopUp(t, KEYS.superLive, 'NEW-1');
    await waitFor('both deliveries', async () => receiver.received.length === 2);
    await webhooks.stop();
    const [newer, older] = (await eventsOf(t, KEYS.superLive)).events;
    const thirtyOneDays = 31 * 86_400_000;
    await t.database.db
      .updateTable('events')
      .set({ created_at: Date.now() - thirtyOneDays })
      .where('id', '=', older!._id)
      .execute();

    const purged = await t.ctx.events.purgeExpired(t.config.webhooks.eventRetentionMs);
    assert.equal(purged, 1);
    assert.equal((await t.call('GET', `/api/v1/events/${older!._id}`, { key: KEYS.superLive })).status, 404);
    assert.equal((await t.call('GET', `/api/v1/events/${newer!._id}`, { key: KEYS.superLive })).status, 200);
    const deliveries = await t.database.db.selectFrom('webhook_deliveries').select('event_id').execute();
    assert.deepEqual(
      deliveries.map((d) => d.event_id),
      [newer!._id],
    );
    const attempts = await t.database.db.selectFrom('webhook_attempts').select('delivery_id').execute();
    assert.equal(attempts.length, 1);
  });
});
