import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { waitFor } from '../support/wait.js';
import { buySingle, deliverOrder } from '../support/orders.js';
import { cliEnv, runCli } from '../support/cli.js';
import { seedFinding } from '../support/reconciliation.js';
import { cliActor } from '../../src/cli/actor.js';
import { clientOf, CONSOLE_ENV, cookiesOf, enrolTwoFactor, ensureStaff, giveCode, inject, login, multipart, type Page, PASSWORD, signIn, type StaffClient } from '../support/console.js';
import { totpCode } from '../../src/modules/console/totp.js';

/**
 * Issue 24, "Audit: one unit with the change": every staff action, from the console and from the
 * CLI, writes its audit row in the unit of work that makes the change. Here the database refuses
 * every insert into audit_log (a trigger): each action must then fail and leave the database exactly
 * as it was. Once the refusal is lifted, the same action succeeds, changes the database, and leaves
 * one row naming the actor. Were an audit row written after the change's commit (as the console did
 * before), the first half would find the change made.
 */

/** What a staff action may touch: compared whole before and after a refused audit insert. */
const TABLES = [
  'profiles',
  'api_keys',
  'wallets',
  'ledger_entries',
  'orders',
  'order_items',
  'outbox',
  'top_ups',
  'rc_credentials',
  'rc_transactions',
  'events',
  'webhook_endpoints',
  'webhook_deliveries',
  'staff_accounts',
  'staff_sessions',
  'audit_log',
  'data_packages',
  'data_package_prices',
  'package_routes',
  'catalog_state',
  'wallet_adjustments',
  'staff_recovery_codes',
  'reconciliation_findings',
  'staff_requests',
] as const;

/**
 * Written by no staff action: when a key was last used. A request's authentication records it
 * without waiting (src/modules/profiles/service.ts, authenticate), so an earlier request's write may
 * land between two snapshots on a busy machine.
 */
const NOT_AN_ACTION: Partial<Record<(typeof TABLES)[number], string>> = { api_keys: 'last_used_at' };

async function snapshot(t: TestApp): Promise<string> {
  const parts: Record<string, unknown[]> = {};
  for (const table of TABLES) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by 1, 2`.execute(t.database.db)).rows;
    const ignored = NOT_AN_ACTION[table];
    parts[table] = ignored === undefined ? rows : rows.map(({ [ignored]: _, ...rest }) => rest);
  }
  return JSON.stringify(parts);
}

async function refuseAudit(t: TestApp): Promise<void> {
  if (t.database.dialect === 'sqlite') {
    await sql`create trigger refuse_audit before insert on audit_log
      begin select raise(abort, 'audit refused by the test'); end`.execute(t.database.db);
  } else {
    await sql`create or replace function refuse_audit() returns trigger language plpgsql
      as $$ begin raise exception 'audit refused by the test'; end $$`.execute(t.database.db);
    await sql`create trigger refuse_audit before insert on audit_log
      for each row execute function refuse_audit()`.execute(t.database.db);
  }
}

async function allowAudit(t: TestApp): Promise<void> {
  await sql`drop trigger if exists refuse_audit${t.database.dialect === 'postgres' ? sql` on audit_log` : sql``}`.execute(t.database.db);
}

async function lastAudit(t: TestApp) {
  return t.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

/** Shifts the services' clock, so an order can be made "stuck" without waiting. */
let clockOffsetMs = 0;
const clock = () => Date.now() + clockOffsetMs;

async function pendingTopUp(t: TestApp, reference: string): Promise<string> {
  const res = await t.call('POST', '/api/v1/top-ups/request', {
    key: KEYS.superLive,
    body: { amount: 25, method: 'momo', reference },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data._id as string;
}

let numbers = 0;
const nextNumber = () => `024483${String(1000 + (numbers++ % 8000))}`;

async function completedOrder(t: TestApp): Promise<string> {
  const bought = await buySingle(t, KEYS.superLive, nextNumber());
  assert.equal(bought.status, 200, JSON.stringify(bought.body));
  const orderId = bought.body.data.orderId as string;
  await deliverOrder(t, KEYS.superLive, orderId);
  return orderId;
}

/** A delivered bulk order of two recipients, as `<orderId> <first recipient>`. */
async function completedBulk(t: TestApp): Promise<string> {
  const numbers = [nextNumber(), nextNumber()];
  const bought = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
    key: KEYS.superLive,
    body: { operatorId: 'op_a', productId: 'prd_a', items: numbers.map((beneficiaryMsisdn) => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn })) },
  });
  assert.equal(bought.status, 200, JSON.stringify(bought.body));
  const orderId = bought.body.data.orderId as string;
  await deliverOrder(t, KEYS.superLive, orderId);
  return `${orderId} ${numbers[0] ?? ''}`;
}

/** A result-checker sale in test mode (a generated credential). */
async function rcSale(t: TestApp): Promise<string> {
  const sold = await t.call('POST', '/api/v1/result-checker/buy-single', {
    key: KEYS.superTest,
    body: { packageId: 'rcp_wassce', recipientPhone: nextNumber() },
  });
  assert.equal(sold.status, 200, JSON.stringify(sold.body));
  return sold.body.data.transactionId as string;
}

const orderAndRecipient = (record: string): [string, string] => {
  const [orderId = '', msisdn = ''] = record.split(' ');
  return [orderId, msisdn];
};

/** An order whose delivery has waited an hour with no worker to take it: stuck. */
async function stuckOrder(t: TestApp): Promise<string> {
  clockOffsetMs = -3_600_000;
  try {
    const bought = await buySingle(t, KEYS.superLive, nextNumber());
    assert.equal(bought.status, 200, JSON.stringify(bought.body));
    return bought.body.data.orderId as string;
  } finally {
    clockOffsetMs = 0;
  }
}

async function newKey(t: TestApp): Promise<string> {
  const { id } = await t.ctx.profiles.createKey(cliActor(), 'usr_agent', 'test');
  return id;
}

async function newEndpoint(t: TestApp): Promise<string> {
  const res = await t.call('POST', '/api/v1/webhook-endpoints', {
    key: KEYS.superLive,
    body: { url: `http://127.0.0.1:9/hooks/${numbers++}`, events: ['*'] },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data._id as string;
}

/** An endpoint disabled by staff (not by its partner): one staff may enable again. */
async function disabledEndpoint(t: TestApp): Promise<string> {
  const id = await newEndpoint(t);
  await t.ctx.webhookEndpoints.disableForStaff(cliActor(), id, 'answers 500');
  return id;
}

/** A delivery (its number) of a live event to a new endpoint, failed for good as the worker leaves it after its last retry. */
async function failedDelivery(t: TestApp): Promise<string> {
  const endpointId = await newEndpoint(t);
  await t.ctx.topUps.approve(cliActor(), await pendingTopUp(t, `AUD-W-${numbers++}`));
  const delivery = await t.database.db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('endpoint_id', '=', endpointId)
    .executeTakeFirstOrThrow();
  await t.database.db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', attempts: 10, next_attempt_at: null, last_status_code: 500 })
    .where('id', '=', delivery.id)
    .execute();
  return String(delivery.id);
}

let staffCount = 0;
async function newStaff(t: TestApp): Promise<{ id: string; email: string }> {
  const email = `member${staffCount++}@staff.example`;
  const { account } = await t.ctx.staff.create(cliActor(), email, 'viewer', PASSWORD);
  return { id: account.id, email };
}

/** A live bank top-up above TOPUP_APPROVAL_ABOVE (its default, GHS 500): it takes two approvals. */
async function largeTopUp(t: TestApp, reference: string): Promise<string> {
  const res = await t.call('POST', '/api/v1/top-ups/request', { key: KEYS.superLive, body: { amount: 600, method: 'bank', reference } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data._id as string;
}

/** A large top-up whose first approval an operator gave: the next approval (an admin's) credits it. */
async function onceApprovedTopUp(t: TestApp): Promise<string> {
  const id = await largeTopUp(t, `AUD-2A-${numbers++}`);
  const email = `first-approver${staffCount++}@staff.example`;
  const { account } = await t.ctx.staff.create(cliActor(), email, 'operator', PASSWORD);
  const first = await t.ctx.console.approveTopUp({ staffId: account.id, name: email, address: null }, id, 'operator');
  assert.equal(first.status, 'pending');
  return id;
}

/** A new admin account requested by another admin: it waits for a second admin. */
async function adminRequest(t: TestApp): Promise<string> {
  const requesterEmail = `requesting-admin${staffCount++}@staff.example`;
  const { account } = await t.ctx.staff.create(cliActor(), requesterEmail, 'admin', PASSWORD);
  const { request } = await t.ctx.staff.createOrRequest({ staffId: account.id, name: requesterEmail, address: null }, `new-admin${staffCount++}@staff.example`, 'admin');
  assert.ok(request, 'a new admin is a request while an admin exists');
  return request.id;
}

let pins = 0;
const pinCsv = () => `username,password\nAUD${pins++},1111-2222\nAUD${pins++},3333-4444\n`;

const sessions = new Map<string, StaffClient>();

/** A wallet adjustment above ADJUSTMENT_APPROVAL_ABOVE, waiting for an admin other than its requester. */
async function pendingAdjustment(t: TestApp): Promise<string> {
  const requester = { staffId: (await newStaff(t)).id, name: 'requester (test)', address: null };
  const done = await t.ctx.adjustments.request(requester, {
    profileId: 'usr_super',
    mode: 'live',
    direction: 'credit',
    amount: t.ctx.config.adjustmentApprovalAbove / 100 + 1,
    reason: 'audit test',
  });
  assert.equal(done.status, 'pending');
  return done.id;
}

/**
 * Signed in with two-factor sign-in on (enrolled with the code of the step before now, signed in
 * with now's); `codes` holds the next step's code, which a refused call leaves unused.
 */
const codes = new Map<string, string>();
async function twoFactorHolder(t: TestApp): Promise<string> {
  const email = `holder${staffCount++}@staff.example`;
  const id = await ensureStaff(t, email, 'viewer');
  const at = Date.now();
  const { secret } = await enrolTwoFactor(t, id, at - 30_000);
  const signedIn = await giveCode(t, await login(t, email), totpCode(secret, at));
  const cookie = cookiesOf(signedIn.headers).find((c) => c.startsWith('console_session=')) ?? '';
  sessions.set(email, await clientOf(t, email, 'viewer', cookie, '/console/2fa'));
  codes.set(email, totpCode(secret, at + 30_000));
  return email;
}

interface ConsoleAction {
  action: string;
  /** Does the action once in the console; the records it needs are made by `setup`. */
  run(t: TestApp, admin: StaffClient, record: string): Promise<Page>;
  setup(t: TestApp): Promise<string>;
}

const CONSOLE_ACTIONS: ConsoleAction[] = [
  { action: 'topup.approve', setup: (t) => pendingTopUp(t, `AUD-A-${numbers++}`), run: (_t, a, id) => a.post(`/console/top-ups/${id}/approve`) },
  { action: 'topup.approve.first', setup: (t) => largeTopUp(t, `AUD-1A-${numbers++}`), run: (_t, a, id) => a.post(`/console/top-ups/${id}/approve`) },
  { action: 'topup.approve', setup: onceApprovedTopUp, run: (_t, a, id) => a.post(`/console/top-ups/${id}/approve`) },
  { action: 'staff.request.approve', setup: adminRequest, run: (_t, a, id) => a.post(`/console/staff/requests/${id}/approve`) },
  {
    action: 'topup.reject',
    setup: (t) => pendingTopUp(t, `AUD-R-${numbers++}`),
    run: (_t, a, id) => a.post(`/console/top-ups/${id}/reject`, { reason: 'no such payment' }),
  },
  { action: 'order.reverse', setup: completedOrder, run: (_t, a, id) => a.post(`/console/orders/${id}/reverse`, { reason: 'never arrived' }) },
  { action: 'order.retry', setup: stuckOrder, run: (_t, a, id) => a.post(`/console/orders/${id}/retry`) },
  {
    action: 'order.reverse_recipient',
    setup: completedBulk,
    run(_t, a, record) {
      const [orderId, msisdn] = orderAndRecipient(record);
      return a.post(`/console/orders/${orderId}/recipients/reverse`, { recipient: msisdn, reason: 'never arrived' });
    },
  },
  { action: 'rc.refund', setup: rcSale, run: (_t, a, id) => a.post(`/console/orders/${id}/refund`, { reason: 'bought twice' }) },
  { action: 'key.create', setup: async () => 'usr_agent', run: (_t, a, id) => a.post(`/console/partners/${id}/keys`, { mode: 'live' }) },
  { action: 'key.revoke', setup: newKey, run: (_t, a, id) => a.post(`/console/keys/${id}/revoke`, { profileId: 'usr_agent' }) },
  {
    action: 'rc.import',
    setup: async () => 'rcp_bece',
    async run(t, a, id) {
      const form = multipart({ _csrf: a.csrf, packageId: id }, { name: 'pins.csv', content: pinCsv() });
      const res = await t.app.inject({
        method: 'POST',
        url: '/console/inventory/upload',
        headers: { cookie: a.cookie, 'content-type': form.contentType },
        payload: form.payload,
      });
      return { status: res.statusCode, body: res.body, headers: res.headers, location: undefined };
    },
  },
  {
    action: 'profile.suspend',
    setup: async (t) => {
      await t.ctx.profiles.setStatus(cliActor(), 'usr_customer', 'Active').catch(() => undefined);
      return 'usr_customer';
    },
    run: (_t, a, id) => a.post(`/console/partners/${id}/suspend`),
  },
  {
    action: 'profile.reactivate',
    setup: async () => 'usr_suspended',
    run: (_t, a, id) => a.post(`/console/partners/${id}/reactivate`),
  },
  {
    action: 'staff.create',
    setup: async () => `created${staffCount++}@staff.example`,
    run: (_t, a, email) => a.post('/console/staff', { email, role: 'operator' }),
  },
  {
    action: 'staff.update',
    setup: async (t) => (await newStaff(t)).id,
    run: (_t, a, id) => a.post(`/console/staff/${id}`, { role: 'operator', status: 'active' }),
  },
  {
    action: 'staff.login',
    setup: async (t) => (await newStaff(t)).email,
    async run(t, _a, email) {
      const form = await inject(t, 'GET', '/console/login');
      const setCookie = form.headers['set-cookie'];
      const cookie = (typeof setCookie === 'string' ? setCookie : Array.isArray(setCookie) ? String(setCookie[0]) : '').split(';')[0] ?? '';
      const token = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
      return inject(t, 'POST', '/console/login', { cookie, form: { _csrf: token, email, password: PASSWORD } });
    },
  },
  {
    action: 'package.update',
    setup: async () => 'pkg_a_2gb',
    run: (_t, a, id) => a.post(`/console/packages/${id}`, { price: `${20 + (numbers++ % 50)}.25`, price_Agent: '19.50', status: 'Active' }),
  },
  {
    action: 'package.routes.set',
    setup: async () => 'pkg_a_2gb',
    run: (_t, a, id) => a.post(`/console/packages/${id}/routes`, { r0_provider: 'dtone', r0_productId: String(100 + numbers++), r1_provider: 'sandbox' }),
  },
  { action: 'webhook.redeliver', setup: failedDelivery, run: (_t, a, id) => a.post(`/console/webhooks/deliveries/${id}/redeliver`) },
  {
    action: 'webhook.disable',
    setup: newEndpoint,
    run: (_t, a, id) => a.post(`/console/webhooks/endpoints/${id}/disable`, { reason: 'answers 500' }),
  },
  { action: 'webhook.enable', setup: disabledEndpoint, run: (_t, a, id) => a.post(`/console/webhooks/endpoints/${id}/enable`) },
  {
    action: 'wallet.adjust',
    setup: async () => 'usr_super',
    run: (_t, a, id) => a.post(`/console/partners/${id}/adjustments`, { mode: 'live', direction: 'credit', amount: '1.25', reason: 'goodwill credit' }),
  },
  { action: 'wallet.adjust.approve', setup: pendingAdjustment, run: (_t, a, id) => a.post(`/console/adjustments/${id}/approve`) },
  {
    action: 'wallet.adjust.reject',
    setup: pendingAdjustment,
    run: (_t, a, id) => a.post(`/console/adjustments/${id}/reject`, { reason: 'not agreed' }),
  },
  {
    action: 'staff.recovery_codes_regenerate',
    setup: twoFactorHolder,
    run: (_t, _a, email) => (sessions.get(email) as StaffClient).post('/console/2fa/recovery-codes', { code: codes.get(email) ?? '' }),
  },
  {
    action: 'staff.logout',
    // A session of its own, so the suite's admin stays signed in.
    async setup(t) {
      const member = await signIn(t, 'viewer', `leaving${staffCount++}@staff.example`);
      sessions.set(member.email, member);
      return member.email;
    },
    run: (_t, _a, email) => (sessions.get(email) as StaffClient).post('/console/logout'),
  },
];

describe('console: each action and its audit row commit together, or neither does', () => {
  let t: TestApp;
  let admin: StaffClient;
  before(async () => {
    t = await createTestApp({ env: { ...CONSOLE_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, clock });
    admin = await signIn(t, 'admin');
  });
  after(() => t.close());

  for (const a of CONSOLE_ACTIONS) {
    test(a.action, async () => {
      const record = await a.setup(t);
      await refuseAudit(t);
      let before: string;
      try {
        before = await snapshot(t);
        const refused = await a.run(t, admin, record);
        assert.equal(refused.status, 500, `${a.action} fails when its audit row cannot be written: ${refused.body.slice(0, 300)}`);
        assert.equal(await snapshot(t), before, `${a.action} left a change behind although its audit row was refused`);
      } finally {
        await allowAudit(t);
      }

      const done = await a.run(t, admin, record);
      assert.ok(done.status === 303 || done.status === 200, `${a.action} succeeds once auditing works: ${done.status} ${done.body.slice(0, 300)}`);
      assert.notEqual(await snapshot(t), before, `${a.action} changed nothing`);
      const row = await lastAudit(t);
      assert.equal(row.action, a.action);
      assert.equal(row.outcome, 'ok');
      const ownAction = a.action === 'staff.login' || a.action === 'staff.logout' || a.action === 'staff.recovery_codes_regenerate';
      assert.equal(row.actor, ownAction ? record : admin.email);
      assert.equal(row.address, '127.0.0.1', 'the console records where the action came from');
    });
  }
});

interface CliAction {
  action: string;
  setup(t: TestApp): Promise<string>;
  args(record: string, dir: string): string[];
}

const CLI_ACTIONS: CliAction[] = [
  { action: 'topup.approve', setup: (t) => pendingTopUp(t, `AUD-CA-${numbers++}`), args: (id) => ['topups', 'approve', id] },
  {
    action: 'topup.reject',
    setup: (t) => pendingTopUp(t, `AUD-CR-${numbers++}`),
    args: (id) => ['topups', 'reject', id, '--reason', 'no such payment'],
  },
  { action: 'order.reverse', setup: completedOrder, args: (id) => ['orders', 'reverse', id, '--reason', 'never arrived'] },
  { action: 'order.retry', setup: stuckOrder, args: (id) => ['orders', 'retry', id] },
  {
    action: 'order.reverse_recipient',
    setup: completedBulk,
    args(record) {
      const [orderId, msisdn] = orderAndRecipient(record);
      return ['orders', 'reverse', orderId, '--recipient', msisdn, '--reason', 'never arrived'];
    },
  },
  { action: 'rc.refund', setup: rcSale, args: (id) => ['rc', 'refund', id, '--reason', 'bought twice'] },
  { action: 'key.create', setup: async () => 'usr_agent', args: (id) => ['keys', 'create', '--profile', id, '--mode', 'live'] },
  { action: 'key.revoke', setup: newKey, args: (id) => ['keys', 'revoke', id] },
  {
    action: 'rc.import',
    setup: async () => 'rcp_bece',
    args: (id, dir) => {
      const file = path.join(dir, `pins-${pins}.csv`);
      if (!fs.existsSync(file)) fs.writeFileSync(file, pinCsv());
      return ['rc', 'import', id, file];
    },
  },
  {
    action: 'profile.suspend',
    setup: async (t) => {
      await t.ctx.profiles.setStatus(cliActor(), 'usr_customer', 'Active').catch(() => undefined);
      return 'usr_customer';
    },
    args: (id) => ['profiles', 'suspend', id],
  },
  { action: 'profile.reactivate', setup: async () => 'usr_suspended', args: (id) => ['profiles', 'reactivate', id] },
  { action: 'staff.create', setup: async () => `cli${staffCount++}@staff.example`, args: (email) => ['staff', 'create', '--email', email, '--role', 'viewer'] },
  { action: 'staff.update', setup: async (t) => (await newStaff(t)).email, args: (email) => ['staff', 'update', email, '--role', 'operator'] },
  { action: 'staff.reset_password', setup: async (t) => (await newStaff(t)).email, args: (email) => ['staff', 'reset-password', email] },
  { action: 'webhook.disable', setup: newEndpoint, args: (id) => ['webhooks', 'disable', id, '--reason', 'answers 500'] },
  { action: 'package.update', setup: async () => 'pkg_b_1gb', args: (id) => ['packages', 'update', id, '--price', `${7 + (numbers++ % 50)}.25`] },
  { action: 'reconciliation.resolve', setup: (t) => seedFinding(t), args: (id) => ['providers', 'resolve-finding', id, '--note', 'refunded by hand'] },
  { action: 'webhook.enable', setup: disabledEndpoint, args: (id) => ['webhooks', 'enable', id] },
  { action: 'webhook.redeliver', setup: failedDelivery, args: (id) => ['webhooks', 'redeliver', id] },
  {
    action: 'package.routes.set',
    setup: async () => 'pkg_b_1gb',
    args: (id, dir) => {
      const file = path.join(dir, 'routes.json');
      // GHS 5.00: no role of pkg_b_1gb pays less (a route above a price needs --below-cost).
      fs.writeFileSync(file, JSON.stringify([{ provider: 'reloadly', operatorId: 643, amount: 5 }, { provider: 'sandbox' }]));
      return ['routes', 'set', id, file];
    },
  },
];

describe('CLI: each staff command and its audit row commit together, or neither does', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '0', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' }, clock });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-'));
  });
  after(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const a of CLI_ACTIONS) {
    test(a.action, async () => {
      const record = await a.setup(t);
      const args = a.args(record, dir);
      await refuseAudit(t);
      let before: string;
      try {
        before = await snapshot(t);
        const refused = await runCli(args, cliEnv(t));
        assert.notEqual(refused.code, 0, `${a.action} succeeded although its audit row was refused: ${refused.stdout}`);
        assert.equal(await snapshot(t), before, `${a.action} left a change behind although its audit row was refused`);
      } finally {
        await allowAudit(t);
      }

      const done = await runCli(args, cliEnv(t));
      assert.equal(done.code, 0, `${a.action}: ${done.stderr}`);
      await waitFor('the change to be visible', async () => ((await snapshot(t)) !== before ? true : undefined));
      const row = await lastAudit(t);
      assert.deepEqual([row.action, row.actor, row.outcome], [a.action, cliActor().name, 'ok']);
    });
  }
});
