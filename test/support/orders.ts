import { silentLog, type TestApp } from './app.js';
import { cliEnv, spawnCli, type CliProcess } from './cli.js';
import { CONDITION_BUDGET_MS, waitFor } from './wait.js';
import { createProviders, type Providers } from '../../src/providers/index.js';
import type { UpstreamAdapter } from '../../src/providers/types.js';
import { OutboxWorker } from '../../src/worker/worker.js';
import type { WorkerOptions } from '../../src/worker/options.js';

/** Fixture products and packages (test/fixtures/seed.json). */
export const A_1GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb' } as const;
export const A_2GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_2gb' } as const;

/** Fast settings for tests: short sleeps and retries. */
export const FAST: Partial<WorkerOptions> = { idleMaxMs: 10, backoffBaseMs: 10, backoffMaxMs: 50, pollIntervalMs: 10 };

/** An in-process worker over the test's database; stopped by the caller. */
export function newWorker(t: TestApp, options: Partial<WorkerOptions> = {}, providers?: Providers, id?: string) {
  return new OutboxWorker(
    {
      database: t.database,
      outbox: t.ctx.repositories.outbox,
      deliveries: t.ctx.deliveries,
      providers: providers ?? createProviders(t.config, t.database),
      log: silentLog,
    },
    { ...FAST, ...options },
    id,
  );
}

/**
 * The test app's providers with the sandbox's adapter replaced by `wrap(sandbox)`: a test stands a
 * provider of its own (slow, flaky, gated) in front of the real sandbox.
 */
export function providersWithSandbox(t: TestApp, wrap: (sandbox: UpstreamAdapter) => UpstreamAdapter): Providers {
  const real = createProviders(t.config, t.database);
  const sandbox = real.adapter('sandbox');
  if (!sandbox) throw new Error('the sandbox adapter is missing');
  const wrapped = wrap(sandbox);
  return { enabled: real.enabled, adapter: (name) => (name === 'sandbox' ? wrapped : real.adapter(name)) };
}

export function buySingle(t: TestApp, key: string, msisdn: string, extra: Record<string, unknown> = {}, pkg: object = A_1GB) {
  return t.call('POST', '/api/v1/data-bundles/buy-single', { key, body: { ...pkg, beneficiaryMsisdn: msisdn, ...extra } });
}

export async function orderState(t: TestApp, key: string, orderId: string): Promise<string> {
  const res = await t.call('GET', `/api/v1/orders/${orderId}`, { key });
  if (res.status !== 200) throw new Error(`GET order ${orderId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.state as string;
}

export async function waitForState(t: TestApp, key: string, orderId: string, states: string[], budgetMs = CONDITION_BUDGET_MS) {
  return waitFor(
    `order ${orderId} to reach ${states.join('/')}`,
    async () => {
      const state = await orderState(t, key, orderId);
      return states.includes(state) ? state : undefined;
    },
    budgetMs,
  );
}

/**
 * Runs an in-process worker until the order is completed as its partner sees it, then stops it:
 * after the sandbox's acceptance the status check comes a moment later
 * (src/modules/deliveries/service.ts), not within one drain().
 */
export async function deliverOrder(t: TestApp, key: string, orderId: string): Promise<void> {
  const worker = newWorker(t);
  worker.start();
  try {
    await waitForState(t, key, orderId, ['completed']);
  } finally {
    await worker.stop();
  }
}

export async function sandboxCalls(t: TestApp) {
  return t.database.db.selectFrom('sandbox_submissions').selectAll().orderBy('idempotency_key').execute();
}

/**
 * Starts `cli worker` as a child process on the test's database and resolves once its loop runs
 * (it logs "outbox worker started"). `started` collects every process spawned, so the caller can
 * kill them all at the end, whether or not they started.
 */
export async function startWorker(t: TestApp, extra: Record<string, string>, started: CliProcess[]): Promise<CliProcess> {
  const worker = spawnCli(['worker'], cliEnv(t, extra));
  started.push(worker);
  await worker.waitForOutput('outbox worker started');
  return worker;
}
