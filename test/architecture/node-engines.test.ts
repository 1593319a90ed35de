import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { ROOT } from '../support/repo.js';

/**
 * Node.js 20 (docs/deployment.md, "Node.js 20 and the EBADENGINE warnings"): every installed
 * package whose `engines.node` excludes the project's own minimum is one the document explains,
 * and the one of them the service must never load on Node.js 20 (undici, through Scalar's
 * bundler) is not imported by what serves /docs. Reads files only.
 */

interface Semver {
  minVersion(range: string): { version: string } | null;
  satisfies(version: string, range: string): boolean;
}
// semver is npm's own and a dependency of several of ours; only this test reads it.
const semver = createRequire(import.meta.url)('semver') as Semver;

/** The packages the document explains, by name. */
const EXPLAINED = [
  'cookie',
  '@scalar/fastify-api-reference',
  '@scalar/client-side-rendering',
  '@scalar/helpers',
  '@scalar/json-magic',
  '@scalar/schemas',
  '@scalar/types',
  'undici',
  '@apidevtools/json-schema-ref-parser',
  'eslint-visitor-keys',
  '@noble/hashes',
  'qr',
];

function installed(dir: string): { name: string; version: string; node?: string }[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith('.')) return [];
    const full = path.join(dir, entry.name);
    if (entry.name.startsWith('@')) return installed(full);
    const manifest = path.join(full, 'package.json');
    const own = fs.existsSync(manifest)
      ? [JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name: string; version: string; engines?: { node?: string } }].map((m) => ({
          name: m.name,
          version: m.version,
          ...(m.engines?.node ? { node: m.engines.node } : {}),
        }))
      : [];
    return [...own, ...installed(path.join(full, 'node_modules'))];
  });
}

test('every installed package that declares a Node.js above our minimum is one docs/deployment.md explains', () => {
  const ours = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;
  const minimum = semver.minVersion(ours)?.version;
  assert.ok(minimum, ours);
  const above = installed(path.join(ROOT, 'node_modules')).filter((p) => p.node !== undefined && !semver.satisfies(minimum, p.node));
  const unexplained = above.filter((p) => !EXPLAINED.includes(p.name)).map((p) => `${p.name}@${p.version} (node ${p.node})`);
  assert.deepEqual(unexplained, [], `explain these in docs/deployment.md, or choose versions that support Node.js ${minimum}`);
  const doc = fs.readFileSync(path.join(ROOT, 'docs/deployment.md'), 'utf8');
  for (const name of EXPLAINED) assert.ok(doc.includes(`\`${name}\``), `docs/deployment.md names ${name}`);
});

test("what serves /docs imports no undici: @scalar/json-magic's bundler is not loaded", () => {
  const files = ['@scalar/fastify-api-reference/dist/index.js', '@scalar/client-side-rendering/dist/html-rendering.js'];
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, 'node_modules', file), 'utf8');
    const imports = [...text.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
    assert.ok(imports.length > 0, `${file} imports something`);
    for (const specifier of imports) {
      assert.ok(specifier !== 'undici' && !specifier.startsWith('@scalar/json-magic/bundle'), `${file} imports ${specifier}`);
      if (specifier.startsWith('@scalar/json-magic')) assert.match(specifier, /^@scalar\/json-magic\/helpers\//);
    }
  }
});

test("otpauth's Node.js build imports node:crypto alone, never @noble/hashes (which asks for Node.js 20.19)", async () => {
  const resolved = fileURLToPath(import.meta.resolve('otpauth'));
  assert.match(resolved, /otpauth\.node\.m?js$/, 'Node.js resolves otpauth to its node build');
  const text = fs.readFileSync(resolved, 'utf8');
  const imports = [...text.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
  assert.deepEqual(imports, ['node:crypto']);
});
