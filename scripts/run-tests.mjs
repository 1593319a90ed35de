#!/usr/bin/env node
// Runs the whole suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set, and ends
// with a summary per engine that names every test that failed or was cancelled and every test file
// whose process ended early.
// Usage: node scripts/run-tests.mjs [test files or name filters...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);

function findFiles(dir, suffix) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findFiles(full, suffix);
    return entry.name.endsWith(suffix) ? [full] : [];
  });
}

const filters = process.argv.slice(2);

/**
 * Each test file's wall time in the last run, longest first, so that the slowest files start first
 * and the run does not end waiting on one that started last. The last run's own timings are kept in
 * node_modules/.cache (not committed); a fresh clone starts from test/file-timings.json, which
 * `node scripts/run-tests.mjs --save-timings` refreshes from a whole run.
 */
const TIMINGS_CACHE = 'node_modules/.cache/partner-api/test-file-timings.json';
const TIMINGS_COMMITTED = 'test/file-timings.json';
const saveTimings = filters.includes('--save-timings');
if (saveTimings) filters.splice(filters.indexOf('--save-timings'), 1);

function readTimings() {
  for (const file of [TIMINGS_CACHE, TIMINGS_COMMITTED]) {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch {
      // absent or unreadable: the next one, or none
    }
  }
  return {};
}
const lastTimings = readTimings();
/** A file's time in the last run, summed over the engines; a new file counts as slow (it starts early). */
const lastTime = (file) => {
  const byEngine = lastTimings[file.split(path.sep).join('/')];
  return byEngine ? Object.values(byEngine).reduce((a, b) => a + b, 0) : Number.POSITIVE_INFINITY;
};

const files = findFiles('test', '.test.ts')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .sort((a, b) => lastTime(b) - lastTime(a));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

/**
 * Why dist/ may not be what src/ compiles to now, or null when every src/ module has a compiled
 * counterpart written after it (and after tsconfig.json).
 */
function distStaleness() {
  const entry = 'dist/cli/index.js';
  if (!fs.existsSync(entry)) return `${entry} does not exist`;
  const mtime = (file) => fs.statSync(file).mtimeMs;
  if (mtime('tsconfig.json') > mtime(entry)) return 'tsconfig.json changed after the build';
  for (const source of findFiles('src', '.ts')) {
    if (source.endsWith('.d.ts')) continue;
    const compiled = path.join('dist', path.relative('src', source)).replace(/\.ts$/, '.js');
    if (!fs.existsSync(compiled)) return `${compiled} does not exist`;
    if (mtime(compiled) < mtime(source)) return `${source} changed after the build`;
  }
  return null;
}

/** Where the suite runs compiled (git-ignored): the test code transpiled, and src/ as dist/ through a link. */
const BUILD = '.test-build';

/**
 * The test code (and the scripts and client code it imports) transpiled to BUILD, each file as
 * it is (TypeScript's transpileModule: types are checked by `npm run typecheck`, not here), with
 * BUILD/src a link to dist/: a test file then runs as plain JavaScript, without a loader. A test
 * process through tsx spent about 1.3 s of CPU more starting (its hooks run for every import),
 * a few CPU-minutes a run. Stack traces map back to the TypeScript through inline source maps.
 */
function buildTests() {
  const ts = createRequire(import.meta.url)('typescript');
  fs.rmSync(BUILD, { recursive: true, force: true });
  const sources = [...findFiles('test', '.ts'), ...findFiles('scripts', '.ts'), ...findFiles('clients/typescript/src', '.ts')].filter(
    (file) => !file.endsWith('.d.ts'),
  );
  for (const source of sources) {
    const { outputText } = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
      fileName: path.resolve(source),
      compilerOptions: {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ES2022,
        verbatimModuleSyntax: true,
        inlineSourceMap: true,
        inlineSources: true,
      },
    });
    const out = path.join(BUILD, source.replace(/\.ts$/, '.js'));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, outputText);
  }
  fs.symlinkSync(path.relative(BUILD, 'dist'), path.join(BUILD, 'src'), 'dir');
}

/**
 * How the suite runs: compiled (dist/ built from the current src/, the tests transpiled to
 * BUILD), which `npm test` has just built for; else dist/ is built here first. If that build
 * fails, the suite runs from the TypeScript sources through tsx, the CLI too.
 */
function chooseMode() {
  const stale = distStaleness();
  if (stale !== null) {
    console.log(`dist/ is not built from the current src/ (${stale}): building it`);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { stdio: 'inherit' });
    if (build.status !== 0) {
      console.log('the build failed: the suite runs from the TypeScript sources through tsx');
      return 'tsx';
    }
  }
  buildTests();
  console.log(`the suite runs compiled: the tests from ${BUILD}/, src/ as dist/ (built from the current src/)`);
  return 'compiled';
}

const mode = chooseMode();
/** What node runs for a test file of test/. */
const runnable = (file) => (mode === 'compiled' ? path.join(BUILD, file.replace(/\.ts$/, '.js')) : file);
/** The test file of test/ that `file` (what node ran) stands for. */
const sourceOf = (file) => {
  const rel = path.relative(ROOT, file).split(path.sep).join('/');
  return rel.startsWith(`${BUILD}/`) ? rel.slice(BUILD.length + 1).replace(/\.js$/, '.ts') : rel;
};

/**
 * Every test process hashes staff passwords at a test-only cost (src/modules/console/passwords.ts,
 * passwordCost): a console test signs in many times, and each sign-in at the production cost is
 * 0.45 s of CPU. test/console/password.test.ts shows that any other process uses the real cost.
 * TEST_RUN_ID names this run's PostgreSQL test databases (dropLeftoverDatabases).
 */
const SUITE_ENV = { NODE_ENV: 'test', STAFF_PASSWORD_TEST_COST: '1', TEST_RUN_ID: `r${process.pid}` };

const runs = [{ name: 'sqlite', env: { ...SUITE_ENV, TEST_DB: 'sqlite' } }];
if (process.env.TEST_DATABASE_URL) runs.push({ name: 'postgres', env: { ...SUITE_ENV, TEST_DB: 'postgres' } });
else console.log('TEST_DATABASE_URL is not set: PostgreSQL run skipped');

const reporter = pathToFileURL(path.join(ROOT, 'scripts/test-summary-reporter.mjs')).href;
const eventsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-test-run-'));

function formatDuration(ms) {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s` : `${s}s`;
}

/** What the summary reporter wrote: the tests that did not pass, each file's time, and the counts. */
function readEvents(file) {
  const problems = { failed: [], cancelled: [], crashed: [] };
  const fileTimes = new Map();
  let counts = null;
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    if (record.event === 'counts') {
      counts = record;
      continue;
    }
    if (record.event === 'file') {
      if (typeof record.ms === 'number') fileTimes.set(sourceOf(record.file), record.ms);
      continue;
    }
    const where = record.file ? sourceOf(record.file) : '(unknown file)';
    const isFile = record.nesting === 0 && record.path.length === 1 && record.path[0] === record.file;
    if (record.failureType === 'subtestsFailed') continue; // a suite or file: its tests are listed
    if (isFile) {
      const end = record.signal ? `was killed by ${record.signal}` : record.exitCode !== null ? `exited with code ${record.exitCode}` : 'failed';
      problems.crashed.push(`${where}: its process ${end} before its tests finished (see its output above)`);
    } else if (record.failureType === 'cancelledByParent') {
      problems.cancelled.push(`${where} › ${record.path.join(' › ')}`);
    } else {
      problems.failed.push(`${where} › ${record.path.join(' › ')}: ${record.reason}`);
    }
  }
  return { problems, counts, fileTimes };
}

/**
 * The PostgreSQL databases of this run that a test file left behind (its process killed before
 * its clean-up): test/support/database-template.ts names each `partner_api_t_<run>_…`.
 */
async function dropLeftoverDatabases(runId) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  try {
    await client.connect();
    const { rows } = await client.query('select datname from pg_database where starts_with(datname, $1)', [`partner_api_t_${runId}_`]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
    if (rows.length > 0) console.log(`dropped ${rows.length} test database${rows.length === 1 ? '' : 's'} left behind`);
  } catch (error) {
    console.log(`could not drop the test databases left behind: ${error.message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

const results = [];
for (const run of runs) {
  console.log(`\n=== test suite on ${run.name} (${files.length} files) ===`);
  const eventsFile = path.join(eventsDir, `${run.name}.jsonl`);
  const started = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      ...(mode === 'compiled' ? ['--enable-source-maps'] : ['--import', 'tsx']),
      '--test',
      '--test-concurrency=3',
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${reporter}`,
      `--test-reporter-destination=${eventsFile}`,
      ...files.map(runnable),
    ],
    { stdio: 'inherit', env: { ...process.env, ...run.env, TEST_CLI: mode === 'compiled' ? 'dist' : 'tsx' } },
  );
  if (run.name === 'postgres') await dropLeftoverDatabases(run.env.TEST_RUN_ID);
  const { problems, counts, fileTimes } = readEvents(eventsFile);
  const ok = result.status === 0 && problems.failed.length + problems.cancelled.length + problems.crashed.length === 0;
  results.push({ run, ok, status: result.status, signal: result.signal, problems, counts, fileTimes, ms: Date.now() - started });
  console.log(`=== ${run.name}: ${ok ? 'passed' : 'FAILED'} (${formatDuration(Date.now() - started)}) ===`);
}
fs.rmSync(eventsDir, { recursive: true, force: true });

// The timings of this run's files replace the last run's; files this run did not take keep theirs.
const timings = { ...lastTimings };
for (const { run, fileTimes } of results) {
  for (const [file, ms] of fileTimes) timings[file] = { ...timings[file], [run.name]: Math.round(ms) };
}
const sortedTimings = Object.fromEntries(Object.entries(timings).sort(([a], [b]) => a.localeCompare(b)));
for (const file of saveTimings ? [TIMINGS_CACHE, TIMINGS_COMMITTED] : [TIMINGS_CACHE]) {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(sortedTimings, null, 2)}\n`);
  } catch (error) {
    console.log(`could not keep the file timings in ${file}: ${error.message}`);
  }
}

console.log('\n=== slowest test files ===');
for (const { run, fileTimes } of results) {
  const slowest = [...fileTimes].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`${run.name}:`);
  for (const [file, ms] of slowest) console.log(`  ${formatDuration(ms).padStart(6)}  ${file}`);
}

console.log('\n=== summary ===');
for (const { run, ok, status, signal, problems, counts, ms } of results) {
  const c = counts ?? {};
  const tally = counts
    ? `${c.tests} tests: ${c.pass} passed, ${c.fail} failed, ${c.cancelled} cancelled, ${c.skipped} skipped${c.todo ? `, ${c.todo} todo` : ''}`
    : 'no counts reported';
  const n = problems.crashed.length;
  const crashed = n > 0 ? `; ${n} test file${n === 1 ? '' : 's'} ended early` : '';
  console.log(`${run.name}: ${ok ? 'passed' : 'FAILED'} in ${formatDuration(ms)} (${tally}${crashed})`);
  for (const line of problems.failed) console.log(`  failed:    ${line}`);
  for (const line of problems.cancelled) console.log(`  cancelled: ${line}`);
  for (const line of problems.crashed) console.log(`  ended early: ${line}`);
  if (!ok && problems.failed.length + problems.cancelled.length + problems.crashed.length === 0) {
    console.log(`  the test runner ${signal ? `was killed by ${signal}` : `exited with code ${status}`} without naming a failing test: see the output above`);
  }
}
process.exit(results.every((r) => r.ok) ? 0 : 1);
