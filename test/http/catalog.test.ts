import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, useTestApp, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';
import { KEYS } from '../support/keys.js';

const KEY_BY_ROLE = {
  SuperAgent: KEYS.superLive,
  Agent: KEYS.agentLive,
  Customer: KEYS.customerLive,
  Staff: KEYS.staffLive,
} as const;

/** pkg_a_1gb: price 10.00, Agent 9.00, SuperAgent 8.50, Staff 7.25 (Customer pays the base price). */
const PKG_A_1GB_PRICE = { SuperAgent: 8.5, Agent: 9, Customer: 10, Staff: 7.25 } as const;
const RC_WASSCE_PRICE = { SuperAgent: 18, Agent: 19, Customer: 20, Staff: 20 } as const;

describe('catalog reads', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('GET /operators lists active operators only, with every field of an operator', async () => {
    const res = await t.call('GET', '/api/v1/operators', { key: KEYS.agentLive });
    assert.equal(res.status, 200);
    assert.equal(res.body.success, true);
    assert.deepEqual(res.body.data, [
      { _id: 'op_a', code: 'OPA', name: 'Alpha Mobile', status: 'Active', network: null },
      { _id: 'op_b', code: 'OPB', name: 'Beta Telecom', status: 'Active', network: null },
    ]);
  });

  test('GET /operators/{id}/products lists the operator products with their status', async () => {
    const res = await t.call('GET', '/api/v1/operators/op_a/products', { key: KEYS.agentLive });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, [
      { _id: 'prd_a', name: 'Alpha Data', operatorId: 'op_a', operatorName: 'Alpha Mobile', status: 'Available' },
      { _id: 'prd_a_off', name: 'Alpha Legacy', operatorId: 'op_a', operatorName: 'Alpha Mobile', status: 'Unavailable' },
    ]);
  });

  test('products of an unknown or inactive operator are 404 NOT_FOUND', async () => {
    for (const id of ['op_nope', 'op_off']) {
      const res = await t.call('GET', `/api/v1/operators/${id}/products`, { key: KEYS.agentLive });
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'NOT_FOUND');
    }
  });

  test('any other path under /operators/ is 404 NOT_FOUND, and still needs a key', async () => {
    for (const path of ['/api/v1/operators/op_a', '/api/v1/operators/op_a/packages', '/api/v1/operators/op_a/products/x']) {
      const res = await t.call('GET', path, { key: KEYS.agentLive });
      assert.equal(res.status, 404, path);
      assert.deepEqual(res.body, { success: false, error: { code: 'NOT_FOUND', message: res.body.error.message } });
      const anonymous = await t.call('GET', path);
      assert.equal(anonymous.status, 401, path);
    }
  });

  test('GET /data-packages: sellable packages only, no status field, every other field of a package', async () => {
    const res = await t.call('GET', '/api/v1/data-packages', { key: KEYS.customerLive });
    assert.equal(res.status, 200);
    const ids = res.body.data.map((p: { _id: string }) => p._id).sort();
    // Not listed: inactive package, package of an unavailable product, package of an inactive operator.
    assert.deepEqual(ids, ['pkg_a_1gb', 'pkg_a_2gb', 'pkg_b_1gb']);
    const pkg = res.body.data.find((p: { _id: string }) => p._id === 'pkg_a_1gb');
    assert.deepEqual(pkg, {
      _id: 'pkg_a_1gb',
      label: 'Alpha 1GB (30 days)',
      dataAmount: '1GB',
      validity: '30',
      price: 10,
      operatorId: 'op_a',
      operatorName: 'Alpha Mobile',
      productId: 'prd_a',
      productName: 'Alpha Data',
    });
  });

  test('GET /data-packages filters by operatorId and productId', async () => {
    const byOperator = await t.call('GET', '/api/v1/data-packages?operatorId=op_b', { key: KEYS.agentLive });
    assert.deepEqual(byOperator.body.data.map((p: { _id: string }) => p._id), ['pkg_b_1gb']);
    const byProduct = await t.call('GET', '/api/v1/data-packages?productId=prd_a', { key: KEYS.agentLive });
    assert.deepEqual(byProduct.body.data.map((p: { _id: string }) => p._id).sort(), ['pkg_a_1gb', 'pkg_a_2gb']);
    const both = await t.call('GET', '/api/v1/data-packages?operatorId=op_b&productId=prd_a', { key: KEYS.agentLive });
    assert.deepEqual(both.body.data, []);
    const unknown = await t.call('GET', '/api/v1/data-packages?operatorId=op_nope', { key: KEYS.agentLive });
    assert.equal(unknown.status, 200);
    assert.deepEqual(unknown.body.data, []);
  });

  test('a repeated package list (served from its cached body) is byte for byte the first one', async () => {
    const url = '/api/v1/data-packages?operatorId=op_a';
    const first = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': KEYS.agentLive } });
    const again = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': KEYS.agentLive } });
    assert.equal(first.statusCode, 200);
    assert.equal(again.body, first.body);
    for (const res of [first, again]) {
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal(res.headers['content-length'], String(Buffer.byteLength(first.body)));
    }
    // Another role's prices are another body.
    const customer = await t.app.inject({ method: 'GET', url, headers: { 'x-api-key': KEYS.customerLive } });
    assert.notEqual(customer.body, first.body);
    assert.deepEqual(
      JSON.parse(customer.body).data.map((p: { _id: string }) => p._id),
      JSON.parse(first.body).data.map((p: { _id: string }) => p._id),
    );
  });

  for (const [role, key] of Object.entries(KEY_BY_ROLE) as [keyof typeof KEY_BY_ROLE, string][]) {
    test(`role prices: a ${role} sees its own price in lists and the single read`, async () => {
      const list = await t.call('GET', '/api/v1/data-packages?productId=prd_a', { key });
      const listed = list.body.data.find((p: { _id: string }) => p._id === 'pkg_a_1gb');
      assert.equal(listed.price, PKG_A_1GB_PRICE[role]);
      // A package without role prices costs the same for everyone.
      assert.equal(list.body.data.find((p: { _id: string }) => p._id === 'pkg_a_2gb').price, 20.5);
      const one = await t.call('GET', '/api/v1/packages/pkg_a_1gb', { key });
      assert.equal(one.body.data.price, PKG_A_1GB_PRICE[role]);
      const rc = await t.call('GET', '/api/v1/result-checker/packages', { key });
      assert.equal(rc.body.data.find((p: { _id: string }) => p._id === 'rcp_wassce').price, RC_WASSCE_PRICE[role]);
    });
  }

  test('GET /packages/{id} includes status; an inactive package stays readable', async () => {
    const active = await t.call('GET', '/api/v1/packages/pkg_a_2gb', { key: KEYS.agentLive });
    assert.equal(active.status, 200);
    assert.deepEqual(active.body.data, {
      _id: 'pkg_a_2gb',
      label: 'Alpha 2GB (30 days)',
      dataAmount: '2GB',
      validity: '30',
      price: 20.5,
      operatorId: 'op_a',
      operatorName: 'Alpha Mobile',
      productId: 'prd_a',
      productName: 'Alpha Data',
      status: 'Active',
    });
    for (const id of ['pkg_a_inactive', 'pkg_a_legacy', 'pkg_off_1gb']) {
      const res = await t.call('GET', `/api/v1/packages/${id}`, { key: KEYS.agentLive });
      assert.equal(res.status, 200, id);
      assert.equal(res.body.data.status, 'Inactive', id);
    }
  });

  test('GET /packages/{unknown} is 404 PACKAGE_NOT_FOUND', async () => {
    const res = await t.call('GET', '/api/v1/packages/pkg_nope', { key: KEYS.agentLive });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'PACKAGE_NOT_FOUND');
  });

  test('GET /result-checker/packages: active only, every field of a package, live stock count, priority order', async () => {
    const res = await t.call('GET', '/api/v1/result-checker/packages', { key: KEYS.superTest });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, [
      {
        _id: 'rcp_wassce',
        code: 'WASSCE',
        name: 'WASSCE Checker',
        displayName: 'WASSCE',
        description: null,
        price: 18,
        currency: 'GHS',
        stockAvailable: 3,
        priority: 1,
        checkLimit: 5,
        includesPdf: true,
      },
      {
        _id: 'rcp_bece',
        code: 'BECE',
        name: 'BECE Checker',
        displayName: 'BECE',
        description: 'Junior high results',
        price: 15,
        currency: 'GHS',
        stockAvailable: 0,
        priority: 2,
        checkLimit: null,
        includesPdf: false,
      },
    ]);
  });
});

// The catalog is served from memory; a change committed by any process must be seen at once.
describe('catalog changes', () => {
  test('a price change imported by another process (cli import) is listed and charged on the next request', async (t) => {
    const app = await useTestApp(t);
    const listed = async () => {
      const res = await app.call('GET', '/api/v1/data-packages?productId=prd_a', { key: KEYS.agentLive });
      return (res.body.data as { _id: string; price: number }[]).map((p) => [p._id, p.price]);
    };
    assert.deepEqual(await listed(), [['pkg_a_1gb', 9], ['pkg_a_2gb', 20.5]]);

    const change = {
      operators: [{ id: 'op_a', code: 'OPA', name: 'Alpha Mobile', status: 'Active' }],
      products: [{ id: 'prd_a', operatorId: 'op_a', name: 'Alpha Data', status: 'Available' }],
      dataPackages: [
        { id: 'pkg_a_1gb', operatorId: 'op_a', productId: 'prd_a', label: 'Alpha 1GB (30 days)', dataAmount: '1GB',
          validity: '30', status: 'Active', price: 10.0, rolePrices: { Agent: 9.75 } },
        { id: 'pkg_a_2gb', operatorId: 'op_a', productId: 'prd_a', label: 'Alpha 2GB (30 days)', dataAmount: '2GB',
          validity: '30', status: 'Inactive', price: 20.5 },
      ],
    };
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-catalog-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'change.json');
    fs.writeFileSync(file, JSON.stringify(change));
    const imported = await runCli(['import', file], cliDatabaseEnv(app.testDb));
    assert.equal(imported.code, 0, imported.stderr);

    assert.deepEqual(await listed(), [['pkg_a_1gb', 9.75]]);
    const retired = await app.call('GET', '/api/v1/packages/pkg_a_2gb', { key: KEYS.agentLive });
    assert.equal(retired.body.data.status, 'Inactive');
    const before = await app.wallet('usr_agent', 'live');
    const bought = await app.call('POST', '/api/v1/data-bundles/buy-single', {
      key: KEYS.agentLive,
      body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0241234567' },
    });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    assert.equal(bought.body.data.amountCharged, 9.75);
    assert.equal((await app.wallet('usr_agent', 'live')).available, before.available - 975);
    const refused = await app.call('POST', '/api/v1/data-bundles/buy-single', {
      key: KEYS.agentLive,
      body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_2gb', beneficiaryMsisdn: '0241234568' },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /pkg_a_2gb is not active/);
  });
});
