// npm run bench:drain: the delivery worker alone, over the same backlog every time. Each build's
// service takes a saturating buy-single run with its worker off (WORKER=off); the database, its
// outbox full, is kept as a fixture; then, round after round (builds alternating), a copy of the
// fixture is drained by that build's `cli worker`, and the bench reports how long the outbox took to
// empty, deliveries a second, and the worker's CPU milliseconds per delivery (user + system, read from
// /proc: less sensitive than wall time to other work on the machine).
//
// DRAIN_ROOTS=<built tree>,<built tree>,… (default: this checkout), DRAIN_LOAD_S (default 10),
// DRAIN_ROUNDS (default 3), DRAIN_WORKER_ENV="A=1 B=2" (extra variables for the worker),
// DRAIN_VARIANTS="A=1 B=2;A=2" (each build's worker also run with each of these, over the same
// fixture: e.g. WORKER_BATCH_SIZE settings side by side),
// DRAIN_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=…" (node options for the worker). SQLite only.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { ScenarioParams } from './scenarios.js';
import { buildBenchSeed } from './seed.js';
import { benchServiceEnv, cpuSeconds, freePort, SERVICE_NODE_OPTIONS } from './service-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOTS = (process.env.DRAIN_ROOTS ?? ROOT).split(',').map((r) => path.resolve(r.trim()));
const LOAD_S = Number(process.env.DRAIN_LOAD_S ?? 10);
const ROUNDS = Number(process.env.DRAIN_ROUNDS ?? 3);
const variables = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split(' ')
      .filter((p) => p.includes('='))
      .map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
  );
const WORKER_ENV = variables(process.env.DRAIN_WORKER_ENV ?? '');
const VARIANTS = (process.env.DRAIN_VARIANTS ?? '').split(';').map((v) => v.trim());
const WORKER_NODE_ARGS = (process.env.DRAIN_WORKER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
const CONNECTIONS = 50;
const PROFILES = 300;
const CATALOG: ScenarioParams['catalog'] = {
  operatorId: 'op_mtn',
  productId: 'prd_mtn_data',
  packageIds: ['pkg_mtn_1gb', 'pkg_mtn_2gb', 'pkg_mtn_3gb'],
  upstreamPackageIds: [],
  rcPackageId: 'rcp_wassce',
};
async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
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

const stopped = (child: ChildProcess) =>
  new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));

const copyDb = (from: string, to: string) => {
  for (const suffix of ['', '-wal', '-shm']) {
    fs.rmSync(`${to}${suffix}`, { force: true });
    if (fs.existsSync(`${from}${suffix}`)) fs.copyFileSync(`${from}${suffix}`, `${to}${suffix}`);
  }
};

interface Fixture {
  root: string;
  label: string;
  file: string;
  env: NodeJS.ProcessEnv;
  orders: number;
}

/** A database of `root`'s build with the outbox full: LOAD_S of buy-single at 50 connections, the worker off. */
async function prepare(root: string, index: number, work: string): Promise<Fixture> {
  const label = `${path.basename(root)}#${index}`;
  const file = path.join(work, `fixture-${index}.db`);
  const env = benchServiceEnv(`sqlite:${file}`);
  const seedFile = path.join(work, `seed-${index}.json`);
  fs.writeFileSync(
    seedFile,
    JSON.stringify(
      buildBenchSeed(path.join(root, 'examples/demo-seed.json'), {
        profiles: PROFILES,
        credentials: 10,
        pastOrders: 0,
        // No routes: every live order goes to the sandbox (a build without routes gets no field).
        routes: fs.existsSync(path.join(root, 'dist/modules/package-routes')) ? {} : null,
      }),
    ),
  );
  const imported = spawnSync(process.execPath, [path.join(root, 'dist/cli/index.js'), 'import', seedFile], { env, encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`import (${label}): ${imported.stdout}${imported.stderr}`);
  const port = await freePort();
  const serve = spawn(process.execPath, [...SERVICE_NODE_OPTIONS, path.join(root, 'dist/cli/index.js'), 'serve'], {
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', WORKER: 'off' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let acceptCpu = 0;
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`, serve);
    const cpuBefore = serve.pid ? cpuSeconds(serve.pid) : 0;
    const scenario: ScenarioParams = { name: 'buy-single-spread', profiles: PROFILES, numberSpace: 1, catalog: CATALOG };
    const args = JSON.stringify({ url: `http://127.0.0.1:${port}`, connections: CONNECTIONS, durationS: LOAD_S, scenario });
    const loaded = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench/load.ts'), args], { encoding: 'utf8' });
    if (loaded.status !== 0) throw new Error(`load (${label}): ${loaded.stderr}`);
    acceptCpu = serve.pid ? cpuSeconds(serve.pid) - cpuBefore : 0;
  } finally {
    serve.kill('SIGTERM');
    await stopped(serve);
  }
  const db = new SQLite(file, { readonly: true });
  const { n } = db.prepare('select count(*) as n from outbox').get() as { n: number };
  db.close();
  console.log(
    `${label}: ${n} deliveries queued by ${LOAD_S} s of buy-single (${Math.round(n / LOAD_S)} accepted/s, ` +
      `service CPU ${((acceptCpu * 1000) / n).toFixed(3)} ms per purchase) (${root})`,
  );
  return { root, label, file, env, orders: n };
}

interface Drain {
  label: string;
  round: number;
  seconds: number;
  cpuMsPerDelivery: number;
  delivered: number;
}

/** One build's `cli worker` (with `variant`'s variables) over a copy of its fixture, until the outbox is empty. */
async function drain(fixture: Fixture, variant: string, round: number, work: string): Promise<Drain> {
  const label = variant === '' ? fixture.label : `${fixture.label} ${variant}`;
  const file = path.join(work, 'drain.db');
  copyDb(fixture.file, file);
  const watch = new SQLite(file, { readonly: true, fileMustExist: true });
  const depth = watch.prepare('select count(*) as n from outbox');
  const started = Date.now();
  const worker = spawn(process.execPath, [...WORKER_NODE_ARGS, path.join(fixture.root, 'dist/cli/index.js'), 'worker'], {
    env: { ...fixture.env, LOG_LEVEL: 'error', ...WORKER_ENV, ...variables(variant), DATABASE_URL: `sqlite:${file}` },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  let seconds = Number.POSITIVE_INFINITY;
  let cpu = 0;
  try {
    while (Date.now() - started < 300_000) {
      if (worker.exitCode !== null) throw new Error(`worker (${label}) exited with ${worker.exitCode}`);
      await new Promise((r) => setTimeout(r, 50));
      if ((depth.get() as { n: number }).n === 0) {
        seconds = (Date.now() - started) / 1000;
        if (worker.pid) cpu = cpuSeconds(worker.pid);
        break;
      }
    }
  } finally {
    worker.kill('SIGTERM');
    await stopped(worker);
  }
  const { n } = watch
    .prepare("select count(*) as n from order_items where status = 'completed' and mode = 'live'")
    .get() as { n: number };
  watch.close();
  const result = { label, round, seconds, cpuMsPerDelivery: (cpu * 1000) / fixture.orders, delivered: n };
  console.log(
    `  ${label} #${round}: ${fixture.orders} deliveries in ${seconds.toFixed(1)} s (${Math.round(fixture.orders / seconds)}/s), ` +
      `worker CPU ${result.cpuMsPerDelivery.toFixed(3)} ms per delivery; load average ${os.loadavg()[0]?.toFixed(1)}`,
  );
  return result;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-drain-'));
try {
  const fixtures: Fixture[] = [];
  for (const [i, root] of ROOTS.entries()) fixtures.push(await prepare(root, i, work));
  const runs = fixtures.flatMap((fixture) => VARIANTS.map((variant) => ({ fixture, variant })));
  const results: Drain[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const { fixture, variant } of round % 2 === 1 ? runs : [...runs].reverse()) {
      results.push(await drain(fixture, variant, round, work));
    }
  }
  console.log('\nbuild                         deliveries   drain s  deliveries/s  worker CPU ms/delivery  (medians)');
  for (const { fixture, variant } of runs) {
    const label = variant === '' ? fixture.label : `${fixture.label} ${variant}`;
    const mine = results.filter((r) => r.label === label);
    const seconds = median(mine.map((r) => r.seconds));
    console.log(
      [
        label.padEnd(28),
        String(fixture.orders).padStart(11),
        seconds.toFixed(1).padStart(9),
        String(Math.round(fixture.orders / seconds)).padStart(13),
        median(mine.map((r) => r.cpuMsPerDelivery)).toFixed(3).padStart(23),
      ].join(' '),
    );
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.cpus().length} cores`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
