import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createWebhookLane } from '../../src/worker/index.js';
import type { WebhookLaneOptions } from '../../src/worker/webhook-lane.js';
import { useTestApp, type TestApp, type TestAppOptions } from './app.js';
import type { Received } from './receiver.js';
import { newWorker } from './orders.js';
import { staffActor } from './actor.js';

/** The retry schedule at 1/2000: 2.5 ms, 150 ms, 900 ms, 3.6 s, … */
export const SCALE = 0.0005;

/** An app whose deliveries settle at once and whose webhook retries run in milliseconds. */
export function webhookApp(c: TestContext, options: TestAppOptions = {}): Promise<TestApp> {
  return useTestApp(c, { ...options, env: { SANDBOX_SETTLE_MS: '0', WEBHOOK_RETRY_SCALE: String(SCALE), ...options.env } });
}

/** The order outbox worker and the webhook lane, as a worker process runs them; stopped after the test. */
export function startWorkers(t: TestApp, c: TestContext, lane: Partial<WebhookLaneOptions> = {}) {
  const outbox = newWorker(t);
  const webhooks = createWebhookLane(t.ctx, `lane-${Math.random().toString(36).slice(2, 8)}`, { idleMaxMs: 10, ...lane });
  outbox.start();
  webhooks.start();
  c.after(() => Promise.all([outbox.stop(), webhooks.stop()]));
  return { outbox, webhooks };
}

/** A top-up requested with `key` and approved by staff at once (a topup.approved event); its id. */
export async function approvedTopUp(t: TestApp, key: string, reference: string): Promise<string> {
  const requested = await t.call('POST', '/api/v1/top-ups/request', { key, body: { amount: 10, method: 'momo', reference } });
  assert.equal(requested.status, 201, JSON.stringify(requested.body));
  await t.ctx.topUps.approve(staffActor('staff@test'), requested.body.data._id);
  return requested.body.data._id as string;
}

export async function createEndpoint(t: TestApp, key: string, url: string, events: string[] = ['*']) {
  const res = await t.call('POST', '/api/v1/webhook-endpoints', { key, body: { url, events } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.data._id as string, secret: res.body.data.secret as string };
}

export interface EventBody {
  _id: string;
  type: string;
  createdAt: number;
  mode: string;
  data: { object: Record<string, unknown>; recipient?: Record<string, unknown> };
}

/** The delivery's payload as the `standardwebhooks` package verifies it (it throws on a bad signature). */
export function verified(secret: string, request: Received): EventBody {
  return new Webhook(secret).verify(request.body, request.headers) as EventBody;
}
