import fs from 'node:fs';
import type { TestContext } from 'node:test';
import { createTestApp, FIXTURE_SEED, type TestApp, type TestAppOptions } from '../helpers/app.js';
import { cliDatabaseEnv } from '../helpers/cli.js';
import { resultCheckerLedgerCheck } from '../../src/modules/result-checker/ledger-checks.js';
import { topUpLedgerCheck } from '../../src/modules/top-ups/ledger-checks.js';

/** createTestApp for one test, closed when it ends. */
export async function useRcTestApp(c: TestContext, options?: TestAppOptions): Promise<TestApp> {
  const t = await createTestApp(options);
  c.after(() => t.close());
  return t;
}

interface SeedShape {
  resultCheckerPackages: Record<string, unknown>[];
  profiles: Record<string, unknown>[];
  [section: string]: unknown;
}

/** The shared fixture plus extra packages / profiles of this test file (the fixture itself is untouched). */
export function fixtureWith(extra: { resultCheckerPackages?: object[]; profiles?: object[] } = {}): SeedShape {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as SeedShape;
  seed.resultCheckerPackages.push(...((extra.resultCheckerPackages ?? []) as Record<string, unknown>[]));
  seed.profiles.push(...((extra.profiles ?? []) as Record<string, unknown>[]));
  return seed;
}

/** An Agent-like profile for a custom seed, with one key per mode. */
export function agentProfile(id: string, opts: { live?: number; test?: number; role?: string } = {}) {
  return {
    id,
    firstName: id,
    lastName: 'Test',
    phoneNumber: '0244999999',
    email: `${id}@example.com`,
    role: opts.role ?? 'Agent',
    status: 'Active',
    referralCode: `REF_${id}`,
    wallet: { live: opts.live ?? 0, test: opts.test ?? 0 },
    apiKeys: [{ key: liveKey(id) }, { key: testKey(id) }],
  };
}
export const liveKey = (id: string) => `service_live_${id.replace(/[^A-Za-z0-9]/g, '')}Live00000001`;
export const testKey = (id: string) => `service_test_${id.replace(/[^A-Za-z0-9]/g, '')}Test00000001`;

/** Environment for running the real CLI against the test's own database. */
export function cliEnv(t: TestApp): Record<string, string> {
  return cliDatabaseEnv(t.testDb);
}

/** The result-checker and top-up checks of `ledger verify`, called directly on one snapshot. */
export async function rcAndTopUpProblems(t: TestApp): Promise<string[]> {
  const { resultChecker, topUps } = t.ctx.repositories;
  return t.database.snapshot(async (tx) => [
    ...(await resultCheckerLedgerCheck(resultChecker)(tx)),
    ...(await topUpLedgerCheck(topUps)(tx)),
  ]);
}

/**
 * `ledger verify` as the CLI runs it (every check of the composition root, wallets against their
 * ledger included), plus this module's checks called directly so a check left out is noticed too.
 * [] means clean.
 */
export async function ledgerProblems(t: TestApp): Promise<string[]> {
  const report = await t.ctx.ledger.verify();
  return [...report.mismatches, ...(await rcAndTopUpProblems(t))];
}

export async function ledgerEntries(t: TestApp, profileId: string, mode: 'live' | 'test') {
  return t.database.db
    .selectFrom('ledger_entries as l')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .select(['l.kind', 'l.available_delta', 'l.held_delta', 'l.order_id', 'l.rc_transaction_id', 'l.top_up_id', 'l.idempotency_key'])
    .where('w.profile_id', '=', profileId)
    .where('w.mode', '=', mode)
    .where('l.kind', '!=', 'opening_balance')
    .orderBy('l.id')
    .execute();
}

export async function stockOf(t: TestApp, key: string, packageId: string): Promise<number> {
  const res = await t.call('GET', '/api/v1/result-checker/packages', { key });
  const pkg = (res.body.data as { _id: string; stockAvailable: number }[]).find((p) => p._id === packageId);
  if (!pkg) throw new Error(`package ${packageId} not listed`);
  return pkg.stockAvailable;
}
