import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { KEYS } from '../support/keys.js';
import { waitFor } from '../support/wait.js';
import { buySingle, newWorker } from '../support/orders.js';
import { createEndpoint, webhookApp } from '../support/webhooks.js';

/**
 * An event is recorded in the transaction of the change it reports (docs/webhooks.md). Here
 * the database refuses the settlement's last write (the event's fan-out to an endpoint), sent after
 * the event row and the settlement's other writes: none of them may remain. Once the refusal is
 * lifted, the retried settlement commits with exactly one event and one queued delivery.
 */
test('an event commits with the change it reports, or neither does', async (c) => {
  const t = await webhookApp(c);
  const key = KEYS.agentLive;
  const endpoint = await createEndpoint(t, key, 'http://127.0.0.1:9/hooks');
  const db = t.database.db;
  if (t.database.dialect === 'sqlite') {
    await sql`create trigger refuse_fan_out before insert on webhook_deliveries
      begin select raise(abort, 'fan-out refused by the test'); end`.execute(db);
  } else {
    await sql`create function refuse_fan_out() returns trigger language plpgsql
      as $$ begin raise exception 'fan-out refused by the test'; end $$`.execute(db);
    await sql`create trigger refuse_fan_out before insert on webhook_deliveries
      for each row execute function refuse_fan_out()`.execute(db);
  }

  const bought = await buySingle(t, key, '0244820051');
  assert.equal(bought.status, 200, JSON.stringify(bought.body));
  const orderId = bought.body.data.orderId as string;
  const itemId = (await db.selectFrom('order_items').select('id').where('order_id', '=', orderId).executeTakeFirstOrThrow()).id;
  const worker = newWorker(t);

  // The sandbox completes the delivery; its settlement is refused three times (the worker retries).
  const attempts = await waitFor('the settlement to be refused three times (or to commit)', async () => {
    await worker.drain();
    const row = await db.selectFrom('outbox').selectAll().where('order_item_id', '=', itemId).executeTakeFirst();
    if (!row) return { settled: true, lastError: null };
    return Number(row.tries) >= 3 ? { settled: false, lastError: row.last_error } : undefined;
  });
  assert.equal(attempts.settled, false, 'the settlement committed although its event could not be written');
  assert.match(attempts.lastError ?? '', /fan-out refused by the test/);

  const status = async () => (await t.call('GET', `/api/v1/orders/${orderId}/status`, { key })).body.data.state as string;
  const events = async () =>
    (await t.call('GET', '/api/v1/events', { key })).body.data.events as { type: string; data: { object: { _id: string } } }[];
  const ledger = async () =>
    (await db.selectFrom('ledger_entries').select('kind').where('order_id', '=', orderId).orderBy('id').execute()).map(
      (e) => e.kind,
    );
  const deliveries = () => db.selectFrom('webhook_deliveries').select(['event_id', 'endpoint_id']).execute();

  assert.equal(await status(), 'Processing');
  assert.deepEqual(await events(), []);
  assert.deepEqual(await deliveries(), []);
  assert.deepEqual(await ledger(), ['data_hold']);
  assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });

  await sql`drop trigger refuse_fan_out${t.database.dialect === 'postgres' ? sql` on webhook_deliveries` : sql``}`.execute(db);
  await waitFor('the settlement to commit', async () => {
    await worker.drain();
    return (await status()) === 'Completed' ? true : undefined;
  });

  const [event, ...more] = await events();
  assert.deepEqual(more, []);
  assert.equal(event?.type, 'order.completed');
  assert.equal(event.data.object._id, orderId);
  assert.deepEqual(event.data.object, (await t.call('GET', `/api/v1/orders/${orderId}`, { key })).body.data);
  const [delivery, ...otherDeliveries] = await deliveries();
  assert.deepEqual(otherDeliveries, []);
  assert.equal(delivery?.endpoint_id, endpoint.id);
  assert.deepEqual(await ledger(), ['data_hold', 'data_settle']);
  assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 0 });
});
