import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { ReconciliationRunRow } from '../../src/db/schema.js';
import { DtoneAdapter } from '../../src/providers/dtone/adapter.js';
import type { DtoneSimulator } from '../../src/providers/dtone/simulator.js';
import type { RunningHubtelSimulator } from '../../src/providers/hubtel/simulator.js';
import { createProviders, type Providers } from '../../src/providers/index.js';
import { ReloadlyAdapter } from '../../src/providers/reloadly/adapter.js';
import type { ProviderName, UpstreamAdapter } from '../../src/providers/types.js';
import { createUpkeep } from '../../src/worker/index.js';
import { findingLine } from '../../src/cli/commands/providers.js';
import type { Finding } from '../../src/modules/reconciliation/service.js';
import { differenceOf } from '../../src/modules/reconciliation/compare.js';
import { staffActor } from '../support/actor.js';
import { cliEnv, runCli } from '../support/cli.js';
import {
  assertLedgerClean,
  attemptsOfOrder,
  intlMsisdn,
  settledOrder,
  startUpstreamHarness,
  upstreamWallet,
  type UpstreamHarness,
} from '../support/upstreams.js';

/**
 * Reconciliation (docs/live-delivery.md, "Reconciliation"), against the simulators over real HTTP:
 * each kind of finding produced on purpose at the upstream and found with both sides, nothing found
 * when both sides agree, the upstreams' lists read across several pages, Hubtel by status checks,
 * the CLI's lines, JSON and exit codes, the daily run happening once for two workers, and money never
 * moved by it.
 */

const iso = (ms: number) => new Date(ms).toISOString();

/** The harness's providers with one adapter replaced (a smaller list page, to read many pages). */
function providersWith(h: UpstreamHarness, name: ProviderName, adapter: UpstreamAdapter): Providers {
  const base = createProviders(h.t.config, h.t.database);
  return { enabled: base.enabled, adapter: (n) => (n === name ? adapter : base.adapter(n)) };
}

/** Buys for `msisdn` and waits until the order is final; its attempt's reference and the upstream's transaction id. */
async function completedOrder(h: UpstreamHarness, msisdn: string): Promise<{ orderId: string; reference: string; transactionId: string }> {
  const orderId = await h.buy(msisdn);
  await settledOrder(h, orderId);
  const [attempt] = await attemptsOfOrder(h, orderId);
  assert.ok(attempt?.provider_transaction_id, JSON.stringify(attempt));
  return { orderId, reference: attempt.reference, transactionId: attempt.provider_transaction_id };
}

/** An upstream purchase under a reference that is not ours (someone used the account outside the platform). */
async function foreignPurchase(h: UpstreamHarness, provider: 'dtone' | 'reloadly'): Promise<string> {
  const adapter = createProviders(h.t.config, h.t.database).adapter(provider);
  assert.ok(adapter);
  const reference = `FOREIGN${randomBytes(6).toString('hex').toUpperCase()}`;
  const route = provider === 'dtone' ? { provider, productId: 35211 } : { provider, operatorId: 643, amount: 1000 };
  const answer = await adapter.submit({ reference, msisdn: '233244999001', route, packageId: 'pkg_a_1gb', price: 850, mode: 'live', callbackUrl: null });
  assert.ok(answer.class === 'accepted' || answer.class === 'completed', JSON.stringify(answer));
  return reference;
}

const kindsOf = (findings: { kind: string; reference: string | null }[]) => findings.map((f) => `${f.kind} ${f.reference ?? ''}`).sort();

describe('reconciliation of the upstreams with our attempts', () => {
  test('DT One: nothing found while both sides agree; each kind produced on purpose is found with both sides, across pages, by the CLI too; no money moves', async (c) => {
    const failing = '0244300002';
    const h = await startUpstreamHarness(c, {
      upstreams: ['dtone'],
      routes: ['dtone'],
      behaviour: { dtone: { numbers: { [intlMsisdn(failing)]: 'fail-after-accept' } } },
    });
    const sim = h.sim('dtone') as DtoneSimulator;
    const from = Date.now() - 1000;
    const agreed = await completedOrder(h, '0244300001');
    const failedHere = await completedOrder(h, failing);
    assert.equal((await settledOrder(h, failedHere.orderId)).state, 'failed');
    const reversed = await completedOrder(h, '0244300003');
    const lost = await completedOrder(h, '0244300004');
    const repriced = await completedOrder(h, '0244300005');
    const to = Date.now() + 1000;
    const window = { from, to };

    const clean = await h.t.ctx.reconciliation.reconcileNow(createProviders(h.t.config, h.t.database), 'dtone', window, 'cli:test');
    assert.equal(clean.run.status, 'done', clean.run.error ?? '');
    assert.equal(clean.run.attempts_checked, 5);
    assert.equal(clean.run.upstream_records, 5);
    assert.deepEqual(clean.findings, []);

    // The upstream's side changes after the fact: as DT One's staff or the operator would.
    assert.ok(sim.setStatus(failedHere.transactionId, 'COMPLETED'));
    assert.ok(sim.setStatus(reversed.transactionId, 'REVERSED'));
    assert.ok(sim.forget(lost.transactionId));
    assert.ok(sim.reprice(repriced.transactionId, 12));
    const foreign = await foreignPurchase(h, 'dtone');
    const wallet = await upstreamWallet(h);

    const pagesBefore = sim.stats().calls.lookup ?? 0;
    const paged = new DtoneAdapter(
      { apiKey: h.env.DTONE_API_KEY ?? '', apiSecret: h.env.DTONE_API_SECRET ?? '', apiUrl: h.env.DTONE_API_URL ?? '' },
      { timeoutMs: 2000, listPageSize: 2 },
    );
    const result = await h.t.ctx.reconciliation.reconcileNow(providersWith(h, 'dtone', paged), 'dtone', window, 'cli:test');
    assert.equal(result.run.status, 'done', result.run.error ?? '');
    // 6 records, 2 a page: 3 pages at least (and one lookup of the lost reference).
    assert.equal(result.run.upstream_records, 5);
    assert.ok((sim.stats().calls.lookup ?? 0) - pagesBefore >= 4, `list calls: ${(sim.stats().calls.lookup ?? 0) - pagesBefore}`);
    assert.deepEqual(
      kindsOf(result.findings),
      [
        `amount-differs ${repriced.reference}`,
        `delivered-there-failed-here ${failedHere.reference}`,
        `failed-there-completed-here ${reversed.reference}`,
        `missing-there ${lost.reference}`,
        `unknown-here ${foreign}`,
      ].sort(),
    );
    const byKind = new Map(result.findings.map((f) => [f.kind, f]));
    const differs = byKind.get('amount-differs');
    assert.equal(differs?.orderId, repriced.orderId);
    assert.equal(differs?.ours?.cost, 'GHS 9.50');
    assert.equal(differs?.theirs?.cost, 'GHS 12.00');
    assert.equal(byKind.get('delivered-there-failed-here')?.ours?.status, 'failed');
    assert.equal(byKind.get('delivered-there-failed-here')?.theirs?.status, 'COMPLETED');
    assert.equal(byKind.get('failed-there-completed-here')?.theirs?.status, 'REVERSED');
    assert.equal(byKind.get('missing-there')?.theirs?.state, 'absent');
    assert.equal(byKind.get('unknown-here')?.orderId, null);
    assert.ok(!result.findings.some((f) => f.reference === agreed.reference));

    // The CLI: a line per finding (kind in words, order, our reference), exit 2; --json for machines.
    const args = ['providers', 'reconcile', 'dtone', '--from', iso(from), '--to', iso(to)];
    const cli = await runCli(args, cliEnv(h.t, { ...h.env, LOG_LEVEL: 'warn' }));
    assert.equal(cli.code, 2, cli.stderr);
    const lines = cli.stdout.trim().split('\n').sort();
    assert.equal(lines.length, 5, cli.stdout);
    const line = lines.find((l) => l.startsWith('amount differs'));
    assert.ok(line?.includes(repriced.orderId) && line.includes(`reference ${repriced.reference}`), line);
    // Both sides on every line: the two amounts (here what each side says it cost), or the two states.
    assert.ok(line?.endsWith('ours cost GHS 9.50, dtone cost GHS 12.00'), line);
    const lineOf = (words: string) => lines.find((l) => l.startsWith(words)) ?? cli.stdout;
    assert.ok(lineOf('delivered there, failed here').endsWith('ours failed, dtone delivered (COMPLETED)'), lineOf('delivered there, failed here'));
    assert.ok(lineOf('failed there, completed here').endsWith('ours completed, dtone failed (REVERSED)'), lineOf('failed there, completed here'));
    assert.ok(lineOf('missing there').endsWith('ours completed, dtone no record'), lineOf('missing there'));
    assert.ok(lineOf(`unknown here  order -  reference ${foreign}`).includes('ours no record, dtone '), lineOf('unknown here'));
    const json = await runCli([...args, '--json'], cliEnv(h.t, { ...h.env, LOG_LEVEL: 'warn' }));
    assert.equal(json.code, 2, json.stderr);
    const parsed = JSON.parse(json.stdout) as { run: { status: string; findings: number }; findings: { kind: string; kindWords: string }[] };
    assert.equal(parsed.run.status, 'done');
    assert.equal(parsed.findings.length, 5);
    assert.ok(parsed.findings.every((f) => f.kindWords.length > 0));
    // Found again by each run, stored once: five unresolved findings.
    assert.equal((await h.t.ctx.reconciliation.unresolvedCounts()).get('dtone'), 5);

    // Money is never moved by reconciliation; an admin resolves a finding with a note, audited.
    assert.deepEqual(await upstreamWallet(h), wallet);
    await assertLedgerClean(h);
    const admin = staffActor('admin@staff.example');
    await h.t.ctx.reconciliation.resolve(admin, byKind.get('missing-there')?.id ?? '', 'DT One confirmed the loss; order reversed');
    await assert.rejects(h.t.ctx.reconciliation.resolve(admin, byKind.get('missing-there')?.id ?? '', 'again'), /already resolved/);
    await assert.rejects(h.t.ctx.reconciliation.resolve(admin, byKind.get('amount-differs')?.id ?? '', '  '), /a note is required/);
    const [audit] = await h.t.ctx.audit.list({ action: 'reconciliation.resolve', limit: 5 });
    assert.equal(audit?.detail?.kind, 'missing-there');
    assert.equal(audit?.detail?.note, 'DT One confirmed the loss; order reversed');
    assert.equal((await h.t.ctx.reconciliation.unresolvedCounts()).get('dtone'), 4);

    // Bad input: a clear one-line refusal.
    const bad = await runCli(['providers', 'reconcile', 'dtone', '--from', 'yesterday', '--to', iso(to)], cliEnv(h.t, h.env));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /--from must be a time in ISO 8601/);
  });

  test('Reloadly: its report read across pages, a stranger found, the rest agreeing; the daily run happens once for two workers', async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['reloadly'], routes: ['reloadly'] });
    const sim = h.sim('reloadly');
    const from = Date.now() - 1000;
    for (const n of ['0244310001', '0244310002', '0244310003']) await completedOrder(h, n);
    const foreign = await foreignPurchase(h, 'reloadly');
    const to = Date.now() + 1000;
    const paged = new ReloadlyAdapter(
      {
        clientId: h.env.RELOADLY_CLIENT_ID ?? '',
        clientSecret: h.env.RELOADLY_CLIENT_SECRET ?? '',
        environment: 'sandbox',
        apiUrl: h.env.RELOADLY_API_URL ?? '',
        authUrl: h.env.RELOADLY_AUTH_URL ?? '',
        webhookSecret: null,
      },
      { timeoutMs: 2000, reportPageSize: 2 },
    );
    const before = sim.stats().calls.lookup ?? 0;
    const result = await h.t.ctx.reconciliation.reconcileNow(providersWith(h, 'reloadly', paged), 'reloadly', { from, to }, 'cli:test');
    assert.equal(result.run.status, 'done', result.run.error ?? '');
    assert.equal(result.run.upstream_records, 4);
    assert.equal((sim.stats().calls.lookup ?? 0) - before, 2, 'two pages of two');
    assert.deepEqual(kindsOf(result.findings), [`unknown-here ${foreign}`]);

    // Two workers (PostgreSQL: two connections racing) look for the daily run at once, then again.
    const noon = Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 3_600_000;
    const clocked = ['worker-a', 'worker-b'].map((id) => createUpkeep({ ...h.t.ctx, clock: () => noon }, id));
    const ran = await Promise.all(clocked.map((u) => u.reconcile()));
    const again = await Promise.all(clocked.map((u) => u.reconcile()));
    const day = new Date(noon - 86_400_000).toISOString().slice(0, 10);
    const daily: ReconciliationRunRow[] = await h.t.ctx.reconciliation.runs({ dailyKey: `reloadly:${day}`, limit: 10 });
    assert.equal(daily.length, 1, JSON.stringify(daily));
    assert.equal(daily[0]?.status, 'done');
    assert.equal(Number(daily[0]?.window_from), noon - 12 * 3_600_000 - 86_400_000);
    assert.equal(ran.reduce((a, b) => a + b, 0), 1, 'one worker ran it');
    assert.deepEqual(again, [0, 0]);
  });

  test('Hubtel: by a status check of each attempt of the window; a refund there and a record lost there are found', async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['hubtel'], routes: ['hubtel'] });
    const sim = h.sim('hubtel') as RunningHubtelSimulator;
    const from = Date.now() - 1000;
    const order = await completedOrder(h, '0244320001');
    const window = { from, to: Date.now() + 1000 };
    const providers = createProviders(h.t.config, h.t.database);
    const statusCalls = () => sim.stats().calls.status ?? 0;

    const before = statusCalls();
    const clean = await h.t.ctx.reconciliation.reconcileNow(providers, 'hubtel', window, 'cli:test');
    assert.equal(clean.run.status, 'done', clean.run.error ?? '');
    assert.deepEqual(clean.findings, []);
    assert.equal(statusCalls() - before, 1);

    sim.scriptNext('status', {
      status: 200,
      body: { message: 'Successful', responseCode: '0000', data: { status: 'Refunded', isFulfilled: false, transactionId: order.transactionId, clientReference: order.reference, amount: 10, charges: 0 } },
    });
    const refunded = await h.t.ctx.reconciliation.reconcileNow(providers, 'hubtel', window, 'cli:test');
    assert.deepEqual(kindsOf(refunded.findings), [`failed-there-completed-here ${order.reference}`]);
    assert.equal(refunded.findings[0]?.theirs?.status, 'Refunded');
    assert.equal(refunded.findings[0]?.orderId, order.orderId);

    sim.scriptNext('status', { status: 404, body: { message: 'No transaction found', responseCode: '2001', data: null } });
    const lost = await h.t.ctx.reconciliation.reconcileNow(providers, 'hubtel', window, 'cli:test');
    assert.deepEqual(kindsOf(lost.findings), [`missing-there ${order.reference}`]);

    // No answer: the run is failed with why, and nothing is found.
    sim.scriptNext('status', { status: 503, body: { message: 'Service unavailable' } });
    const unanswered = await h.t.ctx.reconciliation.reconcileNow(providers, 'hubtel', window, 'cli:test');
    assert.equal(unanswered.run.status, 'failed');
    assert.match(unanswered.run.error ?? '', /could not be checked/);
  });

  test("a finding's line names both sides: the amounts that differ, or the two states with the upstream's own word", () => {
    const finding = (f: Pick<Finding, 'kind' | 'provider' | 'ours' | 'theirs'>): Finding => ({
      id: 'fnd_1',
      reference: 'PA1',
      transactionId: 'T1',
      orderId: 'ord_1',
      shortReference: 'ABC',
      foundAt: 0,
      lastSeenAt: 0,
      resolvedAt: null,
      resolvedBy: null,
      note: null,
      ...f,
    });
    const ours = { status: 'completed', transactionId: 'T1', amount: 'GHS 10.00', cost: 'GHS 9.50', createdAt: '2026-01-01T00:00:00.000Z' };
    const theirs = { status: 'SUCCESSFUL', state: 'delivered', transactionId: 'T1', amount: 'GHS 12.34', cost: 'GHS 9.50', at: null };
    assert.equal(
      findingLine(finding({ kind: 'amount-differs', provider: 'reloadly', ours, theirs })),
      'amount differs  order ABC (ord_1)  reference PA1  reloadly transaction T1  ours GHS 10.00, reloadly GHS 12.34',
    );
    const hubtel = { ...theirs, status: 'Refunded', state: 'failed', amount: 'GHS 10.00' };
    assert.ok(findingLine(finding({ kind: 'failed-there-completed-here', provider: 'hubtel', ours, theirs: hubtel })).endsWith('  ours completed, hubtel failed (Refunded)'));
    const none = { status: 'no record', state: 'absent', transactionId: null, amount: null, cost: null, at: null };
    assert.ok(findingLine(finding({ kind: 'missing-there', provider: 'hubtel', ours, theirs: none })).endsWith('  ours completed, hubtel no record'));
    assert.ok(findingLine(finding({ kind: 'unknown-here', provider: 'dtone', ours: null, theirs: { ...theirs, state: 'delivered', status: 'delivered' } })).endsWith('  ours no record, dtone delivered'));
  });

  test('an attempt a lookup proved absent, then delivered there after all, is found: delivered there, failed here', () => {
    const attempt = {
      reference: 'PA1',
      status: 'absent',
      provider_transaction_id: null,
      cost: null,
      route: JSON.stringify({ provider: 'reloadly', operatorId: 643, amount: 1000 }),
      created_at: 0,
      order_item_id: 'itm_1',
      order_id: 'ord_1',
      short_reference: 'ABC',
    };
    const delivered = { reference: 'PA1', transactionId: 'T1', state: 'delivered' as const, status: 'SUCCESSFUL', amount: 1000, cost: null, at: null };
    assert.equal(differenceOf(attempt, delivered), 'delivered-there-failed-here');
    assert.equal(differenceOf(attempt, null), null, 'absent on both sides: they agree');
  });
});
