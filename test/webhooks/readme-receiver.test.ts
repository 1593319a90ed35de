import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../support/repo.js';
import { KEYS } from '../support/keys.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { approvedTopUp, startWorkers, webhookApp } from '../support/webhooks.js';

/** The TypeScript receiver of the README's webhook section, as written there. */
function readmeReceiver(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Webhooks'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(code, 'the README has a TypeScript receiver in its webhooks section');
  return code;
}

test("the README's receiver verifies our deliveries, refuses a forged one and ignores a repeat", async (c) => {
  const t = await webhookApp(c);
  const code = readmeReceiver();
  assert.match(code, /\.listen\(3000\)/);
  // Its own directory inside the repository, so that `standardwebhooks` resolves from node_modules.
  const dir = path.join(ROOT, 'test-artifacts');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `readme-receiver-${process.pid}.ts`);
  fs.writeFileSync(file, code.replace('.listen(3000)', '.listen(Number(process.env.PORT))'));
  c.after(() => fs.rmSync(file, { force: true }));

  const created = await t.call('POST', '/api/v1/webhook-endpoints', {
    key: KEYS.superLive,
    body: { url: 'http://127.0.0.1:9/placeholder', events: ['topup.approved'] },
  });
  assert.equal(created.status, 201);
  const port = 20_000 + (process.pid % 20_000);
  await t.database.db
    .updateTable('webhook_endpoints')
    .set({ url: `http://127.0.0.1:${port}/hooks` })
    .where('id', '=', created.body.data._id)
    .execute();
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), file], {
    env: { ...process.env, PORT: String(port), PARTNER_API_WEBHOOK_SECRET: created.body.data.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  c.after(() => child.kill());
  await waitFor(
    'the receiver to listen',
    async () => {
      try {
        await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
        return true;
      } catch {
        return undefined;
      }
    },
    PROCESS_BUDGET_MS,
  );

  // A forged request is refused with 400.
  const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST',
    headers: {
      'webhook-id': 'evt_forged',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,AAAA',
    },
    body: '{"_id":"evt_forged"}',
  });
  assert.equal(forged.status, 400);

  startWorkers(t, c);
  const topUpId = await approvedTopUp(t, KEYS.superLive, 'README-1');
  const [event] = (await t.call('GET', '/api/v1/events?type=topup.approved', { key: KEYS.superLive })).body.data.events;
  const delivery = await waitFor('the delivery to succeed', async () => {
    const shown = await t.call('GET', `/api/v1/events/${event._id}`, { key: KEYS.superLive });
    const [d] = shown.body.data.deliveries;
    return d?.status === 'succeeded' ? d : undefined;
  });
  assert.equal(delivery.lastStatusCode, 204);
  // Sent again: answered 204 too, and not acted on twice.
  await t.call('POST', `/api/v1/events/${event._id}/redeliver`, { key: KEYS.superLive });
  await waitFor('the redelivery to succeed', async () => {
    const shown = await t.call('GET', `/api/v1/events/${event._id}`, { key: KEYS.superLive });
    const [d] = shown.body.data.deliveries;
    return d?.attempts.length === 2 && d.status === 'succeeded' ? d : undefined;
  });
  assert.equal(output.trim(), `topup.approved ${topUpId}`);
});
