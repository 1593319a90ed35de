// npm run bench [-- --full]: the service under HTTP load, every figure a ratio to a node:http ceiling
// measured in the same run, beside the issue's baselines (bench/baselines.mjs, SQLite runs).
// BENCH_DATABASE_URL=postgres://… benchmarks PostgreSQL instead of SQLite.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, type Database } from '../src/db/connection.js';
import {
  numberSource,
  PURCHASE_SCENARIOS,
  READ_SCENARIOS,
  UPSTREAM_SCENARIOS,
  type ScenarioName,
  type ScenarioParams,
} from './scenarios.js';
import { buildBenchSeed, BULK_KEY, BULK_PROFILE } from './seed.js';
import { benchServiceEnv, cpuSeconds, freePort, SERVICE_NODE_OPTIONS } from './service-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * A/B mode: BENCH_SERVER_ROOT=<a work tree of another revision, built (npm ci && npm run build)>.
 * That tree's service (its dist/cli/index.js, seeded by its own `cli import` into its own database)
 * runs beside this one, and every scenario is measured BENCH_AB_ROUNDS times on each, alternating
 * (this, other; other, this; …); the summary gives the medians and this build's ratio to the other.
 * BENCH_THIS_ROOT=<another built work tree> measures that tree as "this" instead of this checkout,
 * to compare two earlier revisions (the bench itself, its baselines and the ceiling stay this checkout's).
 */
const THIS_ROOT = process.env.BENCH_THIS_ROOT ? path.resolve(process.env.BENCH_THIS_ROOT) : ROOT;
const OTHER_ROOT = process.env.BENCH_SERVER_ROOT ? path.resolve(process.env.BENCH_SERVER_ROOT) : null;
const ROUNDS = OTHER_ROOT ? Number(process.env.BENCH_AB_ROUNDS ?? 3) : 1;
/** A/B: every scenario at this share of the other build's req/s or more. */
const AB_TARGET = 0.9;
const full = process.argv.includes('--full');
const connectionCounts = full ? [50, 200] : [50];
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
/** The ceiling is measured again after every scenario, this long (see the load loop in main). */
const CEILING_CHECK_S = Math.min(DURATION_S, 5);
const PROFILES = 300;
/** BENCH_SERVICE_NODE_ARGS: node options for the service only, after those of `npm start` (SERVICE_NODE_OPTIONS), e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVICE_NODE_ARGS = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
/**
 * BENCH_SERVICE_CPUS=<taskset list>, e.g. "0": the services run pinned to these CPUs (and so do
 * the ceiling and the baselines, the servers they are compared with), and BENCH_RIG_CPUS (e.g. "1")
 * pins what drives and answers them (the load generator, the upstream simulator), as the issue
 * measured "the service and its inline worker pinned on one core". Unset: no pinning.
 */
const SERVICE_CPUS = process.env.BENCH_SERVICE_CPUS?.trim() || null;
const RIG_CPUS = process.env.BENCH_RIG_CPUS?.trim() || null;
/** `node <args>`, under `taskset -c <cpus>` when given: the command and its arguments for spawn. */
const node = (cpus: string | null, args: string[]): [string, string[]] =>
  cpus === null ? [process.execPath, args] : ['taskset', ['-c', cpus, process.execPath, ...args]];
/** BENCH_SCENARIOS=a,b,…: only these scenarios and baselines (all when unset). */
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : null;
const selected = (name: string) => ONLY === null || ONLY.has(name);

/**
 * `buy-single-upstream`: live buy-singles routed to the Reloadly simulator (bench/simulator.ts, a
 * process of its own), which answers every call 300 ms late and completes a top-up 2 s after taking
 * it. Status checks alone follow them (no callbacks): the first comes the worker's poll interval
 * (2 s) after the top-up was accepted, so no delivery completes in less than ~2.6 s.
 */
const UPSTREAM_LATENCY_MS = 300;
const UPSTREAM_SETTLE_MS = 2_000;
/**
 * PROVIDER_CONCURRENCY for the bench: a delivery through the simulator is two calls of ≥ 300 ms
 * (the top-up, then its status check), so C calls in flight carry at most C / 0.6 deliveries a
 * second. The default (32) would cap the scenario at ~53 a second and measure the cap, not the
 * service; 1 024 (the largest value the configuration takes) carries ~1 700 a second, above what
 * the sandbox's lifecycle reaches here, so the comparison with it measures the worker. The
 * simulator's maxInFlight must stay at or below it (the gate's promise).
 */
const UPSTREAM_CONCURRENCY = 1_024;

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  max: number;
  total: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** When the load's first request went out and its last answer came in (ms since the epoch). */
  startedAt: number;
  lastAnswerAt: number;
}

/** The issue's baselines (bench/baselines.mjs): the same work without our service logic, SQLite only. */
const BASELINES = [
  { name: 'baseline-read', mode: 'read', requests: 'profile' },
  { name: 'baseline-purchase-each', mode: 'purchase-each', requests: 'buy-single-spread' },
  { name: 'baseline-purchase-group', mode: 'purchase-group', requests: 'buy-single-spread' },
] as const;
type BaselineName = (typeof BASELINES)[number]['name'];

interface Row extends LoadResult {
  scenario: ScenarioName | BaselineName;
  /** Which build served it: 'this', or the other tree's directory name (A/B mode). */
  server: string;
  round: number;
  connections: number;
  /** The ceiling this row is divided by: the mean of the ceiling runs just before and just after it. */
  ceilingRps: number;
  ratio: number;
  ordersCreated?: number;
  /** Purchases: seconds the worker still needed, after the scenario, to deliver its orders (null: over the limit). */
  deliveredAfterS?: number | null;
  /** Purchases delivered through the outbox: orders completed by the end of the drain. */
  delivered?: number;
  /** Seconds from the load's first request to its last answer (its window, the connections' start and the requests in flight at its end). */
  loadSpanS?: number;
  /** Purchases delivered through the outbox: deliveries completed per second over the load's last seconds (loadSampled). */
  steadyDeliveredPerS?: number;
  /** Purchases: the service's CPU (user + system, every thread) from the load's start to the drain's end, per order. */
  cpuMsPerOrder?: number;
  /** `buy-single-upstream`: the most calls the simulator had in flight at once, so far. */
  upstreamMaxInFlight?: number;
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function runCli(root: string, args: string[], env: NodeJS.ProcessEnv): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'dist/cli/index.js'), ...args], { env, encoding: 'utf8' });
  return { code: r.status, out: `${r.stdout}${r.stderr}`.trim() };
}

function load(url: string, connections: number, scenario: ScenarioParams, durationS: number): LoadResult {
  const args = JSON.stringify({ url, connections, durationS, scenario });
  const r = spawnSync(...node(RIG_CPUS, ['--import', 'tsx', path.join(ROOT, 'bench/load.ts'), args]), {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`load ${scenario.name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
}

/** How often the bench counts deliveries while a purchase load runs, and over how long a span at its end it reads their rate. */
const SAMPLE_EVERY_MS = 250;
const STEADY_SPAN_S = 5;

/**
 * load(), run in the background while `count` is sampled every SAMPLE_EVERY_MS: the result, and
 * what `count` gave over the load's last STEADY_SPAN_S seconds, per second (null when the load was
 * shorter): deliveries completed per second in the steady state, before the drain's tail.
 */
async function loadSampled(
  url: string,
  connections: number,
  scenario: ScenarioParams,
  durationS: number,
  count: () => Promise<number>,
): Promise<{ result: LoadResult; steadyPerS: number | null }> {
  const args = JSON.stringify({ url, connections, durationS, scenario });
  const child = spawn(...node(RIG_CPUS, ['--import', 'tsx', path.join(ROOT, 'bench/load.ts'), args]), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  const samples: { at: number; n: number }[] = [];
  let running = true;
  void exited.then(() => (running = false));
  while (running) {
    samples.push({ at: Date.now(), n: await count() });
    await Promise.race([exited, new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS))]);
  }
  if ((await exited) !== 0) throw new Error(`load ${scenario.name} failed: ${err}`);
  const result = JSON.parse(out.trim().split('\n').pop() ?? '{}') as LoadResult;
  // The load's last STEADY_SPAN_S seconds: its window closes about when the process ends.
  const end = samples.at(-1);
  const start = end ? [...samples].reverse().find((x) => x.at <= end.at - STEADY_SPAN_S * 1000) : undefined;
  const steadyPerS = end && start && durationS >= STEADY_SPAN_S ? ((end.n - start.n) * 1000) / (end.at - start.at) : null;
  return { result, steadyPerS };
}

/** Orders a 2xx of the scenario stands for (a refused result-checker attempt leaves a failed order). */
async function orderCount(database: Database, scenario: ScenarioName): Promise<number> {
  let query = database.read.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n'));
  query =
    scenario === 'rc-buy-single'
      ? query.where('order_type', '=', 'result_checker').where('state', '=', 'completed')
      : query.where('order_type', '=', 'data');
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** Data orders completed: delivered, whatever the scenario. */
async function completedCount(database: Database): Promise<number> {
  const { n } = await database.read
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('order_type', '=', 'data')
    .where('state', '=', 'completed')
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** Bulk orders of BULK_KEY's SuperAgent, and recipients in each: the page `orders-page-bulk` reads. */
const BULK_ORDERS = 20;
const BULK_RECIPIENTS = 20;

/**
 * Places the bulk orders of `orders-page-bulk` through the API, one after the other (so each is
 * newer than the last), and waits until the worker has delivered every recipient: the page then
 * shows 20 completed bulk orders, as a reseller's history would. Numbers come from run space 0,
 * which no scenario uses.
 */
async function placeBulkOrders(serviceUrl: string, catalog: ScenarioParams['catalog'], database: Database): Promise<void> {
  const number = numberSource(0, 0);
  for (let i = 0; i < BULK_ORDERS; i++) {
    const body = {
      operatorId: catalog.operatorId,
      productId: catalog.productId,
      items: Array.from({ length: BULK_RECIPIENTS }, (_, j) => ({
        packageId: catalog.packageIds[j % catalog.packageIds.length],
        beneficiaryMsisdn: number(),
      })),
    };
    const response = await fetch(`${serviceUrl}/api/v1/data-bundles/buy-bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': BULK_KEY },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`bulk order ${i} for orders-page-bulk: ${response.status} ${await response.text()}`);
  }
  if ((await waitForDeliveries(database)) === null) throw new Error('the bulk orders of orders-page-bulk were not delivered');
  const { n } = await database.read
    .selectFrom('orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('profile_id', '=', BULK_PROFILE)
    .where('is_bulk', '=', 1)
    .where('state', '=', 'completed')
    .executeTakeFirstOrThrow();
  if (Number(n) !== BULK_ORDERS) throw new Error(`orders-page-bulk: ${n} of ${BULK_ORDERS} bulk orders completed`);
}

/** Longest wait for the worker to deliver a purchase scenario's orders before going on. */
const DRAIN_LIMIT_MS = 180_000;

/** How often the drain's end is looked for: its resolution. */
const DRAIN_POLL_MS = 50;

/**
 * Waits until the outbox is empty: every order the scenario accepted has been delivered. Returns
 * the seconds from `since` (by default now; a load's last answer) until it was, or null if it did
 * not empty within DRAIN_LIMIT_MS.
 */
async function waitForDeliveries(database: Database, since = Date.now()): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < DRAIN_LIMIT_MS) {
    const { n } = await database.read
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) === 0) return Math.max(Date.now() - since, 0) / 1000;
    await new Promise((r) => setTimeout(r, DRAIN_POLL_MS));
  }
  return null;
}


function peakRssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Math.round(Number(kb) / 1024) : null;
  } catch {
    return null;
  }
}

async function preparePostgres(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `partner_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** One build of the service under test: its tree, its own database, its process. */
interface Server {
  label: string;
  root: string;
  env: NodeJS.ProcessEnv;
  url: string;
  process: ChildProcess;
  observer: Database;
  engine: 'sqlite' | 'postgres';
  sqliteFile: string | null;
  drop: (() => Promise<void>) | null;
  /** The upstream simulator this build delivers `buy-single-upstream` through, or null (a build without upstreams). */
  upstream: { url: string; pid: number | undefined } | null;
}

const CATALOG: ScenarioParams['catalog'] = {
  operatorId: 'op_mtn',
  productId: 'prd_mtn_data',
  packageIds: ['pkg_mtn_1gb', 'pkg_mtn_2gb', 'pkg_mtn_3gb'],
  upstreamPackageIds: ['pkg_mtn_5gb', 'pkg_mtn_10gb', 'pkg_mtn_20gb'],
  rcPackageId: 'rcp_wassce',
};

/** The routes of the bench's seed: the upstream scenario's packages to Reloadly (an operator id and a local amount in GHS). */
const UPSTREAM_ROUTES: Record<string, unknown[]> = Object.fromEntries(
  CATALOG.upstreamPackageIds.map((id, i) => [id, [{ provider: 'reloadly', operatorId: 643, amount: [20, 50, 100][i] ?? 20 }]]),
);

/** Whether a built tree delivers through upstreams (issue 25): it has package routes and the Reloadly simulator. */
const hasUpstreams = (root: string) =>
  fs.existsSync(path.join(root, 'dist/modules/package-routes')) && fs.existsSync(path.join(root, 'dist/providers/reloadly/simulator.js'));

/** Starts `root`'s Reloadly simulator in a process of its own (bench/simulator.ts); resolves with its URL and variables. */
async function startSimulator(
  root: string,
  children: ChildProcess[],
): Promise<{ url: string; env: Record<string, string>; pid: number | undefined }> {
  const args = JSON.stringify({ root, latencyMs: UPSTREAM_LATENCY_MS, settleMs: UPSTREAM_SETTLE_MS });
  const child = spawn(...node(RIG_CPUS, ['--import', 'tsx', path.join(ROOT, 'bench/simulator.ts'), args]), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line && out.includes('\n')) resolve({ ...(JSON.parse(line) as { url: string; env: Record<string, string> }), pid: child.pid });
    });
    child.once('exit', (code) => reject(new Error(`the Reloadly simulator exited with ${code}`)));
  });
}

/** The simulator's state (GET /_sim/state): the most calls it had in flight at once, and the calls per endpoint so far. */
async function simulatorState(url: string): Promise<{ maxInFlight: number; calls: Record<string, number> }> {
  const state = (await (await fetch(`${url}/_sim/state`)).json()) as { stats: { maxInFlight: number; calls: Record<string, number> } };
  return state.stats;
}

/**
 * Seeds a fresh database through the tree's own `cli import`, starts its `cli serve`, places the bulk
 * orders. A build with upstreams gets its Reloadly simulator first (when the upstream scenario runs),
 * and the upstream packages' routes.
 */
async function startServer(label: string, root: string, work: string, children: ChildProcess[]): Promise<Server> {
  const upstreams = hasUpstreams(root);
  const simulator = upstreams && UPSTREAM_SCENARIOS.some(selected) ? await startSimulator(root, children) : null;
  const pgDb = process.env.BENCH_DATABASE_URL ? await preparePostgres(process.env.BENCH_DATABASE_URL) : null;
  const sqliteFile = pgDb ? null : path.join(work, `bench-${label}.db`);
  const databaseUrl = pgDb?.url ?? `sqlite:${sqliteFile}`;
  const engine = pgDb ? 'postgres' : 'sqlite';
  const env: NodeJS.ProcessEnv = {
    ...benchServiceEnv(databaseUrl),
    ...(simulator ? { ...simulator.env, PROVIDER_CONCURRENCY: String(UPSTREAM_CONCURRENCY) } : {}),
  };
  const seedFile = path.join(work, `bench-seed-${label}.json`);
  const seed = buildBenchSeed(path.join(root, 'examples/demo-seed.json'), {
    profiles: PROFILES,
    // More than the fastest result-checker run sells, so none of its answers is "out of stock".
    credentials: full || ROUNDS > 1 ? 200_000 : 100_000,
    pastOrders: 20_000,
    routes: upstreams ? UPSTREAM_ROUTES : null,
  });
  fs.writeFileSync(seedFile, JSON.stringify(seed));
  const started = Date.now();
  const imported = runCli(root, ['import', seedFile], env);
  if (imported.code !== 0) throw new Error(`import (${label}) failed: ${imported.out}`);
  console.log(`seeded ${engine} for ${label} (${root}) through cli import in ${((Date.now() - started) / 1000).toFixed(1)} s; the service starts as npm start does: node ${[...SERVICE_NODE_OPTIONS, ...SERVICE_NODE_ARGS].join(' ')}`);
  const port = await freePort();
  const child = spawn(...node(SERVICE_CPUS, [...SERVICE_NODE_OPTIONS, ...SERVICE_NODE_ARGS, path.join(root, 'dist/cli/index.js'), 'serve']), {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child);
  const observer = await connect(databaseUrl, { poolSize: 2 });
  await placeBulkOrders(url, CATALOG, observer);
  return {
    label,
    root,
    env,
    url,
    process: child,
    observer,
    engine,
    sqliteFile,
    drop: pgDb ? () => pgDb.drop() : null,
    upstream: simulator ? { url: simulator.url, pid: simulator.pid } : null,
  };
}

/**
 * Deliveries completed per second of a purchase run: its completed orders over the seconds from its
 * first request to the outbox's being empty (the load's span and the drain after its last answer).
 */
const deliveredPerS = (row: Row): number | null =>
  row.delivered === undefined || row.deliveredAfterS === undefined || row.deliveredAfterS === null
    ? null
    : row.delivered / ((row.loadSpanS ?? DURATION_S) + row.deliveredAfterS);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-'));
  const children: ChildProcess[] = [];
  const servers: Server[] = [];
  const cleanup = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const server of servers) await server.drop?.().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    servers.push(await startServer('this', THIS_ROOT, work, children));
    if (OTHER_ROOT) servers.push(await startServer(path.basename(OTHER_ROOT), OTHER_ROOT, work, children));
    const [self] = servers;
    if (!self) throw new Error('no server');
    const engine = self.engine;
    const ceilingPort = await freePort();
    const ceiling = spawn(...node(SERVICE_CPUS, [path.join(ROOT, 'bench/ceiling.mjs')]), {
      env: { ...process.env, PORT: String(ceilingPort) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(ceiling);
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
    await waitFor(ceilingUrl, ceiling);

    const rows: Row[] = [];
    /** The ceiling runs after each scenario (the first, full one is the `ceiling` row). */
    const ceilingChecks: number[] = [];
    // Run space 0 placed the bulk orders; each purchase run takes the next.
    let numberSpace = 1;
    const started = Date.now();
    for (const connections of connectionCounts) {
      // Each purchase run draws beneficiary numbers from its own space, so none is blocked as in flight.
      const scenario = (name: ScenarioName): ScenarioParams => ({
        name,
        profiles: PROFILES,
        numberSpace: PURCHASE_SCENARIOS.includes(name) ? numberSpace++ : 0,
        catalog: CATALOG,
      });
      const measure = (url: string, name: ScenarioName) => {
        if (WARMUP_S > 0) load(url, connections, scenario(name), WARMUP_S);
        return load(url, connections, scenario(name), DURATION_S);
      };
      const top = measure(ceilingUrl, 'ceiling');
      rows.push({ ...top, scenario: 'ceiling', server: '', round: 1, connections, ceilingRps: top.rps, ratio: 1 });
      // This machine's speed can drift by several times within minutes (other tenants), so one
      // ceiling measured at the start cannot stand for the whole run: it is measured again after
      // each scenario, and each scenario is divided by the mean of the two runs around it.
      let ceilingBefore = top.rps;
      const ceilingAround = () => {
        const ceilingAfter = load(ceilingUrl, connections, scenario('ceiling'), CEILING_CHECK_S).rps;
        ceilingChecks.push(ceilingAfter);
        const mean = (ceilingBefore + ceilingAfter) / 2;
        ceilingBefore = ceilingAfter;
        return { ceilingAfter, ceilingRps: mean };
      };

      for (let round = 1; round <= ROUNDS; round++) {
        // The baselines read this build's SQLite file (keys, profiles, wallets), one process each.
        for (const baseline of engine === 'sqlite' && self.sqliteFile ? BASELINES.filter((b) => selected(b.name)) : []) {
          const port = await freePort();
          const child = spawn(...node(SERVICE_CPUS, [path.join(ROOT, 'bench/baselines.mjs')]), {
            env: {
              ...process.env,
              PORT: String(port),
              BASELINE: baseline.mode,
              SERVICE_DB: self.sqliteFile ?? undefined,
              WORK_DB: path.join(work, `${baseline.mode}.db`),
            },
            stdio: ['ignore', 'ignore', 'inherit'],
          });
          children.push(child);
          const url = `http://127.0.0.1:${port}`;
          await waitFor(`${url}/healthz`, child);
          const result = measure(url, baseline.requests);
          child.kill('SIGTERM');
          await new Promise((r) => child.once('exit', r));
          const { ceilingAfter, ceilingRps } = ceilingAround();
          rows.push({
            ...result,
            scenario: baseline.name,
            server: '',
            round,
            connections,
            ceilingRps,
            ratio: result.rps / ceilingRps,
          });
          console.log(
            `  ${baseline.name} @${connections}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms; ceiling ${Math.round(ceilingAfter)} req/s after it`,
          );
        }

        for (const name of [...READ_SCENARIOS, ...PURCHASE_SCENARIOS].filter(selected)) {
          // Who goes first alternates round by round (this, other; other, this; …), so neither build
          // always runs right after the other's backlog or the ceiling check.
          for (const server of round % 2 === 1 ? servers : [...servers].reverse()) {
            if (UPSTREAM_SCENARIOS.includes(name) && server.upstream === null) {
              if (round === 1) console.log(`  ${name} [${server.label}]: skipped, this build has no upstreams`);
              continue;
            }
            const isPurchase = PURCHASE_SCENARIOS.includes(name);
            // Data orders go through the outbox; a result-checker sale is synchronous.
            const delivers = isPurchase && name !== 'rc-buy-single';
            if (WARMUP_S > 0) {
              load(server.url, connections, scenario(name), WARMUP_S);
              // The warm-up's deliveries are not the measured run's work.
              if (delivers) await waitForDeliveries(server.observer);
            }
            const before = isPurchase ? await orderCount(server.observer, name) : 0;
            const completedBefore = delivers ? await completedCount(server.observer) : 0;
            const cpuBefore = cpuSeconds(server.process.pid);
            const simulatorCpuBefore = cpuSeconds(server.upstream?.pid);
            const loadStarted = Date.now();
            const { result, steadyPerS } = delivers
              ? await loadSampled(server.url, connections, scenario(name), DURATION_S, () => completedCount(server.observer))
              : { result: load(server.url, connections, scenario(name), DURATION_S), steadyPerS: null };
            const ordersCreated = isPurchase ? (await orderCount(server.observer, name)) - before : undefined;
            // The worker's backlog is this scenario's work: it must not run during the ceiling's
            // measure or the next scenario.
            // From the load's last answer: the load process's exit and the count above are not the worker's time.
            const deliveredAfterS = delivers ? await waitForDeliveries(server.observer, result.lastAnswerAt) : undefined;
            const delivered = delivers ? (await completedCount(server.observer)) - completedBefore : undefined;
            const cpuMs = (cpuSeconds(server.process.pid) - cpuBefore) * 1000;
            // The simulator's share of a core over the load and the drain (it shares the machine).
            const simulatorCores = (cpuSeconds(server.upstream?.pid) - simulatorCpuBefore) / ((Date.now() - loadStarted) / 1000);
            const upstreamState = UPSTREAM_SCENARIOS.includes(name) && server.upstream ? await simulatorState(server.upstream.url) : null;
            const upstreamMaxInFlight = upstreamState?.maxInFlight;
            const { ceilingAfter, ceilingRps } = ceilingAround();
            const row: Row = {
              ...result,
              scenario: name,
              server: server.label,
              round,
              connections,
              ceilingRps,
              ratio: result.rps / ceilingRps,
            };
            if (ordersCreated !== undefined) row.ordersCreated = ordersCreated;
            if (ordersCreated) row.cpuMsPerOrder = cpuMs / ordersCreated;
            if (deliveredAfterS !== undefined) row.deliveredAfterS = deliveredAfterS;
            if (delivered !== undefined) row.delivered = delivered;
            row.loadSpanS = (result.lastAnswerAt - result.startedAt) / 1000;
            if (steadyPerS !== null) row.steadyDeliveredPerS = steadyPerS;
            if (upstreamMaxInFlight !== undefined) row.upstreamMaxInFlight = upstreamMaxInFlight;
            rows.push(row);
            const lifecycles = deliveredPerS(row);
            const deliveredText =
              deliveredAfterS === undefined
                ? ''
                : `; delivered ${deliveredAfterS === null ? 'not all within the limit' : `${deliveredAfterS.toFixed(1)} s later`}` +
                  (lifecycles === null
              ? ''
              : ` (${delivered} completed, ${Math.round(lifecycles)} deliveries/s over the load's ${(row.loadSpanS ?? 0).toFixed(1)} s and the drain`) +
                  (steadyPerS === null ? '' : `, ${Math.round(steadyPerS)}/s over the load's last ${STEADY_SPAN_S} s`) +
                  (lifecycles === null ? '' : ')') +
                  (row.cpuMsPerOrder === undefined ? '' : `; service CPU ${row.cpuMsPerOrder.toFixed(2)} ms per order`);
            const upstreamText =
              upstreamState === null
                ? ''
                : `; upstream calls in flight at most ${upstreamState.maxInFlight} (cap ${UPSTREAM_CONCURRENCY}), ` +
                  `the simulator busy ${Math.round(simulatorCores * 100)}% of a core, calls so far ` +
                  Object.entries(upstreamState.calls)
                    .map(([endpoint, n]) => `${endpoint} ${n}`)
                    .join(', ');
            const who = servers.length > 1 ? ` [${server.label} #${round}]` : '';
            console.log(
              `  ${name}${who} @${connections}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}${deliveredText}${upstreamText}; ceiling ${Math.round(ceilingAfter)} req/s after it`,
            );
          }
        }
      }
    }
    const rssMb = peakRssMb(self.process.pid);
    console.log(`load phase took ${((Date.now() - started) / 1000).toFixed(0)} s`);

    // Every acknowledged purchase must be a durable order, and the books must balance.
    const durable = rows.filter((r) => r.ordersCreated !== undefined);
    const verifications: { label: string; code: number | null; out: string }[] = [];
    for (const server of servers) {
      server.process.kill('SIGTERM');
      await new Promise((r) => server.process.once('exit', r));
      verifications.push({ label: server.label, ...runCli(server.root, ['ledger', 'verify'], server.env) });
      await server.observer.close();
    }
    const verifyOk = verifications.every((v) => v.code === 0);

    /** The median over the rounds of this build's rows of `name` at 50 connections (its ratio to the ceiling, or a field). */
    const rowsOf = (name: Row['scenario'], server = self.label) =>
      rows.filter((r) => r.connections === 50 && r.scenario === name && (r.server === server || r.server === ''));
    const medianOf = (name: Row['scenario'], pick: (r: Row) => number = (r) => r.ratio, server = self.label) => {
      const found = rowsOf(name, server);
      return found.length ? median(found.map(pick)) : null;
    };
    const reads = READ_SCENARIOS.filter(selected);
    const purchases = PURCHASE_SCENARIOS.filter(selected);
    const spreadRatio = medianOf('buy-single-spread');
    const spreadP99 = medianOf('buy-single-spread', (r) => r.p99);
    // Each scenario read against what this machine gives the bare work (the issue's baselines), in the same run.
    const baseRead = medianOf('baseline-read');
    const baseGroup = medianOf('baseline-purchase-group');
    const against = (name: ScenarioName, base: number | null) => {
      const ratio = medianOf(name);
      return ratio !== null && base ? ratio / base : null;
    };
    const bulkPage = medianOf('orders-page-bulk', (r) => r.rps);
    const singlePage = medianOf('orders-page', (r) => r.rps);
    const slowerBy = bulkPage && singlePage ? singlePage / bulkPage : null;
    const profileVersusRead = against('profile', baseRead);
    const spreadVersusGroup = against('buy-single-spread', baseGroup);
    const spreadDelivered = medianOf('buy-single-spread', (r) => r.deliveredAfterS ?? Number.POSITIVE_INFINITY);
    /** Per purchase scenario that delivers through the outbox: the median seconds until the outbox was empty after its load. */
    const drainOf = (name: ScenarioName, server = self.label) => {
      const found = rowsOf(name, server).filter((r) => r.deliveredAfterS !== undefined);
      return found.length ? median(found.map((r) => r.deliveredAfterS ?? Number.POSITIVE_INFINITY)) : null;
    };
    const drained = purchases.flatMap((name) => {
      const seconds = drainOf(name);
      return seconds === null ? [] : [{ scenario: name, seconds }];
    });
    const baselines =
      engine === 'sqlite'
        ? {
            read: baseRead,
            purchaseEach: medianOf('baseline-purchase-each'),
            purchaseGroup: baseGroup,
            profileVersusRead,
            spreadVersusGroup,
            readsVersusRead: Object.fromEntries(reads.map((n) => [n, against(n, baseRead)])),
            purchasesVersusGroup: Object.fromEntries(purchases.map((n) => [n, against(n, baseGroup)])),
          }
        : null;
    // buy-single-upstream against the sandbox's lifecycle (buy-single-spread) of the same run, paired round by round.
    const upstreamRows = rowsOf('buy-single-upstream').filter((r) => r.server === self.label);
    const upstream = upstreamRows.length
      ? (() => {
          const lifecycles = (rs: Row[]) => rs.flatMap((r) => (deliveredPerS(r) === null ? [] : [deliveredPerS(r) ?? 0]));
          const spreadRows = rowsOf('buy-single-spread').filter((r) => r.server === self.label);
          const ratios = upstreamRows.flatMap((r) => {
            const up = deliveredPerS(r);
            const sandbox = spreadRows.find((x) => x.round === r.round);
            const base = sandbox ? deliveredPerS(sandbox) : null;
            return up !== null && base ? [up / base] : [];
          });
          const upstreamLifecycles = lifecycles(upstreamRows);
          const sandboxLifecycles = lifecycles(spreadRows);
          const steadyRatios = upstreamRows.flatMap((r) => {
            const sandbox = spreadRows.find((x) => x.round === r.round);
            return r.steadyDeliveredPerS !== undefined && sandbox?.steadyDeliveredPerS ? [r.steadyDeliveredPerS / sandbox.steadyDeliveredPerS] : [];
          });
          return {
            // Answers in the measured window per second (every one a 2xx here: the durability check says so).
            acceptedPerS: median(upstreamRows.map((r) => r.rps)),
            sandboxAcceptedPerS: median(spreadRows.map((r) => r.rps)),
            deliveredPerS: upstreamLifecycles.length ? median(upstreamLifecycles) : null,
            sandboxDeliveredPerS: sandboxLifecycles.length ? median(sandboxLifecycles) : null,
            ratio: ratios.length ? median(ratios) : null,
            /** The same, over the loads' last seconds only (no pipeline filling, no drain). */
            steadyRatio: steadyRatios.length ? median(steadyRatios) : null,
            maxInFlight: Math.max(...upstreamRows.map((r) => r.upstreamMaxInFlight ?? 0)),
            cap: UPSTREAM_CONCURRENCY,
            drainS: drainOf('buy-single-upstream'),
          };
        })()
      : null;
    /** A/B: per scenario, each build's median req/s and p99, and this build's median ratio to the other's (paired by round). */
    const other = servers[1];
    const cpuOf = (found: Row[]): number | null => {
      const values = found.flatMap((r) => (r.cpuMsPerOrder === undefined ? [] : [r.cpuMsPerOrder]));
      return values.length ? median(values) : null;
    };
    const ab = other
      ? [...reads, ...purchases].map((name) => {
          // A round in which either build refused or dropped answers measured something else (every
          // scenario's requests are meant to succeed): it is left out of the pair, and said below.
          const clean = (r: Row) => r.non2xx + r.errors + r.timeouts === 0;
          const mine = rowsOf(name, self.label).filter(clean);
          const theirs = rowsOf(name, other.label).filter(clean);
          const paired = mine.flatMap((r) => {
            const t = theirs.find((x) => x.round === r.round);
            return t && t.rps > 0 ? [r.rps / t.rps] : [];
          });
          return {
            scenario: name,
            runs: Math.min(mine.length, theirs.length),
            thisRps: median(mine.map((r) => r.rps)),
            otherRps: median(theirs.map((r) => r.rps)),
            thisP99: median(mine.map((r) => r.p99)),
            otherP99: median(theirs.map((r) => r.p99)),
            ratio: paired.length ? median(paired) : null,
            /** Rounds left out because a build's answers were not all 2xx. */
            unclean: rowsOf(name, self.label).length + rowsOf(name, other.label).length - mine.length - theirs.length,
            thisDrainS: drainOf(name, self.label),
            otherDrainS: drainOf(name, other.label),
            // The service's CPU per order (all its threads): what a purchase costs each build, less
            // moved than req/s by the machine's speed, but still by what shares its core.
            thisCpuMs: cpuOf(mine),
            otherCpuMs: cpuOf(theirs),
          };
        })
      : null;
    const summary = {
      engine,
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', node: process.version },
      loadAverage: os.loadavg(),
      durationS: DURATION_S,
      rounds: ROUNDS,
      servers: servers.map((s) => ({ label: s.label, root: s.root })),
      peakRssMb: rssMb,
      ceilingChecks,
      baselines,
      orderPages: { bulkRps: bulkPage, singleRps: singlePage, singleOverBulk: slowerBy },
      ab,
      drainS: Object.fromEntries(drained.map((d) => [d.scenario, Number.isFinite(d.seconds) ? d.seconds : null])),
      upstream: upstream && { ...upstream, drainS: upstream.drainS !== null && Number.isFinite(upstream.drainS) ? upstream.drainS : null },
      ledgerVerify: verifications,
      ledgerVerifyOk: verifyOk,
      rows,
    };

    console.log('');
    console.log(
      'scenario                  server        conns    req/s   p50 ms   p99 ms   non-2xx  ceiling   ratio   orders  drain s',
    );
    for (const r of rows) {
      console.log(
        [
          r.scenario.padEnd(24),
          (r.server === '' ? '' : `${r.server}${ROUNDS > 1 ? ` #${r.round}` : ''}`).padEnd(12),
          String(r.connections).padStart(6),
          String(Math.round(r.rps)).padStart(8),
          String(r.p50).padStart(8),
          String(r.p99).padStart(8),
          String(r.non2xx + r.errors + r.timeouts).padStart(9),
          String(Math.round(r.ceilingRps)).padStart(8),
          r.ratio.toFixed(2).padStart(7),
          (r.ordersCreated === undefined ? '' : String(r.ordersCreated)).padStart(8),
          (r.deliveredAfterS === undefined ? '' : r.deliveredAfterS === null ? 'limit' : r.deliveredAfterS.toFixed(1)).padStart(8),
        ].join(' '),
      );
    }
    const ceilings = [...rows.filter((r) => r.scenario === 'ceiling').map((r) => r.rps), ...ceilingChecks];
    const [slowest, fastest] = [Math.min(...ceilings), Math.max(...ceilings)];
    console.log(
      `\nceiling runs: ${Math.round(slowest)} to ${Math.round(fastest)} req/s` +
        (fastest > slowest * 1.3
          ? ' (the machine changed speed during the run; each ratio uses the ceiling measured next to it)'
          : ''),
    );
    console.log(
      `engine ${engine}; service peak RSS ${rssMb ?? '?'} MB; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const v of verifications) {
      console.log(`ledger verify (${v.label}): ${v.code === 0 ? 'clean' : 'FAILED'} — ${v.out.split('\n')[0]}`);
    }
    // Every 2xx must be an order. A request the client gave up on (timeout, reset) has an unknown
    // outcome: it may have committed, so it may add an order but never remove one.
    const short = durable.filter((r) => {
      const created = r.ordersCreated ?? 0;
      return created < r.ok2xx || created > r.ok2xx + r.timeouts + r.errors;
    });
    for (const r of short) {
      console.log(
        `DURABILITY MISMATCH: ${r.scenario} [${r.server}] @${r.connections} acknowledged ${r.ok2xx} purchases (${r.timeouts + r.errors} unanswered), ${r.ordersCreated} orders exist`,
      );
    }
    if (!short.length) console.log('durability: every acknowledged purchase is an order in the database');
    const unanswered = durable.filter((r) => r.timeouts + r.errors > 0);
    for (const r of unanswered) {
      console.log(`  ${r.scenario} @${r.connections}: ${r.timeouts + r.errors} requests unanswered by the client's 10 s timeout`);
    }

    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    const out = path.join(
      ROOT,
      'bench/results',
      `${new Date().toISOString().replace(/[:.]/g, '-')}-${engine}${other ? '-ab' : ''}.json`,
    );
    fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`results: ${path.relative(ROOT, out)}`);

    const fixed = (n: number | null) => (n === null ? '?' : n.toFixed(2));
    /** A drain time: '' when the scenario has none, 'limit' when the outbox was not empty within DRAIN_LIMIT_MS. */
    const seconds = (n: number | null) => (n === null ? '' : Number.isFinite(n) ? n.toFixed(1) : 'limit');
    if (ab && other) {
      console.log(
        `\nA/B: this build (${THIS_ROOT}) against ${other.label} (${other.root}), ${ROUNDS} alternating rounds, medians:`,
      );
      console.log(
        'scenario                   this req/s  other req/s  this p99  other p99  this/other  this drain s  other drain s  CPU ms/order this, other',
      );
      for (const a of ab) {
        if (a.runs === 0) {
          const why = a.unclean > 0 ? 'no round in which both builds answered every request 2xx' : `not run on ${other.label}: no upstreams`;
          console.log(`${a.scenario.padEnd(24)} ${String(Math.round(a.thisRps)).padStart(12)}  (${why})`);
          continue;
        }
        console.log(
          [
            a.scenario.padEnd(24),
            String(Math.round(a.thisRps)).padStart(12),
            String(Math.round(a.otherRps)).padStart(12),
            String(a.thisP99).padStart(9),
            String(a.otherP99).padStart(10),
            fixed(a.ratio).padStart(11),
            seconds(a.thisDrainS).padStart(13),
            seconds(a.otherDrainS).padStart(14),
            a.thisCpuMs === null || a.otherCpuMs === null ? '' : `  ${a.thisCpuMs.toFixed(2)}, ${a.otherCpuMs.toFixed(2)}`,
          ].join(' ') + (a.unclean > 0 ? `  (${a.unclean} run(s) with answers not 2xx left out)` : ''),
        );
      }
      if (SERVICE_CPUS === null) {
        // Measured 2026-11-26 on a 2-core machine: unpinned, two services of the same build differed by
        // up to 1.6x in one A/B run; pinned, the ratio of two builds moved far less from round to round
        // (docs/performance.md, "The A/B, pinned").
        console.log(
          'not pinned: unpinned runs of one build have differed by up to 1.6x here; for a ratio to trust, run with BENCH_SERVICE_CPUS=0 BENCH_RIG_CPUS=1',
        );
      }
      const worst = ab.reduce<(typeof ab)[number] | null>(
        (w, a) => (a.ratio !== null && (w === null || (w.ratio ?? 2) > a.ratio) ? a : w),
        null,
      );
      console.log(
        // Issue 25 asks 0.9 of the build before it (issue 14 asked 0.85).
        `A/B target: no scenario below ${AB_TARGET} of the other build: ${worst ? `lowest ${worst.scenario} ${fixed(worst.ratio)} (${(worst.ratio ?? 0) >= AB_TARGET ? 'met' : 'NOT met'})` : '?'}`,
      );
    }
    if (baselines) {
      console.log(
        `baselines (the issue's, measured in this run, ratio to the ceiling): read=${fixed(baselines.read)} ` +
          `purchase_each=${fixed(baselines.purchaseEach)} purchase_group=${fixed(baselines.purchaseGroup)}`,
      );
    }
    // The summary line: each scenario as a ratio to the baselines of this run, then the targets.
    const verdict = (ok: boolean | null) => (ok === null ? '?' : ok ? 'met' : 'NOT met');
    const parts = baselines
      ? [
          `vs baseline-read: ${reads.map((n) => `${n}=${fixed(baselines.readsVersusRead[n] ?? null)}`).join(' ')}`,
          `vs baseline-purchase-group: ${purchases.map((n) => `${n}=${fixed(baselines.purchasesVersusGroup[n] ?? null)}`).join(' ')}`,
        ]
      : [`vs the ceiling: ${[...reads, ...purchases].map((n) => `${n}=${fixed(medianOf(n))}`).join(' ')}`];
    const targets = [
      `profile >= 0.60 of baseline-read: ${fixed(profileVersusRead)} ${verdict(profileVersusRead === null ? null : profileVersusRead >= 0.6)}`,
      `buy-single-spread >= 0.40 of baseline-purchase-group with deliveries keeping pace: ${fixed(spreadVersusGroup)}, ` +
        `outbox empty ${spreadDelivered === null || !Number.isFinite(spreadDelivered) ? '?' : `${spreadDelivered.toFixed(1)} s`} after ` +
        `${verdict(spreadVersusGroup === null ? null : spreadVersusGroup >= 0.4 && (spreadDelivered ?? Infinity) < 1)}`,
      `orders-page-bulk within 3x of orders-page: ${slowerBy === null ? '?' : `${slowerBy.toFixed(2)}x`} ${verdict(slowerBy === null ? null : slowerBy <= 3)}`,
      `outbox empty < 5 s after a saturating buy-single-spread: ${spreadDelivered === null ? '?' : `${seconds(spreadDelivered)} s`} ` +
        `${verdict(spreadDelivered === null ? null : spreadDelivered < 5)}`,
    ];
    if (upstream) {
      const rate = (n: number | null) => (n === null ? '?' : String(Math.round(n)));
      console.log(
        `upstream (buy-single-upstream, Reloadly simulator: ${UPSTREAM_LATENCY_MS} ms a call, outcome ${UPSTREAM_SETTLE_MS} ms later): ` +
          `${rate(upstream.acceptedPerS)} purchases accepted/s (sandbox: ${rate(upstream.sandboxAcceptedPerS)}), ` +
          `${rate(upstream.deliveredPerS)} deliveries completed/s over load and drain, ` +
          `against ${rate(upstream.sandboxDeliveredPerS)}/s for the sandbox's lifecycle (buy-single-spread): ${fixed(upstream.ratio)} ` +
          `(${fixed(upstream.steadyRatio)} over the loads' last ${STEADY_SPAN_S} s); ` +
          `calls in flight at most ${upstream.maxInFlight} (PROVIDER_CONCURRENCY ${upstream.cap}); outbox empty ${seconds(upstream.drainS)} s after`,
      );
      // Judged on the rate while the load runs. Over load and drain the upstream's last orders add
      // their outcome delay (UPSTREAM_SETTLE_MS, then a poll) to the span, which the sandbox's 20 ms
      // does not: with a 10 s load that figure cannot pass about 10 / 12.3 = 0.81 even when every
      // delivery keeps pace. The issue gives the tail its own target (the outbox empty within 5 s):
      // a tail it allows would hold the whole-run figure under 0.9 for any load shorter than 45 s.
      // docs/performance.md, "Which rate the upstream target reads".
      targets.push(
        `buy-single-upstream >= 0.9 of the sandbox's deliveries/s while the load runs: ${fixed(upstream.steadyRatio)} ${verdict(upstream.steadyRatio === null ? null : upstream.steadyRatio >= 0.9)}`,
        `upstream calls in flight <= ${upstream.cap}: ${upstream.maxInFlight} ${verdict(upstream.maxInFlight <= upstream.cap)}`,
        `outbox empty < 5 s after buy-single-upstream: ${seconds(upstream.drainS)} s ${verdict(upstream.drainS === null ? null : upstream.drainS < 5)}`,
      );
    }
    // The drain: seconds from the end of each purchase load until the outbox was empty (every order delivered).
    if (drained.length > 0) parts.push(`drain s: ${drained.map((d) => `${d.scenario}=${seconds(d.seconds)}`).join(' ')}`);
    const lowestRead = reads.length ? Math.min(...reads.map((n) => medianOf(n) ?? 0)) : 0;
    console.log(
      `bench: reads=${lowestRead.toFixed(2)} purchases=${(spreadRatio ?? 0).toFixed(2)} p99_purchase_ms=${spreadP99 ?? -1}; ` +
        `${parts.join('; ')}; targets: ${targets.join('; ')}`,
    );
    if (!verifyOk || short.length > 0) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

await main();
