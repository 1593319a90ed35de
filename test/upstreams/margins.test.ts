import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { MarginService } from '../../src/modules/margins/service.js';
import { UPSTREAM_ROUTES } from '../support/upstreams.js';
import { staffActor } from '../support/actor.js';
import { openBrowser, offHostRequests, recordRequests, screenshot } from '../support/browser.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD, signIn } from '../support/console.js';
import { parseCsv } from '../support/csv.js';
import type { DtoneSimulator } from '../../src/providers/dtone/simulator.js';
import { createProviders } from '../../src/providers/index.js';
import { createUpkeep } from '../../src/worker/index.js';
import { attemptsOfOrder, settledOrder, setPackageRoutes, startUpstreamHarness, UPSTREAM_PACKAGE, UPSTREAM_PRICE, UPSTREAM_PROFILE } from '../support/upstreams.js';

/**
 * Margins (docs/live-delivery.md, "Margins"): each completed attempt's cost in GHS, the report's
 * figures against sums worked out by hand, grouped five ways, from the orders and from a closed day's
 * sums (and again after a reversal), the CSV parsed back, the CLI; then the report and the
 * reconciliation pages in Chromium (screenshots in test-artifacts/), a viewer reading both and only
 * an admin resolving a finding.
 */

const DAY_MS = 86_400_000;

describe('margins and the staff pages of the upstreams', () => {
  test('cost per completed attempt; the report by day, operator, package, upstream and partner against hand sums; CSV; closed days and a reversal; the pages in a browser', { timeout: 180_000 }, async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['dtone', 'reloadly'], routes: ['dtone'], env: CONSOLE_ENV });
    const from = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const to = from + DAY_MS;
    // Two deliveries through DT One (wholesale GHS 9.50 each), one through Reloadly (GHS 10.00 less 2%: 9.80), one failed (not a sale).
    const viaDtone = [await h.buy('0244123456'), await h.buy('0244123457')];
    for (const id of viaDtone) assert.equal((await settledOrder(h, id)).state, 'completed');
    await setPackageRoutes(h.t, UPSTREAM_PACKAGE, [UPSTREAM_ROUTES.reloadly]);
    const viaReloadly = await h.buy('0244123458');
    assert.equal((await settledOrder(h, viaReloadly)).state, 'completed');
    h.sim('reloadly').configure({ outcome: 'refuse-number' });
    const failed = await h.buy('0244123459');
    assert.equal((await settledOrder(h, failed)).state, 'failed');
    assert.deepEqual((await attemptsOfOrder(h, viaDtone[0] ?? '')).map((a) => a.cost), [950]);
    assert.deepEqual((await attemptsOfOrder(h, viaReloadly)).map((a) => a.cost), [980]);

    const report = (by: 'day' | 'operator' | 'package' | 'provider' | 'partner', service = h.t.ctx.margins) => service.report(from, to, by);
    const sales = 3 * UPSTREAM_PRICE; // 25.50
    const cost = 950 + 950 + 980; // 28.80
    const byProvider = await report('provider');
    assert.deepEqual(
      byProvider.lines.map((l) => [l.group, l.sales, l.cost, l.margin, l.deliveries, l.costUnknown]),
      [
        ['dtone', 2 * UPSTREAM_PRICE, 1900, 2 * UPSTREAM_PRICE - 1900, 2, 0],
        ['reloadly', UPSTREAM_PRICE, 980, UPSTREAM_PRICE - 980, 1, 0],
      ],
    );
    assert.deepEqual([byProvider.total.sales, byProvider.total.cost, byProvider.total.margin], [sales, cost, sales - cost]);
    const day = new Date(from).toISOString().slice(0, 10);
    assert.deepEqual((await report('day')).lines.map((l) => [l.group, l.sales, l.cost]), [[day, sales, cost]]);
    assert.deepEqual((await report('operator')).lines.map((l) => [l.group, l.sales, l.cost]), [['op_a', sales, cost]]);
    assert.deepEqual((await report('package')).lines.map((l) => [l.group, l.sales, l.cost]), [[UPSTREAM_PACKAGE, sales, cost]]);
    assert.deepEqual((await report('partner')).lines.map((l) => [l.group, l.sales, l.cost]), [[UPSTREAM_PROFILE, sales, cost]]);

    // The CLI's CSV: the group, then sales, cost and margin in GHS, refunds, deliveries and the unknown-cost part, and a totals row; parsed back, the same figures.
    const cli = await runCli(['report', 'margins', '--from', new Date(from).toISOString(), '--to', new Date(to).toISOString(), '--by', 'provider', '--csv'], cliEnv(h.t, { ...h.env, LOG_LEVEL: 'warn' }));
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(parseCsv(cli.stdout), [
      ['provider', 'sales', 'cost', 'margin', 'refunds', 'deliveries', 'unknown_cost_deliveries', 'unknown_cost_sales'],
      ['dtone', '17.00', '19.00', '-2.00', '0.00', '2', '0', '0.00'],
      ['reloadly', '8.50', '9.80', '-1.30', '0.00', '1', '0', '0.00'],
      ['total', '25.50', '28.80', '-3.30', '0.00', '3', '0', '0.00'],
    ]);

    // Two days later the day is closed: its sums are kept; a reversal since is a negative sale on its own day, and the closed day keeps its sale and cost.
    const later = new MarginService(h.t.ctx.repositories.margins, () => from + 2 * DAY_MS);
    assert.deepEqual((await report('provider', later)).total.sales, sales);
    const kept = await h.t.database.db.selectFrom('margin_days').selectAll().where('day', '=', day).execute();
    assert.equal(kept.reduce((n, r) => n + Number(r.sales), 0), sales);
    await h.t.ctx.console.reverseOrder(staffActor('admin@staff.example'), viaReloadly, 'the upstream refunded it');
    // Today (from the orders): the sale and its refund on the same day net to 0; Reloadly's 9.80 stays.
    assert.deepEqual(
      (await report('provider')).lines.map((l) => [l.group, l.sales, l.refunds, l.cost, l.margin]),
      [
        ['dtone', 2 * UPSTREAM_PRICE, 0, 1900, 2 * UPSTREAM_PRICE - 1900],
        ['reloadly', 0, UPSTREAM_PRICE, 980, -980],
      ],
    );

    // A delivery settled without a cost (as Hubtel's lookups once left them; the attempt's cost wiped
    // to stand for one): counted apart, never as free, until reconciliation fills it from DT One's record.
    const [costless] = await attemptsOfOrder(h, viaDtone[1] ?? '');
    await h.t.database.db.updateTable('provider_attempts').set({ cost: null }).where('reference', '=', costless?.reference ?? '').execute();
    const dtoneLine = async () => {
      const l = (await report('provider')).lines.find((x) => x.group === 'dtone');
      return l && [l.sales, l.cost, l.margin, l.costUnknown, l.costUnknownSales];
    };
    assert.deepEqual(await dtoneLine(), [2 * UPSTREAM_PRICE, 950, UPSTREAM_PRICE - 950, 1, UPSTREAM_PRICE]);

    // Roles: a viewer reads both pages and the CSV, and may not resolve a finding; an admin may.
    // A real difference to resolve: DT One's record of the first delivery now shows another price.
    const [repriced] = await attemptsOfOrder(h, viaDtone[0] ?? '');
    assert.ok((h.sim('dtone') as DtoneSimulator).reprice(repriced?.provider_transaction_id ?? '', 9.75));
    const found = await h.t.ctx.reconciliation.reconcileNow(createProviders(h.t.config, h.t.database), 'dtone', { from, to: Date.now() + 1000 }, 'cli:test');
    assert.deepEqual(found.findings.map((f) => [f.kind, f.orderId]), [['amount-differs', viaDtone[0]]]);
    assert.deepEqual((await attemptsOfOrder(h, viaDtone[1] ?? '')).map((a) => a.cost), [950], 'the missing cost filled from the upstream');
    assert.deepEqual(await dtoneLine(), [2 * UPSTREAM_PRICE, 1900, 2 * UPSTREAM_PRICE - 1900, 0, 0]);
    const findingId = found.findings[0]?.id ?? '';
    const viewer = await signIn(h.t, 'viewer');
    assert.equal((await viewer.get('/console/reconciliation')).status, 200);
    const csv = await viewer.get(`/console/reports/margins.csv?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&by=partner`);
    assert.equal(csv.status, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.deepEqual(parseCsv(csv.body), [
      ['partner', 'sales', 'cost', 'margin', 'refunds', 'deliveries', 'unknown_cost_deliveries', 'unknown_cost_sales'],
      [UPSTREAM_PROFILE, '17.00', '28.80', '-11.80', '8.50', '3', '0', '0.00'],
      ['total', '17.00', '28.80', '-11.80', '8.50', '3', '0', '0.00'],
    ]);
    const refused = await viewer.post(`/console/reconciliation/findings/${findingId}/resolve`, { note: 'not mine to say' });
    assert.equal(refused.status, 403);
    assert.equal((await h.t.ctx.reconciliation.unresolvedCounts()).get('dtone'), 1);

    // In Chromium: the margins page (table and chart) and the reconciliation page, where an admin resolves the finding.
    const browser = await openBrowser(c);
    if (!browser) return;
    await ensureStaff(h.t, 'admin@staff.example', 'admin');
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page: Page = await context.newPage();
    const requests = recordRequests(page);
    await page.goto(`${h.baseUrl}/console/login`);
    await page.getByLabel('E-mail').fill('admin@staff.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();
    await page.goto(`${h.baseUrl}/console/reports/margins?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&by=provider`);
    await page.getByRole('heading', { name: 'Margins', exact: true }).waitFor();
    assert.equal(await page.locator('#margins-chart rect').count(), 6, 'two groups (dtone, reloadly): sales, cost and margin bars');
    assert.match(await page.locator('#margins-total').innerText(), /17\.00\s+8\.50\s+28\.80\s+-11\.80/);
    await screenshot(page, 'upstreams-margins');

    await page.getByRole('link', { name: 'reconciliation' }).click();
    await page.getByRole('heading', { name: 'Reconciliation', exact: true }).waitFor();
    assert.match(await page.locator('#findings').innerText(), /amount differs/);
    assert.match(await page.locator('#findings').innerText(), /cost\s+GHS 9\.50/);
    assert.match(await page.locator('#findings').innerText(), /cost\s+GHS 9\.75/);
    assert.equal(await page.locator(`#finding-${findingId} a[href="/console/orders/${viaDtone[0] ?? ''}"]`).count(), 1, 'the finding links to its order');
    await page.getByLabel(/resolution note/).fill('DT One corrected its price; nothing to settle');
    await screenshot(page, 'upstreams-reconciliation');
    await page.getByRole('button', { name: 'Resolved' }).click();
    await page.getByText('Finding marked resolved.').waitFor();
    assert.match(await page.locator('#findings').innerText(), /by admin@staff\.example: DT One corrected its price; nothing to settle/);
    assert.equal((await h.t.ctx.reconciliation.unresolvedCounts()).get('dtone') ?? 0, 0);
    const [audit] = await h.t.ctx.audit.list({ action: 'reconciliation.resolve', limit: 1 });
    assert.equal(audit?.actor, 'admin@staff.example');

    // An admin asks for a run: queued (nothing called on the request path), a worker runs it (two
    // attempts: the delivered one, and the refused one Reloadly rightly has no record of).
    const calls = h.sim('reloadly').stats().calls.lookup ?? 0;
    await page.getByLabel('Upstream').selectOption('reloadly');
    await page.getByLabel('from (ISO 8601)').fill(new Date(from).toISOString());
    await page.getByLabel('to (ISO 8601)').fill(new Date(to).toISOString());
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByText('Reconciliation queued').waitFor();
    assert.equal(h.sim('reloadly').stats().calls.lookup ?? 0, calls, 'the request did not call the upstream');
    assert.match(await page.locator('#run-reloadly').innerText(), /queued/);
    // Its clock before the daily run's hour: only the run asked for is run, whatever the time of day.
    assert.equal(await createUpkeep({ ...h.t.ctx, clock: () => from + 30 * 60_000 }, 'margins-test-worker').reconcile(), 1);
    await page.reload();
    assert.match(await page.locator('#run-reloadly').innerText(), /console \(admin@staff\.example\)\s+done\s+2 attempts, 1 upstream records, 0 findings/);
    await screenshot(page, 'upstreams-reconciliation-run');
    assert.deepEqual(offHostRequests(requests, h.baseUrl), []);
  });
});
