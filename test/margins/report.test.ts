import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseCredentialCsv } from '../../src/modules/result-checker/csv.js';
import type { MarginLine } from '../../src/modules/margins/service.js';
import { staffActor } from '../support/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, ensureStaff, signIn } from '../support/console.js';
import { parseCsv } from '../support/csv.js';
import { liveKeyOf } from '../support/keys.js';
import { deliverOrder } from '../support/orders.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { setPackageRoutes } from '../support/upstreams.js';

/**
 * Issue 41, item 1: margins that a finance person signs. One Agent's live sales on day 1 (a bulk
 * data order of two recipients through a route that costs 7.60 each, a single order through a route
 * with no cost, two result-checker sales: one credential with a cost from the seed, one loaded from
 * a CSV without one), then on day 2 (the services' clock a day on) a recipient reversed, the single
 * order reversed and the costed result-checker sale refunded. The report against sums worked out by
 * hand: each refund a negative sale on day 2, the cost kept on day 1, unknown costs counted apart
 * (never as zero); by kind; the CSV of the CLI and of the console with its new columns and totals
 * row; the console's date pickers and its list of sales of unknown cost.
 */

const DAY_MS = 86_400_000;
const PROFILE = 'usr_margins';
const KEY = liveKeyOf(PROFILE);

/** The figures of a line, in pesewas: [group, sales, refunds, cost, margin, deliveries, costUnknown, costUnknownSales]. */
const figures = (l: MarginLine) => [l.group, l.sales, l.refunds, l.cost, l.margin, l.deliveries, l.costUnknown, l.costUnknownSales];

describe(`the margin report: refunds on their day, result-checker sales, unknown costs apart (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let offset = 0;
  const day1 = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const from = day1;
  const to = day1 + 2 * DAY_MS;
  const d1 = new Date(day1).toISOString().slice(0, 10);
  const d2 = new Date(day1 + DAY_MS).toISOString().slice(0, 10);
  let bulkId = '';
  let singleId = '';
  let costedSale = '';
  let unknownSale = '';

  before(async () => {
    t = await createTestApp({
      env: CONSOLE_ENV,
      clock: () => Date.now() + offset,
      seed: fixtureWith({
        profiles: [agentProfile(PROFILE, { live: 1000 })],
        resultCheckerPackages: [
          {
            id: 'rcp_costed',
            code: 'COSTED',
            name: 'Costed Checker',
            displayName: 'Costed',
            status: 'Active',
            price: 15.0,
            credentials: [{ username: 'CST001', password: '2222-0001', cost: 11.4 }],
          },
        ],
      }),
    });
    // Agent prices: pkg_a_1gb 9.00 through a route that costs 7.60; pkg_b_1gb 5.50 through one with no cost.
    await setPackageRoutes(t, 'pkg_a_1gb', [{ provider: 'sandbox', cost: 760 }]);
    await setPackageRoutes(t, 'pkg_b_1gb', [{ provider: 'sandbox' }]);
    const admin = staffActor('admin@staff.example');
    await ensureStaff(t, 'admin@staff.example', 'admin');

    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEY,
      body: { operatorId: 'op_a', productId: 'prd_a', items: ['0244930011', '0244930012'].map((n) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: n })) },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    bulkId = bulk.body.data.orderId as string;
    await deliverOrder(t, KEY, bulkId);
    const single = await t.call('POST', '/api/v1/data-bundles/buy-single', {
      key: KEY,
      body: { operatorId: 'op_b', productId: 'prd_b', packageId: 'pkg_b_1gb', beneficiaryMsisdn: '0244930013' },
    });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    singleId = single.body.data.orderId as string;
    await deliverOrder(t, KEY, singleId);

    // A credential loaded from a CSV with the cost column left empty: its cost is not known.
    await t.ctx.console.importCredentials(admin, 'rcp_bece', 'username,password,cost\nBECE-M-1,PIN-M-1,\n', 'stock.csv');
    const buy = async (packageId: string) => {
      const res = await t.call('POST', '/api/v1/result-checker/buy-single', { key: KEY, body: { packageId, recipientPhone: '0244930014' } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.transactionId as string;
    };
    costedSale = await buy('rcp_costed');
    unknownSale = await buy('rcp_bece');

    // Day 2: a recipient reversed, the single order reversed, the costed sale refunded.
    offset = DAY_MS;
    await t.ctx.console.reverseRecipient(admin, bulkId, '0244930011', 'bundle never arrived');
    await t.ctx.console.reverseOrder(admin, singleId, 'asked for it');
    await t.ctx.console.refundResultChecker(admin, costedSale, 'PIN already used');
  });
  after(() => t.close());

  test('by day: day 1 keeps its sales and costs, day 2 has the refunds as negative sales and no cost; unknown costs apart, margin over known costs only', async () => {
    const report = await t.ctx.margins.report(from, to, 'day');
    // Day 1. Data: 9.00 + 9.00 + 5.50 = 23.50, cost 2 × 7.60 = 15.20, 5.50 of unknown cost. Result checker: 15.00 + 15.00, cost 11.40, 15.00 unknown.
    // Sales 53.50, cost 26.60, 2 of 5 deliveries of unknown cost covering 20.50; margin 53.50 − 20.50 − 26.60 = 6.40.
    // Day 2. Refunds 9.00 + 5.50 + 15.00 = 29.50: sales −29.50, no cost; the 5.50 refunded was of unknown cost; margin −29.50 + 5.50 = −24.00.
    assert.deepEqual(report.lines.map(figures), [
      [d1, 5350, 0, 2660, 640, 5, 2, 2050],
      [d2, -2950, 2950, 0, -2400, 0, 0, -550],
    ]);
    // Both days: sales 24.00, cost 26.60, unknown 15.00 (the BECE sale; the 5.50 sold and refunded nets to 0): margin 24.00 − 15.00 − 26.60 = −17.60.
    assert.deepEqual(figures(report.total), ['total', 2400, 2950, 2660, -1760, 5, 2, 1500]);

    // A day later still, day 1 and day 2 are closed: summed once, the same figures from the sums.
    offset = 3 * DAY_MS;
    try {
      assert.deepEqual((await t.ctx.margins.report(from, to, 'day')).lines.map(figures), report.lines.map(figures));
      assert.deepEqual((await t.ctx.margins.report(from, to, 'day')).lines.map(figures), report.lines.map(figures), 'read again from the sums');
      const summed = await t.database.db.selectFrom('margin_days_done').select('day').where('day', 'in', [d1, d2]).execute();
      assert.equal(summed.length, 2);
    } finally {
      offset = DAY_MS;
    }
  });

  test('the reversed recipient: over both days its margin is minus its cost; by kind, package and partner', async () => {
    const byPackage = await t.ctx.margins.report(from, to, 'package');
    const line = (group: string) => byPackage.lines.find((l) => l.group === group);
    // pkg_a_1gb: sold 2 × 9.00, one refunded: sales 9.00, cost 15.20: margin −6.20 = (9.00 − 7.60) kept + (−7.60) for the one reversed.
    assert.deepEqual(figures(line('pkg_a_1gb') as MarginLine), ['pkg_a_1gb', 900, 900, 1520, -620, 2, 0, 0]);
    // pkg_b_1gb: 5.50 sold and refunded, cost unknown: sales 0, nothing in the margin, one delivery of unknown cost.
    assert.deepEqual(figures(line('pkg_b_1gb') as MarginLine), ['pkg_b_1gb', 0, 550, 0, 0, 1, 1, 0]);
    // rcp_costed: 15.00 sold and refunded, the credential's 11.40 stays: margin −11.40.
    assert.deepEqual(figures(line('rcp_costed') as MarginLine), ['rcp_costed', 0, 1500, 1140, -1140, 1, 0, 0]);
    assert.deepEqual(figures(line('rcp_bece') as MarginLine), ['rcp_bece', 1500, 0, 0, 0, 1, 1, 1500]);

    const byKind = await t.ctx.margins.report(from, to, 'kind');
    assert.deepEqual(byKind.lines.map(figures), [
      ['result_checker', 1500, 1500, 1140, -1140, 2, 1, 1500],
      ['data', 900, 1450, 1520, -620, 3, 1, 0],
    ]);
    const byPartner = await t.ctx.margins.report(from, to, 'partner');
    assert.deepEqual(byPartner.lines.map(figures), [[PROFILE, 2400, 2950, 2660, -1760, 5, 2, 1500]]);
  });

  test('the CSV (CLI and console): deliveries, unknown-cost deliveries and sales columns, and a totals row', async () => {
    const header = ['kind', 'sales', 'cost', 'margin', 'refunds', 'deliveries', 'unknown_cost_deliveries', 'unknown_cost_sales'];
    const rows = [
      ['result_checker', '15.00', '11.40', '-11.40', '15.00', '2', '1', '15.00'],
      ['data', '9.00', '15.20', '-6.20', '14.50', '3', '1', '0.00'],
      ['total', '24.00', '26.60', '-17.60', '29.50', '5', '2', '15.00'],
    ];
    const cli = await runCli(
      ['report', 'margins', '--from', new Date(from).toISOString(), '--to', new Date(to).toISOString(), '--by', 'kind', '--csv'],
      cliEnv(t, { LOG_LEVEL: 'warn' }),
    );
    assert.equal(cli.code, 0, cli.stderr);
    assert.deepEqual(parseCsv(cli.stdout), [header, ...rows]);

    const viewer = await signIn(t, 'viewer');
    // The date pickers' days: both included.
    const csv = await viewer.get(`/console/reports/margins.csv?from=${d1}&to=${d2}&by=kind`);
    assert.equal(csv.status, 200, csv.body);
    assert.deepEqual(parseCsv(csv.body), [header, ...rows]);
    const oneDay = await viewer.get(`/console/reports/margins.csv?from=${d2}&to=${d2}&by=day`);
    assert.deepEqual(parseCsv(oneDay.body).slice(1), [
      [d2, '-29.50', '0.00', '-24.00', '29.50', '0', '0', '-5.50'],
      ['total', '-29.50', '0.00', '-24.00', '29.50', '0', '0', '-5.50'],
    ]);
  });

  test('the console: date pickers (ISO times still taken), the unknown part shown apart and the list of sales of unknown cost', async () => {
    const viewer = await signIn(t, 'viewer');
    const page = await viewer.get(`/console/reports/margins?from=${d1}&to=${d2}&by=kind`);
    assert.equal(page.status, 200, page.body);
    assert.match(page.body, new RegExp(`<input type="date" name="from" value="${d1}"`));
    assert.match(page.body, new RegExp(`<input type="date" name="to" value="${d2}"`));
    assert.match(page.body, /2 deliveries \(sales GHS 15\.00\) have no known cost: they are left out of the margin/);
    const iso = await viewer.get(`/console/reports/margins?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&by=day`);
    assert.equal(iso.status, 200);
    assert.match(iso.body, new RegExp(`<input type="date" name="to" value="${d2}"`), 'an ISO end (not included) is shown as the day before it');
    assert.match(iso.body, /<tr id="margins-total"><th>total<\/th><th>24\.00<\/th><th>29\.50<\/th><th>26\.60<\/th><th>-17\.60<\/th><th>5<\/th><th>2 \(15\.00\)<\/th><\/tr>/);
    const bad = await viewer.get('/console/reports/margins?from=2026-02-30&to=2026-03-01');
    assert.equal(bad.status, 400);

    const link = /href="(\/console\/reports\/margins\/unknown-cost\?[^"]+)" id="margins-unknown-link"/.exec(page.body)?.[1];
    assert.ok(link, 'the margins page links to the list');
    const list = await viewer.get(link.replaceAll('&#61;', '=').replaceAll('&#38;', '&').replaceAll('&amp;', '&'));
    assert.equal(list.status, 200, list.body);
    const [bece] = await t.database.db.selectFrom('orders').select('short_reference').where('id', '=', unknownSale).execute();
    const [single] = await t.database.db.selectFrom('orders').select('short_reference').where('id', '=', singleId).execute();
    assert.match(list.body, new RegExp(`<a href="/console/orders/${unknownSale}">${bece?.short_reference ?? '?'}</a></td><td>result checker</td>`));
    assert.match(list.body, new RegExp(`<a href="/console/orders/${singleId}">${single?.short_reference ?? '?'}</a></td><td>data</td>`));
    assert.doesNotMatch(list.body, new RegExp(bulkId), 'the deliveries of known cost are not listed');
    assert.doesNotMatch(list.body, new RegExp(costedSale));
    assert.match(list.body, /2 sales, GHS 20\.50\./);
  });

  test('the inventory CSV takes an optional cost column in GHS', () => {
    assert.deepEqual(parseCredentialCsv('username,password,cost\nA1,p1,12.50\nA2,p2,\n'), [
      { username: 'A1', password: 'p1', cost: 1250 },
      { username: 'A2', password: 'p2', cost: null },
    ]);
    assert.throws(() => parseCredentialCsv('username,password,cost\nA1,p1,12.505\n'), /line 2: cost must be an amount in GHS/);
    assert.throws(() => parseCredentialCsv('username,password,cost\nA1,p1\n'), /line 2: expected 3 fields/);
  });
});
