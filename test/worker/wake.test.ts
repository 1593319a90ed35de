import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { startInlineWorker } from '../../src/worker/index.js';
import { buySingle, orderState } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { waitFor } from '../support/wait.js';

describe('inline worker: a purchase wakes it', () => {
  let t: TestApp;
  let worker: { stop(): Promise<void> };
  before(async () => {
    // Idle, the worker sleeps a minute between looks: only the wake-up can deliver within the test.
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '0', WORKER_IDLE_MS: '60000' } });
    worker = startInlineWorker(t.ctx);
    await new Promise((r) => setTimeout(r, 100)); // it has looked, found nothing, and sleeps
  });
  after(async () => {
    await worker.stop();
    await t.close();
  });

  // Budgets for the waits below: generous for a loaded machine, yet half the worker's idle sleep, so
  // what arrives within them was woken, not found by the next look.
  const WITHIN_MS = 30_000;

  const status = async (orderId: string) =>
    (await t.call('GET', `/api/v1/orders/${orderId}/status`, { key: KEYS.superLive })).body.data as {
      createdAt: number;
      submittedAt: number | null;
    };

  test('a buy-single is submitted at once, not after the idle sleep', async () => {
    const bought = await buySingle(t, KEYS.superLive, '0244600051');
    assert.equal(bought.status, 200);
    const orderId = bought.body.data.orderId as string;
    const submitted = await waitFor('the submission', async () => {
      const s = await status(orderId);
      return s.submittedAt === null ? undefined : s;
    }, WITHIN_MS);
    // Far sooner than the minute of idle sleep the worker was in when the order came.
    assert.ok((submitted.submittedAt ?? Infinity) - submitted.createdAt < 5_000);
    // The settlement's poll was scheduled at once too (the sandbox settles at 0 ms).
    await waitFor('completion', async () => (await orderState(t, KEYS.superLive, orderId)) === 'completed', WITHIN_MS);
  });

  test('so is a bulk order, every recipient of it', async () => {
    const res = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: [1, 2, 3].map((i) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: `024460010${i}` })),
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const orderId = res.body.data.orderId as string;
    await waitFor('completion', async () => (await orderState(t, KEYS.superLive, orderId)) === 'completed', WITHIN_MS);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
