import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { staffActor } from '../support/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { CONSOLE_ENV, signIn } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { buySingle, deliverOrder, newWorker, waitForState } from '../support/orders.js';

interface Line {
  id: string;
  type: string;
  createdAt: number;
  description: string;
  direction: 'debit' | 'credit';
  amount: number;
  balanceAfter: number;
  orderId: string | null;
  shortReference: string | null;
  beneficiaryMsisdn: string | null;
  packageName: string | null;
  topUpId: string | null;
}

const pesewas = (ghs: number) => Math.round(ghs * 100);

/**
 * Issue 41 item 7: GET /api/v1/wallet/transactions gives a partner its statement in lines (one per
 * order, refund, top-up or adjustment) whose amounts sum to the wallet, page by page, own wallet only.
 */
describe(`GET /api/v1/wallet/transactions (${TEST_DIALECT})`, () => {
  let t: TestApp;
  const orders: Record<string, string> = {};

  async function all(key: string, query = '', limit = 2): Promise<Line[]> {
    const lines: Line[] = [];
    let cursor = '';
    for (let page = 0; page < 100; page++) {
      const res = await t.call('GET', `/api/v1/wallet/transactions?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`, { key });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.data.transactions.length <= limit);
      lines.push(...(res.body.data.transactions as Line[]));
      if (res.body.data.isDone) return lines;
      cursor = res.body.data.continueCursor as string;
    }
    throw new Error('more than 100 pages');
  }

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    const delivered = await buySingle(t, KEYS.superLive, '0244600101');
    const failed = await buySingle(t, KEYS.superLive, '0244600000');
    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244600102', '0244600103', '0244600104'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    const rc = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_wassce', recipientPhone: '0244600105' },
    });
    const agent = await buySingle(t, KEYS.agentLive, '0244600106');
    const testMode = await buySingle(t, KEYS.superTest, '0244600107');
    for (const res of [delivered, failed, bulk, rc, agent, testMode]) assert.equal(res.status, 200, JSON.stringify(res.body));
    Object.assign(orders, {
      delivered: delivered.body.data.orderId,
      failed: failed.body.data.orderId,
      bulk: bulk.body.data.orderId,
      rc: rc.body.data.transactionId,
      agent: agent.body.data.orderId,
      testMode: testMode.body.data.orderId,
    });
    await deliverOrder(t, KEYS.superLive, orders.delivered as string);
    const worker = newWorker(t);
    worker.start();
    try {
      await waitForState(t, KEYS.superLive, orders.failed as string, ['failed']);
      await waitForState(t, KEYS.superLive, orders.bulk as string, ['completed']);
    } finally {
      await worker.stop();
    }
    // A staff reversal whose internal reason names an upstream: the partner's line never shows it.
    await t.ctx.console.reverseOrder(staffActor(), orders.delivered as string, 'Hubtel support ticket HT-2291');
  });
  after(() => t.close());

  test('the lines sum to the wallet, page by page each line once, with running balances and order fields', async () => {
    const lines = await all(KEYS.superLive);
    assert.equal(new Set(lines.map((l) => l.id)).size, lines.length, 'each line once over the pages');
    const wallet = await t.wallet('usr_super', 'live');
    const sum = lines.reduce((s, l) => s + pesewas(l.amount), 0);
    assert.equal(sum, wallet.available, 'the seed opening is a line: opening 0 + the lines = the available balance');
    assert.equal(pesewas(lines[0]?.balanceAfter ?? -1), wallet.available, 'the newest line ends at the balance');
    // Newest first: each balanceAfter is the one before it plus its amount.
    const oldestFirst = [...lines].reverse();
    let running = 0;
    for (const l of oldestFirst) {
      running += pesewas(l.amount);
      assert.equal(pesewas(l.balanceAfter), running, `running balance at ${l.id}`);
      assert.equal(l.direction, l.amount < 0 ? 'debit' : 'credit');
    }
    const of = (orderId: string | undefined) => lines.filter((l) => l.orderId === orderId);
    // One charge for the bulk order's three recipients, not three ledger rows; none for a settle.
    const bulk = of(orders.bulk);
    assert.deepEqual(bulk.map((l) => l.type), ['order']);
    assert.equal(bulk[0]?.beneficiaryMsisdn, null);
    assert.match(bulk[0]?.description ?? '', /3 recipients/);
    const delivered = of(orders.delivered);
    assert.deepEqual(delivered.map((l) => l.type), ['refund', 'order'], 'the charge, then the staff reversal');
    assert.equal(delivered[1]?.beneficiaryMsisdn, '233244600101');
    assert.ok(delivered[1]?.shortReference);
    assert.ok(delivered[1]?.packageName);
    assert.equal(delivered[0]?.amount, -(delivered[1]?.amount ?? 0));
    const failed = of(orders.failed);
    assert.deepEqual(failed.map((l) => l.type), ['refund', 'order']);
    assert.match(failed[0]?.description ?? '', /not delivered/);
    assert.deepEqual(of(orders.rc).map((l) => l.type), ['order']);
    assert.equal(lines[lines.length - 1]?.type, 'opening');
    const text = JSON.stringify(lines);
    assert.doesNotMatch(text, /hubtel|HT-2291|sandbox/i, 'no upstream name nor staff note');
    // Another partner's and the other mode's lines never appear.
    assert.equal(of(orders.agent).length, 0);
    assert.equal(of(orders.testMode).length, 0);
    const testLines = await all(KEYS.superTest, '', 100);
    assert.deepEqual(testLines.filter((l) => l.orderId !== null).map((l) => l.orderId), [orders.testMode]);
    assert.equal(testLines.reduce((s, l) => s + pesewas(l.amount), 0), (await t.wallet('usr_super', 'test')).available);
  });

  test('from (inclusive) and to (exclusive) in unix ms; limit capped at 100', async () => {
    const lines = await all(KEYS.superLive, '', 100);
    const times = [...new Set(lines.map((l) => l.createdAt))].sort((a, b) => a - b);
    assert.ok(times.length >= 3, 'lines at several times');
    const [first, second] = [times[1] as number, times[2] as number];
    const window = await all(KEYS.superLive, `&from=${first}&to=${second}`);
    assert.ok(window.length > 0);
    assert.ok(window.every((l) => l.createdAt >= first && l.createdAt < second));
    assert.deepEqual(
      window.map((l) => l.id),
      lines.filter((l) => l.createdAt >= first && l.createdAt < second).map((l) => l.id),
    );
    assert.equal((await all(KEYS.superLive, `&from=${(times[times.length - 1] as number) + 1}`)).length, 0);
    const capped = await t.call('GET', '/api/v1/wallet/transactions?limit=500', { key: KEYS.superLive });
    assert.equal(capped.status, 200);
    assert.equal(capped.body.data.transactions.length, lines.length);
  });

  test('bad query values are 400 INVALID_REQUEST', async () => {
    for (const query of ['limit=abc', 'limit=0', 'limit=-1', 'from=yesterday', 'to=1.5', 'from=20&to=10', 'cursor=nope!', 'cursor=WzE3MDAwMDAwMDAwMDAsImV2dF94Il0']) {
      const res = await t.call('GET', `/api/v1/wallet/transactions?${query}`, { key: KEYS.superLive });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.code, 'INVALID_REQUEST', query);
    }
  });

  test('the console statement: one line per purchase with reference and number; a type filter still reconciles on screen; CSV', async () => {
    const viewer = await signIn(t, 'viewer');
    const api = await all(KEYS.superLive, '', 100);
    const decode = (html: string) => html.replaceAll('&#61;', '=').replaceAll('&#43;', '+');
    const amountOf = (text: string | undefined) => {
      const m = /([+−-]?)GHS ([\d.]+)/.exec(text ?? '');
      if (!m) throw new Error(`no amount in ${text}`);
      return (m[1] === '−' || m[1] === '-' ? -1 : 1) * Math.round(Number(m[2]) * 100);
    };
    const fact = (body: string, id: string) => amountOf(new RegExp(`id="${id}">([^<]*)<`).exec(body)?.[1]);
    const whole = await viewer.get('/console/partners/usr_super/statement?mode=live');
    assert.equal(whole.status, 200);
    assert.equal([...whole.body.matchAll(/<tr><td>\d{4}-/g)].length, api.length, 'the same lines as the API');
    const delivered = api.find((l) => l.orderId === orders.delivered && l.type === 'order');
    assert.ok(whole.body.includes(`>${delivered?.shortReference}</a></td><td>233244600101</td>`), 'reference and number on the line');
    for (const type of ['refund', 'order', 'topup']) {
      const page = await viewer.get(`/console/partners/usr_super/statement?mode=live&kind=${type}`);
      assert.equal(page.status, 200);
      const shown = api.filter((l) => l.type === type);
      const credits = shown.filter((l) => l.amount > 0).reduce((s, l) => s + pesewas(l.amount), 0);
      const debits = shown.filter((l) => l.amount < 0).reduce((s, l) => s - pesewas(l.amount), 0);
      assert.equal(fact(page.body, 'credits'), credits, type);
      assert.equal(fact(page.body, 'debits'), debits, type);
      const [opening, closing, others] = [fact(page.body, 'opening'), fact(page.body, 'closing'), fact(page.body, 'others')];
      assert.equal(opening + credits - debits + others, closing, `${type}: opening + credits − debits + the lines not shown = closing`);
      assert.equal(closing, (await t.wallet('usr_super', 'live')).available);
      assert.match(decode(page.body), /id="reconcile">[^<]*\(not shown\) = GHS/);
    }
    const csv = await viewer.get('/console/partners/usr_super/statement.csv?mode=live&kind=refund');
    assert.equal(csv.status, 200);
    const rows = csv.body.trim().split('\r\n');
    assert.equal(rows.length - 1, api.filter((l) => l.type === 'refund').length);
    assert.doesNotMatch(csv.body, /hubtel|HT-2291/i);
  });
});
