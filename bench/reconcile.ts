// npm run bench:reconcile: the speed of what staff ask of the upstreams each morning (issue 26).
// 1. Reconciliation of a day of RECONCILE_COUNT (100 000) DT One attempts against the simulator's
//    paged list (a child process, 100 a page), timed; meanwhile the worker of the same process
//    delivers DELIVERIES (2 000) sandbox orders, and the bench reports how many it settled during the
//    run, at what rate against a run alone, and the event loop's longest delay.
// 2. The margin report of a month of MARGIN_ORDERS (1 000 000) completed live orders: cold (the first
//    report sums the 30 closed days into margin_days) and warm (every grouping), and the same month
//    read from the orders alone (no summary), for the choice between them.
// SQLite in a temporary directory; PostgreSQL too when BENCH_DATABASE_URL is set (a schema of its own,
// dropped at the end; BENCH_ENGINES=postgres runs that one alone). Fixture rows are written by SQL
// inside the database, not through the API.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { connect, type Database } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { CredentialCipher } from '../src/modules/result-checker/credential-crypto.js';
import { createProviders } from '../src/providers/index.js';
import { parseSeed } from '../src/seed/import.js';
import { createWorker } from '../src/worker/index.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECONCILE_COUNT = Number(process.env.RECONCILE_COUNT ?? 100_000);
const MARGIN_ORDERS = Number(process.env.MARGIN_ORDERS ?? 1_000_000);
const DELIVERIES = Number(process.env.DELIVERIES ?? 2_000);
const REVERSED = 5;
const DAY_MS = 86_400_000;
const silent = { info() {}, warn() {}, error() {} };

interface Engine {
  name: 'sqlite' | 'postgres';
  url: string;
  pgSchema?: string;
  drop(): Promise<void>;
}

async function engines(): Promise<Engine[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-reconcile-'));
  const only = process.env.BENCH_ENGINES?.split(',');
  const list: Engine[] = [{ name: 'sqlite', url: `sqlite://${path.join(dir, 'bench.sqlite')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) }];
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) {
    const schema = `bench_${randomBytes(4).toString('hex')}`;
    list.push({
      name: 'postgres',
      url: pgUrl,
      pgSchema: schema,
      drop: async () => {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await c.end();
      },
    });
  }
  return list.filter((e) => !only || only.includes(e.name));
}

function startSimulator(from: number, prefix: string): Promise<{ child: ChildProcess; env: Record<string, string> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/reconcile-simulator.ts'), JSON.stringify({ root: ROOT, count: RECONCILE_COUNT, from, prefix, reversed: REVERSED })], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n') && line) resolve({ child, env: (JSON.parse(line) as { env: Record<string, string> }).env });
    });
    child.once('exit', (code) => reject(new Error(`the simulator exited with ${code}`)));
  });
}

/** Rows i = 0 … count-1 of orders, order_items and provider_attempts, written by the database itself. */
async function generate(database: Database, o: { prefix: string; count: number; from: number; spanMs: number; providers: string[]; costBase: number; transactionIdBase: number | null }) {
  const isPg = database.dialect === 'postgres';
  const series = isPg ? `generate_series(0, ${o.count - 1}) AS s(i)` : 's';
  const withSeries = isPg ? '' : `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${o.count - 1}) `;
  const cat = (a: string, b: string) => (isPg ? `(${a} || ${b}::text)` : `(${a} || ${b})`);
  const at = `(${o.from} + (${isPg ? 'i::bigint' : 'i'} * ${Math.floor(o.spanMs / o.count)}))`;
  const profile = `(CASE i % 3 WHEN 0 THEN 'usr_super' WHEN 1 THEN 'usr_agent' ELSE 'usr_customer' END)`;
  const pkg = `(CASE i % 2 WHEN 0 THEN 'pkg_a_1gb' ELSE 'pkg_a_2gb' END)`;
  const provider = `(CASE i % ${o.providers.length} ${o.providers.map((p, n) => `WHEN ${n} THEN '${p}'`).join(' ')} END)`;
  const route = `(CASE i % ${o.providers.length} ${o.providers
    .map((p, n) => `WHEN ${n} THEN '${JSON.stringify(p === 'dtone' ? { provider: p, productId: 35211 } : p === 'reloadly' ? { provider: p, operatorId: 643, amount: 1000 } : { provider: p, serviceId: 'b230733cd56b4a0fad820e39f66bc27c', bundle: 'DATA10', amount: 1000 })}'`)
    .join(' ')} END)`;
  const run = (text: string) => sql.raw(text).execute(database.db);
  await run(`${withSeries}INSERT INTO orders (id, profile_id, mode, order_type, state, short_reference, beneficiary_msisdn, operator_id, operator_name, product_id, product_name, package_id, package_label, amount, currency, submitted_at, completed_at, is_bulk, created_at, updated_at, version)
    SELECT ${cat(`'ord_${o.prefix}'`, 'i')}, ${profile}, 'live', 'data', 'completed', ${cat(`'${o.prefix.toUpperCase()}-'`, 'i')}, ${cat("'233'", '(240000000 + i)')}, 'op_a', 'Alpha', 'prd_a', 'Alpha data', ${pkg}, 'Alpha', 850, 'GHS', ${at}, ${at} + 2000, 0, ${at}, ${at} + 2000, 1 FROM ${series}`);
  await run(`${withSeries}INSERT INTO order_items (id, order_id, idx, mode, beneficiary_msisdn, package_id, package_label, amount, status, attempt, provider_ref, submitted_at, completed_at, created_at, updated_at)
    SELECT ${cat(`'itm_${o.prefix}'`, 'i')}, ${cat(`'ord_${o.prefix}'`, 'i')}, 0, 'live', ${cat("'233'", '(240000000 + i)')}, ${pkg}, 'Alpha', 850, 'completed', 1, ${cat(`'${o.prefix}'`, 'i')}, ${at}, ${at} + 2000, ${at}, ${at} + 2000 FROM ${series}`);
  const transactionId = o.transactionIdBase === null ? cat("'T'", 'i') : isPg ? `(${o.transactionIdBase} + i)::text` : `CAST(${o.transactionIdBase} + i AS TEXT)`;
  await run(`${withSeries}INSERT INTO provider_attempts (reference, order_item_id, item_attempt, route_position, provider, route, status, provider_transaction_id, cost, created_at, submitted_at, resolved_at)
    SELECT ${cat(`'${o.prefix}'`, 'i')}, ${cat(`'itm_${o.prefix}'`, 'i')}, 1, 0, ${provider}, ${route}, 'completed', ${transactionId}, ${o.costBase} + (i % 50), ${at}, ${at} + 100, ${at} + 2000 FROM ${series}`);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function benchEngine(engine: Engine): Promise<string[]> {
  const lines: string[] = [];
  const say = (line: string) => {
    console.log(`[${engine.name}] ${line}`);
    lines.push(line);
  };
  const now = Date.now();
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const yesterday = today - DAY_MS;
  const prefix = `BR${randomBytes(3).toString('hex').toUpperCase()}`;
  const sim = await startSimulator(yesterday, prefix);
  const database = await connect(engine.url, { poolSize: 10, ...(engine.pgSchema ? { pgSchema: engine.pgSchema } : {}) });
  try {
    await migrateToLatest(database);
    const config = loadConfig({ DATABASE_URL: engine.url, LOG_LEVEL: 'silent', SANDBOX_SETTLE_MS: '0', RATE_LIMIT_MAX: '0', ...sim.env });
    const ctx = createContext(config, database, silent, new CredentialCipher(randomBytes(32)));
    const seed = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/fixtures/seed.json'), 'utf8')) as { profiles: { id: string; wallet: { live: number } }[] };
    for (const p of seed.profiles) if (p.id === 'usr_super') p.wallet.live = 10_000_000;
    await ctx.seeds.import(parseSeed(JSON.stringify(seed)));

    // 1. Reconciliation.
    let began = Date.now();
    await generate(database, { prefix, count: RECONCILE_COUNT, from: yesterday, spanMs: DAY_MS, providers: ['dtone'], costBase: 950, transactionIdBase: 4_100_000_001 });
    // Every attempt's cost is DT One's 9.50 (generate adds i % 50 pesewas: put them back).
    await sql`UPDATE provider_attempts SET cost = 950 WHERE provider = 'dtone'`.execute(database.db);
    // PostgreSQL plans from statistics: what autovacuum would have gathered after a day of orders.
    if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db);
    say(`fixture: ${RECONCILE_COUNT} attempts of yesterday written in ${seconds(Date.now() - began)}`);

    const app = await buildApp(ctx);
    await app.ready();
    // Numbers whose last four digits are not the sandbox's test numbers (0000 to 0004).
    let nextNumber = 100_005;
    const queue = async () => {
      for (let n = 0; n < DELIVERIES / 20; n++) {
        const res = await app.inject({
          method: 'POST',
          url: '/api/v1/data-bundles/buy-bulk',
          headers: { 'x-api-key': 'service_live_superAgentLiveKey001' },
          payload: { operatorId: 'op_a', productId: 'prd_a', items: Array.from({ length: 20 }, () => ({ packageId: 'pkg_a_1gb', beneficiaryMsisdn: `0245${String(nextNumber++).padStart(6, '0')}` })) },
        });
        if (res.statusCode !== 200) throw new Error(`buy-bulk: ${res.statusCode} ${res.body}`);
      }
    };
    const settledSince = async (since: number) =>
      Number(
        (await database.read.selectFrom('order_items').select((eb) => eb.fn.countAll<number>().as('n')).where('completed_at', '>=', since).where('mode', '=', 'live').executeTakeFirstOrThrow()).n,
      );
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const drain = async (during?: () => Promise<unknown>) => {
      await queue();
      if (during) lag.enable();
      const worker = createWorker(ctx, { idleMaxMs: 10, pollIntervalMs: 10 });
      const start = Date.now();
      worker.start();
      const drained = (async () => {
        while ((await ctx.repositories.outbox.stats()).depth > 0) await new Promise((r) => setTimeout(r, 20));
        return Date.now() - start;
      })();
      let duringMs = 0;
      let settledDuring = 0;
      let result: unknown = null;
      if (during) {
        const t0 = Date.now();
        result = await during();
        duringMs = Date.now() - t0;
        lag.disable();
        settledDuring = await settledSince(start);
      }
      const drainMs = await drained;
      const totalMs = Date.now() - start;
      await worker.stop();
      return { totalMs, drainMs, duringMs, settledDuring, result };
    };
    const alone = await drain();
    say(`deliveries alone: ${DELIVERIES} sandbox deliveries in ${seconds(alone.drainMs)} (${Math.round(DELIVERIES / (alone.drainMs / 1000))}/s)`);
    const providers = createProviders(config, database);
    const withRun = await drain(() => ctx.reconciliation.reconcileNow(providers, 'dtone', { from: yesterday, to: today }, 'bench'));
    const run = (withRun.result as Awaited<ReturnType<typeof ctx.reconciliation.reconcileNow>>).run;
    say(
      `reconciliation: ${run.attempts_checked} attempts against ${run.upstream_records} upstream records (${Math.ceil(run.upstream_records / 100)} pages) in ${seconds(withRun.duringMs)}, status ${run.status}, ${run.findings} findings (${REVERSED} planted)`,
    );
    say(
      `deliveries meanwhile: ${withRun.settledDuring} of ${DELIVERIES} settled during the run, all of them in ${seconds(withRun.drainMs)} (${Math.round(DELIVERIES / (withRun.drainMs / 1000))}/s; alone ${Math.round(DELIVERIES / (alone.drainMs / 1000))}/s); event loop delay during the run p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms, max ${(lag.max / 1e6).toFixed(1)} ms`,
    );
    await app.close();

    // 2. Margins over a month of MARGIN_ORDERS orders (the month ending 32 days ago: closed days).
    const monthEnd = today - 32 * DAY_MS;
    const monthStart = monthEnd - 30 * DAY_MS;
    began = Date.now();
    await generate(database, { prefix: 'M', count: MARGIN_ORDERS, from: monthStart, spanMs: 30 * DAY_MS, providers: ['hubtel', 'reloadly', 'dtone'], costBase: 780, transactionIdBase: null });
    if (database.dialect === 'postgres') await sql`ANALYZE`.execute(database.db);
    say(`fixture: ${MARGIN_ORDERS} completed live orders over 30 days written in ${seconds(Date.now() - began)}`);
    const time = async <T>(work: () => Promise<T>) => {
      const t0 = process.hrtime.bigint();
      const value = await work();
      return { ms: Number(process.hrtime.bigint() - t0) / 1e6, value };
    };
    const fromOrders = await time(() => ctx.repositories.margins.live(monthStart, monthEnd));
    say(`margins from the orders alone (no summary), one query over the month: ${seconds(fromOrders.ms)}`);
    const cold = await time(() => ctx.margins.report(monthStart, monthEnd, 'day'));
    say(`margin report by day, cold (sums the 30 closed days itself; the worker does it after midnight): ${seconds(cold.ms)}; total sales GHS ${(cold.value.total.sales / 100).toFixed(2)} over ${cold.value.total.deliveries} deliveries`);
    for (const by of ['day', 'operator', 'package', 'provider', 'partner'] as const) {
      const warm = await time(() => ctx.margins.report(monthStart, monthEnd, by));
      say(`margin report by ${by}, warm: ${(warm.ms).toFixed(0)} ms (${warm.value.lines.length} lines)`);
    }
  } finally {
    await database.close();
    sim.child.kill('SIGTERM');
    await engine.drop();
  }
  return lines;
}

const all: string[] = [];
for (const engine of await engines()) all.push(...(await benchEngine(engine)).map((l) => `${engine.name}: ${l}`));
console.log('\n=== summary ===');
for (const line of all) console.log(line);
