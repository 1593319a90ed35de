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
const CLI = path.join(ROOT, 'dist/cli/index.js');
const full = process.argv.includes('--full');
const connectionCounts = full ? [50, 200] : [50];
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 2);
/** The ceiling is measured again after every scenario, this long (see the load loop in main). */
const CEILING_CHECK_S = Math.min(DURATION_S, 5);
const PROFILES = 300;
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

function runCli(args: string[], env: NodeJS.ProcessEnv): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
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

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-bench-'));
  const pgDb = process.env.BENCH_DATABASE_URL ? await preparePostgres(process.env.BENCH_DATABASE_URL) : null;
  const databaseUrl = pgDb?.url ?? `sqlite:${path.join(work, 'bench.db')}`;
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
  const children: ChildProcess[] = [];
  const cleanup = async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await pgDb?.drop().catch(() => {});
    fs.rmSync(work, { recursive: true, force: true });
  };

  try {
    const seedFile = path.join(work, 'bench-seed.json');
    const seed = buildBenchSeed(path.join(ROOT, 'examples/demo-seed.json'), {
      profiles: PROFILES,
      // More than the fastest result-checker run sells, so none of its answers is "out of stock".
      credentials: full ? 200_000 : 100_000,
      pastOrders: 20_000,
    });
    fs.writeFileSync(seedFile, JSON.stringify(seed));
    let started = Date.now();
    const imported = runCli(['import', seedFile], env);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.out}`);
    console.log(`seeded ${engine} through cli import in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    const servicePort = await freePort();
    const service = spawn(process.execPath, [CLI, 'serve'], {
      env: { ...env, PORT: String(servicePort), HOST: '127.0.0.1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    children.push(service);
    const ceilingPort = await freePort();
    const ceiling = spawn(process.execPath, [path.join(ROOT, 'bench/ceiling.mjs')], {
      env: { ...process.env, PORT: String(ceilingPort) },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(ceiling);
    const serviceUrl = `http://127.0.0.1:${servicePort}`;
    const ceilingUrl = `http://127.0.0.1:${ceilingPort}`;
    await waitFor(`${serviceUrl}/healthz`, service);
    await waitFor(ceilingUrl, ceiling);

    const observer = await connect(databaseUrl, { poolSize: 2 });
    const catalog = {
      operatorId: 'op_mtn',
      productId: 'prd_mtn_data',
      packageIds: ['pkg_mtn_1gb', 'pkg_mtn_2gb', 'pkg_mtn_3gb'],
      rcPackageId: 'rcp_wassce',
    };
    const rows: Row[] = [];
    /** The ceiling runs after each scenario (the first, full one is the `ceiling` row). */
    const ceilingChecks: number[] = [];
    await placeBulkOrders(serviceUrl, catalog, observer);
    // Run space 0 placed the bulk orders; each scenario run takes the next.
    let numberSpace = 1;
    started = Date.now();
    for (const connections of connectionCounts) {
      // Each run draws beneficiary numbers from its own space, so no purchase is blocked as in flight.
      const scenario = (name: ScenarioName): ScenarioParams => ({
        name,
        profiles: PROFILES,
        numberSpace: numberSpace++,
        catalog,
      });
      const measure = (url: string, name: ScenarioName) => {
        if (WARMUP_S > 0) load(url, connections, scenario(name), WARMUP_S);
        return load(url, connections, scenario(name), DURATION_S);
      };
      const top = measure(ceilingUrl, 'ceiling');
      rows.push({ ...top, scenario: 'ceiling', connections, ceilingRps: top.rps, ratio: 1 });
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

      // The baselines read the service's own SQLite file (keys, profiles, wallets), one process each.
      for (const baseline of engine === 'sqlite' ? BASELINES.filter((b) => selected(b.name)) : []) {
        const port = await freePort();
        const child = spawn(process.execPath, [path.join(ROOT, 'bench/baselines.mjs')], {
          env: {
            ...process.env,
            PORT: String(port),
            BASELINE: baseline.mode,
            SERVICE_DB: databaseUrl.slice('sqlite:'.length),
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
        rows.push({ ...result, scenario: baseline.name, connections, ceilingRps, ratio: result.rps / ceilingRps });
        console.log(
          `  ${baseline.name} @${connections}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms; ceiling ${Math.round(ceilingAfter)} req/s after it`,
        );
      }

      for (const name of [...READ_SCENARIOS, ...PURCHASE_SCENARIOS].filter(selected)) {
        const isPurchase = PURCHASE_SCENARIOS.includes(name);
        if (WARMUP_S > 0) load(serviceUrl, connections, scenario(name), WARMUP_S);
        const before = isPurchase ? await orderCount(observer, name) : 0;
        const result = load(serviceUrl, connections, scenario(name), DURATION_S);
        const ordersCreated = isPurchase ? (await orderCount(observer, name)) - before : undefined;
        // The worker's backlog is this scenario's work: it must not run during the ceiling's
        // measure or the next scenario. Data orders go through the outbox.
        const delivers = isPurchase && name !== 'rc-buy-single'; // a result-checker sale is synchronous
        const deliveredAfterS = delivers ? await waitForDeliveries(observer) : undefined;
        const { ceilingAfter, ceilingRps } = ceilingAround();
        const row: Row = { ...result, scenario: name, connections, ceilingRps, ratio: result.rps / ceilingRps };
        if (ordersCreated !== undefined) row.ordersCreated = ordersCreated;
        if (deliveredAfterS !== undefined) row.deliveredAfterS = deliveredAfterS;
        rows.push(row);
        const delivered =
          deliveredAfterS === undefined
            ? ''
            : `; delivered ${deliveredAfterS === null ? 'not all within the limit' : `${deliveredAfterS.toFixed(1)} s later`}`;
        console.log(
          `  ${name} @${connections}: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}${delivered}; ceiling ${Math.round(ceilingAfter)} req/s after it`,
        );
      }
    }
    const rssMb = peakRssMb(service.pid);
    console.log(`load phase took ${((Date.now() - started) / 1000).toFixed(0)} s`);

    // Every acknowledged purchase must be a durable order, and the books must balance.
    const durable = rows.filter((r) => r.ordersCreated !== undefined);
    service.kill('SIGTERM');
    await new Promise((r) => service.once('exit', r));
    const verify = runCli(['ledger', 'verify'], env);
    await observer.close();

    const at50 = (name: Row['scenario']) => rows.find((r) => r.connections === 50 && r.scenario === name);
    const reads = rows.filter((r) => r.connections === 50 && (READ_SCENARIOS as string[]).includes(r.scenario));
    const spread = at50('buy-single-spread');
    // The same ratios read against what this machine gives the bare work (the issue's baselines).
    const baselineRatio = (name: BaselineName) => at50(name)?.ratio ?? null;
    const versus = (service: Row | undefined, baseline: BaselineName) => {
      const base = baselineRatio(baseline);
      return service && base ? service.ratio / base : null;
    };
    const profileRow = at50('profile');
    const baselines =
      engine === 'sqlite'
        ? {
            read: baselineRatio('baseline-read'),
            purchaseEach: baselineRatio('baseline-purchase-each'),
            purchaseGroup: baselineRatio('baseline-purchase-group'),
            profileVersusRead: versus(profileRow, 'baseline-read'),
            spreadVersusGroup: versus(spread, 'baseline-purchase-group'),
          }
        : null;
    const summary = {
      engine,
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model ?? 'unknown', node: process.version },
      durationS: DURATION_S,
      peakRssMb: rssMb,
      ceilingChecks,
      baselines,
      ledgerVerify: verify.out,
      ledgerVerifyOk: verify.code === 0,
      rows,
    };

    console.log('');
    console.log('scenario                  conns    req/s   p50 ms   p99 ms   non-2xx  ceiling   ratio   orders');
    for (const r of rows) {
      console.log(
        [
          r.scenario.padEnd(24),
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
    console.log(`engine ${engine}; service peak RSS ${rssMb ?? '?'} MB`);
    console.log(`ledger verify: ${verify.code === 0 ? 'clean' : 'FAILED'} — ${verify.out.split('\n')[0]}`);
    // Every 2xx must be an order. A request the client gave up on (timeout, reset) has an unknown
    // outcome: it may have committed, so it may add an order but never remove one.
    const short = durable.filter((r) => {
      const created = r.ordersCreated ?? 0;
      return created < r.ok2xx || created > r.ok2xx + r.timeouts + r.errors;
    });
    for (const r of short) {
      console.log(
        `DURABILITY MISMATCH: ${r.scenario} @${r.connections} acknowledged ${r.ok2xx} purchases (${r.timeouts + r.errors} unanswered), ${r.ordersCreated} orders exist`,
      );
    }
    if (!short.length) console.log('durability: every acknowledged purchase is an order in the database');
    const unanswered = durable.filter((r) => r.timeouts + r.errors > 0);
    for (const r of unanswered) {
      console.log(`  ${r.scenario} @${r.connections}: ${r.timeouts + r.errors} requests unanswered by the client's 10 s timeout`);
    }

    fs.mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    const out = path.join(ROOT, 'bench/results', `${new Date().toISOString().replace(/[:.]/g, '-')}-${engine}.json`);
    fs.writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
    console.log(`results: ${path.relative(ROOT, out)}`);

    if (baselines) {
      const fixed = (n: number | null) => (n === null ? '?' : n.toFixed(2));
      console.log(
        `baselines (the issue's, measured in this run): read=${fixed(baselines.read)} purchase_each=${fixed(baselines.purchaseEach)} ` +
          `purchase_group=${fixed(baselines.purchaseGroup)}; the service against them: profile=${fixed(baselines.profileVersusRead)} ` +
          `of baseline-read, buy-single spread=${fixed(baselines.spreadVersusGroup)} of baseline-purchase-group`,
      );
    }
    const readRatio = Math.min(...reads.map((r) => r.ratio));
    console.log(
      `bench: reads=${readRatio.toFixed(2)} purchases=${(spread?.ratio ?? 0).toFixed(2)} p99_purchase_ms=${spread?.p99 ?? -1}`,
    );
    if (verify.code !== 0 || short.length > 0) process.exitCode = 1;
  } finally {
    await cleanup();
  }
}

await main();
