import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RETRY_SCHEDULE_MS } from '../../src/modules/webhooks/deliveries.js';
import { createWebhookLane } from '../../src/worker/index.js';
import { KEYS } from '../support/keys.js';
import { startReceiver } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { buySingle, newWorker } from '../support/orders.js';
import { approvedTopUp, createEndpoint, SCALE, startWorkers, verified, webhookApp } from '../support/webhooks.js';

/** A live top-up approved by staff: one topup.approved event of usr_super, at once. */
async function topUpEvent(t: Awaited<ReturnType<typeof webhookApp>>, reference: string): Promise<string> {
  await approvedTopUp(t, KEYS.superLive, reference);
  const events = await t.call('GET', '/api/v1/events?type=topup.approved&limit=1', { key: KEYS.superLive });
  return events.body.data.events[0]._id as string;
}

const eventOf = async (t: Awaited<ReturnType<typeof webhookApp>>, id: string) =>
  (await t.call('GET', `/api/v1/events/${id}`, { key: KEYS.superLive })).body.data;

describe('webhook delivery (docs/webhooks.md, "Delivery")', () => {
  test('500 three times, then 200: four attempts on the scaled schedule, one success, the same webhook-id throughout', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver((_r, n) => ({ status: n < 3 ? 500 : 200 }));
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'RETRY-1');

    const event = await waitFor('the fourth attempt to succeed', async () => {
      const shown = await eventOf(t, eventId);
      return shown.deliveries[0]?.status === 'succeeded' ? shown : undefined;
    });
    const [delivery] = event.deliveries;
    assert.deepEqual(
      delivery.attempts.map((a: { statusCode: number }) => a.statusCode),
      [500, 500, 500, 200],
    );
    assert.equal(delivery.lastStatusCode, 200);
    assert.equal(delivery.nextAttemptAt, null);
    const requests = receiver.withId(eventId);
    assert.equal(requests.length, 4);
    for (const request of requests) assert.equal(verified(endpoint.secret, request)._id, eventId);
    // Each retry waited its step of the schedule (×WEBHOOK_RETRY_SCALE, −10% jitter at most).
    for (let i = 1; i < 4; i++) {
      const waited = (requests[i]?.at ?? 0) - (requests[i - 1]?.at ?? 0);
      const step = (RETRY_SCHEDULE_MS[i - 1] ?? 0) * SCALE;
      assert.ok(waited >= step * 0.9 - 2, `retry ${i} came after ${waited} ms, the schedule says ${step} ms`);
    }
    c.diagnostic(
      `gaps between attempts: ${requests
        .slice(1)
        .map((r, i) => r.at - (requests[i]?.at ?? 0))
        .join(', ')} ms`,
    );
  });

  test('a delivery whose schedule runs out is failed after ten attempts', async (c) => {
    // At 1/200 000 the nine retries (75 h 35 min unscaled) take about 1.4 s. Other events to the same
    // endpoint succeed meanwhile, so the endpoint is not failing as a whole and is never disabled (the
    // three-day rule has a test of its own): this delivery runs its whole schedule.
    const t = await webhookApp(c, { env: { WEBHOOK_RETRY_SCALE: '0.000005' } });
    const receiver = await startReceiver((request) => ({ status: request.body.includes('"EXHAUST-1"') ? 500 : 200 }));
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'EXHAUST-1');
    let others = 0;
    const event = await waitFor('the delivery to fail for good', async () => {
      await topUpEvent(t, `FINE-${others++}`);
      const shown = await eventOf(t, eventId);
      return shown.deliveries[0]?.status === 'failed' ? shown : undefined;
    });
    const attempts = event.deliveries[0].attempts as { statusCode: number | null }[];
    assert.equal(attempts.length, 1 + RETRY_SCHEDULE_MS.length);
    // Each attempt reached the receiver and got its 500, or failed on the way (a connection reset).
    const answered = attempts.filter((a) => a.statusCode !== null);
    assert.ok(answered.every((a) => a.statusCode === 500));
    const received = receiver.withId(eventId).length;
    assert.ok(received >= answered.length && received <= attempts.length, JSON.stringify(attempts));
    assert.equal(event.deliveries[0].nextAttemptAt, null);
    const [endpoint] = (await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive })).body.data.endpoints;
    assert.equal(endpoint.status, 'enabled');
  });

  test('410 Gone disables the endpoint at once; its other pending deliveries stop', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver(() => ({ status: 410 }));
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    const first = await topUpEvent(t, 'GONE-1');
    const second = await topUpEvent(t, 'GONE-2');
    startWorkers(t, c, { concurrency: 1 });
    await waitFor('the endpoint to be disabled', async () => {
      const endpoints = (await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive })).body.data.endpoints;
      return endpoints[0].status === 'disabled';
    });
    const [shown] = (await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive })).body.data.endpoints;
    assert.equal(shown._id, endpoint.id);
    assert.match(shown.disabledReason, /410/);
    // One request reached it; both deliveries are failed; nothing more is sent.
    assert.equal(receiver.received.length, 1);
    const statuses = [(await eventOf(t, first)).deliveries[0].status, (await eventOf(t, second)).deliveries[0].status];
    assert.deepEqual(statuses, ['failed', 'failed']);
    await topUpEvent(t, 'GONE-3');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(receiver.received.length, 1);
  });

  test('an endpoint that never answers does not slow settlement, nor other partners’ webhooks', async (c) => {
    const t = await webhookApp(c);
    const dead = await startReceiver(() => 'hang');
    const healthy = await startReceiver();
    c.after(() => Promise.all([dead.close(), healthy.close()]));
    await createEndpoint(t, KEYS.superLive, dead.url);
    await createEndpoint(t, KEYS.agentLive, healthy.url);
    startWorkers(t, c, { concurrency: 4, perEndpoint: 2 });

    // Twenty orders of the partner with the dead endpoint first (forty events for it), then the other partner's.
    const started = Date.now();
    const deadOrders: string[] = [];
    for (let i = 0; i < 20; i++) deadOrders.push((await buySingle(t, KEYS.superLive, `02448300${10 + i}`)).body.data.orderId);
    const otherOrders: string[] = [];
    for (let i = 0; i < 5; i++) otherOrders.push((await buySingle(t, KEYS.agentLive, `02448400${10 + i}`)).body.data.orderId);
    const settledIn = await waitFor('every order settled', async () => {
      const open = await t.database.db
        .selectFrom('orders')
        .select('id')
        .where('state', 'in', ['pending', 'processing'])
        .execute();
      return open.length === 0 ? Date.now() - started : undefined;
    });
    const otherWebhooksIn = await waitFor('the other partner’s five order.completed webhooks', async () =>
      healthy.received.length >= 5 ? Math.max(...healthy.received.map((r) => r.at)) - started : undefined,
    );
    c.diagnostic(
      `25 orders settled in ${settledIn} ms, the healthy endpoint had its 5 webhooks after ${otherWebhooksIn} ms, while the dead one held ${dead.received.length} requests open`,
    );
    // The dead endpoint's sends wait out their 10 s timeout: anything that waited behind one of them
    // would have taken at least that long.
    assert.ok(settledIn < 10_000, `settlement took ${settledIn} ms`);
    assert.ok(otherWebhooksIn < 10_000, `the other partner's webhooks took ${otherWebhooksIn} ms`);
    assert.ok(dead.received.length <= 2, 'at most two sends at once to one endpoint');
    const late = await t.call('GET', '/api/v1/orders?limit=100', { key: KEYS.superLive });
    assert.ok((late.body.data.orders as { state: string }[]).every((o) => o.state === 'completed'));
  });

  test('Retry-After on a 503 is honoured when it asks for longer than the schedule', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver((_r, n) =>
      n === 0 ? { status: 503, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'LATER-1');
    await waitFor('the second attempt', async () => receiver.withId(eventId).length === 2);
    const [first, second] = receiver.withId(eventId);
    const waited = (second?.at ?? 0) - (first?.at ?? 0);
    assert.ok(waited >= 950, `the retry came ${waited} ms later; Retry-After asked for 1 s (the schedule: ${5_000 * SCALE} ms)`);
  });

  test('a redirect is not followed: the 302 is a failed attempt, the target gets nothing', async (c) => {
    const t = await webhookApp(c);
    const target = await startReceiver();
    const redirecting = await startReceiver(() => ({ status: 302, headers: { location: `${target.url}/stolen` } }));
    c.after(() => Promise.all([target.close(), redirecting.close()]));
    await createEndpoint(t, KEYS.superLive, redirecting.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'REDIRECT-1');
    await waitFor('two attempts at the redirecting endpoint', async () => redirecting.withId(eventId).length >= 2);
    assert.equal(target.received.length, 0);
    const [delivery] = (await eventOf(t, eventId)).deliveries;
    assert.equal(delivery.attempts[0].statusCode, 302);
    assert.notEqual(delivery.status, 'succeeded');
  });

  test('a redelivered event keeps its webhook-id and starts the schedule again', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'AGAIN-1');
    await waitFor('the first delivery', async () => receiver.withId(eventId).length === 1);
    const redelivered = await t.call('POST', `/api/v1/events/${eventId}/redeliver`, { key: KEYS.superLive });
    assert.equal(redelivered.status, 202, JSON.stringify(redelivered.body));
    assert.deepEqual(redelivered.body.data, { eventId, endpoints: 1 });
    // Its second attempt is logged when it starts (before the send): wait for its outcome too.
    const [delivery] = await waitFor('the redelivery to be recorded', async () => {
      const { deliveries } = await eventOf(t, eventId);
      return deliveries[0]?.attempts.length === 2 && deliveries[0].status !== 'pending' ? deliveries : undefined;
    });
    assert.equal(delivery.status, 'succeeded');
    assert.equal(receiver.withId(eventId).length, 2);
    const [first, again] = receiver.withId(eventId).map((r) => verified(endpoint.secret, r));
    assert.deepEqual(again, first);
  });

  test('a redelivery asked for while an attempt is still in flight is sent, and the late outcome does not undo it', async (c) => {
    const t = await webhookApp(c, { env: { WEBHOOK_TIMEOUT_MS: '1500' } });
    const receiver = await startReceiver((_r, n) => (n === 0 ? 'hang' : { status: 200 }));
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    const eventId = await topUpEvent(t, 'INFLIGHT-1');
    await waitFor('the first attempt to reach the endpoint', async () => receiver.withId(eventId).length === 1);
    const redelivered = await t.call('POST', `/api/v1/events/${eventId}/redeliver`, { key: KEYS.superLive });
    assert.equal(redelivered.status, 202, JSON.stringify(redelivered.body));
    await waitFor('the redelivery', async () => receiver.withId(eventId).length >= 2);
    const [first, second] = receiver.withId(eventId).map((r) => r.at);
    const gap = (second ?? Infinity) - (first ?? 0);
    assert.ok(gap < 1500, `the redelivery came ${gap} ms after the first attempt, not while it hung`);
    // The first attempt times out after the redelivery succeeded: both are logged, the delivery stays succeeded.
    const [delivery] = await waitFor('both attempts to be logged', async () => {
      const { deliveries } = await eventOf(t, eventId);
      return deliveries[0]?.attempts.length === 2 ? deliveries : undefined;
    });
    assert.equal(delivery.status, 'succeeded');
    assert.deepEqual(delivery.attempts.map((a: { statusCode: number | null }) => a.statusCode).sort(), [200, null]);
    assert.equal(delivery.nextAttemptAt, null);
    assert.equal(receiver.withId(eventId).length, 2);
  });

  test('an endpoint failing for three days is disabled at its next failure', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver(() => ({ status: 500 }));
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    // Its deliveries have failed since three days (scaled) ago.
    const since = Date.now() - 3 * 86_400_000 * SCALE - 1_000;
    await t.database.db.updateTable('webhook_endpoints').set({ failing_since: since }).where('id', '=', endpoint.id).execute();
    startWorkers(t, c);
    await topUpEvent(t, 'DAYS-1');
    const [shown] = await waitFor('the endpoint to be disabled', async () => {
      const endpoints = (await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive })).body.data.endpoints;
      return endpoints[0].status === 'disabled' ? endpoints : undefined;
    });
    assert.match(shown.disabledReason, /three days/);
  });

  test('a success ends an endpoint’s failing streak', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver((_r, n) => ({ status: n === 0 ? 500 : 200 }));
    c.after(() => receiver.close());
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    startWorkers(t, c);
    await topUpEvent(t, 'STREAK-1');
    await waitFor('a failure then a success', async () => receiver.received.length >= 2);
    await waitFor('the streak to end', async () => {
      const row = await t.database.db
        .selectFrom('webhook_endpoints')
        .select('failing_since')
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      return row.failing_since === null;
    });
  });

  test('several workers deliver each event once (claims under lease; PostgreSQL skips locked rows)', async (c) => {
    const t = await webhookApp(c);
    const receiver = await startReceiver();
    c.after(() => receiver.close());
    await createEndpoint(t, KEYS.superLive, receiver.url);
    await createEndpoint(t, KEYS.superLive, `${receiver.url}/second`);
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) ids.push(await topUpEvent(t, `MANY-${i}`));
    const lanes = ['a', 'b', 'c'].map((name) =>
      createWebhookLane(t.ctx, `lane-${name}`, { idleMaxMs: 5, concurrency: 4, perEndpoint: 4 }),
    );
    for (const lane of lanes) lane.start();
    c.after(() => Promise.all(lanes.map((lane) => lane.stop())));
    await waitFor('thirty deliveries to be recorded', async () => {
      const open = await t.database.db.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'succeeded').execute();
      return open.length === 0;
    });
    for (const id of ids) {
      const got = receiver
        .withId(id)
        .map((r) => r.path)
        .sort();
      assert.deepEqual(got, ['/', '/second'], `event ${id}`);
    }
    assert.equal(receiver.received.length, 30);
    const worker = newWorker(t);
    assert.equal(await worker.runOnce(), 0, 'the order outbox was not touched');
  });
});
