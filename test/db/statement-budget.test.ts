import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { buySingle, newWorker, orderState } from '../support/orders.js';

/**
 * What a purchase costs the database, counted at the driver: statements on SQLite, round trips
 * on PostgreSQL (each statement, BEGIN and COMMIT is one). Throughput on a shared machine is too
 * noisy to guard in a test; these counts are exact, so a change that adds a query to the hot path
 * (an N+1, a lost batch) fails here. The budgets are today's counts.
 */
const BUDGET = {
  // purchase: one buy-single; delivery: three of them, submitted and settled as one claimed batch.
  // SQLite counts every statement, the group commit's own included (begin, savepoint, release,
  // commit, and the synchronous pragmas around each commit); under load a group shares those.
  // rcPurchase: one result-checker buy-single. At the start of 2026-11-21 the three were: SQLite
  // 12, 94 and 14; PostgreSQL 8, 74 and 10. Since 2026-11-24 each settlement records its event and
  // queues its webhook deliveries: two statements more per delivery on SQLite, no round trip more
  // on PostgreSQL (they go out with the settlement's other writes).
  // Since 2026-11-26 a delivery goes through a provider attempt, recorded before its call
  // (docs/live-delivery.md, "One delivery, many attempts"); counted, the delivery of three went from
  // 85 to 101 on SQLite and from 46 to 58 on PostgreSQL:
  // - the plan reads the batch's attempts at each step and the routes of its packages at the
  //   submission: 3 more on both;
  // - the batch's new attempts are inserted in one unit of their own before the calls: 7 more on
  //   SQLite (one insert, six of the group commit's, shared under load), 3 on PostgreSQL (begin,
  //   insert, commit);
  // - recording the acceptance moves the attempt to accepted: 1 more per delivery on both;
  // - recording the completion moves the attempt to completed: 1 more per delivery on both.
  sqlite: { purchase: 12, delivery: 101, rcPurchase: 14 },
  postgres: { purchase: 5, delivery: 58, rcPurchase: 8 },
};

/** The SQL of every call counted since the last reset (the first 120 characters), and in full. */
let calls: string[] = [];
let statements: string[] = [];
const restore: (() => void)[] = [];

function sqlOf(self: unknown, first: unknown): string {
  const source = (self as { source?: unknown }).source;
  if (typeof source === 'string') return source;
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | undefined)?.text;
  return typeof text === 'string' ? text : '?';
}

function countCalls<T extends object>(target: T, methods: (keyof T & string)[]): void {
  for (const method of methods) {
    const original = target[method] as (...args: unknown[]) => unknown;
    (target as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
      const text = sqlOf(this, args[0]);
      calls.push(text.slice(0, 120));
      statements.push(text);
      return original.apply(this, args);
    };
    restore.push(() => ((target as Record<string, unknown>)[method] = original));
  }
}

let t: TestApp;

before(async () => {
  if (TEST_DIALECT === 'postgres') {
    countCalls(pg.Client.prototype, ['query']);
  } else {
    const probe = new SQLite(':memory:');
    countCalls(Object.getPrototypeOf(probe.prepare('select 1')) as SQLite.Statement, ['run', 'all', 'get', 'iterate']);
    countCalls(SQLite.prototype, ['exec']);
    probe.close();
  }
  t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '20' } });
});

after(async () => {
  for (const undo of restore) undo();
  await t.close();
});

const KEY = 'service_live_superAgentLiveKey001';

/**
 * Buys bundles for `msisdns` one by one, then delivers them as the worker does under load: one
 * claimed batch to submit, one to poll and settle. Returns the calls of the last purchase and of
 * the whole delivery.
 */
async function purchasesAndDelivery(msisdns: string[]): Promise<{ purchase: string[]; delivery: string[] }> {
  const worker = newWorker(t, { pollIntervalMs: 20 });
  const orderIds: string[] = [];
  let purchase: string[] = [];
  for (const msisdn of msisdns) {
    calls = [];
    const res = await buySingle(t, KEY, msisdn);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    orderIds.push(res.body.data.orderId as string);
    purchase = calls;
  }
  calls = [];
  await worker.runOnce(); // submits the batch
  await new Promise((r) => setTimeout(r, 80)); // the sandbox's outcomes are due
  await worker.runOnce(); // polls and settles the batch
  const delivery = calls;
  calls = [];
  for (const orderId of orderIds) assert.equal(await orderState(t, KEY, orderId), 'completed');
  return { purchase, delivery };
}

test('a buy-single and its delivery stay within their statement budget', async () => {
  await purchasesAndDelivery(['0241110051']); // first use: statements get prepared, caches filled
  const counted = await purchasesAndDelivery(['0241110052', '0241110053', '0241110054']);
  withinBudget('purchase', counted.purchase);
  withinBudget('delivery', counted.delivery);
});

test("a delivery's attempt updates build no temporary B-tree for their status guard (SQLite)", { skip: TEST_DIALECT !== 'sqlite' }, async () => {
  statements = [];
  await purchasesAndDelivery(['0241110055', '0241110056']);
  const updates = [...new Set(statements.filter((text) => text.startsWith('update "provider_attempts"')))];
  assert.ok(updates.length >= 2, `the acceptance and the completion each move the attempt:\n${updates.join('\n')}`);
  const raw = new SQLite(t.database.sqlitePath ?? '', { readonly: true });
  try {
    for (const text of updates) {
      const parameters = Array.from({ length: (text.match(/\?/g) ?? []).length }, () => 'x');
      const opcodes = (raw.prepare(`explain ${text}`).all(...parameters) as { opcode: string }[]).map((op) => op.opcode);
      // An `in` list of more than two values is built into a temporary B-tree on every run.
      assert.ok(!opcodes.includes('OpenEphemeral'), `builds a temporary B-tree on every run: ${text}`);
    }
  } finally {
    raw.close();
  }
});

test('a result-checker buy-single stays within its statement budget', async () => {
  const buy = async () => {
    calls = [];
    const res = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEY,
      body: { packageId: 'rcp_wassce', recipientPhone: '0241110009' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return calls;
  };
  await buy(); // first use
  withinBudget('rcPurchase', await buy());
});

function withinBudget(part: keyof (typeof BUDGET)['sqlite'], counted: string[]): void {
  const budget = BUDGET[TEST_DIALECT][part];
  assert.ok(counted.length <= budget, `${part}: ${counted.length} calls, budget ${budget}:\n${counted.join('\n')}`);
}
