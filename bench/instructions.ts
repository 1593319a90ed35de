// npm run bench:instructions -- [<tree> …]: CPU instructions per sandbox purchase and its delivery, counted by
// valgrind's callgrind in the service process (every thread): deterministic where req/s on a shared
// machine is not (docs/performance.md, "Instructions per order").
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '../src/db/connection.js';
import { numberSource } from './scenarios.js';
import { benchKey, buildBenchSeed } from './seed.js';
import { benchServiceEnv, cpuSeconds, cpuTimes, freePort, SERVICE_NODE_OPTIONS } from './service-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROFILES = 300;
/** Purchases before the count starts (the JIT warms up on them) and counted. */
const WARMUP = Number(process.env.INSTR_WARMUP ?? 3_000);
const COUNTED = Number(process.env.INSTR_ORDERS ?? 1_000);
/** Longest wait for the worker to deliver a batch of purchases (under valgrind it runs ~50 times slower). */
const DRAIN_LIMIT_MS = 15 * 60_000;
/** Purchases in flight at once: enough for group commits and claimed batches of several rows. */
const CONCURRENCY = Number(process.env.INSTR_CONCURRENCY ?? 16);
const PACKAGES = ['pkg_mtn_1gb', 'pkg_mtn_2gb', 'pkg_mtn_3gb'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Places `count` buy-singles, CONCURRENCY at a time, each from a different bench profile in turn. */
async function purchases(url: string, space: number, count: number): Promise<void> {
  const number = numberSource(space, 0);
  let next = 0;
  const one = async () => {
    for (let i = next++; i < count; i = next++) {
      const response = await fetch(`${url}/api/v1/data-bundles/buy-single`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': benchKey((i * 7919) % PROFILES) },
        body: JSON.stringify({ operatorId: 'op_mtn', productId: 'prd_mtn_data', packageId: PACKAGES[i % PACKAGES.length], beneficiaryMsisdn: number() }),
      });
      if (response.status !== 201 && response.status !== 200) throw new Error(`purchase ${i}: ${response.status} ${await response.text()}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, one));
}

/** Waits until the outbox is empty (every purchase delivered). */
async function drained(databaseUrl: string): Promise<void> {
  const observer = await connect(databaseUrl, { poolSize: 1 });
  try {
    for (const started = Date.now(); Date.now() - started < DRAIN_LIMIT_MS; ) {
      const { n } = await observer.read.selectFrom('outbox').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      if (Number(n) === 0) return;
      await sleep(200);
    }
    throw new Error(`the outbox was not empty ${DRAIN_LIMIT_MS / 60_000} minutes after the purchases`);
  } finally {
    await observer.close();
  }
}

/**
 * Instructions of V8's optimizing compiler (TurboFan, on its background threads) in a callgrind
 * file: how much of it still runs in the counted span varies from run to run by a few percent of
 * the total, so the figure without it is the steadier one to compare builds by.
 */
function compilerIr(file: string): number {
  const r = spawnSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  let sum = 0;
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*([\d,]+) \([ \d.]+%\)\s+(.*)$/.exec(line);
    if (m?.[1] && m[2] && /v8::internal::compiler::|v8::internal::maglev::|turboshaft/.test(m[2])) sum += Number(m[1].replaceAll(',', ''));
  }
  return sum;
}

/** Instructions (Ir) summed over a callgrind output file's totals line. */
function totalIr(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  const m = /^totals:\s+(\d+)/m.exec(text) ?? /^summary:\s+(\d+)/m.exec(text);
  if (!m?.[1]) throw new Error(`no totals in ${file}`);
  return Number(m[1]);
}

/** The process's user and system CPU seconds, its read and write calls and bytes written so far (Linux /proc). */
function processCounters(pid: number | undefined): { user: number; system: number; readCalls: number; writeCalls: number; writeBytes: number } {
  const times = cpuTimes(pid);
  if (!times) throw new Error(`no CPU times for process ${pid}`);
  const io = Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': ')),
  ) as Record<string, string>;
  return {
    ...times,
    readCalls: Number(io.syscr),
    writeCalls: Number(io.syscw),
    writeBytes: Number(io.wchar),
  };
}

interface Measured {
  root: string;
  irPerOrder: number;
  steadyIrPerOrder: number;
  cpuMsPerOrder: number;
  /** Native runs: user and system CPU ms, read and write calls and KB written, per order. */
  native: { userMs: number; systemMs: number; readCalls: number; writeCalls: number; writeKb: number } | null;
  files: string[];
}

async function measure(root: string, work: string): Promise<Measured> {
  const label = path.basename(root);
  const databaseUrl = `sqlite:${path.join(work, `${label}.db`)}`;
  const env = benchServiceEnv(databaseUrl);
  const seedFile = path.join(work, `${label}-seed.json`);
  fs.writeFileSync(
    seedFile,
    JSON.stringify(buildBenchSeed(path.join(root, 'examples/demo-seed.json'), { profiles: PROFILES, credentials: Number(process.env.INSTR_CREDENTIALS ?? 1_000), pastOrders: Number(process.env.INSTR_PAST_ORDERS ?? 2_000), routes: null })),
  );
  const imported = spawnSync(process.execPath, [path.join(root, 'dist/cli/index.js'), 'import', seedFile], { env, encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`import (${label}): ${imported.stdout}${imported.stderr}`);
  const port = await freePort();
  const out = path.join(work, `callgrind.${label}.%p`);
  const native = process.env.INSTR_NATIVE === '1';
  const nodeArgs = (process.env.INSTR_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(
    native ? process.execPath : 'valgrind',
    [
      ...(native ? [] : ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath]),
      ...SERVICE_NODE_OPTIONS,
      ...nodeArgs,
      path.join(root, 'dist/cli/index.js'),
      'serve',
    ],
    { env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exited = new Promise((r) => child.once('exit', r));
  let cpuMsPerOrder: number;
  let nativeCounters: Measured['native'] = null;
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`${label}: the service exited: ${stderr.slice(-2000)}`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) break;
      } catch {
        // not up yet
      }
      if (i > 1200) throw new Error(`${label}: the service did not come up`);
      await sleep(250);
    }
    await purchases(url, 1, WARMUP);
    await drained(databaseUrl);
    const control = (args: string[]) => {
      if (native) return;
      // vgdb finds the process by pipes named after $HOST, which the service was given as its address.
      const r = spawnSync('callgrind_control', [...args, String(child.pid)], { encoding: 'utf8', env: { ...process.env, HOST: '127.0.0.1' } });
      if (r.status !== 0 || !r.stdout.includes('OK.')) throw new Error(`callgrind_control ${args.join(' ')}: ${r.stdout}${r.stderr}`);
    };
    control(['-z']);
    control(['-i', 'on']);
    const cpuBefore = cpuSeconds(child.pid);
    const countersBefore = native ? processCounters(child.pid) : null;
    await purchases(url, 2, COUNTED);
    await drained(databaseUrl);
    cpuMsPerOrder = ((cpuSeconds(child.pid) - cpuBefore) * 1000) / COUNTED;
    if (countersBefore) {
      const after = processCounters(child.pid);
      nativeCounters = {
        userMs: ((after.user - countersBefore.user) * 1000) / COUNTED,
        systemMs: ((after.system - countersBefore.system) * 1000) / COUNTED,
        readCalls: (after.readCalls - countersBefore.readCalls) / COUNTED,
        writeCalls: (after.writeCalls - countersBefore.writeCalls) / COUNTED,
        writeKb: (after.writeBytes - countersBefore.writeBytes) / 1024 / COUNTED,
      };
    }
    control(['-i', 'off']);
    control(['-d']);
    child.kill('SIGTERM');
    await exited;
  } finally {
    // A failed measure leaves no service behind (it would hold its port and keep valgrind running).
    if (child.exitCode === null) child.kill('SIGKILL');
    await exited;
  }
  const files = fs.readdirSync(work).filter((f) => f.startsWith(`callgrind.${label}.${child.pid}`)).map((f) => path.join(work, f));
  // The dump asked for above holds the counted span; the one written at exit holds nothing more (instrumentation was off).
  const irPerOrder = native ? 0 : files.reduce((sum, f) => sum + totalIr(f), 0) / COUNTED;
  const compilerPerOrder = native ? 0 : files.reduce((sum, f) => sum + compilerIr(f), 0) / COUNTED;
  return { root, irPerOrder, steadyIrPerOrder: irPerOrder - compilerPerOrder, cpuMsPerOrder, native: nativeCounters, files };
}

async function main(): Promise<void> {
  if (process.env.INSTR_NATIVE !== '1' && spawnSync('valgrind', ['--version']).status !== 0) {
    throw new Error('valgrind is not installed (Debian: apt-get install valgrind); INSTR_NATIVE=1 measures CPU time without it');
  }
  const roots = (process.argv.slice(2).length ? process.argv.slice(2) : [ROOT]).map((r) => path.resolve(r));
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-instructions-'));
  const keep = process.env.INSTR_KEEP === '1';
  try {
    const results = [];
    for (const root of roots) {
      const r = await measure(root, work);
      results.push(r);
      console.log(
        process.env.INSTR_NATIVE === '1'
          ? `${root}: ${r.cpuMsPerOrder.toFixed(3)} ms of CPU per order (user ${r.native?.userMs.toFixed(3)}, system ${r.native?.systemMs.toFixed(3)}; ${r.native?.readCalls.toFixed(1)} read calls, ${r.native?.writeCalls.toFixed(1)} write calls, ${r.native?.writeKb.toFixed(1)} KB written) (${COUNTED} purchases delivered, no valgrind)`
          : `${root}: ${(r.irPerOrder / 1e6).toFixed(3)} M instructions per order, ${(r.steadyIrPerOrder / 1e6).toFixed(3)} M without V8's optimizing compiler (${COUNTED} purchases delivered)`,
      );
    }
    const [first] = results;
    if (first && process.env.INSTR_NATIVE !== '1') {
      for (const r of results.slice(1)) {
        console.log(
          `${r.root} / ${first.root}: ${(r.irPerOrder / first.irPerOrder).toFixed(3)}, without the compiler ${(r.steadyIrPerOrder / first.steadyIrPerOrder).toFixed(3)}`,
        );
      }
    }
    if (keep) console.log(`callgrind files kept in ${work}`);
  } finally {
    if (!keep) fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
