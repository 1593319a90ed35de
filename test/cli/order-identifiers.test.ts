import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cliActor } from '../../src/cli/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli, type CliResult } from '../support/cli.js';
import { KEYS } from '../support/keys.js';
import { buySingle } from '../support/orders.js';

/**
 * Issue 29, "The CLI at parity" (docs/cli.md, "Naming an order" and "JSON output"): `orders
 * show|reverse|retry|resolve` take an order id, a short reference, a paymentReference or a number in
 * any written form; a name of several orders lists them and exits 3 (retry and resolve take the one
 * still open); `orders retry` alone retries what `orders stuck` lists; `--json` prints the API's order.
 * No worker runs: the orders stay as bought, some an hour old (the services' clock is moved back).
 */
describe(`cli: naming an order, retrying what is stuck, JSON as the API's (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let env: Record<string, string>;
  let offsetMs = 0;
  const orders: Record<'A' | 'B' | 'C' | 'D1' | 'D2' | 'E', { id: string; shortReference: string }> = {} as never;
  const cli = (...args: string[]): Promise<CliResult> => runCli(args, env);
  const shownId = (r: CliResult) => {
    assert.equal(r.code, 0, r.stderr);
    return (JSON.parse(r.stdout) as { order: { _id: string } }).order._id;
  };

  /** A purchase an hour ago (stuck for any --older-than under that) or now. */
  async function buy(key: string, msisdn: string, extra: Record<string, unknown>, hourAgo: boolean) {
    offsetMs = hourAgo ? -3_600_000 : 0;
    try {
      const res = await buySingle(t, key, msisdn, extra);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return { id: res.body.data.orderId as string, shortReference: res.body.data.shortReference as string };
    } finally {
      offsetMs = 0;
    }
  }

  before(async () => {
    t = await createTestApp({ clock: () => Date.now() + offsetMs });
    env = cliEnv(t, { LOG_LEVEL: 'warn' });
    // One number in both modes (two open orders), one paymentReference at two partners.
    orders.A = await buy(KEYS.superLive, '0244810101', { paymentReference: 'INV-CLI-SAME' }, true);
    orders.B = await buy(KEYS.superTest, '0244810101', { paymentReference: 'INV-CLI-B' }, true);
    orders.E = await buy(KEYS.agentLive, '0244810105', { paymentReference: 'INV-CLI-SAME' }, false);
    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: [
          { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244810102' },
          { packageId: 'pkg_a_2gb', beneficiaryMsisdn: '0244810103' },
        ],
      },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    orders.C = { id: bulk.body.data.orderId as string, shortReference: bulk.body.data.shortReference as string };
    // One number bought twice: the first delivered (settled by hand), the second still open.
    orders.D1 = await buy(KEYS.superLive, '0244810104', {}, false);
    await t.ctx.deliveries.resolveByStaff(cliActor(), { order: orders.D1.id, outcome: 'completed', note: 'delivered (test)' });
    orders.D2 = await buy(KEYS.superLive, '0244810104', {}, true);
  });
  after(() => t.close());

  test('an id, a short reference, a paymentReference and a number in every written form each name their order', async () => {
    const [byId, byReference, byPaymentReference, local, spaced, international, nineDigits] = await Promise.all([
      cli('orders', 'show', orders.A.id, '--json'),
      cli('orders', 'show', orders.B.shortReference.toLowerCase(), '--json'),
      cli('orders', 'show', 'INV-CLI-B', '--json'),
      cli('orders', 'show', '0244810102', '--json'),
      cli('orders', 'show', '+233 24 481 0103', '--json'),
      cli('orders', 'show', '233244810103', '--json'),
      cli('orders', 'show', '244810102', '--json'),
    ]);
    assert.equal(shownId(byId), orders.A.id);
    assert.equal(shownId(byReference), orders.B.id);
    assert.equal(shownId(byPaymentReference), orders.B.id);
    for (const bulkRecipient of [local, spaced, international, nineDigits]) assert.equal(shownId(bulkRecipient), orders.C.id, 'a bulk order by a recipient');
  });

  test('a name of several orders lists them and exits 3; nothing: exit 1; reverse never chooses, retry takes the one open', async () => {
    const [number, reference, unknown, reverse, retryBoth] = await Promise.all([
      cli('orders', 'show', '0244810101'),
      cli('orders', 'show', 'INV-CLI-SAME'),
      cli('orders', 'show', 'NO-SUCH-ORDER-1'),
      cli('orders', 'reverse', '0244810104', '--reason', 'never arrived'),
      cli('orders', 'retry', '024 481 0101', '--older-than', '10m'),
    ]);
    assert.equal(number.code, 3, number.stderr);
    assert.match(number.stderr, /^"0244810101" names 2 orders; name one by its id or short reference:$/m);
    assert.match(number.stderr, new RegExp(`^ {2}${orders.A.id} {2}${orders.A.shortReference} {2}usr_super \\(Ama [^)]+\\) {2}live {2}data {2}(pending|processing) {2}created \\S+Z {2}paymentReference INV-CLI-SAME$`, 'm'));
    assert.match(number.stderr, new RegExp(`^ {2}${orders.B.id} {2}${orders.B.shortReference} {2}usr_super .* {2}test {2}data `, 'm'));
    assert.equal(reference.code, 3);
    assert.match(reference.stderr, new RegExp(`^ {2}${orders.E.id} .* usr_agent .*\\n {2}${orders.A.id} .* usr_super `, 'm'), 'newest first');
    assert.equal(unknown.code, 1);
    assert.equal(unknown.stderr.trim(), "no order NO-SUCH-ORDER-1: give an order id, a short reference, a paymentReference or a recipient's number");
    assert.equal(reverse.code, 3, 'a refund is named exactly, never chosen');
    assert.match(reverse.stderr, new RegExp(orders.D1.id));
    assert.equal(retryBoth.code, 3, 'two open orders: which one to retry is asked');
    assert.match(retryBoth.stderr, /names 2 orders \(2 of them open\)/);

    const [retry, reversed] = await Promise.all([
      cli('orders', 'retry', '+233244810104', '--older-than', '10m'),
      cli('orders', 'reverse', orders.D1.shortReference.toLowerCase(), '--reason', 'never arrived'),
    ]);
    assert.equal(retry.code, 0, retry.stderr);
    assert.match(retry.stdout, new RegExp(`^retried ${orders.D2.id} \\(${orders.D2.shortReference}\\): 1 stuck deliveries`, 'm'));
    assert.equal(reversed.code, 0, reversed.stderr);
    assert.match(reversed.stdout, new RegExp(`^reversed ${orders.D1.id} `));
    assert.equal((await t.database.db.selectFrom('orders').select('state').where('id', '=', orders.D1.id).executeTakeFirstOrThrow()).state, 'reversed');
  });

  test("resolve by a bulk recipient's number settles that recipient", async () => {
    const resolved = await cli('orders', 'resolve', '024-481-0103', '--delivered', '--reason', 'MTN confirmed');
    assert.equal(resolved.code, 0, resolved.stderr);
    assert.equal(resolved.stdout.trim(), `order ${orders.C.id} ${orders.C.shortReference}: delivery to 233244810103 delivered (resolved by hand)`);
    const items = await t.database.db.selectFrom('order_items').select(['beneficiary_msisdn', 'status']).where('order_id', '=', orders.C.id).orderBy('idx').execute();
    assert.deepEqual(items, [
      { beneficiary_msisdn: '233244810102', status: 'pending' },
      { beneficiary_msisdn: '233244810103', status: 'completed' },
    ]);
  });

  test("--json: orders show prints the API's order; profiles list the API's balances", async () => {
    const [single, bulk, profiles] = await Promise.all([
      cli('orders', 'show', orders.A.shortReference, '--json'),
      cli('orders', 'show', orders.C.id, '--json'),
      cli('profiles', 'list', '--json'),
    ]);
    const apiOrder = async (key: string, id: string) => {
      const res = await t.call('GET', `/api/v1/orders/${id}`, { key });
      assert.equal(res.status, 200);
      return res.body.data as unknown;
    };
    const shown = JSON.parse(single.stdout) as { order: unknown; profileId: string; mode: string; paymentReference: string; ledger: { kind: string; availableChange: number }[] };
    assert.deepEqual(shown.order, await apiOrder(KEYS.superLive, orders.A.id));
    assert.deepEqual([shown.profileId, shown.mode, shown.paymentReference], ['usr_super', 'live', 'INV-CLI-SAME']);
    const hold = shown.ledger.find((e) => e.kind === 'data_hold');
    assert.equal(hold?.availableChange, -(shown.order as { amount: number }).amount, 'ledger amounts in GHS');
    assert.deepEqual((JSON.parse(bulk.stdout) as { order: unknown }).order, await apiOrder(KEYS.agentLive, orders.C.id));

    const wallet = await t.call('GET', '/api/v1/wallet-balance', { key: KEYS.superLive });
    const listed = JSON.parse(profiles.stdout) as { id: string; wallets: { mode: string; availableBalance: number; heldBalance: number }[] }[];
    const live = listed.find((p) => p.id === 'usr_super')?.wallets.find((w) => w.mode === 'live');
    assert.deepEqual([live?.availableBalance, live?.heldBalance], [wallet.body.data.availableBalance, wallet.body.data.heldBalance]);
  });

  test('orders retry without an order retries exactly the orders orders stuck lists, one line each', async () => {
    const stuck = await cli('orders', 'stuck', '--older-than', '10m', '--json');
    assert.equal(stuck.code, 2, stuck.stderr);
    const listed = [...new Set((JSON.parse(stuck.stdout) as { stuck: { orderId: string }[] }).stuck.map((s) => s.orderId))].sort();
    assert.deepEqual(listed, [orders.A.id, orders.B.id, orders.D2.id].sort());
    const retriesBefore = await t.ctx.audit.list({ action: 'order.retry', limit: 100 });

    const retry = await cli('orders', 'retry', '--older-than', '10m');
    assert.equal(retry.code, 0, retry.stderr);
    const retried = [...retry.stdout.matchAll(/^(\S+) \S+ retried: 1 stuck deliveries/gm)].map((m) => m[1]).sort();
    assert.deepEqual(retried, listed);
    assert.match(retry.stdout, /^orders retry: 3 of 3 orders retried$/m);
    const retriesAfter = await t.ctx.audit.list({ action: 'order.retry', limit: 100 });
    assert.equal(retriesAfter.length - retriesBefore.length, 3);

    const nothing = await cli('orders', 'retry', '--older-than', '2h');
    assert.equal(nothing.code, 0, nothing.stderr);
    assert.equal(nothing.stdout.trim(), 'orders retry: nothing stuck (no delivery open longer than 2h0m)');
  });
});
