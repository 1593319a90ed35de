import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';
import { ROOT } from '../support/repo.js';

/**
 * The tests' helpers live in one folder, test/support/, one file per concern, and each helper has
 * one name there: a test file imports its helpers from test/support/ and exports none of its own,
 * and no two files of test/support/ export the same name. Reads files only.
 */

const TEST = path.join(ROOT, 'test');
const SUPPORT = path.join(TEST, 'support');
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function codeFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return codeFiles(full);
    return CODE.test(entry.name) ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file);
const inSupport = (file: string) => file.startsWith(`${SUPPORT}${path.sep}`);
const files = codeFiles(TEST);
const supportFiles = files.filter(inSupport);
const testFiles = files.filter((file) => !inSupport(file));

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

/** The names a statement declares at the top level of its file. */
function declaredNames(statement: ts.Statement): string[] {
  if (
    (ts.isFunctionDeclaration(statement) ||
      ts.isClassDeclaration(statement) ||
      ts.isInterfaceDeclaration(statement) ||
      ts.isTypeAliasDeclaration(statement) ||
      ts.isEnumDeclaration(statement)) &&
    statement.name
  ) {
    return [statement.name.text];
  }
  if (ts.isVariableStatement(statement)) {
    return statement.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  }
  return [];
}

/** What a file exports: its exported names, and its re-exports of other modules (`export … from`). */
function exportsOf(file: string): { names: string[]; reexports: string[] } {
  const names: string[] = [];
  const reexports: string[] = [];
  for (const statement of parse(file).statements) {
    if (ts.isExportDeclaration(statement)) {
      if (statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) reexports.push(statement.moduleSpecifier.text);
      else if (statement.exportClause && ts.isNamedExports(statement.exportClause)) names.push(...statement.exportClause.elements.map((e) => e.name.text));
    } else if (ts.isExportAssignment(statement)) {
      names.push('default');
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      names.push(...(hasModifier(statement, ts.SyntaxKind.DefaultKeyword) ? ['default'] : declaredNames(statement)));
    }
  }
  return { names, reexports };
}

/** The relative module specifiers a file imports (static and dynamic), resolved to files. */
function importedFiles(file: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    let specifier: ts.Expression | undefined;
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) specifier = node.moduleSpecifier;
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) specifier = node.arguments[0];
    if (specifier && ts.isStringLiteral(specifier) && specifier.text.startsWith('.')) {
      found.push(path.resolve(path.dirname(file), specifier.text).replace(/\.js$/, '.ts'));
    }
    ts.forEachChild(node, visit);
  };
  visit(parse(file));
  return found;
}

describe('test helpers: one folder, one name each (test/support/)', () => {
  test('every code file under test/ outside test/support/ is a test file, and test/support/ holds none', () => {
    const strays = testFiles.filter((file) => !file.endsWith('.test.ts')).map(rel);
    assert.deepEqual(strays, [], 'a helper file outside test/support/: move what it exports into test/support/');
    const tests = supportFiles.filter((file) => /\.test\.[cm]?[jt]s$/.test(file)).map(rel);
    assert.deepEqual(tests, [], 'a test file in test/support/: move it next to the tests of what it tests');
  });

  test('a test file exports nothing and imports helpers from test/support/ only', () => {
    const problems: string[] = [];
    for (const file of testFiles) {
      const { names, reexports } = exportsOf(file);
      for (const name of names) problems.push(`${rel(file)} exports ${name}: a helper belongs in test/support/`);
      for (const specifier of reexports) problems.push(`${rel(file)} re-exports ${specifier}`);
      for (const imported of importedFiles(file)) {
        if (imported.startsWith(`${TEST}${path.sep}`) && !inSupport(imported)) {
          problems.push(`${rel(file)} imports ${rel(imported)}: helpers are imported from test/support/`);
        }
      }
    }
    assert.deepEqual(problems, []);
  });

  test('each name is exported by one file of test/support/, and none of them re-exports another', () => {
    const owners = new Map<string, string[]>();
    const reexports: string[] = [];
    for (const file of supportFiles) {
      const found = exportsOf(file);
      for (const name of found.names) owners.set(name, [...(owners.get(name) ?? []), rel(file)]);
      for (const specifier of found.reexports) reexports.push(`${rel(file)} re-exports ${specifier}`);
    }
    const shared = [...owners].filter(([, where]) => where.length > 1).map(([name, where]) => `${name}: ${where.join(', ')}`);
    assert.deepEqual(shared, [], 'a name exported by two support files: merge them into one helper');
    assert.deepEqual(reexports, [], 'a helper is exported by the file that defines it, under one name');
  });

  // Types may share a name with another meaning (a page of orders, a console page); functions and
  // constants are the helpers.
  test('a test file keeps no copy of a helper: no top-level function or constant takes the name of a test/support/ export', () => {
    const exported = new Map<string, string>();
    for (const file of supportFiles) for (const name of exportsOf(file).names) exported.set(name, rel(file));
    const copies: string[] = [];
    for (const file of testFiles) {
      for (const statement of parse(file).statements) {
        if (!ts.isFunctionDeclaration(statement) && !ts.isVariableStatement(statement)) continue;
        for (const name of declaredNames(statement)) {
          const owner = exported.get(name);
          if (owner) copies.push(`${rel(file)} declares ${name}: import it from ${owner}`);
        }
      }
    }
    assert.deepEqual(copies, []);
  });
});
