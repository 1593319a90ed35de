import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { ROOT } from '../support/repo.js';

/** Every variable src/config.ts reads, as it names them. */
function variablesRead(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  const names = [...source.matchAll(/env, '([A-Z][A-Z0-9_]+)'|env\.([A-Z][A-Z0-9_]+)|env\['([A-Z][A-Z0-9_]+)'\]/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? '',
  );
  return [...new Set(names)].sort();
}

test('.env.example and docs/configuration.md name every variable the configuration reads, and the example loads as it is', () => {
  const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  const documented = fs.readFileSync(path.join(ROOT, 'docs/configuration.md'), 'utf8');
  const read = variablesRead();
  assert.ok(read.length > 30, `the scan found ${read.length} variables`);
  const assignments = new Map<string, string>();
  for (const line of example.split('\n')) {
    const m = /^#?\s*([A-Z][A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m?.[1]) assignments.set(m[1], m[2] ?? '');
  }
  assert.deepEqual(
    read.filter((name) => !assignments.has(name)),
    [],
    'missing from .env.example',
  );
  assert.deepEqual(
    read.filter((name) => !documented.includes(`\`${name}\``)),
    [],
    'missing from docs/configuration.md',
  );
  // Its uncommented lines are valid values (an empty one means the default).
  const env: Record<string, string> = {};
  for (const line of example.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m?.[1]) env[m[1]] = m[2] ?? '';
  }
  assert.doesNotThrow(() => loadConfig({ ...env, NODE_ENV: 'development', CREDENTIALS_KEY: '' }));
});
