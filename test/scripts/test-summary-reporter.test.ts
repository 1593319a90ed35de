import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../support/repo.js';

/**
 * scripts/test-summary-reporter.mjs, which scripts/run-tests.mjs reads to decide whether a run
 * passed: it names each failed test, and a todo test that fails is no failure (node:test counts it
 * as todo), so a known gap marked todo does not fail the suite.
 */

const REPORTER = pathToFileURL(path.join(ROOT, 'scripts/test-summary-reporter.mjs')).href;

test('the summary names a failed test, not a failing todo test, and counts the todo', (c) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'partner-api-reporter-'));
  c.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'sample.test.mjs');
  fs.writeFileSync(
    file,
    [
      "import { test } from 'node:test';",
      "test('passes', () => {});",
      "test('fails', () => { throw new Error('boom'); });",
      "test('todo that fails', { todo: 'not yet' }, () => { throw new Error('still a gap'); });",
      '',
    ].join('\n'),
  );
  const out = path.join(dir, 'events.jsonl');
  // Without NODE_TEST_CONTEXT, which makes a node:test process started by another report to it instead.
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = spawnSync(process.execPath, ['--test', `--test-reporter=${REPORTER}`, `--test-reporter-destination=${out}`, file], {
    encoding: 'utf8',
    env,
  });
  assert.equal(run.status, 1, `node --test: ${run.stderr}`);
  const events = fs
    .readFileSync(out, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { event: string; path?: string[]; reason?: string; todo?: number; fail?: number; pass?: number });
  const failed = events.filter((e) => e.event === 'fail');
  assert.deepEqual(
    failed.map((e) => e.path?.at(-1)),
    ['fails'],
  );
  assert.match(failed[0]?.reason ?? '', /boom/);
  const counts = events.find((e) => e.event === 'counts');
  assert.deepEqual({ pass: counts?.pass, fail: counts?.fail, todo: counts?.todo }, { pass: 1, fail: 1, todo: 1 });
});
