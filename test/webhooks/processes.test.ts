import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { cliEnv, runCli, type CliProcess } from '../support/cli.js';
import { startWorker } from '../support/orders.js';
import { approvedTopUp, createEndpoint, SCALE, verified, webhookApp } from '../support/webhooks.js';

/** The webhook lane in `cli worker` processes, and the staff's `cli webhooks` commands. */
describe(`webhook deliveries by worker processes (${TEST_DIALECT})`, () => {
  const children: CliProcess[] = [];
  const receivers: Receiver[] = [];
  after(async () => {
    for (const child of children) child.kill();
    await Promise.all(children.map((child) => child.exited()));
    await Promise.all(receivers.map((r) => r.close()));
  });

  test('a worker killed mid-delivery: after the restart every event is delivered at least once and the deliveries drain', async (c) => {
    const t = await webhookApp(c);
    // Every request hangs until the receiver is told otherwise: the first worker dies with sends open.
    const receiver = await startReceiver(() => 'hang');
    receivers.push(receiver);
    const endpoint = await createEndpoint(t, KEYS.superLive, receiver.url);
    const topUpIds: string[] = [];
    for (let i = 0; i < 8; i++) {
      topUpIds.push(await approvedTopUp(t, KEYS.superLive, `CRASH-${i}`));
    }
    const env = { WEBHOOK_RETRY_SCALE: String(SCALE), WEBHOOK_TIMEOUT_MS: '1000', WORKER_IDLE_MS: '20' };
    const first = await startWorker(t, env, children);
    await waitFor('sends in flight', async () => receiver.received.length >= 2, PROCESS_BUDGET_MS);
    first.child.kill('SIGKILL');
    await first.exited();
    const pendingAtCrash = await t.database.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .execute();
    assert.equal(pendingAtCrash.length, 8, 'nothing was delivered before the crash');

    receiver.answer(() => ({ status: 200 }));
    await startWorker(t, env, children);
    await waitFor(
      'every delivery to succeed',
      async () => {
        const open = await t.database.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', '!=', 'succeeded')
          .execute();
        return open.length === 0;
      },
      PROCESS_BUDGET_MS,
    );
    const delivered = new Map<string, number>();
    for (const request of receiver.received) {
      const event = verified(endpoint.secret, request);
      delivered.set(event._id, (delivered.get(event._id) ?? 0) + 1);
    }
    const events = (await t.call('GET', '/api/v1/events?type=topup.approved&limit=100', { key: KEYS.superLive })).body.data
      .events as {
      _id: string;
      data: { object: { _id: string } };
    }[];
    assert.deepEqual(events.map((e) => e.data.object._id).sort(), [...topUpIds].sort());
    for (const event of events) assert.ok((delivered.get(event._id) ?? 0) >= 1, `${event._id} was delivered`);
    const deliveries = await t.database.db.selectFrom('webhook_deliveries').selectAll().execute();
    assert.equal(deliveries.length, 8);
    assert.ok(deliveries.every((d) => d.locked_by === null && d.next_attempt_at === null));
  });

  test('cli webhooks: list a profile’s endpoints, its failing deliveries, and disable one', async (c) => {
    const t = await webhookApp(c);
    const failing = await startReceiver(() => ({ status: 500 }));
    receivers.push(failing);
    const endpoint = await createEndpoint(t, KEYS.superLive, failing.url, ['topup.approved']);
    await createEndpoint(t, KEYS.superTest, `${failing.url}/test`);
    await approvedTopUp(t, KEYS.superLive, 'CLI-1');
    const work = await t.ctx.webhookDeliveries.claim({ workerId: 'cli-test', limit: 10, perEndpoint: 2, leaseMs: 10_000 });
    assert.equal(work.length, 1);
    await t.ctx.webhookDeliveries.attempt(work[0]!, 'cli-test');

    const listed = await runCli(['webhooks', 'list', '--profile', 'usr_super'], cliEnv(t));
    assert.equal(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split('\n');
    assert.equal(lines.length, 2);
    assert.match(
      listed.stdout,
      new RegExp(`${endpoint.id}\\s+live\\s+enabled\\s+${failing.url}/\\s+events topup.approved.*failing since`),
    );
    assert.ok(!listed.stdout.includes('whsec_'), 'no secrets');

    const failures = await runCli(['webhooks', 'failures', '--profile', 'usr_super'], cliEnv(t));
    assert.equal(failures.code, 0, failures.stderr);
    assert.match(
      failures.stdout,
      new RegExp(`evt_\\S+\\s+topup.approved\\s+live\\s+retrying\\s+1 attempt\\(s\\).*HTTP 500\\s+→ ${endpoint.id}`),
    );

    const disabled = await runCli(['webhooks', 'disable', endpoint.id, '--reason', 'answers 500 to everything'], cliEnv(t));
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(disabled.stdout.trim(), `disabled ${endpoint.id}: answers 500 to everything`);
    const shown = await t.call('GET', '/api/v1/webhook-endpoints', { key: KEYS.superLive });
    assert.equal(shown.body.data.endpoints[0].status, 'disabled');
    assert.equal(shown.body.data.endpoints[0].disabledReason, 'answers 500 to everything');
    const pending = await t.database.db.selectFrom('webhook_deliveries').select('status').execute();
    assert.deepEqual(
      pending.map((d) => d.status),
      ['failed'],
      'its pending delivery stops',
    );

    const again = await runCli(['webhooks', 'disable', endpoint.id, '--reason', 'again'], cliEnv(t));
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), `refused: webhook endpoint ${endpoint.id} is already disabled`);
    const unknown = await runCli(['webhooks', 'disable', 'we_nope', '--reason', 'x'], cliEnv(t));
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no webhook endpoint we_nope/);
    const noProfile = await runCli(['webhooks', 'list', '--profile', 'usr_nobody'], cliEnv(t));
    assert.equal(noProfile.stdout.trim(), 'no webhook endpoints for usr_nobody');
  });
});
