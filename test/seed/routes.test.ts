import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseSeed, SeedError } from '../../src/seed/import.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { FIXTURE_SEED } from '../support/seed.js';

interface PackageEntry {
  id: string;
  routes?: unknown;
  [field: string]: unknown;
}

function fixture(): { dataPackages: PackageEntry[]; [section: string]: unknown } {
  return JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8'));
}

const HUBTEL = { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 10.0, cost: 9.5 };
const RELOADLY = { provider: 'reloadly', operatorId: 643, amount: 10.0 };

describe(`seed import: dataPackages[].routes (docs/seed-import.md, ${TEST_DIALECT})`, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  const routesOf = async (packageId: string) =>
    (
      await t.database.db
        .selectFrom('package_routes')
        .select(['position', 'provider', 'service_id', 'bundle', 'operator_id', 'product_id', 'amount', 'cost'])
        .where('package_id', '=', packageId)
        .orderBy('position')
        .execute()
    ).map((r) => ({
      position: Number(r.position),
      provider: r.provider,
      serviceId: r.service_id,
      bundle: r.bundle,
      operatorId: r.operator_id === null ? null : Number(r.operator_id),
      productId: r.product_id === null ? null : Number(r.product_id),
      amount: r.amount === null ? null : Number(r.amount),
      cost: r.cost === null ? null : Number(r.cost),
    }));

  test('routes are stored in order, in pesewas; a re-import with routes replaces them, without routes keeps them', async () => {
    const seed = fixture();
    seed.dataPackages[0]!.routes = [HUBTEL, RELOADLY, { provider: 'sandbox' }];
    seed.dataPackages[1]!.routes = [{ provider: 'dtone', productId: 35211 }];
    const first = await t.ctx.seeds.import(parseSeed(JSON.stringify(seed)));
    assert.equal(first.routesSet, 2);
    assert.deepEqual(await routesOf('pkg_a_1gb'), [
      { position: 0, provider: 'hubtel', serviceId: HUBTEL.serviceId, bundle: 'DATA10', operatorId: null, productId: null, amount: 1000, cost: 950 },
      { position: 1, provider: 'reloadly', serviceId: null, bundle: null, operatorId: 643, productId: null, amount: 1000, cost: null },
      { position: 2, provider: 'sandbox', serviceId: null, bundle: null, operatorId: null, productId: null, amount: null, cost: null },
    ]);
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_2gb'), [{ provider: 'dtone', productId: 35211 }]);
    assert.deepEqual(await routesOf('pkg_b_1gb'), []);

    // The same packages again: the first with fewer routes, the second without the field, a third cleared.
    const again = fixture();
    again.dataPackages[0]!.routes = [RELOADLY];
    again.dataPackages[4]!.routes = [];
    const second = await t.ctx.seeds.import(parseSeed(JSON.stringify(again)));
    assert.equal(second.routesSet, 2);
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_1gb'), [{ provider: 'reloadly', operatorId: 643, amount: 1000 }]);
    assert.deepEqual(await t.ctx.packageRoutes.routesOf('pkg_a_2gb'), [{ provider: 'dtone', productId: 35211 }], 'no routes field: kept');
    const cleared = fixture();
    cleared.dataPackages[0]!.routes = [];
    await t.ctx.seeds.import(parseSeed(JSON.stringify(cleared)));
    assert.deepEqual(await routesOf('pkg_a_1gb'), [], 'routes: [] removes them');
  });

  const broken: [string, unknown, string][] = [
    ['an amount with three decimals', [RELOADLY, { ...HUBTEL, amount: 10.005 }], 'field routes[1].amount: must be a GHS amount with at most two decimals (got 10.005)'],
    ['a misspelt field', [{ provider: 'dtone', prodcutId: 1 }], 'field routes[0]: unknown field prodcutId (did you mean productId?) (a dtone route has provider, productId, cost)'],
    ['a missing field', [{ provider: 'reloadly', amount: 10 }], 'field routes[0]: missing field operatorId (a reloadly route needs them)'],
    ['an unknown provider', [{ provider: 'vodafone' }], 'field routes[0].provider: must be one of sandbox, hubtel, reloadly, dtone (got "vodafone")'],
    ['the same route twice', [RELOADLY, { ...RELOADLY, cost: 9 }], 'field routes[1]: the same route as routes[0]'],
    ['routes that are not a list', { provider: 'sandbox' }, 'field routes: must be a list of routes (got {"provider":"sandbox"})'],
  ];
  for (const [name, routes, message] of broken) {
    test(`a seed with ${name} in a package's routes is rejected whole, naming the entry, writing nothing`, async () => {
      const fresh = await createTestApp({ seed: null });
      try {
        const seed = fixture();
        seed.dataPackages[0]!.routes = [{ provider: 'sandbox' }];
        seed.dataPackages[3]!.routes = routes;
        const count = async () => {
          const rows = await Promise.all(
            (['operators', 'data_packages', 'package_routes', 'profiles', 'audit_log'] as const).map((table) =>
              fresh.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
            ),
          );
          return rows.map((r) => Number(r.n));
        };
        const empty = await count();
        await assert.rejects(
          async () => fresh.ctx.seeds.import(parseSeed(JSON.stringify(seed))),
          (error: unknown) => {
            assert.ok(error instanceof SeedError, String(error));
            assert.equal(error.message, `dataPackages[3] (id "pkg_a_legacy") ${message}`);
            return true;
          },
        );
        assert.deepEqual(await count(), empty);
      } finally {
        await fresh.close();
      }
    });
  }

  test('cli import: a bad route is one line naming the entry and field, exit 1', { skip: TEST_DIALECT !== 'sqlite' }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-routes-'));
    try {
      const env = { DATABASE_URL: `sqlite:${path.join(dir, 'cli.db')}`, CREDENTIALS_KEY: Buffer.alloc(32, 1).toString('base64') };
      const seed = fixture();
      seed.dataPackages[1]!.routes = [{ provider: 'reloadly', operatorId: -1, amount: 10 }];
      const file = path.join(dir, 'seed.json');
      fs.writeFileSync(file, JSON.stringify(seed));
      const bad = await runCli(['import', file], env);
      assert.equal(bad.code, 1);
      assert.equal(
        bad.stderr.trim(),
        'import rejected, nothing written: dataPackages[1] (id "pkg_a_2gb") field routes[0].operatorId: must be a positive integer (got -1)',
      );
      seed.dataPackages[1]!.routes = [RELOADLY];
      fs.writeFileSync(file, JSON.stringify(seed));
      const good = await runCli(['import', file], env);
      assert.equal(good.code, 0, good.stderr);
      assert.match(good.stdout, /data packages 6 \(routes set for 1\)/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
