import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../support/repo.js';

/**
 * What the documentation and the comments name is there for a reader of the repository to open:
 * every repository path in the documents (in backticks, in a link, or in the text) exists, every
 * relative link and its #anchor resolves, a docs/ section cited by name (`docs/x.md, "Heading"`) is
 * a heading of that file, and nothing cites the contract documents kept outside the repository.
 * Reads files only: no database, no server.
 */

/** This file, as its source (it may run compiled from .test-build/: scripts/run-tests.mjs). */
const THIS_FILE = 'test/docs/paths.test.ts';

/** The documents whose paths are checked, relative to the root. */
function documents(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return [...docs.sort(), 'README.md', 'CHANGELOG.md', 'clients/typescript/README.md'];
}

/** Every file under `dir` (relative to the root) whose name passes `keep`, skipping dependencies and build output. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return [];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['node_modules', 'dist', 'results'].includes(entry.name) ? [] : filesUnder(rel, keep);
    return keep(entry.name) ? [rel] : [];
  });
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (absolute: string) => fs.existsSync(absolute);

/** The text outside fenced code blocks, each line kept in place (blank inside a fence) so line numbers stay right. */
function outsideFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** A markdown file's headings, as written (without the #s and backticks). */
function headings(file: string): string[] {
  return outsideFences(read(file))
    .map((line) => /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1])
    .filter((h): h is string => h !== undefined)
    .map((h) => h.replace(/`/g, ''));
}

/** The anchors of a markdown file's headings (a repeated heading gets -1, -2, … as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const heading of headings(file)) {
    const base = slug(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

interface Named {
  line: number;
  path: string;
}

/** Repository paths named in the text: from the root's folders and files, up to a space, quote, bracket or comma. */
const REPOSITORY_PATH =
  /(?<![\w./@:~-])((?:src|test|docs|scripts|bench|examples|clients|\.ci|dist)\/[\w./<>*…@-]*|\.env\.example|package(?:-lock)?\.json|tsconfig(?:\.check)?\.json|eslint\.config\.js|LICENSE|CHANGELOG\.md|README\.md)/g;
/** A backticked path below some folder, ending in a file type: `orders/deliveries.ts` (module-relative) included. */
const BACKTICKED_FILE = /`([\w.-]+(?:\/[\w.<>*…-]+)+\.(?:ts|mjs|js|md|json|csv|ya?ml))`/g;
const LINK = /\]\(([^)\s]+)\)/g;

function namedPaths(text: string): { paths: Named[]; links: Named[] } {
  const paths: Named[] = [];
  const links: Named[] = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(REPOSITORY_PATH)) paths.push({ line: i + 1, path: (m[1] ?? '').replace(/[.:]+$/, '') });
    for (const m of line.matchAll(BACKTICKED_FILE)) paths.push({ line: i + 1, path: m[1] ?? '' });
    for (const m of line.matchAll(LINK)) links.push({ line: i + 1, path: m[1] ?? '' });
  });
  return { paths, links };
}

/**
 * Whether a path named in `doc` exists: relative to the root or to the document's folder (a
 * package's README names its own files), or below src/ and src/modules/ (the layout's shorthand:
 * `orders/deliveries.ts`). Built output (`dist/x.js`) exists when its source (`src/x.ts`) does; a
 * path with a placeholder (`src/modules/<name>/`) when the folder before the placeholder does.
 */
function resolves(doc: string, named: string): boolean {
  let target = named;
  if (target === 'dist' || target === 'dist/') target = 'src/';
  else if (target.startsWith('dist/')) target = `src/${target.slice('dist/'.length).replace(/\.js$/, '.ts')}`;
  const placeholder = target.split('/').findIndex((segment) => /[<*…]/.test(segment));
  if (placeholder >= 0) target = target.split('/').slice(0, placeholder).join('/');
  const bases = [ROOT, path.join(ROOT, path.dirname(doc)), path.join(ROOT, 'src'), path.join(ROOT, 'src/modules')];
  return bases.some((base) => exists(path.join(base, target)));
}

/** What is wrong with a link of `doc`, or null: its file must exist, and its #anchor be a heading there. */
function brokenLink(doc: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:
  const [file = '', anchor] = target.split('#');
  const resolved = file === '' ? path.join(ROOT, doc) : path.resolve(ROOT, path.dirname(doc), file);
  if (!resolved.startsWith(ROOT) || !exists(resolved)) return `${target}: no such file`;
  if (anchor === undefined || !resolved.endsWith('.md')) return null;
  return anchors(path.relative(ROOT, resolved)).has(anchor) ? null : `${target}: no heading with the anchor #${anchor}`;
}

/** Every problem of one document, as `doc:line: what` (each once). */
function problemsOf(doc: string): string[] {
  const { paths, links } = namedPaths(read(doc));
  const problems = new Set<string>();
  for (const { line, path: named } of paths) {
    if (!resolves(doc, named)) problems.add(`${doc}:${line}: ${named} does not exist`);
  }
  for (const { line, path: target } of links) {
    const broken = brokenLink(doc, target);
    if (broken) problems.add(`${doc}:${line}: link ${broken}`);
  }
  return [...problems];
}

describe('the repository paths the documents name exist', () => {
  test('the scan finds what it should, and tells a path that exists from one that does not', () => {
    const sample = [
      'See [retrying](errors.md#retrying-safely), `src/modules/data-bundles/service.ts` and src/modules/<name>/,',
      'settlement in `deliveries/service.ts`, `dist/cli/index.js`; GET http://127.0.0.1:8080/docs is no path.',
    ].join('\n');
    const { paths, links } = namedPaths(sample);
    assert.deepEqual([...new Set(paths.map((p) => p.path))].sort(), [
      'deliveries/service.ts',
      'dist/cli/index.js',
      'src/modules/<name>/',
      'src/modules/data-bundles/service.ts',
    ]);
    assert.deepEqual(links, [{ line: 1, path: 'errors.md#retrying-safely' }]);
    for (const { path: named } of paths) assert.ok(resolves('docs/api.md', named), named);
    assert.equal(brokenLink('docs/api.md', 'errors.md#retrying-safely'), null);

    assert.equal(resolves('docs/api.md', 'src/modules/orders/no-such-file.ts'), false);
    assert.equal(resolves('docs/api.md', 'src/no-such-folder/<name>.ts'), false);
    assert.equal(resolves('docs/api.md', 'dist/no-such-file.js'), false);
    assert.equal(resolves('docs/api.md', 'examples/buy-bundle.ts'), false, "another package's path, outside it");
    assert.equal(resolves('clients/typescript/README.md', 'examples/buy-bundle.ts'), true, "a package's own path, in its README");
    assert.equal(brokenLink('docs/api.md', 'no-such-file.md'), 'no-such-file.md: no such file');
    assert.equal(brokenLink('docs/api.md', 'errors.md#no-such-heading'), 'errors.md#no-such-heading: no heading with the anchor #no-such-heading');
  });

  for (const doc of documents()) {
    test(doc, () => {
      assert.deepEqual(problemsOf(doc), []);
    });
  }
});

/** Comments, tests and documents: where a citation can be written. */
function citingFiles(): string[] {
  const code = (name: string) => /\.(ts|mjs|js|json)$/.test(name) || name === 'run';
  const text = (name: string) => name.endsWith('.md');
  return [
    ...['src', 'test', 'bench', 'scripts', 'clients', 'examples', '.ci'].flatMap((dir) => filesUnder(dir, (n) => code(n) || text(n))),
    ...filesUnder('docs', text),
    'README.md',
    'CHANGELOG.md',
    '.env.example',
  ].filter((file) => file !== THIS_FILE);
}

/** A citation of the contract documents that live outside the repository (the spec's sections, its decisions). */
const OUTSIDE_CITATION =
  /integrator-features|decisions\.md|decisions §|\b[Ss]pec (?:§|\d)|partner-api-v1|\.\.\/shared\/|upstreams\.md|momo-topups|§/;

/** Each line that cites them, as `file:line: the line`. */
function outsideCitations(files: string[]): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (OUTSIDE_CITATION.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

/**
 * `docs/x.md, "Heading"` (and `… "A" and "B"`) wherever it is written, across comment lines too:
 * the file and the quoted headings it names.
 */
function sectionCitations(file: string): { line: number; doc: string; heading: string }[] {
  const lines = read(file).split('\n');
  const found: { line: number; doc: string; heading: string }[] = [];
  lines.forEach((_, i) => {
    // The line and the next, joined where a comment continues, so a citation may wrap.
    const next = (lines[i + 1] ?? '').replace(/^\s*(?:\*|\/\/)\s?/, '');
    const joined = `${lines[i]} ${next}`;
    for (const m of joined.matchAll(/\bdocs\/([\w-]+\.md),\s*((?:"[^"]+"(?:\s*(?:and|,)\s*(?="))?)+)/g)) {
      if ((m.index ?? 0) >= (lines[i] ?? '').length) continue; // starts on the next line: found there
      for (const quoted of (m[2] ?? '').matchAll(/"([^"]+)"/g)) found.push({ line: i + 1, doc: `docs/${m[1]}`, heading: quoted[1] ?? '' });
    }
  });
  return found;
}

/** A file named in a comment: below some folder, ending in a file type (`ops/listeners.ts`, `src/db/statements.ts`). */
const COMMENTED_FILE = /(?<![\w./@:<-])([A-Za-z_][\w.-]*(?:\/[\w.-]+)+\.(?:ts|mjs|js|md|json))\b/g;

/**
 * The files the comments of a code file name that exist nowhere they could mean: relative to the
 * file's folder or any folder above it (`ops/listeners.ts` from src/http/routes/ is
 * src/ops/listeners.ts) or to src/modules/ (`catalog/service.ts`); a `.js` file also as its `.ts`
 * source, and built output (`dist/cli/index.js`) as its source. A name with a placeholder
 * (`<dir>/x.ts`) is not a path.
 */
function missingCommentedFiles(file: string): Named[] {
  return commentedFiles(file).filter(({ path: named }) => {
    const bases = [path.join(ROOT, 'src/modules')];
    for (let dir = path.dirname(path.join(ROOT, file)); dir.startsWith(ROOT); dir = path.dirname(dir)) bases.push(dir);
    const source = named.replace(/^dist\//, 'src/');
    const forms = [named, source, source.replace(/\.js$/, '.ts')];
    return !bases.some((base) => forms.some((form) => exists(path.join(base, form))));
  });
}

/** The files named in the comments of a code file, with their lines. */
function commentedFiles(file: string): Named[] {
  const text = read(file);
  const named: Named[] = [];
  for (const comment of text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`])\/\/[^\n]*/g)) {
    for (const m of comment[0].matchAll(COMMENTED_FILE)) {
      named.push({ line: text.slice(0, (comment.index ?? 0) + (m.index ?? 0)).split('\n').length, path: m[1] ?? '' });
    }
  }
  return named;
}

describe('comments, tests and documents cite what a reader of the repository can open', () => {
  test('every file a comment names exists', () => {
    const code = citingFiles().filter((file) => /\.(ts|mjs|js)$/.test(file) && !file.endsWith('.d.ts'));
    assert.ok(code.length > 100, `the scan found ${code.length} code files`);
    assert.ok(
      commentedFiles('src/http/routes/health.ts').some((n) => n.path === 'src/ops/listeners.ts'),
      'the scan finds the file health.ts names',
    );
    const missing = code.flatMap((file) => missingCommentedFiles(file).map((n) => `${file}:${n.line}: ${n.path}`));
    assert.deepEqual(missing, []);
  });

  test('no citation of the contract documents kept outside the repository', () => {
    const files = citingFiles();
    assert.ok(files.length > 100 && files.includes('src/modules/orders/schemas.ts'), `the scan found ${files.length} files`);
    assert.deepEqual(outsideCitations(files), []);
  });

  test('every docs/ section cited by name is a heading of that file', () => {
    const cited = citingFiles().flatMap((file) => sectionCitations(file).map((c) => ({ ...c, file })));
    assert.ok(cited.length > 20, `the scan found ${cited.length} citations of a section`);
    const missing = cited
      .filter(({ doc, heading }) => !exists(path.join(ROOT, doc)) || !headings(doc).includes(heading))
      .map(({ file, line, doc, heading }) => `${file}:${line}: ${doc} has no heading "${heading}"`);
    assert.deepEqual(missing, []);
  });
});
