// npm run bench [-- --full]: the service under HTTP load, every figure a ratio to a node:http ceiling
// measured in the same run, beside the issue's baselines (bench/baselines.mjs, SQLite runs).
// BENCH_DATABASE_URL=postgres://… benchmarks PostgreSQL instead of SQLite.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, type Database } from '../src/db/connection.js';
import { numberSource, PURCHASE_SCENARIOS, READ_SCENARIOS, type ScenarioName, type ScenarioParams } from './scenarios.js';
import { buildBenchSeed, BULK_KEY, BULK_PROFILE } from './seed.js';

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
const full = process.argv.includes('--full');
const connectionCounts = full ? [50, 200] : [50];
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
/** The ceiling is measured again after every scenario, this long (see the load loop in main). */
const CEILING_CHECK_S = Math.min(DURATION_S, 5);
const PROFILES = 300;
/** BENCH_SERVICE_NODE_ARGS: node options for the service only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVICE_NODE_ARGS = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
/** BENCH_SCENARIOS=a,b,…: only these scenarios and baselines (all when unset). */
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(',').map((s) => s.trim())) : null;
const selected = (name: string) => ONLY === null || ONLY.has(name);

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
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
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
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/load.ts'), args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`load ${scenario.name} failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as LoadResult;
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

/**
 * Waits until the outbox is empty: every order the scenario accepted has been delivered. Returns
 * the seconds it took, or null if it did not empty within DRAIN_LIMIT_MS.
 */
async function waitForDeliveries(database: Database): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < DRAIN_LIMIT_MS) {
    const { n } = await database.read
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(n) === 0) return (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 200));
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
}

const CATALOG: ScenarioParams['catalog'] = {
  operatorId: 'op_mtn',
  productId: 'prd_mtn_data',
  packageIds: ['pkg_mtn_1gb', 'pkg_mtn_2gb', 'pkg_mtn_3gb'],
  rcPackageId: 'rcp_wassce',
};

/** Seeds a fresh database through the tree's own `cli import`, starts its `cli serve`, places the bulk orders. */
async function startServer(label: string, root: string, work: string, children: ChildProcess[]): Promise<Server> {
  const pgDb = process.env.BENCH_DATABASE_URL ? await preparePostgres(process.env.BENCH_DATABASE_URL) : null;
  const sqliteFile = pgDb ? null : path.join(work, `bench-${label}.db`);
  const databaseUrl = pgDb?.url ?? `sqlite:${sqliteFile}`;
  const engine = pgDb ? 'postgres' : 'sqlite';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    CREDENTIALS_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'warn',
    SANDBOX_SETTLE_MS: '20',
    NODE_ENV: 'production',
    // The bench measures the service at saturation: the per-key rate limit and the failed-auth
    // block would turn its load into 429s (0 turns each off).
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_AUTH_FAILURES: '0',
  };
  const seedFile = path.join(work, `bench-seed-${label}.json`);
  const seed = buildBenchSeed(path.join(root, 'examples/demo-seed.json'), {
    profiles: PROFILES,
    // More than the fastest result-checker run sells, so none of its answers is "out of stock".
    credentials: full || ROUNDS > 1 ? 200_000 : 100_000,
    pastOrders: 20_000,
  });
  fs.writeFileSync(seedFile, JSON.stringify(seed));
  const started = Date.now();
  const imported = runCli(root, ['import', seedFile], env);
  if (imported.code !== 0) throw new Error(`import (${label}) failed: ${imported.out}`);
  console.log(`seeded ${engine} for ${label} (${root}) through cli import in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const port = await freePort();
  const child = spawn(process.execPath, [...SERVICE_NODE_ARGS, path.join(root, 'dist/cli/index.js'), 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/healthz`, child);
  const observer = await connect(databaseUrl, { poolSize: 2 });
  await placeBulkOrders(url, CATALOG, observer);
  return { label, root, env, url, process: child, observer, engine, sqliteFile, drop: pgDb ? () => pgDb.drop() : null };
}

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
    const ceiling = spawn(process.execPath, [path.join(ROOT, 'bench/ceiling.mjs')], {
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
          const child = spawn(process.execPath, [path.join(ROOT, 'bench/baselines.mjs')], {
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
            const isPurchase = PURCHASE_SCENARIOS.includes(name);
            if (WARMUP_S > 0) load(server.url, connections, scenario(name), WARMUP_S);
            const before = isPurchase ? await orderCount(server.observer, name) : 0;
            const result = load(server.url, connections, scenario(name), DURATION_S);
            const ordersCreated = isPurchase ? (await orderCount(server.observer, name)) - before : undefined;
            // The worker's backlog is this scenario's work: it must not run during the ceiling's
            // measure or the next scenario. Data orders go through the outbox.
            const delivers = isPurchase && name !== 'rc-buy-single'; // a result-checker sale is synchronous
            const deliveredAfterS = delivers ? await waitForDeliveries(server.observer) : undefined;
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
            if (deliveredAfterS !== undefined) row.deliveredAfterS = deliveredAfterS;
            rows.push(row);
            const delivered =
              deliveredAfterS === undefined
                ? ''
                : `; delivered ${deliveredAfterS === null ? 'not all within the limit' : `${deliveredAfterS.toFixed(1)} s later`}`;
            const who = servers.length > 1 ? ` [${server.label} #${round}]` : '';
            console.log(
              `  ${name}${who} @${connections}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}${delivered}; ceiling ${Math.round(ceilingAfter)} req/s after it`,
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
    /** A/B: per scenario, each build's median req/s and p99, and this build's median ratio to the other's (paired by round). */
    const other = servers[1];
    const ab = other
      ? [...reads, ...purchases].map((name) => {
          const mine = rowsOf(name, self.label);
          const theirs = rowsOf(name, other.label);
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
      ledgerVerify: verifications,
      ledgerVerifyOk: verifyOk,
      rows,
    };

    console.log('');
    console.log('scenario                  server        conns    req/s   p50 ms   p99 ms   non-2xx  ceiling   ratio   orders');
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
    if (ab && other) {
      console.log(
        `\nA/B: this build (${THIS_ROOT}) against ${other.label} (${other.root}), ${ROUNDS} alternating rounds, medians:`,
      );
      console.log('scenario                   this req/s  other req/s  this p99  other p99  this/other');
      for (const a of ab) {
        console.log(
          [
            a.scenario.padEnd(24),
            String(Math.round(a.thisRps)).padStart(12),
            String(Math.round(a.otherRps)).padStart(12),
            String(a.thisP99).padStart(9),
            String(a.otherP99).padStart(10),
            fixed(a.ratio).padStart(11),
          ].join(' '),
        );
      }
      const worst = ab.reduce<(typeof ab)[number] | null>(
        (w, a) => (a.ratio !== null && (w === null || (w.ratio ?? 2) > a.ratio) ? a : w),
        null,
      );
      console.log(
        `A/B target: no scenario below 0.85 of the other build: ${worst ? `lowest ${worst.scenario} ${fixed(worst.ratio)} (${(worst.ratio ?? 0) >= 0.85 ? 'met' : 'NOT met'})` : '?'}`,
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
    ];
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
