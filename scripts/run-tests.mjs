#!/usr/bin/env node
// Runs the whole suite on SQLite, then again on PostgreSQL when TEST_DATABASE_URL is set.
// Usage: node scripts/run-tests.mjs [test files or name filters...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

function findTests(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findTests(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = findTests('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

const runs = [{ name: 'sqlite', env: { TEST_DB: 'sqlite' } }];
if (process.env.TEST_DATABASE_URL) runs.push({ name: 'postgres', env: { TEST_DB: 'postgres' } });
else console.log('TEST_DATABASE_URL is not set: PostgreSQL run skipped');

let failed = false;
for (const run of runs) {
  console.log(`\n=== test suite on ${run.name} (${files.length} files) ===`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=spec', ...files],
    { stdio: 'inherit', env: { ...process.env, ...run.env } },
  );
  if (result.status !== 0) {
    failed = true;
    console.error(`=== ${run.name}: FAILED ===`);
  }
}
process.exit(failed ? 1 : 0);
