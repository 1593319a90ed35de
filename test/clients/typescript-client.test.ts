import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createPartnerApi, OrderFailedError, PartnerApiError, type ErrorCode } from '../../clients/typescript/src/index.js';
import { generatedFiles } from '../../scripts/generate-client.js';
import { startInlineWorker } from '../../src/worker/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { ROOT } from '../support/repo.js';

/**
 * The TypeScript client (clients/typescript): its generated types are those of the current
 * document, and its example and its layer work against a real server with its real worker:
 * a purchase polled to completion, a failing test number and a 402 as typed errors.
 */

const CLIENT_DIR = path.join(ROOT, 'clients/typescript');
const DEMO_SEED = path.join(ROOT, 'examples/demo-seed.json');
const DEMO_TEST_KEY = 'service_test_demoAmaMensahTest0001';
/** Efua (Customer) with a test wallet of 1 GHS: every bundle is a 402. */
const POOR_TEST_KEY = 'service_test_demoEfuaAsanteTest0001';
const MTN_1GB = { operatorId: 'op_mtn', productId: 'prd_mtn_data', packageId: 'pkg_mtn_1gb' };

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the example as an integrator would (`npx tsx clients/typescript/examples/buy-bundle.ts`). */
function runExample(env: Record<string, string>): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(CLIENT_DIR, 'examples/buy-bundle.ts')],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('TypeScript client', () => {
  let t: TestApp;
  let worker: { stop(): Promise<void> };
  let baseUrl: string;

  before(async () => {
    const seed = JSON.parse(fs.readFileSync(DEMO_SEED, 'utf8'));
    for (const profile of seed.profiles) if (profile.id === 'usr_efua') profile.wallet.test = 1;
    t = await createTestApp({ seed });
    worker = startInlineWorker(t.ctx);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await worker.stop();
    await t.close();
  });

  test('the committed OpenAPI snapshot and generated types are those of the current document (else: npm run client:generate)', async () => {
    const expected = await generatedFiles((await t.call('GET', '/openapi.json')).body);
    for (const [name, text] of Object.entries(expected)) {
      const committed = fs.readFileSync(path.join(CLIENT_DIR, name), 'utf8');
      assert.ok(committed === text, `clients/typescript/${name} is stale: run npm run client:generate`);
    }
  });

  test('the example buys a bundle in test mode and waits for it to complete', async () => {
    const run = await runExample({ PARTNER_API_URL: baseUrl, MSISDN: '0244123456', POLL_INTERVAL_MS: '50' });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /Ama Mensah \(SuperAgent\): 1000\.00 GHS available/);
    assert.match(run.stdout, /order ord_\w+ \(DB\w+\) is processing; wallet 1000 → 994\.6 GHS/);
    assert.match(run.stdout, /order ord_\w+: Completed/);
  });

  test('the example reports a failing test number (ending 0000) and exits 1', async () => {
    const run = await runExample({ PARTNER_API_URL: baseUrl, MSISDN: '0244120000', POLL_INTERVAL_MS: '50' });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /Failed \(Sandbox: delivery failed\); the wallet was refunded/);
  });

  test('the client: a purchase polled to completion, with one Idempotency-Key per purchase', async () => {
    const api = createPartnerApi({ baseUrl, apiKey: DEMO_TEST_KEY });
    const before = await api.getWalletBalance();
    const order = await api.buyDataSingle({ ...MTN_1GB, beneficiaryMsisdn: '0244123461' });
    assert.equal(order.status, 'processing');
    const final = await api.waitForOrder(order.orderId, { intervalMs: 20 });
    assert.equal(final.state, 'Completed');
    assert.equal((await api.getOrder(order.orderId)).state, 'completed');
    // The same key again is the same purchase, answered again; a new call gets a new key.
    const body = { ...MTN_1GB, beneficiaryMsisdn: '0244123462' };
    const first = await api.buyDataSingle(body, { idempotencyKey: 'client-test-1' });
    const again = await api.buyDataSingle(body, { idempotencyKey: 'client-test-1' });
    assert.equal(again.orderId, first.orderId);
    await api.waitForOrder(first.orderId, { intervalMs: 20 });
    const after = await api.getWalletBalance();
    assert.equal(Math.round((before.availableBalance - after.availableBalance) * 100), 2 * 540, 'two bundles charged, not three');
  });

  test('the client: a failing test number is an OrderFailedError, a 402 and a bad key are PartnerApiErrors with their codes', async () => {
    const api = createPartnerApi({ baseUrl, apiKey: DEMO_TEST_KEY });
    await assert.rejects(
      api.buyDataBundle({ ...MTN_1GB, beneficiaryMsisdn: '0244130000' }, { intervalMs: 20 }),
      (error: unknown) => {
        assert.ok(error instanceof OrderFailedError);
        assert.equal(error.code, 'ORDER_FAILED');
        assert.equal(error.order.state, 'Failed');
        assert.equal(error.message, 'Sandbox: delivery failed');
        return true;
      },
    );

    const poor = createPartnerApi({ baseUrl, apiKey: POOR_TEST_KEY });
    await assert.rejects(poor.buyDataSingle({ ...MTN_1GB, beneficiaryMsisdn: '0244123463' }), (error: unknown) => {
      assert.ok(error instanceof PartnerApiError);
      assert.equal(error.status, 402);
      assert.equal(error.code, 'BUY_DATA_FAILED');
      assert.match(error.message, /Insufficient wallet balance/);
      assert.match(error.requestId ?? '', /^[0-9a-f-]{36}$/);
      return true;
    });

    const nobody = createPartnerApi({ baseUrl, apiKey: 'service_test_nobodyHasThisKey0001' });
    await assert.rejects(nobody.getProfile(), { name: 'PartnerApiError', code: 'UNAUTHORIZED', status: 401 });
    await assert.rejects(api.getOrder('ord_nobody'), { name: 'PartnerApiError', code: 'ORDER_NOT_FOUND', status: 404 });
  });

  test('the client: a Mobile Money top-up through the test-mode sandbox, read back by id and in the list', async () => {
    const api = createPartnerApi({ baseUrl, apiKey: DEMO_TEST_KEY });
    const topUp = await api.topUpByMobileMoney({ amount: 15, phone: '0551300001' });
    assert.equal(topUp.method, 'momo');
    assert.equal(topUp.payment?.status, 'pay_offline');
    assert.equal((await api.getTopUp(topUp._id))._id, topUp._id);
    assert.ok((await api.listTopUps({ status: 'pending' })).topUps.some((u) => u._id === topUp._id));
    await assert.rejects(api.submitTopUpOtp(topUp._id, '123456'), { name: 'PartnerApiError', code: 'TOPUP_REQUEST_FAILED', status: 409 });
    await assert.rejects(api.getTopUp('tup_nobody'), { name: 'PartnerApiError', code: 'TOPUP_NOT_FOUND', status: 404 });
  });

  test("the client's dry runs and the number's network: figures without a purchase, a refusal as the purchase's error", async () => {
    const api = createPartnerApi({ baseUrl, apiKey: DEMO_TEST_KEY });
    const operators = await api.listOperators();
    assert.equal(operators.find((o) => o._id === 'op_mtn')?.network, 'MTN');
    const before = await api.getWalletBalance();
    const dry = await api.validateDataSingle({ ...MTN_1GB, beneficiaryMsisdn: '0244123470' });
    assert.deepEqual(dry, {
      validateOnly: true,
      valid: true,
      amountCharged: 5.4,
      walletBalanceBefore: before.availableBalance,
      walletBalanceAfter: Math.round((before.availableBalance - 5.4) * 100) / 100,
    });
    assert.deepEqual(await api.getWalletBalance(), before, 'nothing was bought');
    await assert.rejects(api.validateDataSingle({ ...MTN_1GB, beneficiaryMsisdn: '0201234570' }), (error: unknown) => {
      assert.ok(error instanceof PartnerApiError);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'BUY_DATA_FAILED');
      assert.match(error.message, /0201234570 is a Telecel number by its prefix; this is an MTN bundle\. If the number was ported to MTN, send allowPortedNumber: true/);
      return true;
    });
    assert.equal((await api.validateDataSingle({ ...MTN_1GB, beneficiaryMsisdn: '0201234570', allowPortedNumber: true })).valid, true);
    const bulk = await api.validateDataBulk({
      operatorId: 'op_mtn',
      productId: 'prd_mtn_data',
      items: [
        { packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0244123471' },
        { packageId: 'pkg_mtn_1gb', beneficiaryMsisdn: '0244123472' },
      ],
    });
    assert.equal(bulk.recipientCount, 2);
    // The codes are the documented ones, as a type: a code no document lists does not compile.
    const documented: ErrorCode = 'BUY_DATA_FAILED';
    // @ts-expect-error not a documented code
    const undocumented: ErrorCode = 'NOT_A_CODE';
    assert.notEqual(documented, undocumented);
  });

  test('the client: top-ups, events and webhook endpoints, with numeric limits on every list', async () => {
    const api = createPartnerApi({ baseUrl, apiKey: DEMO_TEST_KEY });
    const topUp = await api.requestTopUp({ amount: 25, method: 'momo', reference: 'CLIENT-TOPUP-1' });
    assert.equal(topUp.amount, 25);
    const topUps = await api.listTopUps({ limit: 1 });
    assert.equal(topUps.topUps.length, 1);
    assert.equal((await api.listOrders({ limit: 1 })).orders.length, 1);
    const lines = await api.listWalletTransactions({ limit: 2, to: Date.now() + 60_000 });
    assert.ok(lines.transactions.length > 0 && lines.transactions.length <= 2, 'the statement lines through the client');
    assert.equal(typeof lines.transactions[0]?.balanceAfter, 'number');
    const events = await api.listEvents({ limit: 1, type: 'topup.approved' });
    assert.equal(events.events.length, 1);
    const event = events.events[0];
    assert.ok(event);
    assert.equal((await api.getEvent(event._id))._id, event._id);

    const endpoint = await api.createWebhookEndpoint({ url: 'http://127.0.0.1:9/hooks', events: ['topup.approved'] });
    assert.match(endpoint.secret ?? '', /^whsec_/);
    assert.ok((await api.listWebhookEndpoints()).endpoints.some((e) => e._id === endpoint._id));
    // openapi-fetch sends Content-Type: application/json without a body: the API takes it.
    await api.redeliverEvent(event._id);
    const rotated = await api.rotateWebhookSecret(endpoint._id);
    assert.notEqual(rotated.secret, endpoint.secret);
    assert.equal((await api.deleteWebhookEndpoint(endpoint._id)).status, 'disabled');
  });

  test('the client, with no API where it points: a NETWORK_ERROR naming the URL it could not reach', async () => {
    // A port that was just free: nothing listens there now.
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const api = createPartnerApi({ baseUrl: `http://127.0.0.1:${port}`, apiKey: DEMO_TEST_KEY });
    await assert.rejects(api.getProfile(), (error: unknown) => {
      assert.ok(error instanceof PartnerApiError);
      assert.equal(error.code, 'NETWORK_ERROR');
      assert.equal(error.status, 0);
      assert.equal(
        error.message,
        `Could not reach http://127.0.0.1:${port}/api/v1/profile (ECONNREFUSED): is the Partner API running there? Check baseUrl`,
      );
      return true;
    });
  });
});
