import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import type { ProviderAttemptRow } from '../../src/db/schema.js';
import { startDtoneSimulator } from '../../src/providers/dtone/simulator.js';
import { startHubtelSimulator } from '../../src/providers/hubtel/simulator.js';
import { startReloadlySimulator } from '../../src/providers/reloadly/simulator.js';
import type { RunningSimulator, SimulatorBehaviour, SimulatorOptions, SimulatedOutcome } from '../../src/providers/simulator-kit.js';
import type { ProviderName, Route, UpstreamName } from '../../src/providers/types.js';
import { PARTNER_MESSAGES } from '../../src/modules/deliveries/partner-messages.js';
import { createWorker } from '../../src/worker/index.js';
import type { WorkerOptions } from '../../src/worker/options.js';
import type { OutboxWorker } from '../../src/worker/worker.js';
import { staffActor } from './actor.js';
import { createTestApp, type TestApp } from './app.js';
import type { CliProcess } from './cli.js';
import { liveKeyOf } from './keys.js';
import { ledgerProblems } from './ledger.js';
import { openOrders, quietPort } from './ops.js';
import { buySingle, FAST, startWorker } from './orders.js';
import { agentProfile, fixtureWith } from './seed.js';
import { CONDITION_BUDGET_MS, PROCESS_BUDGET_MS, waitFor } from './wait.js';

/**
 * End-to-end tests of the upstreams (docs/live-delivery.md, issue 25): the test app listening on
 * loopback (so simulators call its callback routes over real HTTP), the upstreams' simulators on
 * loopback, the worker of src/worker/index.ts speaking to them over real HTTP, and a package whose
 * routes name them. The scenarios every upstream shares are here (`upstreamScenarios`); each
 * test/upstreams/<name>.test.ts lists the ones it runs, with what differs per upstream
 * (`UpstreamCase`).
 */

/** The SuperAgent whose orders the scenarios place: a wallet no scenario empties (10 000 GHS live). */
export const UPSTREAM_PROFILE = 'usr_upstreams';
export const UPSTREAM_KEY = liveKeyOf(UPSTREAM_PROFILE);
/** The package the scenarios buy (test/fixtures/seed.json) and what a SuperAgent pays for it, in pesewas. */
export const UPSTREAM_PACKAGE = 'pkg_a_1gb';
export const UPSTREAM_PRICE = 850;

/** Each upstream's route for the package in the scenarios (docs/live-delivery.md, "Routes"; money in pesewas). */
export const UPSTREAM_ROUTES: Record<ProviderName, Route> = {
  sandbox: { provider: 'sandbox' },
  dtone: { provider: 'dtone', productId: 35211 },
  hubtel: { provider: 'hubtel', serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 1000 },
  reloadly: { provider: 'reloadly', operatorId: 643, amount: 1000 },
};

/** How each upstream's simulator is started, with funds for hundreds of orders. */
const SIMULATOR_STARTS: Record<UpstreamName, (options: SimulatorOptions) => Promise<RunningSimulator>> = {
  dtone: (options) => startDtoneSimulator({ ...options, balance: 1_000_000 }),
  hubtel: (options) => startHubtelSimulator({ ...options, prepaidBalance: 1_000_000 }),
  reloadly: (options) => startReloadlySimulator({ ...options, openingBalance: 1_000_000 }),
};

/** What a scenario needs to know of the upstream it tests (the table of each test file). */
export interface UpstreamCase {
  name: UpstreamName;
  /** The upstream of route 2, where failover goes (another upstream, or the sandbox). */
  second: UpstreamName | 'sandbox';
  /** What a completed delivery costs, in pesewas (margins: the route's cost when the upstream does not say), when the scenario can know it. */
  cost?: number;
  /** The forged callbacks that must be turned away, and with which status (docs/live-delivery.md, "Callbacks"). */
  forgeries: { credentials: CallbackCredentials; status: number }[];
}

export interface UpstreamHarnessOptions {
  /** The simulators to start (the case's upstream and, for failover, the second). */
  upstreams: UpstreamName[];
  /** The package's routes, in order. */
  routes: ProviderName[];
  /** Each simulator's behaviour at start. */
  behaviour?: Partial<Record<UpstreamName, Partial<SimulatorBehaviour>>>;
  /** More environment for the app and its workers (breaker, concurrency, attention). */
  env?: Record<string, string>;
  /** The in-process worker's options (over FAST), or false: the scenario starts workers itself. */
  worker?: Partial<WorkerOptions> | false;
}

export type CallbackCredentials = 'right' | 'wrong-token' | 'unsigned' | 'bad-signature';

/** A test app on loopback, the simulators, a worker and a routed package, all closed when the test ends. */
export interface UpstreamHarness {
  t: TestApp;
  /** The app's and its in-process workers' clock: real time, moved ahead by advanceClock. */
  now(): number;
  /**
   * Moves the app's clock `ms` ahead and wakes its in-process workers: a wait the service measures
   * on its clock (a breaker's cool-down) passes at once instead of in real seconds. Worker
   * processes (spawnWorker) keep real time.
   */
  advanceClock(ms: number): void;
  /** PUBLIC_BASE_URL: where the test app listens. */
  baseUrl: string;
  callbackToken: string;
  webhookSecret: string;
  /** The app's environment, for worker processes started on its database. */
  env: Record<string, string>;
  sim(name: UpstreamName): RunningSimulator;
  /** Closes a simulator now (an upstream that stops answering). */
  stopSimulator(name: UpstreamName): Promise<void>;
  /** Starts the in-process worker (createWorker of src/worker/index.ts). */
  startWorker(options?: Partial<WorkerOptions>): OutboxWorker;
  /** Starts `cli worker` as a child process on the app's database and environment; killed at the end. */
  spawnWorker(extra?: Record<string, string>): Promise<CliProcess>;
  /** Buys the package for `msisdn` (local form, 0244…) with UPSTREAM_KEY; the order id. */
  buy(msisdn: string): Promise<string>;
}

/** The provider timeout of the scenarios' workers: a hang longer than this is a call without an answer. */
export const UPSTREAM_TIMEOUT_MS = 1000;

export async function startUpstreamHarness(c: TestContext, options: UpstreamHarnessOptions): Promise<UpstreamHarness> {
  // Known before the app is built (PUBLIC_BASE_URL) and listened on only after: a port no outgoing connection takes.
  const port = await quietPort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const callbackToken = randomBytes(24).toString('hex');
  const webhookSecret = randomBytes(16).toString('hex');
  const sims = new Map<UpstreamName, RunningSimulator>();
  const closed = new Set<UpstreamName>();
  const workers: OutboxWorker[] = [];
  const children: CliProcess[] = [];
  const opened: { app?: TestApp } = {};
  let clockOffset = 0;
  const now = () => Date.now() + clockOffset;

  c.after(async () => {
    for (const child of children) child.kill();
    await Promise.all(children.map((child) => child.exited().catch(() => null)));
    await Promise.all(workers.map((worker) => worker.stop()));
    await Promise.all([...sims].filter(([name]) => !closed.has(name)).map(([, sim]) => sim.close()));
    await opened.app?.close();
  });

  for (const name of options.upstreams) {
    const sim = await SIMULATOR_STARTS[name]({
      behaviour: options.behaviour?.[name] ?? {},
      ...(name === 'reloadly' ? { callbackUrl: `${baseUrl}/callbacks/reloadly`, webhookSecret } : {}),
    });
    sims.set(name, sim);
  }
  const env: Record<string, string> = {
    PUBLIC_BASE_URL: baseUrl,
    PROVIDER_CALLBACK_TOKEN: callbackToken,
    RELOADLY_WEBHOOK_SECRET: webhookSecret,
    PROVIDER_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
    WORKER_LEASE_MS: String(UPSTREAM_TIMEOUT_MS * 5),
    ...Object.assign({}, ...[...sims.values()].map((sim) => sim.env)),
    ...options.env,
  };
  const app = await createTestApp({
    env,
    clock: now,
    seed: fixtureWith({ profiles: [agentProfile(UPSTREAM_PROFILE, { role: 'SuperAgent', live: 10_000 })] }),
  });
  opened.app = app;
  await app.app.listen({ port, host: '127.0.0.1' });
  await setPackageRoutes(app, UPSTREAM_PACKAGE, options.routes.map((name) => UPSTREAM_ROUTES[name]));

  const harness: UpstreamHarness = {
    t: app,
    now,
    advanceClock(ms) {
      clockOffset += ms;
      for (const worker of workers) worker.wake();
    },
    baseUrl,
    callbackToken,
    webhookSecret,
    env,
    sim(name) {
      const sim = sims.get(name);
      if (!sim) throw new Error(`the ${name} simulator was not started`);
      return sim;
    },
    async stopSimulator(name) {
      closed.add(name);
      await harness.sim(name).close();
    },
    startWorker(workerOptions = {}) {
      const worker = createWorker(app.ctx, {
        ...FAST,
        providerTimeoutMs: app.config.workerTuning.providerTimeoutMs,
        leaseMs: app.config.workerTuning.leaseMs,
        ...workerOptions,
      });
      workers.push(worker);
      worker.start();
      return worker;
    },
    spawnWorker(extra = {}) {
      return startWorker(app, { ...env, WORKER_IDLE_MS: '20', ...extra }, children);
    },
    async buy(msisdn) {
      const res = await buySingle(app, UPSTREAM_KEY, msisdn);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body.data.orderId as string;
    },
  };
  if (options.worker !== false) harness.startWorker(options.worker ?? {});
  return harness;
}

/** Replaces a package's routes by writing package_routes directly (money in pesewas). */
export async function setPackageRoutes(t: TestApp, packageId: string, routes: readonly Route[]): Promise<void> {
  await t.database.db.deleteFrom('package_routes').where('package_id', '=', packageId).execute();
  if (routes.length === 0) return;
  await t.database.db
    .insertInto('package_routes')
    .values(
      routes.map((route, position) => ({
        package_id: packageId,
        position,
        provider: route.provider,
        service_id: route.provider === 'hubtel' ? route.serviceId : null,
        bundle: route.provider === 'hubtel' ? route.bundle : null,
        operator_id: route.provider === 'reloadly' ? route.operatorId : null,
        product_id: route.provider === 'dtone' ? route.productId : null,
        amount: route.provider === 'hubtel' || route.provider === 'reloadly' ? route.amount : null,
        cost: route.cost ?? null,
      })),
    )
    .execute();
}

/** A local number (0244123456) as the upstreams see it (233244123456). */
export const intlMsisdn = (local: string) => `233${local.replace(/^0/, '')}`;

/** The order as its partner sees it: GET /api/v1/orders/:id with the key. */
export interface PartnerOrderView {
  state: string;
  errorMessage: string | null;
  submittedAt: number | null;
  completedAt: number | null;
}

export async function partnerOrder(h: UpstreamHarness, orderId: string): Promise<PartnerOrderView> {
  const res = await h.t.call('GET', `/api/v1/orders/${orderId}`, { key: UPSTREAM_KEY });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as PartnerOrderView;
}

/** Waits until the partner sees the order final (completed or failed), and returns it as they see it. */
export async function settledOrder(h: UpstreamHarness, orderId: string, budgetMs = CONDITION_BUDGET_MS): Promise<PartnerOrderView> {
  return waitFor(
    `order ${orderId} to be completed or failed`,
    async () => {
      const order = await partnerOrder(h, orderId);
      return order.state === 'completed' || order.state === 'failed' ? order : undefined;
    },
    budgetMs,
  );
}

export function upstreamWallet(h: UpstreamHarness) {
  return h.t.wallet(UPSTREAM_PROFILE, 'live');
}

export function attemptsOfOrder(h: UpstreamHarness, orderId: string): Promise<ProviderAttemptRow[]> {
  return h.t.ctx.deliveries.attemptsOf(orderId);
}

/** [provider, status] of each attempt of an order, oldest first. */
export async function attemptTrail(h: UpstreamHarness, orderId: string): Promise<[string, string][]> {
  return (await attemptsOfOrder(h, orderId)).map((a) => [a.provider, a.status]);
}

/** What an upstream delivered: the simulator's deliveries, or the sandbox's accepted submissions. */
export async function deliveriesAt(h: UpstreamHarness, provider: UpstreamName | 'sandbox'): Promise<{ reference: string; msisdn: string }[]> {
  if (provider !== 'sandbox') return h.sim(provider).stats().deliveries.map((d) => ({ reference: d.reference, msisdn: d.msisdn }));
  const rows = await h.t.database.db.selectFrom('sandbox_submissions').select(['idempotency_key', 'msisdn']).orderBy('accepted_at').execute();
  return rows.map((r) => ({ reference: r.idempotency_key, msisdn: r.msisdn }));
}

/** Purchases an upstream was asked for (refused ones included). */
export async function buyCallsAt(h: UpstreamHarness, provider: UpstreamName | 'sandbox'): Promise<number> {
  if (provider !== 'sandbox') return h.sim(provider).stats().calls.buy ?? 0;
  const rows = await h.t.database.db.selectFrom('sandbox_submissions').select('submit_calls').execute();
  return rows.reduce((sum, r) => sum + Number(r.submit_calls), 0);
}

/** Every request an upstream received, of any endpoint. */
export async function callsAt(h: UpstreamHarness, provider: UpstreamName | 'sandbox'): Promise<number> {
  if (provider === 'sandbox') return buyCallsAt(h, provider);
  return Object.values(h.sim(provider).stats().calls).reduce((sum, n) => sum + n, 0);
}

/** The partner's events about an order (order.completed, order.failed…), oldest first. */
export async function orderEventTypes(h: UpstreamHarness, orderId: string): Promise<string[]> {
  const rows = await h.t.database.db.selectFrom('events').select(['type', 'payload']).orderBy('created_at').execute();
  return rows.filter((r) => (JSON.parse(r.payload) as { data?: { object?: { _id?: string } } }).data?.object?._id === orderId).map((r) => r.type);
}

/** Words that name an upstream: none may reach a partner. */
export const UPSTREAM_WORDS = /hubtel|reloadly|dt ?one|dtone/i;

/**
 * What a partner can read of an order (GET /api/v1/orders/:id, its /status, and the payloads of its
 * events) names no upstream and holds none of `secrets` (an upstream's codes and text, a staff note).
 */
export async function assertPartnerReadsNoUpstream(h: UpstreamHarness, orderId: string, secrets: readonly string[] = []): Promise<void> {
  const order = await h.t.call('GET', `/api/v1/orders/${orderId}`, { key: UPSTREAM_KEY });
  const status = await h.t.call('GET', `/api/v1/orders/${orderId}/status`, { key: UPSTREAM_KEY });
  assert.equal(order.status, 200);
  assert.equal(status.status, 200);
  const events = (await h.t.database.db.selectFrom('events').select('payload').execute())
    .map((r) => r.payload)
    .filter((payload) => payload.includes(orderId));
  assert.ok(events.length > 0, `the events of ${orderId}`);
  for (const [what, text] of [
    ['the order', JSON.stringify(order.body)],
    ['its status', JSON.stringify(status.body)],
    ...events.map((payload, i): [string, string] => [`event ${i}`, payload]),
  ] as [string, string][]) {
    assert.doesNotMatch(text, UPSTREAM_WORDS, `${what} names an upstream: ${text}`);
    for (const secret of secrets) assert.ok(!text.includes(secret), `${what} holds "${secret}": ${text}`);
  }
}

export async function assertLedgerClean(h: UpstreamHarness): Promise<void> {
  assert.deepEqual(await ledgerProblems(h.t), []);
}

/** A callback body as each upstream sends it (Appendix A), naming a transaction and saying it completed. */
export function completedCallbackBody(name: UpstreamName, subject: { reference: string; transactionId: string | null }): Record<string, unknown> {
  switch (name) {
    case 'dtone':
      return {
        id: subject.transactionId === null ? 4_199_999_999 : Number(subject.transactionId),
        external_id: subject.reference,
        status: { id: 70000, message: 'COMPLETED', class: { id: 7, message: 'COMPLETED' } },
      };
    case 'hubtel':
      return {
        ResponseCode: '0000',
        Message: 'success',
        Data: { ClientReference: subject.reference, TransactionId: subject.transactionId ?? 'unknown', Amount: 10, Charges: 0, AmountDebited: 10 },
      };
    case 'reloadly':
      return {
        type: 'airtime_transaction.status',
        data: { transactionId: Number(subject.transactionId ?? 0), customIdentifier: subject.reference, status: 'SUCCESSFUL' },
      };
  }
}

/** POSTs a callback to the app over HTTP as an upstream (or a forger) would; the status it got. */
export async function postCallback(h: UpstreamHarness, name: UpstreamName, body: unknown, credentials: CallbackCredentials): Promise<number> {
  const raw = JSON.stringify(body);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  let path: string;
  if (name === 'reloadly') {
    path = '/callbacks/reloadly';
    const timestamp = String(Math.floor(Date.now() / 1000));
    if (credentials !== 'unsigned') {
      const secret = credentials === 'bad-signature' ? `${h.webhookSecret}x` : h.webhookSecret;
      headers['x-reloadly-request-timestamp'] = timestamp;
      headers['x-reloadly-signature'] = createHmac('sha256', secret).update(`${raw}:${timestamp}`).digest('hex');
    }
  } else {
    const token = credentials === 'wrong-token' ? randomBytes(24).toString('hex') : h.callbackToken;
    path = `/callbacks/${name}/${token}`;
  }
  const res = await fetch(`${h.baseUrl}${path}`, { method: 'POST', headers, body: raw });
  await res.arrayBuffer();
  return res.status;
}

/** What a partner and the books show of one order: compared before and after something that must change nothing. */
async function orderSnapshot(h: UpstreamHarness, orderId: string) {
  return {
    order: await partnerOrder(h, orderId),
    wallet: await upstreamWallet(h),
    attempts: await attemptsOfOrder(h, orderId),
    events: await orderEventTypes(h, orderId),
  };
}

const N1 = '0244123456';
const N2 = '0244123457';
const N3 = '0244123458';
const N4 = '0244123459';

/** The harness of a scenario with one route, or two when it fails over. */
function routesOf(u: UpstreamCase, failover: boolean): Pick<UpstreamHarnessOptions, 'upstreams' | 'routes'> {
  const upstreams: UpstreamName[] = [u.name];
  if (failover && u.second !== 'sandbox') upstreams.push(u.second);
  return { upstreams, routes: failover ? [u.name, u.second] : [u.name] };
}

const outcome = (u: UpstreamCase, value: SimulatedOutcome, more: Partial<SimulatorBehaviour> = {}) => ({ [u.name]: { outcome: value, ...more } });

/**
 * The scenarios every upstream goes through (docs/live-delivery.md, "One delivery, many attempts"
 * and "Callbacks"), each on a harness of its own; each ends with the ledger verified. `c` is the
 * test's context (its after hooks close the harness).
 */
export const upstreamScenarios = {
  /** Taken and delivered: the order completes, the hold is spent, the upstream delivered once. */
  async success(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, routesOf(u, false));
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.equal(order.errorMessage, null);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const [attempt, ...more] = await attemptsOfOrder(h, orderId);
    assert.ok(attempt);
    assert.deepEqual(more, []);
    assert.deepEqual([attempt.provider, attempt.status], [u.name, 'completed']);
    assert.match(attempt.reference, /^[A-Z0-9]{1,36}$/);
    if (u.cost !== undefined) assert.equal(attempt.cost, u.cost);
    assert.deepEqual(await deliveriesAt(h, u.name), [{ reference: attempt.reference, msisdn: intlMsisdn(N1) }]);
    assert.equal(await buyCallsAt(h, u.name), 1);
    assert.deepEqual(await orderEventTypes(h, orderId), ['order.completed']);
    await assertLedgerClean(h);
  },

  /** Accepted, callbacks lost: status checks follow the attempt until the upstream says delivered. */
  async completedByStatusChecks(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, false), behaviour: outcome(u, 'complete', { settleMs: 300, loseCallbacks: true }) });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.ok(order.submittedAt !== null && order.completedAt !== null && order.completedAt >= order.submittedAt);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const stats = h.sim(u.name).stats();
    assert.equal(stats.callbacksSent, 0);
    assert.ok((stats.calls.status ?? 0) >= 1, JSON.stringify(stats.calls));
    const [attempt] = await attemptsOfOrder(h, orderId);
    assert.ok(attempt?.submitted_at !== null && attempt?.resolved_at !== null);
    assert.deepEqual(await attemptTrail(h, orderId), [[u.name, 'completed']]);
    assert.deepEqual(stats.deliveries.map((d) => [d.reference, d.msisdn]), [[attempt?.reference, intlMsisdn(N1)]]);
    await assertLedgerClean(h);
  },

  /**
   * Accepted, then the upstream's callback wakes the status check: the order completes long before
   * the next scheduled check (two minutes away). Forged callbacks change nothing, and a callback is
   * never the verdict: one saying "completed" about an attempt still in flight only makes the
   * status check due, and the status endpoint says it is still in flight.
   */
  async completedByCallback(c: TestContext, u: UpstreamCase) {
    const pollIntervalMs = 120_000;
    const h = await startUpstreamHarness(c, { ...routesOf(u, false), behaviour: outcome(u, 'complete', { settleMs: 2000 }), worker: { pollIntervalMs } });
    const sim = h.sim(u.name);
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.ok(order.submittedAt !== null && order.completedAt !== null);
    assert.ok(order.completedAt - order.submittedAt < pollIntervalMs / 2, `completed ${order.completedAt - order.submittedAt} ms after its submission`);
    assert.ok(sim.stats().callbacksAcknowledged >= 1, JSON.stringify(sim.stats()));
    assert.ok((sim.stats().calls.status ?? 0) >= 1, 'the callback made a status check, which decided');
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const [attempt] = await attemptsOfOrder(h, orderId);
    assert.ok(attempt);
    assert.deepEqual(sim.stats().deliveries.map((d) => d.reference), [attempt.reference]);

    // Forged callbacks about that attempt, and one naming a reference of nobody's: turned away or
    // answered 200, changing nothing.
    const snapshot = await orderSnapshot(h, orderId);
    const subject = { reference: attempt.reference, transactionId: attempt.provider_transaction_id };
    for (const forgery of u.forgeries) {
      assert.equal(await postCallback(h, u.name, completedCallbackBody(u.name, subject), forgery.credentials), forgery.status, forgery.credentials);
    }
    const stranger = { reference: `PA${randomBytes(13).toString('hex').toUpperCase()}`, transactionId: '987654321' };
    assert.equal(await postCallback(h, u.name, completedCallbackBody(u.name, stranger), 'right'), 200);
    assert.deepEqual(await orderSnapshot(h, orderId), snapshot);

    // An attempt in flight for the next ten minutes; a callback claiming it completed is a wake-up only.
    sim.configure({ settleMs: 600_000 });
    const openId = await h.buy(N2);
    const open = await waitFor('the second order to be accepted', async () => {
      const [a] = await attemptsOfOrder(h, openId);
      return a?.status === 'accepted' ? a : undefined;
    });
    const checks = sim.stats().calls.status ?? 0;
    assert.equal(await postCallback(h, u.name, completedCallbackBody(u.name, { reference: open.reference, transactionId: open.provider_transaction_id }), 'right'), 200);
    // The check it woke has been made and recorded once the outbox row waits for the next scheduled check again.
    await waitFor('the woken status check to be made and recorded', async () => {
      if ((sim.stats().calls.status ?? 0) <= checks) return false;
      const row = await h.t.database.db.selectFrom('outbox').select(['run_at', 'locked_by']).where('order_item_id', '=', open.order_item_id).executeTakeFirst();
      return row !== undefined && row.locked_by === null && Number(row.run_at) > Date.now() + pollIntervalMs / 2;
    });
    assert.equal((await partnerOrder(h, openId)).state, 'processing');
    assert.deepEqual(await attemptTrail(h, openId), [[u.name, 'accepted']]);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - 2 * UPSTREAM_PRICE, held: UPSTREAM_PRICE });
    assert.deepEqual(sim.stats().deliveries.map((d) => d.reference), [attempt.reference]);
    await assertLedgerClean(h);
  },

  /**
   * Refused for a route reason (by default lack of float): nothing was delivered, the next route
   * (another upstream) delivers; the first was asked once.
   */
  async routeRefusalMovesOn(c: TestContext, u: UpstreamCase, refusal: SimulatedOutcome = 'refuse-float') {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, refusal) });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const attempts = await attemptsOfOrder(h, orderId);
    assert.deepEqual(attempts.map((a) => [a.provider, a.status]), [[u.name, 'refused'], [u.second, 'completed']]);
    assert.equal(await buyCallsAt(h, u.name), 1);
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.equal(await buyCallsAt(h, u.second), 1);
    assert.deepEqual(await deliveriesAt(h, u.second), [{ reference: attempts[1]?.reference, msisdn: intlMsisdn(N1) }]);
    await assertLedgerClean(h);
  },

  /** Refused for the number: the delivery fails with the upstream's reason, refunded; no other upstream is asked. */
  async numberRefusalFails(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, 'refuse-number') });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'failed', JSON.stringify(order));
    assert.equal(order.errorMessage, PARTNER_MESSAGES.number, 'in the partner\'s words');
    await assertPartnerReadsNoUpstream(h, orderId, (await attemptsOfOrder(h, orderId)).map((a) => a.message ?? ''));
    assert.deepEqual(await upstreamWallet(h), before);
    assert.deepEqual(await attemptTrail(h, orderId), [[u.name, 'refused']]);
    // Hubtel refuses the number at its bundle list, before any purchase; the others at the purchase.
    assert.ok((await buyCallsAt(h, u.name)) <= 1 && (await callsAt(h, u.name)) >= 1);
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.equal(await callsAt(h, u.second), 0);
    assert.deepEqual(await orderEventTypes(h, orderId), ['order.failed']);
    await assertLedgerClean(h);
  },

  /** Taken, then failed for a route reason: the next route delivers. */
  async failureAfterAcceptanceMovesOn(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, 'fail-after-accept') });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const attempts = await attemptsOfOrder(h, orderId);
    assert.deepEqual(attempts.map((a) => [a.provider, a.status]), [[u.name, 'failed'], [u.second, 'completed']]);
    assert.equal(await buyCallsAt(h, u.name), 1);
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.equal(await buyCallsAt(h, u.second), 1);
    assert.deepEqual(await deliveriesAt(h, u.second), [{ reference: attempts[1]?.reference, msisdn: intlMsisdn(N1) }]);
    await assertLedgerClean(h);
  },

  /** Taken, then failed for a number reason: the delivery fails (refunded); no other route is tried. */
  async numberFailureAfterAcceptanceFails(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, 'fail-number-after-accept') });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'failed', JSON.stringify(order));
    assert.equal(order.errorMessage, PARTNER_MESSAGES.number, 'in the partner\'s words');
    await assertPartnerReadsNoUpstream(h, orderId, (await attemptsOfOrder(h, orderId)).map((a) => a.message ?? ''));
    assert.deepEqual(await upstreamWallet(h), before);
    assert.deepEqual(await attemptTrail(h, orderId), [[u.name, 'failed']]);
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.equal(await callsAt(h, u.second), 0);
    await assertLedgerClean(h);
  },

  /**
   * The upstream takes the order and its answer never comes in time: the lookup by reference finds
   * it there, it completes there, delivered once, and the second route is never asked.
   */
  async hangFoundByLookup(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, 'hang-after-taking', { hangMs: UPSTREAM_TIMEOUT_MS * 4 }) });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const [attempt, ...more] = await attemptsOfOrder(h, orderId);
    assert.deepEqual(more, []);
    assert.deepEqual([attempt?.provider, attempt?.status], [u.name, 'completed']);
    assert.equal(await buyCallsAt(h, u.name), 1);
    assert.deepEqual(await deliveriesAt(h, u.name), [{ reference: attempt?.reference, msisdn: intlMsisdn(N1) }]);
    assert.equal(await callsAt(h, u.second), 0);
    await assertLedgerClean(h);
  },

  /**
   * A 5xx before the upstream took the order: the lookup proves it absent, so nothing was delivered
   * and the next route is tried at once (a new attempt, a new reference): one submission and one
   * lookup at the first upstream, never a resubmission there while route 2 is usable.
   */
  async absentFailsOverAtOnce(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, true), behaviour: outcome(u, 'error-before-taking') });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    const attempts = await attemptsOfOrder(h, orderId);
    assert.deepEqual(
      attempts.map((a) => [a.provider, a.status, a.absences]),
      [
        [u.name, 'absent', 1],
        [u.second, 'completed', 0],
      ],
    );
    assert.notEqual(attempts[0]?.reference, attempts[1]?.reference, 'a new attempt, a new reference');
    assert.equal(await buyCallsAt(h, u.name), 1, 'submitted once to the upstream that never took it');
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.deepEqual(await deliveriesAt(h, u.second), [{ reference: attempts[1]?.reference, msisdn: intlMsisdn(N1) }]);
    assert.deepEqual(await orderEventTypes(h, orderId), ['order.completed']);
    await assertLedgerClean(h);
  },

  /**
   * The only route's upstream answers 5xx without taking the order, every time: proved absent after
   * each submission, it gets the delivery again under the same reference three more times (four
   * submissions, one attempt), then the delivery fails, refunded, in the partner's words.
   */
  async absentOnlyRouteFailsAfterThreeMore(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, { ...routesOf(u, false), behaviour: outcome(u, 'error-before-taking') });
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    const order = await settledOrder(h, orderId);
    assert.equal(order.state, 'failed', JSON.stringify(order));
    assert.equal(order.errorMessage, PARTNER_MESSAGES.unavailable);
    assert.deepEqual(await upstreamWallet(h), before);
    const attempts = await attemptsOfOrder(h, orderId);
    assert.deepEqual(attempts.map((a) => [a.provider, a.status, a.absences]), [[u.name, 'absent', 4]], 'one attempt, one reference');
    assert.equal(await buyCallsAt(h, u.name), 4, 'the first submission and three more');
    assert.deepEqual(await deliveriesAt(h, u.name), []);
    assert.deepEqual(await orderEventTypes(h, orderId), ['order.failed']);
    await assertLedgerClean(h);
  },

  /**
   * Two calls in a row without an answer rest the upstream (PROVIDER_BREAKER_FAILURES=2): the next
   * order goes straight to route 2 without a call to route 1; once PROVIDER_BREAKER_COOL_MS has
   * passed, route 1 is used again. The two orders it took are followed there (lookups) and delivered once.
   */
  async breakerRestsAndCloses(c: TestContext, u: UpstreamCase) {
    // Long enough for the next order to be bought and planned while the upstream rests, on a loaded
    // machine: the test does not wait it out, it moves the service's clock past it.
    const coolMs = 60_000;
    const h = await startUpstreamHarness(c, {
      ...routesOf(u, true),
      behaviour: outcome(u, 'hang-after-taking', { hangMs: UPSTREAM_TIMEOUT_MS * 4 }),
      env: { PROVIDER_BREAKER_FAILURES: '2', PROVIDER_BREAKER_COOL_MS: String(coolMs) },
      worker: false,
    });
    const sim = h.sim(u.name);
    const before = await upstreamWallet(h);
    // Both queued before the worker starts: one batch submits them together and both time out.
    const first = [await h.buy(N1), await h.buy(N2)];
    h.startWorker();
    await waitFor('both submissions to be answered (timed out)', async () => {
      const attempts = await Promise.all(first.map((id) => attemptsOfOrder(h, id)));
      return attempts.every((list) => list.length === 1 && list[0]?.status !== 'pending');
    });
    // The breaker opened at the second timeout, before now: it rests until at most now + coolMs.
    sim.configure({ outcome: 'complete' });
    const rerouted = await h.buy(N3);
    assert.equal((await settledOrder(h, rerouted)).state, 'completed');
    assert.deepEqual(await attemptTrail(h, rerouted), [[u.second, 'completed']], 'the order bought while the upstream rests goes to route 2');
    assert.equal(await buyCallsAt(h, u.name), 2, 'no call to the resting upstream');
    for (const id of first) assert.equal((await settledOrder(h, id)).state, 'completed');

    h.advanceClock(coolMs + 1);
    const back = await h.buy(N4);
    assert.equal((await settledOrder(h, back)).state, 'completed');
    assert.deepEqual(await attemptTrail(h, back), [[u.name, 'completed']]);
    assert.equal(await buyCallsAt(h, u.name), 3);
    const delivered = await deliveriesAt(h, u.name);
    assert.deepEqual(delivered.map((d) => d.msisdn).sort(), [N1, N2, N4].map(intlMsisdn).sort());
    assert.equal(new Set(delivered.map((d) => d.reference)).size, 3);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - 4 * UPSTREAM_PRICE, held: 0 });
    await assertLedgerClean(h);
  },

  /** 200 orders at once through one worker: at most PROVIDER_CONCURRENCY calls in flight at the upstream, every order delivered once. */
  async concurrencyCapHeld(c: TestContext, u: UpstreamCase) {
    const cap = 8;
    const orders = 200;
    const h = await startUpstreamHarness(c, {
      ...routesOf(u, false),
      behaviour: outcome(u, 'complete', { latencyMs: 50, settleMs: 50 }),
      // A call given up on frees its slot while the simulator may still be answering it: no call of
      // this test is to be given up on, however loaded the machine.
      env: { PROVIDER_CONCURRENCY: String(cap), PROVIDER_TIMEOUT_MS: '20000', WORKER_LEASE_MS: '30000' },
    });
    const sim = h.sim(u.name);
    const before = await upstreamWallet(h);
    const ids: string[] = [];
    for (let i = 0; i < orders; i += 25) {
      const chunk = Array.from({ length: Math.min(25, orders - i) }, (_, j) => `0245${String(100_000 + i + j).padStart(6, '0')}`);
      ids.push(...(await Promise.all(chunk.map((msisdn) => h.buy(msisdn)))));
    }
    await waitFor('every order to settle', async () => (await openOrders(h.t, ids)).length === 0, PROCESS_BUDGET_MS);
    const states = await h.t.database.db.selectFrom('orders').select('state').where('id', 'in', ids).execute();
    assert.deepEqual([...new Set(states.map((s) => s.state))], ['completed']);
    assert.equal(states.length, orders);
    const stats = sim.stats();
    assert.ok(stats.maxInFlight <= cap, `${stats.maxInFlight} calls in flight at once`);
    assert.ok(stats.maxInFlight >= 2, `${stats.maxInFlight} calls in flight at once: the cap was never approached`);
    assert.equal(stats.calls.buy, orders);
    assert.equal(stats.deliveries.length, orders);
    assert.equal(new Set(stats.deliveries.map((d) => d.reference)).size, orders);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - orders * UPSTREAM_PRICE, held: 0 });
    await assertLedgerClean(h);
  },

  /**
   * An upstream that took two orders and then went silent: after DELIVERY_ATTENTION_AFTER_MS the
   * deliveries need attention (on hold, the worker still asking); an admin resolves one as
   * delivered and one as failed: the partner's money, orders and events follow, audited.
   */
  async needsAttentionResolvedByAdmin(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, {
      ...routesOf(u, false),
      behaviour: outcome(u, 'hang-after-taking', { hangMs: 600_000, settleMs: 600_000 }),
      env: { DELIVERY_ATTENTION_AFTER_MS: '1000' },
    });
    const before = await upstreamWallet(h);
    const delivered = await h.buy(N1);
    const failed = await h.buy(N2);
    await waitFor('both orders to reach the upstream', async () => h.sim(u.name).stats().submissions >= 2);
    await h.stopSimulator(u.name);
    const attention = await waitFor('both deliveries to need attention', async () => {
      const listed = await h.t.ctx.deliveries.needingAttention();
      return [delivered, failed].every((id) => listed.some((a) => a.order_id === id)) ? listed : undefined;
    });
    assert.ok(attention.every((a) => a.provider === u.name && (a.status === 'unknown' || a.status === 'pending')));
    assert.equal((await partnerOrder(h, delivered)).state, 'processing');
    assert.deepEqual(await upstreamWallet(h), { available: before.available - 2 * UPSTREAM_PRICE, held: 2 * UPSTREAM_PRICE });

    const admin = staffActor('admin@test');
    // The internal note names the upstream and its ticket: staff only, never the partner's.
    const note = `${u.name} support ticket HT-2291: no such transaction`;
    const partnerMessage = 'We could not deliver this bundle; your wallet was refunded';
    await h.t.ctx.console.resolveDelivery(admin, { order: delivered, outcome: 'completed', note: 'the upstream confirmed the delivery by phone' });
    await h.t.ctx.console.resolveDelivery(admin, { order: failed, outcome: 'failed', note, partnerMessage });

    const completedOrder = await partnerOrder(h, delivered);
    const failedOrder = await partnerOrder(h, failed);
    assert.equal(completedOrder.state, 'completed');
    assert.equal(failedOrder.state, 'failed');
    assert.equal(failedOrder.errorMessage, partnerMessage);
    await assertPartnerReadsNoUpstream(h, failed, [note, 'HT-2291']);
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    assert.deepEqual(await orderEventTypes(h, delivered), ['order.completed']);
    assert.deepEqual(await orderEventTypes(h, failed), ['order.failed']);
    const [doneAttempt] = await attemptsOfOrder(h, delivered);
    const [failedAttempt] = await attemptsOfOrder(h, failed);
    assert.deepEqual([doneAttempt?.status, doneAttempt?.resolved_by], ['completed', 'admin@test']);
    assert.deepEqual([failedAttempt?.status, failedAttempt?.resolved_by], ['failed', 'admin@test']);
    const audit = await h.t.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'order.resolve').orderBy('id').execute();
    assert.deepEqual(
      audit.map((a) => {
        const detail = JSON.parse(a.detail ?? '{}') as { outcome?: string; note?: string; partnerMessage?: string };
        return [a.actor, a.record_id, a.outcome, detail.outcome, detail.note, detail.partnerMessage];
      }),
      [
        ['admin@test', delivered, 'ok', 'completed', 'the upstream confirmed the delivery by phone', undefined],
        ['admin@test', failed, 'ok', 'failed', note, partnerMessage],
      ],
    );
    assert.equal(failedAttempt?.message, `resolved by admin@test: ${note}`, 'staff keep the note on the attempt');
    assert.deepEqual(
      (await h.t.ctx.deliveries.needingAttention()).filter((a) => a.order_id === delivered || a.order_id === failed),
      [],
    );
    // Settled means out of the worker's hands: no outbox row is left for either.
    const rows = await h.t.database.db.selectFrom('outbox').select('id').where('order_item_id', 'in', [doneAttempt?.order_item_id ?? '', failedAttempt?.order_item_id ?? '']).execute();
    assert.deepEqual(rows, []);
    await assertLedgerClean(h);
  },

  /**
   * `cli worker` killed (SIGKILL) while its call to the upstream is in flight, before it could
   * record the answer: a new worker looks the attempt up by its reference and completes the order;
   * the upstream delivered once.
   */
  async workerKilledMidCall(c: TestContext, u: UpstreamCase) {
    const h = await startUpstreamHarness(c, {
      ...routesOf(u, true),
      behaviour: outcome(u, 'hang-after-taking', { hangMs: 600_000 }),
      worker: false,
    });
    const sim = h.sim(u.name);
    const before = await upstreamWallet(h);
    const orderId = await h.buy(N1);
    // A long provider timeout: the first worker is still waiting for the answer when it is killed.
    const processEnv = { PROVIDER_TIMEOUT_MS: '20000', WORKER_LEASE_MS: '21000', WORKER_HEARTBEAT_TIMEOUT_MS: '2000' };
    const first = await h.spawnWorker(processEnv);
    await waitFor('the submission to reach the upstream', async () => sim.stats().submissions >= 1, PROCESS_BUDGET_MS);
    first.child.kill('SIGKILL');
    await first.exited();
    const [pending] = await attemptsOfOrder(h, orderId);
    assert.equal(pending?.status, 'pending', 'the attempt was recorded before the call, its answer never');
    assert.equal((await partnerOrder(h, orderId)).state !== 'completed', true);

    sim.configure({ outcome: 'complete', hangMs: 0 });
    await h.spawnWorker(processEnv);
    const order = await settledOrder(h, orderId, PROCESS_BUDGET_MS);
    assert.equal(order.state, 'completed', JSON.stringify(order));
    assert.deepEqual(await upstreamWallet(h), { available: before.available - UPSTREAM_PRICE, held: 0 });
    assert.deepEqual(await attemptTrail(h, orderId), [[u.name, 'completed']]);
    assert.equal(await buyCallsAt(h, u.name), 1);
    assert.deepEqual(await deliveriesAt(h, u.name), [{ reference: pending?.reference, msisdn: intlMsisdn(N1) }]);
    // Never sent to the second upstream. (A `cli worker` also reads every upstream's float and
    // books on its own timers, so calls of other kinds may reach it: only purchases count here.)
    assert.equal(await buyCallsAt(h, u.second), 0);
    await assertLedgerClean(h);
  },
};
