import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { cliDatabaseEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, signIn, type StaffClient } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { ledgerProblems } from '../support/ledger.js';
import { buySingle } from '../support/orders.js';
import { FIXTURE_SEED } from '../support/seed.js';
import { csvRecords, parseCsv } from '../support/csv.js';
import { ordersCsv } from '../../src/modules/console/exports.js';

/**
 * Issue 29 item 5, "find anything": the console's lists paged past 100 rows, searched every way,
 * switched between live and test, naming partners; several top-ups approved in one action; and the
 * CLI's side of it. One app for the file; 250 live orders come in through the seed importer (the
 * real booking path, with their ledger entries), the others through the API.
 */

const NOW = Date.now();
const HISTORY = 250;
/** usr_super in the fixture seed. */
const AMA = { id: 'usr_super', name: 'Ama Serwaa Mensah' };
const KWAME = { id: 'usr_agent', name: 'Kwame Boateng' };

function seedWithHistory() {
  const seed = JSON.parse(fs.readFileSync(FIXTURE_SEED, 'utf8')) as Record<string, unknown>;
  seed.orders = Array.from({ length: HISTORY }, (_, i) => ({
    id: `ord_find_${String(i).padStart(3, '0')}`,
    profileId: i % 2 === 0 ? AMA.id : KWAME.id,
    mode: 'live',
    operatorId: 'op_a',
    productId: 'prd_a',
    packageId: 'pkg_a_1gb',
    beneficiaryMsisdn: `0244${String(700_000 + i)}`,
    state: i % 5 === 4 ? 'failed' : 'completed',
    // One a minute: the newest 59 are of the last hour.
    createdAt: NOW - (i + 1) * 60_000,
    amount: 0.15,
  }));
  return seed;
}

/** The ids of the orders a page lists, in order. */
const orderIdsOf = (body: string) => [...body.matchAll(/<tr id="order-([^"]+)">/g)].map((m) => m[1] ?? '');
/** The address of the page's Newer (`prev`) or Older (`next`) link. */
function linkOf(body: string, rel: 'prev' | 'next'): string | undefined {
  const escaped = new RegExp(`<a href="([^"]+)" rel="${rel}">`).exec(body)?.[1];
  return escaped?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}

describe('console: find anything (paging, search, live/test, names, bulk approval)', () => {
  let t: TestApp;
  let admin: StaffClient;
  let operator: StaffClient;
  let viewer: StaffClient;
  let single: { orderId: string; shortReference: string };
  let bulkOrder: string;
  let testOrder: string;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV, seed: seedWithHistory() });
    [admin, operator, viewer] = await Promise.all([signIn(t, 'admin'), signIn(t, 'operator'), signIn(t, 'viewer')]);
    const bought = await buySingle(t, KEYS.superLive, '0244551234', { paymentReference: 'INV-FIND-1' });
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    single = bought.body.data;
    const bulk = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.agentLive,
      body: {
        operatorId: 'op_a',
        productId: 'prd_a',
        items: ['0244661001', '0244661002'].map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })),
      },
    });
    assert.equal(bulk.status, 200, JSON.stringify(bulk.body));
    bulkOrder = bulk.body.data.orderId;
    const inTest = await buySingle(t, KEYS.superTest, '0244551299');
    assert.equal(inTest.status, 200, JSON.stringify(inTest.body));
    testOrder = inTest.body.data.orderId;
  });
  after(() => t.close());

  test('the order list pages past 100 rows, newest first, every live order once; Newer goes back; test orders stay apart', async () => {
    const live = await t.database.db.selectFrom('orders').select(['id']).where('mode', '=', 'live').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    assert.ok(live.length > HISTORY);
    const seen: string[] = [];
    const pages: string[] = [];
    let url: string | undefined = '/console/orders';
    while (url) {
      const page = await viewer.get(url);
      assert.equal(page.status, 200, `${url}: ${/<p class="error"[^>]*>([^<]*)/.exec(page.body)?.[1] ?? page.body.slice(0, 300)}`);
      pages.push(url);
      seen.push(...orderIdsOf(page.body));
      url = linkOf(page.body, 'next');
      assert.ok(pages.length < 20, 'the paging ends');
    }
    assert.deepEqual(seen, live.map((o) => o.id), 'every live order once, newest first, none of test mode');
    assert.ok(!seen.includes(testOrder));

    // A new order meanwhile shifts nothing: the second page is the same, its Newer link leads to the first page's rows.
    const second = pages[1] ?? '';
    const before = orderIdsOf((await viewer.get(second)).body);
    assert.equal((await buySingle(t, KEYS.superLive, '0244551277')).status, 200);
    const again = await viewer.get(second);
    assert.deepEqual(orderIdsOf(again.body), before);
    const newer = linkOf(again.body, 'prev');
    assert.ok(newer, 'a Newer link');
    const back = orderIdsOf((await viewer.get(newer)).body);
    assert.deepEqual(back, seen.slice(0, 50), 'the page before, as it was');
    assert.match(newer, /mode=live/, 'the mode is kept in the links');

    const testPage = await viewer.get('/console/orders?mode=test');
    assert.deepEqual(orderIdsOf(testPage.body), [testOrder]);
    assert.match(testPage.body, /<strong aria-current="true" class="mode-test">test<\/strong>/, 'the mode is shown');
    assert.equal((await viewer.get('/console/orders?older=not-a-cursor')).status, 400);
  });

  test('an order is found by id, short reference, paymentReference, partner name and its number in every form', async () => {
    const finds = async (q: string) => orderIdsOf((await viewer.get(`/console/orders?q=${encodeURIComponent(q)}`)).body);
    for (const q of [single.orderId, single.shortReference, single.shortReference.toLowerCase(), 'INV-FIND-1', '0244551234', '244551234', '+233 24 455 1234', '233244551234']) {
      assert.deepEqual(await finds(q), [single.orderId], q);
    }
    for (const q of ['0244661002', '244661002', '+233 24 466 1002', '233244661002']) {
      assert.deepEqual(await finds(q), [bulkOrder], `a bulk recipient: ${q}`);
    }
    // A partner by part of the name, any case: all of that partner's live orders, past one page.
    const byName = await viewer.get(`/console/orders?q=${encodeURIComponent('kwame boat')}`);
    const ids = orderIdsOf(byName.body);
    assert.equal(ids.length, 50);
    const owners = await t.database.db.selectFrom('orders').select('profile_id').where('id', 'in', ids).execute();
    assert.deepEqual([...new Set(owners.map((o) => o.profile_id))], [KWAME.id]);
    assert.ok(linkOf(byName.body, 'next'), 'more on the next page');
    // The other filters still narrow it.
    assert.deepEqual(await finds(`${single.orderId}&state=failed`), []);
    // Kwame has the odd-numbered of the history; every fifth of it failed.
    assert.equal(orderIdsOf((await viewer.get('/console/orders?q=Boateng&state=failed')).body).length, 25);
    assert.deepEqual(await finds('nobody-like-this'), []);
  });

  test('partners are named, linking to their page, on the order list, an order, top-ups, adjustments and the audit trail', async () => {
    const link = (p: { id: string; name: string }) => new RegExp(`<a href="/console/partners/${p.id}" title="${p.id}">${p.name}</a>`);
    assert.match((await viewer.get('/console/orders')).body, link(AMA));
    assert.match((await viewer.get('/console/orders')).body, link(KWAME));
    assert.match((await viewer.get(`/console/orders/${single.orderId}`)).body, link(AMA));
    const adjusted = await admin.post(`/console/partners/${KWAME.id}/adjustments`, { mode: 'live', direction: 'credit', amount: '1.00', reason: 'goodwill' });
    assert.equal(adjusted.status, 303, adjusted.body.slice(0, 300));
    assert.match((await viewer.get('/console/adjustments')).body, link(KWAME));
    assert.match((await viewer.get('/console/audit')).body, link(KWAME));
    const requested = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.superLive, body: { amount: 5, method: 'bank', reference: 'NAMES-1' } });
    assert.equal(requested.status, 201);
    assert.match((await viewer.get('/console/top-ups?q=NAMES-1')).body, link(AMA));
  });

  test('the dashboard shows one mode at a time; its figures are that mode’s own', async () => {
    for (const mode of ['live', 'test'] as const) {
      const hour = Date.now() - 3_600_000;
      const page = await viewer.get(`/console?mode=${mode}`);
      assert.equal(page.status, 200);
      const orders = await t.database.db.selectFrom('orders').select(['state', 'created_at']).where('mode', '=', mode).execute();
      const lastHour = orders.filter((o) => Number(o.created_at) >= hour);
      const pending = await t.database.db.selectFrom('top_ups').select('id').where('mode', '=', mode).where('status', '=', 'pending').execute();
      const figures = /<section class="cards" id="figures-(\w+)">[\s\S]*?(\d+) orders? in the last hour[\s\S]*?(\d+) failed in the last hour[\s\S]*?Pending top-ups<\/h2><p class="figure">(\d+)</.exec(page.body);
      assert.ok(figures, page.body.slice(0, 500));
      assert.equal(figures[1], mode);
      assert.equal(Number(figures[2]), lastHour.length, `${mode}: orders of the last hour`);
      assert.equal(Number(figures[3]), lastHour.filter((o) => o.state === 'failed').length, `${mode}: failed`);
      assert.equal(Number(figures[4]), pending.length, `${mode}: pending top-ups`);
    }
    assert.match((await viewer.get('/console')).body, /id="figures-live"/, 'live by default');
  });

  test('partners and top-ups are searched and filtered; the partner list shows the chosen mode’s wallet', async () => {
    const partners = async (query: string) =>
      [...(await viewer.get(`/console/partners?${query}`)).body.matchAll(/<tr id="partner-([^"]+)">/g)].map((m) => m[1]);
    for (const q of ['serwaa', 'AMA@EXAMPLE', '0244000001', '+233 24 400 0001', '233244000001', 'usr_super']) {
      assert.deepEqual(await partners(`q=${encodeURIComponent(q)}`), [AMA.id], q);
    }
    assert.deepEqual(await partners('status=Suspended'), ['usr_suspended']);
    const testWallets = await viewer.get('/console/partners?mode=test&q=usr_super');
    const wallet = await t.wallet(AMA.id, 'test');
    assert.match(testWallets.body, new RegExp(`<td>GHS ${(wallet.available / 100).toFixed(2)}</td>`));

    const request = (key: string, reference: string, amount: number, method = 'bank') =>
      t.call('POST', '/api/v1/top-ups/request', { key, body: { amount, method, reference } });
    assert.equal((await request(KEYS.agentLive, 'FIND-TU-1', 3)).status, 201);
    assert.equal((await request(KEYS.agentLive, 'FIND-TU-2', 4, 'momo')).status, 201);
    /** The references among FIND-TU-1 and -2 that the list shows, and how many rows it has. */
    const topUps = async (query: string) => {
      const body = (await viewer.get(`/console/top-ups?${query}`)).body;
      const rows = [...body.matchAll(/<tr id="(?:topup|decided)-/g)].length;
      const shown = ['FIND-TU-1', 'FIND-TU-2'].filter((r) => body.includes(`<td>${r}</td>`));
      assert.equal(rows, shown.length, `${query}: only the matching rows`);
      return shown;
    };
    assert.deepEqual(await topUps('q=FIND-TU-1'), ['FIND-TU-1']);
    assert.deepEqual(await topUps('q=boateng'), ['FIND-TU-1', 'FIND-TU-2']);
    assert.deepEqual(await topUps('q=boateng&method=momo'), ['FIND-TU-2']);
    assert.deepEqual(await topUps('q=boateng&mode=test'), []);
  });

  test('bulk approval: each top-up credited once in its own unit with its event and audit row; one rejected meanwhile is reported, not credited', async () => {
    const ids: string[] = [];
    for (const [reference, amount] of [['BULK-1', 10], ['BULK-2', 20], ['BULK-3', 30]] as const) {
      const res = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.superLive, body: { amount, method: 'bank', reference } });
      assert.equal(res.status, 201);
      ids.push(res.body.data._id as string);
    }
    const [first, second, third] = ids as [string, string, string];
    const before = await t.wallet(AMA.id, 'live');
    const form = new URLSearchParams([['_csrf', operator.csrf], ...ids.map((id): [string, string] => ['ids', id])]).toString();
    const post = (who: StaffClient, body = form.replace(operator.csrf, who.csrf)) =>
      t.app.inject({ method: 'POST', url: '/console/top-ups/approve', headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: body });

    // A viewer may not: refused, nothing moves.
    const refused = await post(viewer);
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(await t.wallet(AMA.id, 'live'), before);

    // Another operator rejects the third meanwhile.
    await t.ctx.console.rejectTopUp({ staffId: null, name: 'someone-else', address: null }, third, 'no such transfer');
    const done = await post(operator);
    assert.equal(done.statusCode, 200, done.body.slice(0, 300));
    assert.match(done.body, new RegExp(`<li id="bulk-${first}" class="ok">${first}: approved: GHS 10.00 credited to ${AMA.name} \\(live\\)</li>`));
    assert.match(done.body, new RegExp(`<li id="bulk-${second}" class="ok">${second}: approved: GHS 20.00 credited to ${AMA.name} \\(live\\)</li>`));
    assert.match(done.body, new RegExp(`<li id="bulk-${third}" class="bad">${third}: not approved: top-up ${third} was already rejected`));
    assert.deepEqual(await t.wallet(AMA.id, 'live'), { available: before.available + 3000, held: before.held });

    // Sent again (a reload): nothing more is credited; each is reported.
    const twice = await post(operator);
    assert.equal(twice.statusCode, 200);
    assert.equal([...twice.body.matchAll(/class="bad">/g)].length, 3);
    assert.deepEqual(await t.wallet(AMA.id, 'live'), { available: before.available + 3000, held: before.held });

    const audit = await t.database.db.selectFrom('audit_log').select(['record_id', 'outcome', 'actor']).where('action', '=', 'topup.approve').where('record_id', 'in', ids).execute();
    const ok = audit.filter((a) => a.outcome === 'ok');
    assert.deepEqual(ok.map((a) => a.record_id).sort(), [first, second].sort(), 'one audit row per approved top-up');
    assert.ok(ok.every((a) => a.actor === operator.email));
    const events = await t.database.db.selectFrom('events').select(['type', 'payload']).where('type', '=', 'topup.approved').execute();
    const approvedEvents = events.filter((e) => ids.some((id) => e.payload.includes(id)));
    assert.equal(approvedEvents.length, 2, 'one event per approved top-up');
    const entries = await t.database.db.selectFrom('ledger_entries').select('top_up_id').where('top_up_id', 'in', ids).execute();
    assert.deepEqual(entries.map((e) => e.top_up_id).sort(), [first, second].sort(), 'one ledger entry per approved top-up');
    assert.deepEqual(await ledgerProblems(t), []);
    // Nothing selected: a clear 400.
    assert.equal((await operator.post('/console/top-ups/approve', {})).status, 400);
  });

  test('cli: topups approve takes several ids; orders search pages with --json in the API shape', { timeout: 60_000 }, async () => {
    const env = cliDatabaseEnv(t.testDb);
    const ids: string[] = [];
    for (const reference of ['CLI-BULK-1', 'CLI-BULK-2']) {
      const res = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.agentLive, body: { amount: 2.5, method: 'bank', reference } });
      ids.push(res.body.data._id as string);
    }
    await t.ctx.console.rejectTopUp({ staffId: null, name: 'someone-else', address: null }, ids[1] ?? '', 'duplicate');
    const before = await t.wallet(KWAME.id, 'live');
    const approve = await runCli(['topups', 'approve', ...ids], env);
    assert.equal(approve.code, 1, approve.stderr);
    assert.match(approve.stdout, new RegExp(`approved ${ids[0]}: credited GHS 2.50 to usr_agent \\(live\\)`));
    assert.match(approve.stdout, new RegExp(`NOT approved ${ids[1]}: top-up ${ids[1]} was already rejected`));
    assert.match(approve.stdout, /1 approved, 1 not approved/);
    assert.equal((await t.wallet(KWAME.id, 'live')).available, before.available + 250);

    const first = await runCli(['orders', 'search', '--q', 'kwame', '--limit', '100', '--json'], env);
    assert.equal(first.code, 0, first.stderr);
    const page = JSON.parse(first.stdout) as { orders: { _id: string; amount: number; profileId: string; partnerName: string; mode: string }[]; isDone: boolean; continueCursor: string };
    assert.equal(page.orders.length, 100);
    assert.equal(page.isDone, false);
    assert.ok(page.orders.every((o) => o.profileId === KWAME.id && o.partnerName === KWAME.name && o.mode === 'live'));
    assert.equal(typeof page.orders[0]?.amount, 'number');
    const next = await runCli(['orders', 'search', '--q', 'kwame', '--limit', '100', '--cursor', page.continueCursor, '--json'], env);
    const rest = JSON.parse(next.stdout) as typeof page;
    const all = [...page.orders, ...rest.orders].map((o) => o._id);
    assert.equal(new Set(all).size, all.length, 'no order twice');
    const kwame = await t.database.db.selectFrom('orders').select('id').where('profile_id', '=', KWAME.id).where('mode', '=', 'live').execute();
    assert.equal(rest.isDone, true);
    assert.equal(all.length, kwame.length, 'the two pages hold every live order of the partner');
    const byNumber = await runCli(['orders', 'search', '--q', '+233 24 455 1234'], env);
    assert.match(byNumber.stdout, new RegExp(`${single.orderId} ${single.shortReference} .* live .*${AMA.name} \\(usr_super\\)  ref INV-FIND-1`));
  });

  test('orders and top-ups export as CSV: every row the list shows for the same filters, escaped; the CLI prints the same', { timeout: 60_000 }, async () => {
    /** Every id a console list shows for `query`, following its Older links. */
    const listed = async (path: string, query: string, rowId: RegExp) => {
      const ids: string[] = [];
      let url: string | undefined = `${path}?${query}`;
      while (url) {
        const page = await viewer.get(url);
        assert.equal(page.status, 200, url);
        ids.push(...[...page.body.matchAll(rowId)].map((m) => m[1] ?? ''));
        url = linkOf(page.body, 'next');
      }
      return ids;
    };
    const today = new Date().toISOString().slice(0, 10);
    const exported = async (path: string, query: string) => {
      const res = await viewer.get(`${path}?${query}`);
      assert.equal(res.status, 200, res.body.slice(0, 300));
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      return res;
    };

    // Orders: the list's filters, all its pages (more than 100 rows), newest first.
    const orderRow = /<tr id="order-([^"]+)">/g;
    for (const query of ['', 'q=kwame', `q=Boateng&state=failed&from=${today}&to=${today}`, 'mode=test', 'type=result_checker']) {
      const csv = await exported('/console/orders.csv', query);
      assert.deepEqual(csvRecords(csv.body).map((r) => r.id), await listed('/console/orders', query, orderRow), `orders ${query}`);
    }
    // The list's "Export CSV" link carries the filters shown.
    const exportLink = async (url: string) => {
      const href = /<a href="([^"]+)" hx-boost="false" download>Export CSV<\/a>/.exec((await viewer.get(url)).body)?.[1];
      assert.ok(href, `${url}: an Export CSV link`);
      return href.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
    };
    assert.equal(await exportLink('/console/orders?q=kwame&state=failed&type=data'), '/console/orders.csv?q=kwame&state=failed&type=data&mode=live');
    assert.equal(await exportLink('/console/top-ups?status=rejected&mode=test'), '/console/top-ups.csv?status=rejected&mode=test');
    const all = await exported('/console/orders.csv', 'mode=live');
    assert.equal(all.headers['content-disposition'], `attachment; filename="orders-live-${today}.csv"`);
    const [header] = parseCsv(all.body);
    assert.deepEqual(header, ['id', 'short_reference', 'created_at', 'partner_id', 'partner_name', 'mode', 'type', 'bulk', 'operator', 'package', 'number', 'recipients', 'amount_ghs', 'state', 'completed_at', 'refunded_ghs']);
    const records = new Map(csvRecords(all.body).map((r) => [r.id, r]));
    assert.ok(records.size > HISTORY);
    const row = async (id: string) => {
      const o = await t.database.db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { o, r: records.get(id) };
    };
    const one = await row(single.orderId);
    assert.deepEqual(one.r, {
      id: single.orderId,
      short_reference: single.shortReference,
      created_at: new Date(Number(one.o.created_at)).toISOString(),
      partner_id: AMA.id,
      partner_name: AMA.name,
      mode: 'live',
      type: 'data',
      bulk: 'no',
      operator: one.o.operator_name,
      package: one.o.package_label,
      number: '233244551234',
      recipients: '1',
      amount_ghs: (Number(one.o.amount) / 100).toFixed(2),
      state: one.o.state,
      completed_at: one.o.completed_at === null ? '' : new Date(Number(one.o.completed_at)).toISOString(),
      refunded_ghs: '',
    });
    const bulk = await row(bulkOrder);
    assert.deepEqual([bulk.r?.partner_name, bulk.r?.bulk, bulk.r?.number, bulk.r?.recipients], [KWAME.name, 'yes', '', '2']);
    // A failed order of the history (GHS 0.15): its hold came back, and the export says so.
    assert.deepEqual([records.get('ord_find_004')?.state, records.get('ord_find_004')?.amount_ghs, records.get('ord_find_004')?.refunded_ghs], ['failed', '0.15', '0.15']);
    assert.equal(records.get('ord_find_003')?.refunded_ghs, '', 'a completed order: nothing refunded');

    // Read a few rows a query, the export is the same; one row more than its maximum is refused, not cut short.
    assert.equal(await ordersCsv(t.ctx.console, { mode: 'live', text: 'kwame' }, { readRows: 7 }), (await exported('/console/orders.csv', 'q=kwame')).body);
    const kwameCount = csvRecords((await exported('/console/orders.csv', 'q=kwame')).body).length;
    assert.equal(csvRecords(await ordersCsv(t.ctx.console, { mode: 'live', text: 'kwame' }, { max: kwameCount, readRows: 50 })).length, kwameCount);
    await assert.rejects(ordersCsv(t.ctx.console, { mode: 'live', text: 'kwame' }, { max: kwameCount - 1, readRows: 50 }), /more than \d+ orders match: export a shorter period or narrow the filters/);

    // Top-ups: a partner's reference and a staff reason a spreadsheet would run are written as text, quotes and commas kept.
    const reference = '=HYPERLINK("http://evil.example","pay, now")';
    const asked = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.agentLive, body: { amount: 7.25, method: 'bank', reference } });
    assert.equal(asked.status, 201, JSON.stringify(asked.body));
    const topUpId = asked.body.data._id as string;
    const reason = '-1+1 "no transfer", checked twice';
    assert.equal((await operator.post(`/console/top-ups/${topUpId}/reject`, { reason })).status, 303);
    const topUpRow = /<tr id="(?:topup|decided)-([^"]+)">/g;
    for (const query of ['', 'status=rejected', 'q=boateng&method=bank', 'status=pending&method=momo', 'mode=test']) {
      const csv = await exported('/console/top-ups.csv', query);
      assert.deepEqual(csvRecords(csv.body).map((r) => r.id), await listed('/console/top-ups', query, topUpRow), `top-ups ${query}`);
    }
    const rejected = await exported('/console/top-ups.csv', 'status=rejected');
    assert.equal(rejected.headers['content-disposition'], `attachment; filename="top-ups-live-${today}.csv"`);
    assert.ok(rejected.body.includes(`,"'=HYPERLINK(""http://evil.example"",""pay, now"")",`), rejected.body);
    const topUp = await t.database.db.selectFrom('top_ups').selectAll().where('id', '=', topUpId).executeTakeFirstOrThrow();
    assert.deepEqual(
      csvRecords(rejected.body).find((r) => r.id === topUpId),
      {
        id: topUpId,
        created_at: new Date(Number(topUp.created_at)).toISOString(),
        partner_id: KWAME.id,
        partner_name: KWAME.name,
        mode: 'live',
        method: 'bank',
        amount_ghs: '7.25',
        reference: `'${reference}`,
        status: 'rejected',
        decided_at: new Date(Number(topUp.decided_at)).toISOString(),
        decided_by: operator.email,
        first_approved_by: '',
        rejection_reason: `'${reason}`,
      },
    );

    // The CLI: the same documents.
    const env = cliDatabaseEnv(t.testDb);
    const cliOrders = await runCli(['orders', 'search', '--q', 'Boateng', '--state', 'failed', '--from', today, '--to', today, '--csv'], env);
    assert.equal(cliOrders.code, 0, cliOrders.stderr);
    assert.equal(cliOrders.stdout, (await exported('/console/orders.csv', `q=Boateng&state=failed&from=${today}&to=${today}`)).body);
    const cliTopUps = await runCli(['topups', 'list', '--status', 'rejected', '--csv'], env);
    assert.equal(cliTopUps.code, 0, cliTopUps.stderr);
    assert.equal(cliTopUps.stdout, rejected.body);
    const both = await runCli(['topups', 'list', '--json', '--csv'], env);
    assert.notEqual(both.code, 0);
    assert.match(both.stderr, /--json and --csv: choose one/);
  });
});
