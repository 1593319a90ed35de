import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type CallResult, type TestApp } from '../support/app.js';
import { KEYS, liveKeyOf } from '../support/keys.js';
import { agentProfile, fixtureWith } from '../support/seed.js';
import { rowCounts } from '../support/tables.js';

/**
 * The number's network and validateOnly dry runs (docs/api.md, "The number's network" and "Dry
 * runs: validateOnly"), on one app: operators naming MTN, TELECEL and AT beside the fixture's
 * operators that name none.
 */

type Net = 'MTN' | 'TELECEL' | 'AT';
const NETS: readonly Net[] = ['MTN', 'TELECEL', 'AT'];
const NAME: Record<Net, string> = { MTN: 'MTN', TELECEL: 'Telecel', AT: 'AT' };
const ARTICLE: Record<Net, string> = { MTN: 'an MTN', TELECEL: 'a Telecel', AT: 'an AT' };
const PREFIX: Record<Net, string> = { MTN: '24', TELECEL: '20', AT: '27' };
const op = (net: Net) => `op_${net.toLowerCase()}`;
const bundle = (net: Net) => ({ operatorId: op(net), productId: `prd_${net.toLowerCase()}`, packageId: `pkg_${net.toLowerCase()}` });

function seed() {
  const s = fixtureWith({
    profiles: [agentProfile('usr_net', { live: 1000, test: 1000, role: 'SuperAgent' }), agentProfile('usr_poor', { live: 1 })],
  }) as Record<string, Record<string, unknown>[]>;
  for (const net of NETS) {
    const { operatorId, productId, packageId } = bundle(net);
    s.operators?.push({ id: operatorId, code: net, name: `${NAME[net]} Ghana`, status: 'Active', network: net });
    s.products?.push({ id: productId, operatorId, name: `${NAME[net]} Data`, status: 'Available' });
    s.dataPackages?.push({
      id: packageId,
      operatorId,
      productId,
      label: `${NAME[net]} 1GB`,
      dataAmount: '1GB',
      validity: '30',
      status: 'Active',
      price: 5,
    });
  }
  return s;
}

const RICH = liveKeyOf('usr_net');
const POOR = liveKeyOf('usr_poor');
const SINGLE = '/api/v1/data-bundles/buy-single';
const BULK = '/api/v1/data-bundles/buy-bulk';
const RC_SINGLE = '/api/v1/result-checker/buy-single';
const RC_BULK = '/api/v1/result-checker/buy-bulk';

let serial = 1000;
/** A fresh number of `net` (national form), never in flight before; its last four digits pick no sandbox failure. */
const numberOf = (net: Net | 'none') => `0${net === 'none' ? '28' : PREFIX[net]}55${String(serial++).padStart(5, '0')}`;

describe("the number's network and validateOnly", () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: seed() });
  });
  after(() => t.close());

  const post = (url: string, key: string, body: object, headers: Record<string, string> = {}) => t.call('POST', url, { key, body, headers });
  const single = (net: Net, msisdn: string, extra: object = {}) => post(SINGLE, RICH, { ...bundle(net), beneficiaryMsisdn: msisdn, ...extra });

  function refused(res: CallResult, status: number, code: string) {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(res.body.error.code, code);
  }

  test('GET /operators names each operator its network, null when it has none', async () => {
    const res = await t.call('GET', '/api/v1/operators', { key: RICH });
    const networks = Object.fromEntries((res.body.data as { _id: string; network: string | null }[]).map((o) => [o._id, o.network]));
    assert.deepEqual(networks, { op_a: null, op_b: null, op_mtn: 'MTN', op_telecel: 'TELECEL', op_at: 'AT' });
  });

  test('each network against each other network: refused naming both and the way out; accepted with allowPortedNumber', async () => {
    for (const bundleNet of NETS) {
      for (const numberNet of NETS.filter((n) => n !== bundleNet)) {
        const msisdn = numberOf(numberNet);
        const walletBefore = await t.wallet('usr_net', 'live');
        const res = await single(bundleNet, msisdn);
        refused(res, 400, 'BUY_DATA_FAILED');
        assert.equal(
          res.body.error.message,
          `${msisdn} is ${ARTICLE[numberNet]} number by its prefix; this is ${ARTICLE[bundleNet]} bundle. ` +
            `If the number was ported to ${NAME[bundleNet]}, send allowPortedNumber: true`,
        );
        assert.deepEqual(await t.wallet('usr_net', 'live'), walletBefore, 'a refusal holds nothing');
        const ported = await single(bundleNet, msisdn, { allowPortedNumber: true });
        assert.equal(ported.status, 200, `${bundleNet} bundle, ported ${numberNet} number: ${JSON.stringify(ported.body)}`);
      }
      const own = await single(bundleNet, numberOf(bundleNet));
      assert.equal(own.status, 200, JSON.stringify(own.body));
    }
  });

  test('a number of no known network, and any number for an operator without a network, are accepted', async () => {
    for (const net of NETS) assert.equal((await single(net, numberOf('none'))).status, 200, `${net} bundle, 028 number`);
    for (const net of NETS) {
      const res = await post(SINGLE, RICH, { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: numberOf(net) });
      assert.equal(res.status, 200, `operator without a network, ${net} number: ${JSON.stringify(res.body)}`);
    }
  });

  test('a bulk order with one mismatched recipient is refused as a whole, naming its index; allowPortedNumber on that item lets it through', async () => {
    const items = [
      { packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('MTN') },
      { packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('TELECEL') },
      { packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('MTN') },
    ];
    const body = { operatorId: 'op_mtn', productId: 'prd_mtn', items };
    const rowsBefore = await rowCounts(t);
    const res = await post(BULK, RICH, body);
    refused(res, 400, 'BUY_DATA_BULK_FAILED');
    assert.match(res.body.error.message, /^items\[1\]: 0\d+ is a Telecel number by its prefix; this is an MTN bundle\. .*allowPortedNumber: true$/);
    assert.deepEqual(await rowCounts(t), rowsBefore, 'nothing of the order is written');

    items[1] = { ...items[1], allowPortedNumber: true } as (typeof items)[number];
    const accepted = await post(BULK, RICH, body);
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.data.recipientCount, 3);
  });

  /** Runs a dry run (with an Idempotency-Key) and shows it wrote nothing in any table. */
  async function dryRun(url: string, key: string, body: object): Promise<CallResult> {
    const rowsBefore = await rowCounts(t);
    const res = await post(url, key, { ...body, validateOnly: true }, { 'idempotency-key': `dry-${serial++}` });
    assert.deepEqual(await rowCounts(t), rowsBefore, `${url} with validateOnly wrote nothing (no hold, order, event or idempotency key)`);
    return res;
  }

  test('validateOnly on each endpoint that would succeed: the figures of the purchase made right after, with the same Idempotency-Key running for real', async () => {
    const wassce = (await t.call('GET', '/api/v1/result-checker/packages', { key: RICH })).body.data.find(
      (p: { _id: string }) => p._id === 'rcp_wassce',
    ).price as number;
    const ghs = async () => (await t.wallet('usr_net', 'live')).available / 100;
    const cases: { url: string; body: object; figures: (real: CallResult, before: number, after: number) => object }[] = [
      {
        url: SINGLE,
        body: { ...bundle('MTN'), beneficiaryMsisdn: numberOf('MTN') },
        figures: (r) => ({ amountCharged: r.body.data.amountCharged, walletBalanceBefore: r.body.data.walletBalanceBefore, walletBalanceAfter: r.body.data.walletBalanceAfter }),
      },
      {
        url: BULK,
        body: {
          operatorId: 'op_at',
          productId: 'prd_at',
          items: [
            { packageId: 'pkg_at', beneficiaryMsisdn: numberOf('AT') },
            { packageId: 'pkg_at', beneficiaryMsisdn: numberOf('MTN'), allowPortedNumber: true },
          ],
        },
        figures: (r) => ({
          totalAmount: r.body.data.totalAmount,
          recipientCount: r.body.data.recipientCount,
          walletBalanceBefore: r.body.data.walletBalanceBefore,
          walletBalanceAfter: r.body.data.walletBalanceAfter,
        }),
      },
      {
        url: RC_SINGLE,
        body: { packageId: 'rcp_wassce', recipientPhone: numberOf('MTN') },
        figures: (_r, before, after) => ({ amountCharged: before - after, walletBalanceBefore: before, walletBalanceAfter: after }),
      },
      {
        url: RC_BULK,
        body: {
          items: [
            { packageId: 'rcp_wassce', recipientPhone: numberOf('MTN') },
            { packageId: 'rcp_bece', recipientPhone: numberOf('AT') },
          ],
        },
        figures: (r, before, after) => ({
          totalAmount: r.body.data.totalAmount,
          walletBalanceBefore: before,
          walletBalanceAfter: after,
          failures: r.body.data.failures.map((f: { index: number }) => f.index),
        }),
      },
    ];
    for (const c of cases) {
      const key = `same-key-${serial++}`;
      const rowsBefore = await rowCounts(t);
      const dry = await post(c.url, RICH, { ...c.body, validateOnly: true }, { 'idempotency-key': key });
      assert.equal(dry.status, 200, `${c.url}: ${JSON.stringify(dry.body)}`);
      assert.deepEqual(await rowCounts(t), rowsBefore, `${c.url} with validateOnly wrote nothing`);
      assert.equal(dry.body.data.validateOnly, true);
      assert.equal(dry.body.data.valid, true);

      const before = await ghs();
      const real = await post(c.url, RICH, c.body, { 'idempotency-key': key });
      assert.equal(real.status, 200, `${c.url}: ${JSON.stringify(real.body)}`);
      assert.equal(real.headers['idempotent-replayed'], undefined, 'the dry run kept no answer with the key');
      assert.equal(real.body.data.validateOnly, undefined);
      const expected = c.figures(real, before, await ghs());
      const { validateOnly: _v, valid: _ok, ...figures } = dry.body.data;
      if ('failures' in figures) figures.failures = (figures.failures as { index: number }[]).map((f) => f.index);
      assert.deepEqual(figures, expected, `${c.url}: the dry run's figures are the purchase's`);
    }
    assert.ok(wassce > 0);
  });

  test('validateOnly on every refusal answers exactly what the purchase answers, and writes nothing', async () => {
    const busy = numberOf('MTN');
    assert.equal((await single('MTN', busy, { paymentReference: 'REF-BUSY' })).status, 200);
    const cases: { name: string; url: string; key: string; body: object; status: number; code: string; sameMessageUpTo?: string }[] = [
      { name: '402 single', url: SINGLE, key: POOR, body: { ...bundle('MTN'), beneficiaryMsisdn: numberOf('MTN') }, status: 402, code: 'BUY_DATA_FAILED' },
      {
        name: '402 bulk',
        url: BULK,
        key: POOR,
        body: { ...bundle('MTN'), packageId: undefined, items: [{ packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('MTN') }, { packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('MTN') }] },
        status: 402,
        code: 'BUY_DATA_BULK_FAILED',
      },
      { name: '402 rc single', url: RC_SINGLE, key: POOR, body: { packageId: 'rcp_wassce', recipientPhone: numberOf('MTN') }, status: 402, code: 'RC_WALLET_BUY_FAILED' },
      { name: '402 rc bulk', url: RC_BULK, key: POOR, body: { items: [{ packageId: 'rcp_wassce', recipientPhone: numberOf('MTN') }] }, status: 402, code: 'RC_WALLET_BULK_BUY_FAILED' },
      {
        name: '403 bulk for a Customer',
        url: BULK,
        key: KEYS.customerLive,
        body: { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: numberOf('MTN') }, { packageId: 'pkg_a_1gb', beneficiaryMsisdn: numberOf('MTN') }] },
        status: 403,
        code: 'BUY_DATA_BULK_FAILED',
      },
      { name: '403 rc for a Customer', url: RC_SINGLE, key: KEYS.customerLive, body: { packageId: 'rcp_wassce', recipientPhone: numberOf('MTN') }, status: 403, code: 'RC_WALLET_BUY_FAILED' },
      { name: '403 suspended', url: SINGLE, key: KEYS.suspendedLive, body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_1gb', beneficiaryMsisdn: numberOf('MTN') }, status: 403, code: 'PROFILE_SUSPENDED' },
      { name: '409 in flight, single', url: SINGLE, key: RICH, body: { ...bundle('MTN'), beneficiaryMsisdn: busy }, status: 409, code: 'BUY_DATA_FAILED' },
      {
        name: '409 in flight, bulk',
        url: BULK,
        key: RICH,
        body: { operatorId: 'op_mtn', productId: 'prd_mtn', items: [{ packageId: 'pkg_mtn', beneficiaryMsisdn: numberOf('MTN') }, { packageId: 'pkg_mtn', beneficiaryMsisdn: busy }] },
        status: 409,
        code: 'BUY_DATA_BULK_FAILED',
      },
      { name: '409 repeated paymentReference', url: SINGLE, key: RICH, body: { ...bundle('MTN'), beneficiaryMsisdn: numberOf('MTN'), paymentReference: 'REF-BUSY' }, status: 409, code: 'BUY_DATA_FAILED' },
      {
        name: '409 out of stock, rc single',
        url: RC_SINGLE,
        key: RICH,
        body: { packageId: 'rcp_bece', recipientPhone: numberOf('MTN') },
        status: 409,
        code: 'RC_WALLET_BUY_FAILED',
        sameMessageUpTo: 'Out of stock: no',
      },
      { name: '409 out of stock, rc bulk', url: RC_BULK, key: RICH, body: { items: [{ packageId: 'rcp_bece', recipientPhone: numberOf('MTN') }] }, status: 409, code: 'RC_WALLET_BULK_BUY_FAILED', sameMessageUpTo: 'No item could be bought (item 0: Out of stock: no' },
      { name: '400 inactive package', url: SINGLE, key: RICH, body: { operatorId: 'op_a', productId: 'prd_a', packageId: 'pkg_a_inactive', beneficiaryMsisdn: numberOf('MTN') }, status: 400, code: 'BUY_DATA_FAILED' },
      {
        name: '400 inactive package in bulk',
        url: BULK,
        key: RICH,
        body: { operatorId: 'op_a', productId: 'prd_a', items: [{ packageId: 'pkg_a_1gb', beneficiaryMsisdn: numberOf('MTN') }, { packageId: 'pkg_a_inactive', beneficiaryMsisdn: numberOf('MTN') }] },
        status: 400,
        code: 'BUY_DATA_BULK_FAILED',
      },
      { name: '400 inactive rc package', url: RC_SINGLE, key: RICH, body: { packageId: 'rcp_old', recipientPhone: numberOf('MTN') }, status: 400, code: 'RC_WALLET_BUY_FAILED' },
      { name: '400 network', url: SINGLE, key: RICH, body: { ...bundle('TELECEL'), beneficiaryMsisdn: numberOf('AT') }, status: 400, code: 'BUY_DATA_FAILED' },
    ];
    for (const c of cases) {
      const body = JSON.parse(JSON.stringify(c.body)) as object;
      const dry = await dryRun(c.url, c.key, body);
      const real = await post(c.url, c.key, body);
      refused(dry, c.status, c.code);
      refused(real, c.status, c.code);
      const message = (res: CallResult) => {
        const text = res.body.error.message as string;
        return c.sameMessageUpTo === undefined ? text : text.slice(0, text.indexOf(c.sameMessageUpTo) + c.sameMessageUpTo.length + 20);
      };
      assert.equal(message(dry), message(real), `${c.name}: the dry run's refusal is the purchase's`);
    }
  });
});
