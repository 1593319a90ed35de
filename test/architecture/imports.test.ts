import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../support/repo.js';

/**
 * The architecture, checked on the source itself: domain code never reaches into the HTTP edge,
 * and nothing imports in a circle (no file through its imports back to itself, no domain module
 * through another back to itself).
 */

const SRC = path.join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Every module specifier a file imports or re-exports, type-only imports included. */
function specifiers(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s+'([^']+)'/g)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g)) found.push(match[1] ?? '');
  for (const match of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) found.push(match[1] ?? '');
  return found;
}

/** A relative specifier as the source file it names (`./x.js` → `<dir>/x.ts`); null for a package. */
function resolved(from: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
}

const files = sourceFiles(SRC);
const rel = (file: string) => path.relative(SRC, file);
const edges = new Map(files.map((file) => [file, specifiers(file)]));

/** A module's HTTP edge: its routes.ts, or the files of its routes/ folder (one per resource, as the console has). */
function isRoutes(file: string): boolean {
  return /^modules\/[^/]+\/routes(\.ts$|\/)/.test(rel(file));
}

/** Domain code: the modules' services, repositories and helpers, and what they build on. Not the edge (routes, src/http, app, cli). */
function isDomain(file: string): boolean {
  const r = rel(file);
  if (r.startsWith('modules/')) return !isRoutes(file);
  return ['domain/', 'db/', 'lib/', 'providers/', 'worker/', 'seed/'].some((dir) => r.startsWith(dir));
}

function moduleOf(file: string): string | null {
  const match = /^modules\/([^/]+)\//.exec(rel(file));
  return match?.[1] ?? null;
}

/** The first cycle found in a graph, as the list of its nodes; null when there is none. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'visiting') return [...stack.slice(stack.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    if (state.get(node) === undefined) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  }
  return null;
}

describe('architecture: imports', () => {
  test('the checks see the source (a sanity check of the scan itself)', () => {
    assert.ok(files.length > 50, `${files.length} files`);
    const purchases = edges.get(path.join(SRC, 'modules/data-bundles/service.ts')) ?? [];
    assert.ok(purchases.includes('../wallet/repository.js'), purchases.join(', '));
  });

  test('no service, repository or other domain code imports Fastify or src/http', () => {
    const offenders: string[] = [];
    for (const [file, imports] of edges) {
      if (!isDomain(file)) continue;
      for (const specifier of imports) {
        const target = resolved(file, specifier);
        const intoHttp = target !== null && (rel(target).startsWith('http/') || rel(target) === 'app.ts');
        if (specifier === 'fastify' || specifier.startsWith('@fastify/') || intoHttp)
          offenders.push(`${rel(file)} imports ${specifier}`);
      }
    }
    assert.deepEqual(offenders, []);
  });

  test('the console’s views see view models only: no database row, no service, no rule', () => {
    const offenders: string[] = [];
    for (const [file, imports] of edges) {
      if (!rel(file).startsWith('modules/console/views/')) continue;
      for (const specifier of imports) {
        const target = resolved(file, specifier);
        const allowed =
          specifier === 'ghtml' ||
          (target !== null && (rel(target).startsWith('modules/console/views/') || rel(target).startsWith('modules/console/models/')));
        if (!allowed) offenders.push(`${rel(file)} imports ${specifier}`);
      }
    }
    assert.ok(edges.has(path.join(SRC, 'modules/console/views/layout.ts')), 'the scan sees the views');
    assert.deepEqual(offenders, []);
  });

  test('no file imports itself through others', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, imports] of edges) {
      graph.set(file, new Set(imports.map((s) => resolved(file, s)).filter((t): t is string => t !== null && edges.has(t))));
    }
    const cycle = findCycle(graph);
    assert.equal(cycle, null, cycle ? `import cycle: ${cycle.map(rel).join(' -> ')}` : '');
  });

  test('no domain module depends on itself through another module', () => {
    const graph = new Map<string, Set<string>>();
    for (const [file, imports] of edges) {
      const from = moduleOf(file);
      if (from === null || isRoutes(file)) continue;
      const targets = graph.get(from) ?? new Set<string>();
      for (const specifier of imports) {
        const target = resolved(file, specifier);
        const to = target === null ? null : moduleOf(target);
        if (to !== null && to !== from) targets.add(to);
      }
      graph.set(from, targets);
    }
    assert.ok(graph.size >= 6, [...graph.keys()].join(', '));
    const cycle = findCycle(graph);
    assert.equal(cycle, null, cycle ? `module cycle: ${cycle.join(' -> ')}` : '');
  });
});
