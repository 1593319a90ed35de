import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../support/repo.js';

/**
 * The service's node options (docs/deployment.md, "The young generation") are written in three
 * places an operator copies from: package.json's `start`, the `npm start` line of
 * docs/deployment.md and its systemd units. They must agree, and the option must do what the
 * docs say (bench/service-process.ts starts benchmarked builds with `start`'s options too).
 */
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const deployment = fs.readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');

/** The node options of a `node <options> <…>dist/cli/index.js <command>` line. */
function nodeOptions(commandLine: string): string[] {
  const words = commandLine.trim().split(/\s+/);
  const script = words.findIndex((word) => word.endsWith('dist/cli/index.js'));
  assert.ok(script > 0 && /(^|\/)node$/.test(words[0] ?? ''), `not a node command line: ${commandLine}`);
  return words.slice(1, script);
}

const startOptions = nodeOptions(manifest.scripts.start ?? '');

test("npm start runs serve with the young generation's option", () => {
  assert.match(manifest.scripts.start ?? '', / dist\/cli\/index\.js serve$/);
  assert.ok(startOptions.includes('--max-semi-space-size=64'), manifest.scripts.start);
});

test("docs/deployment.md starts every process with npm start's options", () => {
  const npmStart = /npm start +# = (.+)$/m.exec(deployment);
  assert.ok(npmStart?.[1], 'the "npm start # = …" line');
  assert.equal(npmStart[1].trim(), manifest.scripts.start);
  const units = [...deployment.matchAll(/^ExecStart=(.+)$/gm)].map((m) => m[1] ?? '');
  assert.ok(units.length >= 3, 'the SQLite unit, the API unit and the worker unit');
  for (const unit of units) assert.deepEqual(nodeOptions(unit), startOptions, unit);
});

test('the option gives the young generation 64 MB halves', () => {
  // Enough short-lived allocation for V8 to grow the new space to its maximum (two halves).
  const script = `
    const v8 = require('node:v8');
    let keep = [];
    for (let i = 0; i < 3e6; i++) { keep.push({ i, a: [i] }); if (keep.length > 200000) keep = keep.slice(100000); }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size));`;
  const newSpaceMb = (options: string[]) => {
    const run = spawnSync(process.execPath, [...options, '-e', script], { encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    return Number(run.stdout) / 1024 / 1024;
  };
  assert.equal(newSpaceMb(startOptions), 128);
  assert.ok(newSpaceMb([]) < 128, "V8's default is smaller");
});
