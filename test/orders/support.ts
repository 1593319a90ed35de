import fs from 'node:fs';
import { FIXTURE_SEED, type TestApp } from '../helpers/app.js';
import { cliDatabaseEnv, runCli as runCliProcess, spawnCli, type CliProcess } from '../helpers/cli.js';
import { CONDITION_BUDGET_MS, PROCESS_BUDGET_MS, waitFor } from '../helpers/wait.js';
import { createProviders } from '../../src/provider/index.js';
import type { ProviderRegistry } from '../../src/provider/types.js';
import { OutboxWorker } from '../../src/worker/worker.js';
import type { WorkerOptions } from '../../src/worker/options.js';

export { waitFor } from '../helpers/wait.js';

/** Fixture products and packages (test/fixtures/seed.json). */
export const A_1GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb' } as const;
export const A_2GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_2gb' } as const;

export const silentLog = { info() {}, warn() {}, error() {} };

/** Fast settings for tests: short sleeps and retries. */
export const FAST: Partial<WorkerOptions> = { idleMaxMs: 10, backoffBaseMs: 10, backoffMaxMs: 50, pollIntervalMs: 10 };

/** An in-process worker over the test's database; stopped by the caller (or `stopAll`). */
export function newWorker(t: TestApp, options: Partial<WorkerOptions> = {}, providers?: ProviderRegistry, id?: string) {
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

export async function ledgerMismatches(t: TestApp): Promise<string[]> {
  return (await t.ctx.ledger.verify()).mismatches;
}

export async function sandboxCalls(t: TestApp) {
  return t.database.db.selectFrom('sandbox_submissions').selectAll().orderBy('idempotency_key').execute();
}

interface SeedShape {
  profiles: Record<string, unknown>[];
  [section: string]: unknown;
}

/** The shared fixture plus profiles of one test file (the fixture file itself is untouched). */
export function seedWith(profiles: object[]): SeedShape {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as SeedShape;
  seed.profiles.push(...(profiles as Record<string, unknown>[]));
  return seed;
}

export const liveKeyOf = (id: string) => `service_live_${id.replace(/[^A-Za-z0-9]/g, '')}OrdLive0001`;
export const testKeyOf = (id: string) => `service_test_${id.replace(/[^A-Za-z0-9]/g, '')}OrdTest0001`;

export function profile(id: string, role: string, wallet: { live?: number; test?: number }) {
  return {
    id,
    firstName: id,
    lastName: 'Orders',
    gender: 'Female',
    phoneNumber: '0244111222',
    email: `${id}@example.com`,
    role,
    status: 'Active',
    countryCode: '+233',
    countryISO: 'GH',
    countryName: 'Ghana',
    referralCode: `ORD_${id}`,
    wallet: { live: wallet.live ?? 0, test: wallet.test ?? 0 },
    apiKeys: [{ key: liveKeyOf(id) }, { key: testKeyOf(id) }],
  };
}

/** Environment for a CLI child process on the test's own database, logging at info (tests read the log). */
export function cliEnv(t: TestApp, extra: Record<string, string> = {}): Record<string, string> {
  return { ...cliDatabaseEnv(t.testDb), CREDENTIALS_KEY: t.credentialsKey, LOG_LEVEL: 'info', ...extra };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cli <args>` to completion (bounded). */
export function runCli(
  t: TestApp,
  args: string[],
  extra: Record<string, string> = {},
  budgetMs = PROCESS_BUDGET_MS,
): Promise<CliRun> {
  return runCliProcess(args, cliEnv(t, extra), budgetMs);
}

/** A `cli worker` child process. */
export type WorkerProcess = CliProcess;

/**
 * Starts `cli worker` as a child process on the test's database and resolves once its loop runs
 * (it logs "outbox worker started"). `started` collects every process spawned, so the caller can
 * kill them all at the end, whether or not they started.
 */
export async function startWorker(t: TestApp, extra: Record<string, string>, started: WorkerProcess[]): Promise<WorkerProcess> {
  const worker = spawnCli(['worker'], cliEnv(t, extra));
  started.push(worker);
  await worker.waitForOutput('outbox worker started');
  return worker;
}

/** Kills a child process if it is still running. */
export function killQuietly(p: WorkerProcess | undefined): void {
  p?.kill();
}
