import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FIXTURE_SEED, type TestApp } from '../helpers/app.js';
import { cliDatabaseEnv, runCli as runCliProcess } from '../helpers/cli.js';
import { createProviders } from '../../src/provider/index.js';
import type { ProviderRegistry } from '../../src/provider/types.js';
import { OutboxWorker } from '../../src/worker/worker.js';
import type { WorkerOptions } from '../../src/worker/options.js';
import { verifyLedger } from '../../src/wallet/ledger-verify.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Fixture products and packages (test/fixtures/seed.json). */
export const A_1GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb' } as const;
export const A_2GB = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_2gb' } as const;

export const silentLog = { info() {}, warn() {}, error() {} };

/** Fast settings for tests: short sleeps and retries. */
export const FAST: Partial<WorkerOptions> = { idleMaxMs: 10, backoffBaseMs: 10, backoffMaxMs: 50, pollIntervalMs: 10 };

/** An in-process worker over the test's database; stopped by the caller (or `stopAll`). */
export function newWorker(t: TestApp, options: Partial<WorkerOptions> = {}, providers?: ProviderRegistry, id?: string) {
  return new OutboxWorker(
    { database: t.database, providers: providers ?? createProviders(t.config, t.database), log: silentLog },
    { ...FAST, ...options },
    id,
  );
}

/** Polls `probe` until it returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

export function buySingle(t: TestApp, key: string, msisdn: string, extra: Record<string, unknown> = {}, pkg: object = A_1GB) {
  return t.call('POST', '/api/v1/data-bundles/buy-single', { key, body: { ...pkg, beneficiaryMsisdn: msisdn, ...extra } });
}

export async function orderState(t: TestApp, key: string, orderId: string): Promise<string> {
  const res = await t.call('GET', `/api/v1/orders/${orderId}`, { key });
  if (res.status !== 200) throw new Error(`GET order ${orderId}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.state as string;
}

export async function waitForState(t: TestApp, key: string, orderId: string, states: string[], timeoutMs = 8000) {
  return waitFor(`order ${orderId} to reach ${states.join('/')}`, async () => {
    const state = await orderState(t, key, orderId);
    return states.includes(state) ? state : undefined;
  }, timeoutMs);
}

export async function ledgerMismatches(t: TestApp): Promise<string[]> {
  return (await verifyLedger(t.database)).mismatches;
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
  return { ...cliDatabaseEnv(t.testDb), LOG_LEVEL: 'info', ...extra };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cli <args>` to completion (bounded). */
export function runCli(t: TestApp, args: string[], extra: Record<string, string> = {}, timeoutMs = 20_000): Promise<CliRun> {
  return runCliProcess(args, cliEnv(t, extra), timeoutMs);
}

export interface WorkerProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ended (bounded). */
  exited(timeoutMs?: number): Promise<number | null>;
}

function spawnWorker(t: TestApp, extra: Record<string, string>): WorkerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'worker'], {
    cwd: ROOT,
    env: cliEnv(t, extra),
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited: (timeoutMs = 10_000) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`worker did not exit\n${out}`)), timeoutMs);
      });
      return Promise.race([closed, timeout]).finally(() => clearTimeout(timer));
    },
  };
}

/**
 * Starts `cli worker` as a child process on the test's database and resolves once its loop runs.
 * `started` collects every process spawned, so the caller can kill them all at the end.
 */
export async function startWorker(t: TestApp, extra: Record<string, string>, started: WorkerProcess[]): Promise<WorkerProcess> {
  const worker = spawnWorker(t, extra);
  started.push(worker);
  await waitFor('the worker to start', async () => worker.output().includes('outbox worker started') || worker.child.exitCode !== null, 20_000);
  if (worker.output().includes('outbox worker started')) return worker;
  throw new Error(`worker did not start:\n${worker.output()}`);
}

/** Kills a child process if it is still running. */
export function killQuietly(p: WorkerProcess | undefined): void {
  if (p && p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
}
