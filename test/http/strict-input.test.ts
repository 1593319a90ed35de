import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';

/**
 * Bodies are typed strictly (never coerced), and no string of a request (body, path, query) holding
 * a control character or a lone surrogate reaches a service or a query (docs/api.md, "Conventions").
 */
describe('strict request bodies and control characters', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  const BUY = { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123456' };
  const TOP_UP = { amount: 100, method: 'momo', reference: 'MOMO-1' };

  async function orderCount(): Promise<number> {
    const row = await t.database.db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function topUpCount(): Promise<number> {
    const row = await t.database.db.selectFrom('top_ups').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function refused(method: 'GET' | 'POST', url: string, key: string, body: unknown, code: string) {
    const res = await t.call(method, url, { key, ...(body === undefined ? {} : { body }) });
    assert.equal(res.status, 400, `${method} ${url} ${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.success, false);
    assert.equal(res.body.error.code, code, `${url} ${JSON.stringify(body)}`);
    return res;
  }

  test('a string, boolean or null where the contract says number is 400, never coerced (test mode would credit at once)', async () => {
    const before = await t.wallet('usr_agent', 'test');
    const topUps = await topUpCount();
    for (const amount of ['100', '1e3', true, null, [100], { value: 100 }]) {
      await refused('POST', '/api/v1/top-ups/request', KEYS.agentTest, { ...TOP_UP, amount }, 'TOPUP_REQUEST_FAILED');
    }
    assert.deepEqual(await t.wallet('usr_agent', 'test'), before);
    assert.equal(await topUpCount(), topUps);
  });

  test('a number, boolean or null where the contract says string is 400 on every purchase and top-up field', async () => {
    const before = await t.wallet('usr_super', 'live');
    const orders = await orderCount();
    const cases: [string, object, string][] = [
      ['/api/v1/data-bundles/buy-single', { ...BUY, beneficiaryMsisdn: 244123456 }, 'BUY_DATA_FAILED'],
      ['/api/v1/data-bundles/buy-single', { ...BUY, paymentReference: null }, 'BUY_DATA_FAILED'],
      ['/api/v1/data-bundles/buy-single', { ...BUY, paymentReference: 12345 }, 'BUY_DATA_FAILED'],
      ['/api/v1/data-bundles/buy-single', { ...BUY, anonymousId: true }, 'BUY_DATA_FAILED'],
      ['/api/v1/data-bundles/buy-single', { ...BUY, packageId: 1 }, 'BUY_DATA_FAILED'],
      ['/api/v1/data-bundles/buy-bulk', { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: 244123456 }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123457' }] }, 'BUY_DATA_BULK_FAILED'],
      ['/api/v1/data-bundles/retry-recipient', { orderId: 12, beneficiaryMsisdn: '0244123456' }, 'BUY_DATA_BULK_FAILED'],
      ['/api/v1/result-checker/buy-single', { packageId: 7, recipientPhone: '0244123456' }, 'RC_WALLET_BUY_FAILED'],
      ['/api/v1/result-checker/buy-single', { packageId: 'rcp_wassce', recipientPhone: 244123456 }, 'RC_WALLET_BUY_FAILED'],
      ['/api/v1/result-checker/buy-bulk', { items: [{ packageId: false, recipientPhone: '0244123456' }] }, 'RC_WALLET_BULK_BUY_FAILED'],
      ['/api/v1/top-ups/request', { ...TOP_UP, reference: 42 }, 'TOPUP_REQUEST_FAILED'],
      ['/api/v1/top-ups/request', { ...TOP_UP, note: false }, 'TOPUP_REQUEST_FAILED'],
      ['/api/v1/top-ups/request', { ...TOP_UP, method: null }, 'TOPUP_REQUEST_FAILED'],
    ];
    for (const [url, body, code] of cases) await refused('POST', url, KEYS.superLive, body, code);
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
    assert.equal(await orderCount(), orders);
  });

  test('query strings keep their coercion: limit=20 is a number', async () => {
    const res = await t.call('GET', '/api/v1/top-ups?limit=20', { key: KEYS.agentLive });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const orders = await t.call('GET', '/api/v1/orders?limit=20', { key: KEYS.agentLive });
    assert.equal(orders.status, 200, JSON.stringify(orders.body));
  });

  test('NUL, other control characters and lone surrogates are refused in every body field with the endpoint code', async () => {
    const before = await t.wallet('usr_super', 'live');
    const orders = await orderCount();
    const topUps = await topUpCount();
    const bad = ['rcp_\u0000', 'x\u0000y', 'bell\u0007', 'esc\u001b[31m', 'del\u007f', 'line\nbreak', 'tab\there', 'c1\u0085', 'lone\ud800', 'trail\udc00x'];
    for (const text of bad) {
      const cases: [string, object, string][] = [
        ['/api/v1/data-bundles/retry-recipient', { orderId: `ord_${text}`, beneficiaryMsisdn: '0244123456' }, 'BUY_DATA_BULK_FAILED'],
        ['/api/v1/result-checker/buy-single', { packageId: text, recipientPhone: '0244123456' }, 'RC_WALLET_BUY_FAILED'],
        ['/api/v1/result-checker/buy-bulk', { items: [{ packageId: 'rcp_wassce', recipientPhone: '0244123456' }, { packageId: text, recipientPhone: '0244123457' }] }, 'RC_WALLET_BULK_BUY_FAILED'],
        ['/api/v1/top-ups/request', { ...TOP_UP, reference: text }, 'TOPUP_REQUEST_FAILED'],
        ['/api/v1/top-ups/request', { ...TOP_UP, note: text }, 'TOPUP_REQUEST_FAILED'],
        ['/api/v1/data-bundles/buy-single', { ...BUY, paymentReference: text }, 'BUY_DATA_FAILED'],
        ['/api/v1/data-bundles/buy-single', { ...BUY, anonymousId: text }, 'BUY_DATA_FAILED'],
        ['/api/v1/data-bundles/buy-single', { ...BUY, beneficiaryMsisdn: `0244123456${text}` }, 'BUY_DATA_FAILED'],
        ['/api/v1/data-bundles/buy-bulk', { operatorId: 'op_a', productId: text, items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123458' }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244123459' }] }, 'BUY_DATA_BULK_FAILED'],
      ];
      for (const [url, body, code] of cases) {
        const res = await refused('POST', url, KEYS.superLive, body, code);
        assert.match(res.body.error.message, /control characters/, `${url} ${JSON.stringify(body)}`);
      }
    }
    assert.deepEqual(await t.wallet('usr_super', 'live'), before);
    assert.equal(await orderCount(), orders);
    assert.equal(await topUpCount(), topUps);
  });

  test('control characters in a path id or a query value are 400 INVALID_REQUEST, on both order paths and the result-checker status', async () => {
    for (const url of [
      '/api/v1/orders/%00',
      '/api/v1/orders/x%00/status',
      '/api/v1/orders/ord_%07',
      '/api/v1/result-checker/orders/%00/status',
      '/api/v1/packages/pkg_%1b',
      '/api/v1/operators/op_%00/products',
      '/api/v1/orders?cursor=%00',
      '/api/v1/orders?state=%0a',
      '/api/v1/data-packages?operatorId=op_a%00',
    ]) {
      const res = await t.call('GET', url, { key: KEYS.superLive });
      assert.equal(res.status, 400, `${url} → ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', url);
    }
    // Top-ups have a failure code of their own.
    await refused('GET', '/api/v1/top-ups?cursor=%00', KEYS.superLive, undefined, 'TOPUP_REQUEST_FAILED');
  });

  test('ordinary text, accents and emoji are still accepted', async () => {
    const res = await t.call('POST', '/api/v1/top-ups/request', {
      key: KEYS.superLive,
      body: { ...TOP_UP, reference: 'MoMo réf 👍 #1', note: 'Paid at Kejetia — Kumasi' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.data.note, 'Paid at Kejetia — Kumasi');
  });

  test('a value outside an enum is refused naming the allowed values', async () => {
    const res = await refused('POST', '/api/v1/top-ups/request', KEYS.agentTest, { ...TOP_UP, method: 'MoMo' }, 'TOPUP_REQUEST_FAILED');
    assert.equal(res.body.error.message, 'body.method must be one of "momo", "bank"');
  });

  test('a deeply nested JSON body is 400 (never a 500) on the API, the Paystack webhook and the provider callbacks, wrong token too', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const cases: [string, string, string, number][] = [
      ['/api/v1/top-ups/request', `{"amount":100,"method":"bank","reference":"DEEP-1","extra":${deep}}`, 'TOPUP_REQUEST_FAILED', 400],
      ['/callbacks/paystack', `{"event":"charge.success","data":${deep}}`, 'INVALID_REQUEST', 400],
      ['/callbacks/hubtel/not-the-token', `{"Data":${deep}}`, 'INVALID_REQUEST', 400],
      ['/callbacks/dtone/not-the-token', `{"status":${deep}}`, 'INVALID_REQUEST', 400],
      ['/callbacks/reloadly', `{"data":${deep}}`, 'INVALID_REQUEST', 400],
    ];
    const topUps = await topUpCount();
    for (const [url, payload, code, status] of cases) {
      const res = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', 'x-api-key': KEYS.agentTest }, payload });
      assert.equal(res.statusCode, status, `${url}: ${res.body.slice(0, 300)}`);
      const body = JSON.parse(res.body) as { error: { code: string; message: string } };
      assert.equal(body.error.code, code, url);
      assert.match(body.error.message, /nested more than 32 levels/, url);
    }
    assert.equal(await topUpCount(), topUps, 'nothing recorded');
    // Thirty-two levels are still an ordinary body.
    const fine = `{"event":"charge.success","data":${'['.repeat(31)}${']'.repeat(31)}}`;
    const ok = await t.app.inject({ method: 'POST', url: '/callbacks/paystack', headers: { 'content-type': 'application/json' }, payload: fine });
    assert.equal(ok.statusCode, 404, 'past validation: no Paystack key here, so the route answers 404');
  });

  test('a POST whose contract has no body accepts an empty one sent as application/json; one with a body still needs it', async () => {
    for (const url of ['/api/v1/events/evt_unknown/redeliver', '/api/v1/webhook-endpoints/we_unknown/rotate-secret']) {
      const res = await t.call('POST', url, { key: KEYS.agentTest, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 404, `${url}: ${JSON.stringify(res.body)}`);
      assert.match(res.body.error.code, /^(EVENT|WEBHOOK_ENDPOINT)_NOT_FOUND$/);
      const sized = await t.call('POST', url, { key: KEYS.agentTest, headers: { 'content-type': 'application/json', 'content-length': '0' } });
      assert.equal(sized.status, 404, `${url} with Content-Length: 0: ${JSON.stringify(sized.body)}`);
    }
    const empty = await t.call('POST', '/api/v1/data-bundles/buy-single', { key: KEYS.agentTest, headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.error.code, 'INVALID_JSON');
  });
});
