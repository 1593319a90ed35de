import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, signIn } from '../support/console.js';
import { settledOrder, startUpstreamHarness, UPSTREAM_PACKAGE } from '../support/upstreams.js';

/**
 * Issue 41, items 2 and 8 (docs/console.md, "Pages"; docs/live-delivery.md, "Routes"): a
 * package's prices against its routes' costs, a save below cost confirmed or refused, the
 * dashboard's flag; a route read at its upstream (the simulators over HTTP) before it is saved,
 * and a route the upstream refused on its last orders flagged.
 */

const MTN = 'b230733cd56b4a0fad820e39f66bc27c';

const hubtelRoute = (bundle: string, amount: string) => ({ r0_provider: 'hubtel', r0_serviceId: MTN, r0_bundle: bundle, r0_amount: amount });

describe(`prices against costs, routes checked at their upstream (${TEST_DIALECT})`, () => {
  test('routes the upstream does not offer are refused; offered ones are saved; the page shows cost and margin; below cost needs the box and is flagged', async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['hubtel', 'reloadly', 'dtone'], routes: [], worker: false, env: CONSOLE_ENV });
    const admin = await signIn(h.t, 'admin');
    const stored = () => h.t.ctx.packageRoutes.routesOf('pkg_a_2gb');
    const bundleReads = () => h.sim('hubtel').stats().calls.bundles ?? 0;

    // Hubtel: a bundle not on the test number's list, and a listed bundle at another price.
    const readsBefore = bundleReads();
    for (const [form, message] of [
      [hubtelRoute('DATA99', '20'), 'the upstream does not offer route #0 (hubtel): Hubtel does not offer bundle DATA99 for this number (bundle list for the test number 233244123456). Nothing was saved'],
      [hubtelRoute('DATA20', '19'), "the upstream does not offer route #0 (hubtel): Hubtel&#39;s price of bundle DATA20 differs from the route&#39;s: GHS 20.00 listed, GHS 19.00 expected"],
      [{ r0_provider: 'reloadly', r0_operatorId: '999', r0_amount: '20' }, 'route #0 (reloadly): Reloadly has no operator 999 (OPERATOR_NOT_FOUND)'],
      [{ r0_provider: 'reloadly', r0_operatorId: '644', r0_amount: '7' }, 'AirtelTigo Ghana Data (644) has no fixed amount of GHS 7.00 (it has GHS 5.00, 10.00, 20.00, 50.00)'],
      [{ r0_provider: 'dtone', r0_productId: '99999' }, 'route #0 (dtone): DT One does not offer product 99999 to this account'],
    ] as const) {
      const res = await admin.post('/console/packages/pkg_a_2gb/routes', form);
      assert.equal(res.status, 400, `${JSON.stringify(form)}: ${res.body.slice(0, 300)}`);
      assert.ok(res.body.includes(message), `${message} in ${res.body.slice(0, 3000)}`);
    }
    assert.equal(bundleReads(), readsBefore + 2, "each Hubtel route was read on the test number's bundle list");
    assert.deepEqual(await stored(), []);
    const refusals = await h.t.ctx.audit.list({ action: 'package.routes.set', limit: 5 });
    assert.deepEqual(refusals.map((e) => e.outcome), ['refused', 'refused', 'refused', 'refused', 'refused']);

    // The CLI is refused the same way.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'routes-upstream-'));
    c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'routes.json');
    fs.writeFileSync(file, JSON.stringify([{ provider: 'hubtel', serviceId: MTN, bundle: 'DATA99', amount: 20 }]));
    const cli = await runCli(['routes', 'set', 'pkg_a_2gb', file], cliEnv(h.t, { ...h.env, LOG_LEVEL: 'warn' }));
    assert.equal(cli.code, 1, cli.stdout);
    assert.match(cli.stderr.trim(), /^refused: the upstream does not offer route #0 \(hubtel\): Hubtel does not offer bundle DATA99 for this number/);

    // Offered: saved, the notice says each was read at its upstream.
    const saved = await admin.post('/console/packages/pkg_a_2gb/routes', {
      ...hubtelRoute('DATA20', '20'),
      r1_provider: 'reloadly',
      r1_operatorId: '644',
      r1_amount: '20',
      r2_provider: 'dtone',
      r2_productId: '35211',
    });
    assert.equal(saved.status, 303, saved.body.slice(0, 300));
    assert.match(String(saved.headers.location), /notice=routes-checked$/);
    assert.deepEqual(await stored(), [
      { provider: 'hubtel', serviceId: MTN, bundle: 'DATA20', amount: 2000 },
      { provider: 'reloadly', operatorId: 644, amount: 2000 },
      { provider: 'dtone', productId: 35211 },
    ]);

    // Cost and margin per route and role: pkg_a_2gb sells at GHS 20.50 to every role.
    const page = await admin.get('/console/packages/pkg_a_2gb');
    assert.equal(page.status, 200);
    assert.match(page.body, /<tr id="margin-0"><td>0<\/td><td>hubtel<\/td><td class="cost">GHS 20\.00 \(amount\)<\/td><td class="" data-role="Agent">GHS 20\.50 \/ GHS 0\.50<\/td>/);
    assert.match(page.body, /<tr id="margin-2"><td>2<\/td><td>dtone<\/td><td class="cost">unknown<\/td><td class="" data-role="Agent">GHS 20\.50 \/ —<\/td>/);
    assert.doesNotMatch(page.body, /id="below-cost"/);

    // A price below a route's cost: refused without the box, naming role, price and cost; nothing changed.
    const cheaper = { price: '19.00', status: 'Active' };
    const refused = await admin.post('/console/packages/pkg_a_2gb', cheaper);
    assert.equal(refused.status, 400, refused.body.slice(0, 300));
    assert.ok(refused.body.includes('pkg_a_2gb would sell below cost: the Agent price GHS 19.00 is below the cost of route #0 (hubtel), GHS 20.00'), refused.body.slice(0, 3000));
    const priceOf = async () =>
      Number((await h.t.database.db.selectFrom('data_packages').select('price').where('id', '=', 'pkg_a_2gb').executeTakeFirstOrThrow()).price);
    assert.equal(await priceOf(), 2050);
    let dashboard = await admin.get('/console');
    assert.doesNotMatch(dashboard.body, /href="\/console\/packages\/pkg_a_2gb">pkg_a_2gb<\/a><\/td><td>the Agent price/);

    // With the box: saved, audited with what sells below cost, flagged on the page and the dashboard.
    const confirmed = await admin.post('/console/packages/pkg_a_2gb', { ...cheaper, belowCost: 'yes' });
    assert.equal(confirmed.status, 303, confirmed.body.slice(0, 300));
    assert.match(String(confirmed.headers.location), /notice=saved-below-cost$/);
    assert.equal(await priceOf(), 1900);
    const [update] = await h.t.ctx.audit.list({ action: 'package.update', limit: 1 });
    assert.deepEqual(update?.detail?.belowCostConfirmed, [
      { role: 'Agent', price: 19, route: 0, provider: 'hubtel', cost: 20 },
      { role: 'SuperAgent', price: 19, route: 0, provider: 'hubtel', cost: 20 },
      { role: 'Customer', price: 19, route: 0, provider: 'hubtel', cost: 20 },
      { role: 'Staff', price: 19, route: 0, provider: 'hubtel', cost: 20 },
      { role: 'Agent', price: 19, route: 1, provider: 'reloadly', cost: 20 },
      { role: 'SuperAgent', price: 19, route: 1, provider: 'reloadly', cost: 20 },
      { role: 'Customer', price: 19, route: 1, provider: 'reloadly', cost: 20 },
      { role: 'Staff', price: 19, route: 1, provider: 'reloadly', cost: 20 },
    ]);
    const flaggedPage = await admin.get('/console/packages/pkg_a_2gb');
    assert.match(flaggedPage.body, /<p class="error" id="below-cost">Sells below cost: the Agent price GHS 19\.00 is below the cost of route #0 \(hubtel\), GHS 20\.00;/);
    assert.match(flaggedPage.body, /<td class="bad below-cost" data-role="Agent">GHS 19\.00 \/ GHS -1\.00<\/td>/);
    dashboard = await admin.get('/console');
    assert.match(dashboard.body, /<section id="below-cost-packages"><h2>Selling below cost: \d+<\/h2>/);
    assert.match(dashboard.body, /href="\/console\/packages\/pkg_a_2gb">pkg_a_2gb<\/a><\/td><td>the Agent price GHS 19\.00 is below the cost of route #0 \(hubtel\), GHS 20\.00;/);

    // Fixed (the price covers every route again): no longer flagged.
    const fixed = await admin.post('/console/packages/pkg_a_2gb', { price: '21.00', status: 'Active' });
    assert.equal(fixed.status, 303, fixed.body.slice(0, 300));
    dashboard = await admin.get('/console');
    assert.doesNotMatch(dashboard.body, /href="\/console\/packages\/pkg_a_2gb">pkg_a_2gb<\/a><\/td><td>the Agent price/);

    // A route set below cost: refused without the box, saved with it.
    const dearRoute = { ...hubtelRoute('DATA50', '50') };
    const readsBeforeDear = bundleReads();
    const dear = await admin.post('/console/packages/pkg_a_2gb/routes', dearRoute);
    assert.equal(dear.status, 400, dear.body.slice(0, 300));
    assert.ok(dear.body.includes('the Agent price GHS 21.00 is below the cost of route #0 (hubtel), GHS 50.00'), dear.body.slice(0, 3000));
    assert.equal((await stored()).length, 3);
    assert.equal(bundleReads(), readsBeforeDear, 'a list refused for its cost asks no upstream');
    const dearConfirmed = await admin.post('/console/packages/pkg_a_2gb/routes', { ...dearRoute, belowCost: 'yes' });
    assert.equal(bundleReads(), readsBeforeDear + 1, 'the confirmed list is read at Hubtel once');
    assert.equal(dearConfirmed.status, 303, dearConfirmed.body.slice(0, 300));
    assert.match(String(dearConfirmed.headers.location), /notice=routes-below-cost$/);
    assert.deepEqual(await stored(), [{ provider: 'hubtel', serviceId: MTN, bundle: 'DATA50', amount: 5000 }]);
  });

  test('a route refused (route problem) on its last 5 orders is flagged on the package page and the dashboard', async (c) => {
    const h = await startUpstreamHarness(c, { upstreams: ['hubtel'], routes: ['hubtel', 'sandbox'], env: CONSOLE_ENV });
    const admin = await signIn(h.t, 'admin');
    const numbers = ['0244100201', '0244100202', '0244100203', '0244100204', '0244100205'];
    // Hubtel lists no bundle for these numbers: each order is refused there, then delivered by the sandbox.
    h.sim('hubtel').configure({ numbers: Object.fromEntries(numbers.map((n) => [`233${n.slice(1)}`, 'refuse-product' as const])) });
    const flagged = /<td class="refused bad">refused on its last 5 orders \(since [^)]+\): Hubtel does not offer bundle DATA10 for this number<\/td>/;
    for (const [i, msisdn] of numbers.entries()) {
      const order = await settledOrder(h, await h.buy(msisdn));
      assert.equal(order.state, 'completed');
      if (i === numbers.length - 2) {
        const page = await admin.get(`/console/packages/${UPSTREAM_PACKAGE}`);
        assert.doesNotMatch(page.body, flagged, 'four refusals are not yet flagged');
      }
    }
    const page = await admin.get(`/console/packages/${UPSTREAM_PACKAGE}`);
    assert.match(page.body, flagged);
    const dashboard = await admin.get('/console');
    assert.match(dashboard.body, /<section id="refused-routes"><h2>Routes refused on their last 5 orders: 1<\/h2>/);
    assert.match(dashboard.body, new RegExp(`href="/console/packages/${UPSTREAM_PACKAGE}">${UPSTREAM_PACKAGE}</a></td><td>#0 hubtel</td>`));

    // One delivered order through the route clears the flag.
    h.sim('hubtel').configure({ numbers: {} });
    assert.equal((await settledOrder(h, await h.buy('0244100206'))).state, 'completed');
    assert.doesNotMatch((await admin.get('/console')).body, /id="refused-routes"/);
  });
});
