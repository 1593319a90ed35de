import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliActor } from '../../src/cli/actor.js';
import { startDtoneSimulator, type DtoneSimulator } from '../../src/providers/dtone/simulator.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';

const ROUTES_FILE = [
  { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 10.0 },
  { provider: 'dtone', productId: 35211, cost: 9.2 },
  { provider: 'sandbox' },
];

describe(`cli routes list / routes set (docs/cli.md, ${TEST_DIALECT})`, () => {
  let t: TestApp;
  let env: Record<string, string>;
  let dir: string;
  let dtone: DtoneSimulator;
  before(async () => {
    t = await createTestApp();
    env = cliEnv(t, { LOG_LEVEL: 'warn' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-routes-cli-'));
    dtone = await startDtoneSimulator();
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await dtone.close();
    await t.close();
  });

  const file = (name: string, content: string) => {
    const full = path.join(dir, name);
    fs.writeFileSync(full, content);
    return full;
  };
  const stored = () => t.database.db.selectFrom('package_routes').selectAll().orderBy('package_id').orderBy('position').execute();
  const okAudits = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('outcome', '=', 'ok')
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('routes set: the routes replace the package’s, audited as the CLI user, and the new list is printed', async () => {
    const empty = await runCli(['routes', 'list'], env);
    assert.equal(empty.code, 0, empty.stderr);
    assert.equal(empty.stdout.trim(), 'no routes (set them with: routes set <packageId> <routes.json>)');

    const routesFile = file('routes.json', JSON.stringify(ROUTES_FILE, null, 2));
    const withDtone = { ...env, ...dtone.env };
    // The Hubtel route's amount (GHS 10.00, its cost here) is more than three roles pay: refused without --below-cost.
    const unconfirmed = await runCli(['routes', 'set', 'pkg_a_1gb', routesFile], withDtone);
    assert.equal(unconfirmed.code, 1, unconfirmed.stdout);
    assert.equal(
      unconfirmed.stderr.trim(),
      'refused: pkg_a_1gb would sell below cost: the Agent price GHS 9.00 is below the cost of route #0 (hubtel), GHS 10.00; the SuperAgent price GHS 8.50 is below the cost of route #0 (hubtel), GHS 10.00; the Staff price GHS 7.25 is below the cost of route #0 (hubtel), GHS 10.00; the Agent price GHS 9.00 is below the cost of route #1 (dtone), GHS 9.20; the SuperAgent price GHS 8.50 is below the cost of route #1 (dtone), GHS 9.20; the Staff price GHS 7.25 is below the cost of route #1 (dtone), GHS 9.20. Nothing was saved; confirm that it sells below cost to save it (console: tick "I know this sells below cost"; CLI: --below-cost)',
    );
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_1gb'), []);

    const set = await runCli(['routes', 'set', 'pkg_a_1gb', routesFile, '--below-cost'], withDtone);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(
      set.stdout,
      [
        'routes of pkg_a_1gb set',
        'pkg_a_1gb  #0  hubtel  serviceId b230733cd56b4a0fad820e39f66bc27c  bundle DATA10  amount GHS 10.00  not enabled here: its variables are not set',
        '    cost GHS 10.00 (amount): Agent GHS 9.00 margin GHS -1.00 BELOW COST · SuperAgent GHS 8.50 margin GHS -1.50 BELOW COST · Customer GHS 10.00 margin GHS 0.00 · Staff GHS 7.25 margin GHS -2.75 BELOW COST',
        'pkg_a_1gb  #1  dtone  productId 35211  cost GHS 9.20  enabled',
        '    cost GHS 9.20 (cost): Agent GHS 9.00 margin GHS -0.20 BELOW COST · SuperAgent GHS 8.50 margin GHS -0.70 BELOW COST · Customer GHS 10.00 margin GHS 0.80 · Staff GHS 7.25 margin GHS -1.95 BELOW COST',
        'pkg_a_1gb  #2  sandbox  enabled',
        '    cost unknown (no cost given): Agent GHS 9.00 · SuperAgent GHS 8.50 · Customer GHS 10.00 · Staff GHS 7.25',
        'not checked #0 hubtel: saved without a check at hubtel: it is not enabled here (its variables are not set)',
        'checked #1 dtone: DT One offers product 35211 (Simulated product 35211)',
        '',
      ].join('\n'),
    );
    assert.match(set.stderr, /^warning: saved below cost, as confirmed: the Agent price GHS 9\.00 is below the cost of route #0 \(hubtel\), GHS 10\.00;/);
    assert.equal(dtone.stats().calls.product, 1, 'the DT One product was read once: the unconfirmed save was refused for its cost before any upstream was asked');
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_1gb'), [
      { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 1000 },
      { provider: 'dtone', productId: 35211, cost: 920 },
      { provider: 'sandbox' },
    ]);
    const [audit] = await t.ctx.audit.list({ action: 'package.routes.set', limit: 1 });
    assert.equal(audit?.actor, cliActor().name);
    assert.match(audit?.actor ?? '', /^cli:/);
    assert.equal(audit?.outcome, 'ok');
    assert.equal(audit?.recordId, 'pkg_a_1gb');
    assert.deepEqual(audit?.detail, {
      before: [],
      after: ROUTES_FILE,
      checkedAtUpstream: ['#1 DT One offers product 35211 (Simulated product 35211)'],
      belowCostConfirmed: [
        { role: 'Agent', price: 9, route: 0, provider: 'hubtel', cost: 10 },
        { role: 'SuperAgent', price: 8.5, route: 0, provider: 'hubtel', cost: 10 },
        { role: 'Staff', price: 7.25, route: 0, provider: 'hubtel', cost: 10 },
        { role: 'Agent', price: 9, route: 1, provider: 'dtone', cost: 9.2 },
        { role: 'SuperAgent', price: 8.5, route: 1, provider: 'dtone', cost: 9.2 },
        { role: 'Staff', price: 7.25, route: 1, provider: 'dtone', cost: 9.2 },
      ],
    });
    const [, refusal] = await t.ctx.audit.list({ action: 'package.routes.set', limit: 2 });
    assert.equal(refusal?.outcome, 'refused', 'the unconfirmed save is recorded as refused');
  });

  test('routes list: every route with its upstream enabled or not in this configuration; --package; --json', async () => {
    await t.ctx.packageRoutes.replace(
      { staffId: null, name: 'test', address: null },
      'pkg_b_1gb',
      [{ provider: 'reloadly', operatorId: 643, amount: 600 }],
      { belowCost: true },
    );
    const [all, one, none, json, unknown] = await Promise.all([
      runCli(['routes', 'list'], env),
      runCli(['routes', 'list', '--package', 'pkg_b_1gb'], env),
      runCli(['routes', 'list', '--package', 'pkg_a_2gb'], env),
      runCli(['routes', 'list', '--package', 'pkg_a_1gb', '--json'], env),
      runCli(['routes', 'list', '--package', 'pkg_nope'], env),
    ]);
    assert.equal(all.code, 0, all.stderr);
    const pkgB = [
      'pkg_b_1gb  #0  reloadly  operatorId 643  amount GHS 6.00  not enabled here: its variables are not set',
      '    cost GHS 6.00 (amount): Agent GHS 5.50 margin GHS -0.50 BELOW COST · SuperAgent GHS 5.00 margin GHS -1.00 BELOW COST · Customer GHS 6.00 margin GHS 0.00 · Staff GHS 6.00 margin GHS 0.00',
    ];
    assert.deepEqual(all.stdout.trim().split('\n'), [
      'pkg_a_1gb  #0  hubtel  serviceId b230733cd56b4a0fad820e39f66bc27c  bundle DATA10  amount GHS 10.00  not enabled here: its variables are not set',
      '    cost GHS 10.00 (amount): Agent GHS 9.00 margin GHS -1.00 BELOW COST · SuperAgent GHS 8.50 margin GHS -1.50 BELOW COST · Customer GHS 10.00 margin GHS 0.00 · Staff GHS 7.25 margin GHS -2.75 BELOW COST',
      'pkg_a_1gb  #1  dtone  productId 35211  cost GHS 9.20  not enabled here: its variables are not set',
      '    cost GHS 9.20 (cost): Agent GHS 9.00 margin GHS -0.20 BELOW COST · SuperAgent GHS 8.50 margin GHS -0.70 BELOW COST · Customer GHS 10.00 margin GHS 0.80 · Staff GHS 7.25 margin GHS -1.95 BELOW COST',
      'pkg_a_1gb  #2  sandbox  enabled',
      '    cost unknown (no cost given): Agent GHS 9.00 · SuperAgent GHS 8.50 · Customer GHS 10.00 · Staff GHS 7.25',
      ...pkgB,
    ]);
    assert.deepEqual(one.stdout.trim().split('\n'), pkgB);
    assert.equal(none.stdout.trim(), 'pkg_a_2gb  no routes');
    assert.deepEqual(JSON.parse(json.stdout), [
      { packageId: 'pkg_a_1gb', routes: ROUTES_FILE.map((r) => ({ ...r, enabled: r.provider === 'sandbox' })) },
    ].map(({ packageId, routes }) => ({
      packageId,
      routes: routes.map((r) => {
        const cost = ('cost' in r ? r.cost : 'amount' in r ? r.amount : null) ?? null;
        const prices = { Agent: 9, SuperAgent: 8.5, Customer: 10, Staff: 7.25 };
        return {
          ...r,
          routeCost: cost,
          routeCostFrom: 'cost' in r ? 'cost' : 'amount' in r ? 'amount' : null,
          prices: Object.entries(prices).map(([role, price]) => ({ role, price, margin: cost === null ? null : Math.round((price - cost) * 100) / 100 })),
          refusedLastOrders: false,
        };
      }),
    })));
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), 'no data package pkg_nope');
  });

  test('a bad routes file is refused in one line, exit 1, nothing written', async () => {
    const before = JSON.stringify(await stored());
    const audits = await okAudits();
    const cases: [string[], string][] = [
      [['routes', 'set', 'pkg_a_1gb', file('broken.json', '[{ "provider": "sandbox" ')], /^routes set rejected, nothing written: .*broken\.json is not valid JSON \(.+\)$/.source],
      [
        ['routes', 'set', 'pkg_a_1gb', file('bad-route.json', JSON.stringify([{ provider: 'reloadly', operatorId: 643, amount: 0 }]))],
        '^routes set rejected, nothing written: routes\\[0\\]\\.amount: must be GHS, more than 0, at most two decimals \\(got 0\\)$',
      ],
      [
        ['routes', 'set', 'pkg_a_1gb', file('object.json', JSON.stringify({ routes: [] }))],
        '^routes set rejected, nothing written: routes: must be a list of routes \\(got \\{"routes":\\[\\]\\}\\)$',
      ],
      [['routes', 'set', 'pkg_a_1gb', path.join(dir, 'missing.json')], '^cannot read .*missing\\.json: ENOENT$'],
      [['routes', 'set', 'pkg_nope', file('fine.json', JSON.stringify([{ provider: 'sandbox' }]))], '^refused: no data package pkg_nope$'],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env)));
    results.forEach((result, i) => {
      const [args, pattern] = cases[i] ?? [[], ''];
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stdout}`);
      assert.equal(result.stdout, '');
      assert.match(result.stderr.trim(), new RegExp(pattern), args.join(' '));
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    });
    assert.equal(JSON.stringify(await stored()), before);
    assert.equal(await okAudits(), audits);
    // The service's refusal (an unknown package) is recorded as refused, as every staff command's.
    const [refusal] = await t.ctx.audit.list({ action: 'package.routes.set', limit: 1 });
    assert.equal(refusal?.outcome, 'refused');
    assert.equal(refusal?.recordId, 'pkg_nope');
  });

  test('routes set without an enabled upstream among them warns on stderr (and still sets them)', async () => {
    const set = await runCli(['routes', 'set', 'pkg_a_2gb', file('reloadly.json', JSON.stringify([{ provider: 'reloadly', operatorId: 643, amount: 20.5 }]))], env);
    assert.equal(set.code, 0, set.stderr);
    assert.equal(set.stderr.trim(), 'warning: no route of pkg_a_2gb has an upstream enabled in this configuration (upstreams enabled: sandbox)');
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_2gb'), [{ provider: 'reloadly', operatorId: 643, amount: 2050 }]);
  });
});
