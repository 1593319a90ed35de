import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { DomainError } from '../../src/domain/errors.js';
import { readRouteList, RouteListError, routeToWire } from '../../src/modules/package-routes/schemas.js';
import { routingPolicy, usable } from '../../src/modules/package-routes/service.js';
import { startDtoneSimulator, type DtoneSimulator } from '../../src/providers/dtone/simulator.js';
import { enabledProviders } from '../../src/providers/index.js';
import { staffActor } from '../support/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';

/** The example of docs/live-delivery.md, "Routes", as the seed file, the CLI and the console carry it (GHS). */
const EXAMPLE = [
  { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 10.0 },
  { provider: 'reloadly', operatorId: 643, amount: 10.0, cost: 9.35 },
  { provider: 'dtone', productId: 35211 },
  { provider: 'sandbox' },
];

const PRODUCTION = { NODE_ENV: 'production', CREDENTIALS_KEY: randomBytes(32).toString('base64') };
const DTONE = { DTONE_API_KEY: 'key', DTONE_API_SECRET: 'secret' };

describe('a route list in its wire form (docs/live-delivery.md, "Routes")', () => {
  test('the example reads into routes in pesewas, in order, and back', () => {
    const routes = readRouteList(EXAMPLE);
    assert.deepEqual(routes, [
      { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 1000 },
      { provider: 'reloadly', operatorId: 643, amount: 1000, cost: 935 },
      { provider: 'dtone', productId: 35211 },
      { provider: 'sandbox' },
    ]);
    assert.deepEqual(routes.map(routeToWire), EXAMPLE);
    assert.deepEqual(readRouteList([]), []);
  });

  const refused: [string, unknown, string][] = [
    ['not a list', { provider: 'sandbox' }, 'routes: must be a list of routes (got {"provider":"sandbox"})'],
    ['nine routes', Array.from({ length: 9 }, (_, i) => ({ provider: 'dtone', productId: i + 1 })), 'routes: at most 8 routes (got 9)'],
    ['a route that is not an object', ['sandbox'], 'routes[0]: must be an object (got "sandbox")'],
    ['no provider', [{ productId: 1 }], 'routes[0]: missing field provider (one of sandbox, hubtel, reloadly, dtone)'],
    ['an unknown provider', [{ provider: 'mtn' }], 'routes[0].provider: must be one of sandbox, hubtel, reloadly, dtone (got "mtn")'],
    ['a missing field', [{ provider: 'sandbox' }, { provider: 'hubtel', serviceId: 'abc', amount: 5 }], 'routes[1]: missing field bundle (a hubtel route needs them)'],
    [
      "another provider's field",
      [{ provider: 'reloadly', operatorId: 643, amount: 10, serviceId: 'abc' }],
      'routes[0]: unknown field serviceId (a reloadly route has provider, operatorId, amount, cost)',
    ],
    ['a misspelt field', [{ provider: 'reloadly', operatorid: 643, amount: 10 }], 'routes[0]: unknown field operatorid (did you mean operatorId?) (a reloadly route has provider, operatorId, amount, cost)'],
    ['an amount of 0', [{ provider: 'reloadly', operatorId: 643, amount: 0 }], 'routes[0].amount: must be GHS, more than 0, at most two decimals (got 0)'],
    ['three decimals', [{ provider: 'reloadly', operatorId: 643, amount: 10.005 }], 'routes[0].amount: must be a GHS amount with at most two decimals (got 10.005)'],
    ['an amount as text', [{ provider: 'reloadly', operatorId: 643, amount: '10' }], 'routes[0].amount: must be a number (got "10")'],
    ['a negative cost', [{ provider: 'sandbox', cost: -1 }], 'routes[0].cost: must be GHS, at most two decimals (got -1)'],
    ['an operatorId of 0', [{ provider: 'reloadly', operatorId: 0, amount: 10 }], 'routes[0].operatorId: must be a positive integer (got 0)'],
    ['a fractional productId', [{ provider: 'dtone', productId: 1.5 }], 'routes[0].productId: must be an integer (got 1.5)'],
    ['an empty bundle', [{ provider: 'hubtel', serviceId: 'abc', bundle: '', amount: 10 }], 'routes[0].bundle: must not be empty'],
    [
      'a serviceId with a control character',
      [{ provider: 'hubtel', serviceId: 'ab\u0007c', bundle: 'DATA10', amount: 10 }],
      'routes[0].serviceId: must be printable characters, no leading or trailing space (got "ab\\u0007c")',
    ],
    [
      'the same route twice (the cost aside)',
      [{ provider: 'dtone', productId: 7 }, { provider: 'sandbox' }, { provider: 'dtone', productId: 7, cost: 3 }],
      'routes[2]: the same route as routes[0]',
    ],
  ];
  for (const [name, value, message] of refused) {
    test(`refused: ${name}`, () => {
      assert.throws(
        () => readRouteList(value),
        (error: unknown) => {
          assert.ok(error instanceof RouteListError, String(error));
          assert.equal(error.message, message);
          return true;
        },
      );
    });
  }
});

describe('enabled providers: from the configuration (docs/live-delivery.md, "Providers")', () => {
  test('the sandbox outside production (LIVE_SANDBOX defaults to true there), nothing in production', () => {
    assert.deepEqual([...enabledProviders(loadConfig({}))], ['sandbox']);
    assert.deepEqual([...enabledProviders(loadConfig(PRODUCTION))], []);
    assert.deepEqual([...enabledProviders(loadConfig({ ...PRODUCTION, LIVE_SANDBOX: 'true' }))], ['sandbox']);
    assert.deepEqual([...enabledProviders(loadConfig({ LIVE_SANDBOX: 'false' }))], []);
  });

  test('an upstream once its variables are complete; a Hubtel without PUBLIC_BASE_URL is not, and the policy says why', () => {
    const hubtel = { HUBTEL_API_ID: 'id', HUBTEL_API_KEY: 'key', HUBTEL_PREPAID_DEPOSIT_ID: '1', HUBTEL_POS_SALES_ID: '2' };
    const config = loadConfig({ ...PRODUCTION, ...DTONE, ...hubtel, RELOADLY_CLIENT_ID: 'only-the-id' });
    assert.deepEqual([...enabledProviders(config)].sort(), ['dtone']);
    const policy = routingPolicy(config);
    assert.equal(policy.usableRouteRequired, true);
    assert.match(policy.notEnabledBecause.hubtel ?? '', /PUBLIC_BASE_URL not set/);
    assert.match(policy.notEnabledBecause.reloadly ?? '', /RELOADLY_CLIENT_SECRET not set/);
    assert.equal(policy.notEnabledBecause.sandbox, 'LIVE_SANDBOX is not true');
    const withCallbacks = loadConfig({
      ...PRODUCTION,
      ...hubtel,
      PUBLIC_BASE_URL: 'https://api.example.com',
      PROVIDER_CALLBACK_TOKEN: 'x'.repeat(32),
    });
    assert.deepEqual([...enabledProviders(withCallbacks)], ['hubtel']);
    assert.equal(routingPolicy(loadConfig({ ...PRODUCTION, LIVE_SANDBOX: 'true' })).usableRouteRequired, false);
    assert.equal(routingPolicy(loadConfig({})).usableRouteRequired, false);
  });

  test('usable: the routes whose provider is enabled, in their order', () => {
    const routes = readRouteList(EXAMPLE);
    assert.deepEqual(usable(routes, new Set(['dtone', 'hubtel'])), [routes[0], routes[2]]);
    assert.deepEqual(usable(routes, new Set()), []);
  });
});

describe(`package routes stored and replaced, audited in the unit (${TEST_DIALECT})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const stored = (packageId: string) =>
    t.database.db.selectFrom('package_routes').selectAll().where('package_id', '=', packageId).orderBy('position').execute();

  test('replace writes the routes in order, in pesewas, with one audit row in GHS; a second replace replaces', async () => {
    const actor = staffActor('routes@test');
    // The Hubtel route's amount is more than some roles pay: saved with the confirmation (price-and-upstream.test.ts refuses it without).
    const change = await t.ctx.packageRoutes.replace(actor, 'pkg_a_1gb', readRouteList(EXAMPLE), { belowCost: true });
    assert.deepEqual(change.before, []);
    const rows = await stored('pkg_a_1gb');
    assert.deepEqual(
      rows.map((r) => [Number(r.position), r.provider, r.service_id, r.bundle, r.operator_id === null ? null : Number(r.operator_id), r.product_id === null ? null : Number(r.product_id), r.amount === null ? null : Number(r.amount), r.cost === null ? null : Number(r.cost)]),
      [
        [0, 'hubtel', 'b230733cd56b4a0fad820e39f66bc27c', 'DATA10', null, null, 1000, null],
        [1, 'reloadly', null, null, 643, null, 1000, 935],
        [2, 'dtone', null, null, null, 35211, null, null],
        [3, 'sandbox', null, null, null, null, null, null],
      ],
    );
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_1gb'), readRouteList(EXAMPLE));

    const [first] = await t.ctx.audit.list({ action: 'package.routes.set', limit: 1 });
    assert.equal(first?.actor, 'routes@test');
    assert.equal(first?.recordId, 'pkg_a_1gb');
    assert.deepEqual({ before: first?.detail?.before, after: first?.detail?.after }, { before: [], after: EXAMPLE });
    assert.ok(Array.isArray(first?.detail?.belowCostConfirmed), 'the confirmed below-cost pairs are in the audit row');

    const again = await t.ctx.packageRoutes.replace(actor, 'pkg_a_1gb', readRouteList([{ provider: 'dtone', productId: 9 }]));
    assert.deepEqual(again.before, readRouteList(EXAMPLE));
    assert.deepEqual((await stored('pkg_a_1gb')).map((r) => [Number(r.position), r.provider]), [[0, 'dtone']]);
    const [second] = await t.ctx.audit.list({ action: 'package.routes.set', limit: 1 });
    assert.deepEqual(second?.detail, { before: EXAMPLE, after: [{ provider: 'dtone', productId: 9 }] });

    const many = await t.ctx.packageRoutes.routesOfMany(['pkg_a_1gb', 'pkg_b_1gb']);
    assert.deepEqual([...many], [['pkg_a_1gb', [{ provider: 'dtone', productId: 9 }]], ['pkg_b_1gb', []]]);
  });

  test('an unknown package is refused and nothing is written', async () => {
    const before = await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    await assert.rejects(
      t.ctx.packageRoutes.replace(staffActor(), 'pkg_nope', readRouteList([{ provider: 'sandbox' }])),
      (error: unknown) => error instanceof DomainError && error.refusal === 'not_found' && /no data package pkg_nope/.test(error.message),
    );
    assert.deepEqual(await stored('pkg_nope'), []);
    const afterward = await t.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    assert.equal(Number(afterward.n), Number(before.n));
  });

  test('unrouted live packages: active ones without a route to an enabled provider', async () => {
    await t.ctx.packageRoutes.replace(staffActor(), 'pkg_a_2gb', readRouteList([{ provider: 'reloadly', operatorId: 643, amount: 20.5 }]));
    await t.ctx.packageRoutes.replace(staffActor(), 'pkg_b_1gb', readRouteList([{ provider: 'sandbox' }]));
    // pkg_a_1gb has its dtone route (above); pkg_a_inactive is not active.
    assert.deepEqual(await t.ctx.packageRoutes.unroutedLivePackages(new Set(['dtone'])), ['pkg_a_2gb', 'pkg_a_legacy', 'pkg_b_1gb', 'pkg_off_1gb']);
    assert.deepEqual(await t.ctx.packageRoutes.unroutedLivePackages(new Set(['dtone', 'reloadly', 'sandbox'])), ['pkg_a_legacy', 'pkg_off_1gb']);
  });
});

describe(`production without LIVE_SANDBOX: no active package left without a usable route (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let dtone: DtoneSimulator;
  before(async () => {
    // Saving a DT One route reads its product there: the simulator stands in for DT One.
    dtone = await startDtoneSimulator();
    t = await createTestApp({ env: { ...PRODUCTION, ...dtone.env } });
  });
  after(async () => {
    await t.close();
    await dtone.close();
  });

  test('activating a package without a usable route is refused; with a route to an enabled upstream it is done', async () => {
    const actor = staffActor();
    const pricing = { price: 4000, rolePrices: [], status: 'Active' as const };
    await assert.rejects(t.ctx.packages.update(actor, 'pkg_a_inactive', pricing), (error: unknown) => {
      assert.ok(error instanceof DomainError);
      assert.equal(error.refusal, 'conflict');
      assert.equal(
        error.message,
        'pkg_a_inactive cannot be activated: it has no usable route (upstreams enabled: dtone). Set a route to an enabled upstream first, or run with LIVE_SANDBOX=true',
      );
      return true;
    });
    // A route to the sandbox is no usable route here.
    await t.ctx.packageRoutes.replace(actor, 'pkg_a_inactive', readRouteList([{ provider: 'sandbox' }]));
    await assert.rejects(t.ctx.packages.update(actor, 'pkg_a_inactive', pricing), /cannot be activated/);
    const row = await t.database.db.selectFrom('data_packages').select('status').where('id', '=', 'pkg_a_inactive').executeTakeFirstOrThrow();
    assert.equal(row.status, 'Inactive');

    await t.ctx.packageRoutes.replace(actor, 'pkg_a_inactive', readRouteList([{ provider: 'sandbox' }, { provider: 'dtone', productId: 35211 }]));
    const done = await t.ctx.packages.update(actor, 'pkg_a_inactive', pricing);
    assert.equal(done.before.status, 'Inactive');
    assert.equal(done.after.status, 'Active');
  });

  test('the console guard refuses routes that would leave an active package without a usable one; the CLI path does not guard', async () => {
    const actor = staffActor();
    await t.ctx.packageRoutes.replace(actor, 'pkg_a_1gb', readRouteList([{ provider: 'dtone', productId: 35212 }]));
    await assert.rejects(
      t.ctx.packageRoutes.replace(actor, 'pkg_a_1gb', readRouteList([{ provider: 'sandbox' }]), { guardActive: true }),
      /pkg_a_1gb is active and would have no usable route \(upstreams enabled: dtone\)/,
    );
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_1gb'), [{ provider: 'dtone', productId: 35212 }]);
    // An inactive package may be given any routes, and the CLI's path sets them without the guard.
    await t.ctx.packages.update(actor, 'pkg_a_inactive', { price: 4000, rolePrices: [], status: 'Inactive' });
    await t.ctx.packageRoutes.replace(actor, 'pkg_a_inactive', [], { guardActive: true });
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_inactive'), []);
    await t.ctx.packageRoutes.replace(actor, 'pkg_a_legacy', readRouteList([{ provider: 'sandbox' }]));
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_legacy'), [{ provider: 'sandbox' }]);
  });
});
