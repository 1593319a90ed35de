import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useTestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle } from '../support/orders.js';

/** A partner whose request timed out finds out, by its own reference, whether it was taken (docs/errors.md, "Retrying safely"). */
test('GET /orders?paymentReference= finds the caller’s order, and a repeated reference’s 409 names it', async (c) => {
  const t = await useTestApp(c);
  const list = (key: string, reference: string, extra = '') =>
    t.call('GET', `/api/v1/orders?paymentReference=${encodeURIComponent(reference)}${extra}`, { key });

  const none = await list(KEYS.superLive, 'PAY-LOOKUP-1');
  assert.equal(none.status, 200);
  assert.deepEqual(none.body.data.orders, []);
  assert.equal(none.body.data.isDone, true);

  const bought = await buySingle(t, KEYS.superLive, '0244930011', { paymentReference: 'PAY-LOOKUP-1' });
  assert.equal(bought.status, 200);
  const found = await list(KEYS.superLive, 'PAY-LOOKUP-1');
  assert.equal(found.status, 200);
  assert.deepEqual(
    found.body.data.orders.map((o: { _id: string }) => o._id),
    [bought.body.data.orderId],
  );
  assert.equal(found.body.data.isDone, true);
  const full = await t.call('GET', `/api/v1/orders/${bought.body.data.orderId}`, { key: KEYS.superLive });
  assert.deepEqual(found.body.data.orders[0], full.body.data);

  // Another profile, or the same profile's other mode, with the same reference finds nothing of it.
  for (const key of [KEYS.agentLive, KEYS.superTest]) assert.deepEqual((await list(key, 'PAY-LOOKUP-1')).body.data.orders, [], key);
  // The other filters still filter.
  assert.deepEqual((await list(KEYS.superLive, 'PAY-LOOKUP-1', '&state=completed')).body.data.orders, []);
  assert.equal((await list(KEYS.superLive, 'PAY-LOOKUP-1', '&orderType=all')).body.data.orders.length, 1);

  // Retrying the purchase after a timeout: the 409 names the order it already created.
  const before = await t.wallet('usr_super', 'live');
  const repeated = await buySingle(t, KEYS.superLive, '0244930012', { paymentReference: 'PAY-LOOKUP-1' });
  assert.equal(repeated.status, 409);
  assert.equal(repeated.body.error.code, 'BUY_DATA_FAILED');
  assert.equal(repeated.body.error.orderId, bought.body.data.orderId);
  assert.deepEqual(await t.wallet('usr_super', 'live'), before);
  // Another profile using the same reference is not told about it: the reference is theirs to use.
  const otherProfile = await buySingle(t, KEYS.agentLive, '0244930013', { paymentReference: 'PAY-LOOKUP-1' });
  assert.equal(otherProfile.status, 200);
  assert.equal(otherProfile.body.error, undefined);

  // Concurrent duplicates: the losers still learn the winner's order.
  const racing = await Promise.all(Array.from({ length: 6 }, (_, i) => buySingle(t, KEYS.superLive, `02449300${20 + i}`, { paymentReference: 'PAY-RACE-2' })));
  const winner = racing.find((r) => r.status === 200);
  assert.ok(winner);
  for (const r of racing.filter((x) => x !== winner)) {
    assert.equal(r.status, 409);
    assert.equal(r.body.error.orderId, winner.body.data.orderId);
  }
  // Bad values are refused like every query value.
  assert.equal((await list(KEYS.superLive, 'x'.repeat(129))).status, 400);
  assert.equal((await t.call('GET', '/api/v1/orders?paymentReference=', { key: KEYS.superLive })).status, 400);
});
