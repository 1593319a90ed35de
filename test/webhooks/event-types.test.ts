import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEYS } from '../support/keys.js';
import { startReceiver, type Received } from '../support/receiver.js';
import { waitFor } from '../support/wait.js';
import { buySingle } from '../support/orders.js';
import { createEndpoint, startWorkers, verified, webhookApp, type EventBody } from '../support/webhooks.js';
import { staffActor } from '../support/actor.js';

/**
 * Every event type (docs/webhooks.md, "Event types") reaches a real receiver, signed so that the
 * `standardwebhooks` package (not our code) verifies it, with the record exactly as its own GET
 * endpoint returns it at that moment; and the event's GET shows the same object and the delivery.
 */
test('every event type arrives signed, with the record as its GET endpoint returns it', async (c) => {
  const t = await webhookApp(c);
  const receiver = await startReceiver();
  c.after(() => receiver.close());
  const endpoint = await createEndpoint(t, KEYS.superLive, `${receiver.url}/hooks`);
  startWorkers(t, c);
  const key = KEYS.superLive;

  /** The next delivery of an event of `type` the receiver got (verified), waiting for it. */
  const seen = new Set<Received>();
  async function next(type: string): Promise<EventBody> {
    const request = await waitFor(`a ${type} webhook`, async () =>
      receiver.received.find((r) => !seen.has(r) && (JSON.parse(r.body) as EventBody).type === type),
    );
    seen.add(request);
    assert.equal(request.path, '/hooks');
    assert.equal(request.headers['content-type'], 'application/json');
    const event = verified(endpoint.secret, request);
    assert.equal(request.headers['webhook-id'], event._id);
    assert.ok(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.equal(event.mode, 'live');
    // The event as the API shows it: the same object, and this delivery.
    const shown = await t.call('GET', `/api/v1/events/${event._id}`, { key });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    const { deliveries, ...rest } = shown.body.data;
    assert.deepEqual(rest, event);
    assert.equal(deliveries[0].endpointId, endpoint.id);
    return event;
  }
  const get = async (url: string) => (await t.call('GET', url, { key })).body.data;

  // order.completed (a single order)
  const single = (await buySingle(t, key, '0244810051')).body.data.orderId as string;
  const completed = await next('order.completed');
  assert.equal(completed.data.object._id, single);
  assert.deepEqual(completed.data.object, await get(`/api/v1/orders/${single}`));

  // order.failed (the sandbox fails numbers ending in 0000)
  const failing = (await buySingle(t, key, '0244810000')).body.data.orderId as string;
  const failed = await next('order.failed');
  assert.equal(failed.data.object._id, failing);
  assert.equal(failed.data.object.errorMessage, 'Sandbox: delivery failed');
  assert.deepEqual(failed.data.object, await get(`/api/v1/orders/${failing}`));

  // order.recipient.completed, order.recipient.failed, then the bulk order's order.completed
  const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
    key,
    body: {
      operatorId: 'op_a',
      productId: 'prd_a',
      items: ['0244820051', '0244820000'].map((m) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: m })),
    },
  });
  assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
  const bulkId = bulk.body.data.orderId as string;
  const recipientCompleted = await next('order.recipient.completed');
  const recipientFailed = await next('order.recipient.failed');
  const bulkCompleted = await next('order.completed');
  const bulkNow = await get(`/api/v1/orders/${bulkId}`);
  assert.deepEqual(bulkCompleted.data.object, bulkNow);
  assert.equal(bulkNow.state, 'completed');
  for (const [event, number, status] of [
    [recipientCompleted, '233244820051', 'completed'],
    [recipientFailed, '233244820000', 'failed'],
  ] as const) {
    assert.equal(event.data.object._id, bulkId);
    assert.equal(event.data.recipient?.beneficiaryMsisdn, number);
    assert.equal(event.data.recipient?.status, status);
    const entry = (bulkNow.bulkRecipients as { beneficiaryMsisdn: string }[]).find((r) => r.beneficiaryMsisdn === number);
    assert.deepEqual(event.data.recipient, entry);
  }

  // order.reversed (staff)
  await t.ctx.orders.reverse(staffActor(), single, 'customer never received it');
  const reversed = await next('order.reversed');
  assert.equal(reversed.data.object.state, 'reversed');
  assert.deepEqual(reversed.data.object, await get(`/api/v1/orders/${single}`));

  // topup.approved and topup.rejected (staff decisions), each as GET /top-ups lists it
  const approvedId = (
    await t.call('POST', '/api/v1/top-ups/request', { key, body: { amount: 40, method: 'momo', reference: 'EVT-A' } })
  ).body.data._id;
  const rejectedId = (
    await t.call('POST', '/api/v1/top-ups/request', { key, body: { amount: 40, method: 'bank', reference: 'EVT-R' } })
  ).body.data._id;
  await t.ctx.topUps.approve(staffActor('staff@test'), approvedId);
  const approved = await next('topup.approved');
  await t.ctx.topUps.reject(staffActor('staff@test'), rejectedId, 'no such transfer');
  const rejected = await next('topup.rejected');
  const topUps = (await get('/api/v1/top-ups?limit=100')).topUps as { _id: string; rejectionReason: string | null }[];
  assert.deepEqual(
    approved.data.object,
    topUps.find((u) => u._id === approvedId),
  );
  assert.deepEqual(
    rejected.data.object,
    topUps.find((u) => u._id === rejectedId),
  );
  assert.equal(rejected.data.object.rejectionReason, 'no such transfer');

  // wallet.balance_low: the threshold just under what is available, then a purchase crosses it
  const wallet = await get('/api/v1/wallet-balance');
  const set = await t.call('PUT', '/api/v1/wallet-balance/alert', { key, body: { threshold: wallet.availableBalance - 1 } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.data.alertThreshold, wallet.availableBalance - 1);
  await buySingle(t, key, '0244810052');
  const low = await next('wallet.balance_low');
  assert.equal(low.data.object.availableBalance, wallet.availableBalance - 8.5);
  assert.equal(low.data.object.alertThreshold, wallet.availableBalance - 1);
  const walletNow = await get('/api/v1/wallet-balance');
  // The delivery settling since moved nothing available; only the time of the last change differs.
  assert.deepEqual(
    { ...low.data.object, lastUpdated: 0 },
    { ...walletNow, heldBalance: low.data.object.heldBalance, totalBalance: low.data.object.totalBalance, lastUpdated: 0 },
  );

  // Every event of the profile is listed, newest first, each delivered once.
  const listed = (await get('/api/v1/events?limit=100')).events as EventBody[];
  const types = listed.map((e) => e.type);
  for (const type of [
    'order.completed',
    'order.failed',
    'order.recipient.completed',
    'order.recipient.failed',
    'order.reversed',
    'topup.approved',
    'topup.rejected',
    'wallet.balance_low',
  ]) {
    assert.ok(types.includes(type), `${type} is listed`);
  }
  const times = listed.map((e) => e.createdAt);
  assert.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
  );
  await waitFor('every listed event delivered', async () => listed.every((e) => receiver.withId(e._id).length >= 1));
});
