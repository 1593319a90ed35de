import type { TLocalizedValidationError } from 'typebox/error';
import { closestName } from '../lib/did-you-mean.js';
import { entryName } from './errors.js';

/**
 * Turns typebox's validation errors for a seed file into the one message a person can act on:
 * `dataPackages[0] (id "pkg_x"): unknown field pirce (did you mean price?)`.
 */

type ValidationError = TLocalizedValidationError;
type SchemaNode = Record<string, unknown>;

/** JSON pointer segments, unescaped ("/a~1b/0" → ["a/b", "0"]); a schemaPath's leading "#" is dropped. */
function segments(pointer: string): string[] {
  return pointer
    .replace(/^#/, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function walk(root: unknown, pointer: string): unknown {
  let node = root;
  for (const key of segments(pointer)) {
    if (!isRecord(node) && !Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function schemaAt(schema: unknown, schemaPath: string): SchemaNode {
  const node = walk(schema, schemaPath);
  return isRecord(node) ? node : {};
}

/** The value as it appears in the file, shortened. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  object: 'an object',
  null: 'null',
};

function typeNames(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  return types.map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' or ');
}

function hasType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isRecord(value);
    case 'integer':
      return Number.isInteger(value);
    default:
      return typeof value === type;
  }
}

/** How a location in the file is named: the entry (section, index, id), then the field within it. */
function locationName(data: unknown, instancePath: string): string {
  const [section, index, ...rest] = segments(instancePath);
  if (section === undefined) return 'seed file';
  if (index === undefined) return `section ${section}`;
  if (!/^\d+$/.test(index)) return [section, index, ...rest].join('.');
  const field = rest.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : `${i ? '.' : ''}${p}`)).join('');
  return `${entryName(data, section, Number(index))}${field ? ` field ${field}` : ''}`;
}

/** `unknown field pirce (did you mean price?)`, and the names it guessed. */
function unknownNames(names: string[], known: string[], present: string[], noun: string): { text: string; guessed: string[] } {
  // A name already used in the object is not what a misspelt one was meant to be.
  const candidates = known.filter((k) => !present.includes(k));
  const guesses = names.map((name) => closestName(name, candidates));
  const parts = names.map((name, i) => (guesses[i] ? `${name} (did you mean ${guesses[i]}?)` : name));
  const allowed = guesses.includes(undefined) && known.length <= 6 ? ` (allowed: ${known.join(', ')})` : '';
  return {
    text: `unknown ${noun}${names.length > 1 ? 's' : ''} ${parts.join(', ')}${allowed}`,
    guessed: guesses.filter((g): g is string => g !== undefined),
  };
}

/** Unknown and missing properties of one object, in one phrase. */
function objectProblems(data: unknown, schema: unknown, errors: ValidationError[], instancePath: string): string {
  const unknown: string[] = [];
  const missing: string[] = [];
  let known: string[] = [];
  for (const error of errors) {
    if (error.keyword === 'additionalProperties') {
      unknown.push(...error.params.additionalProperties);
      known = Object.keys(schemaAt(schema, error.schemaPath).properties ?? {});
    }
    if (error.keyword === 'required') missing.push(...error.params.requiredProperties);
  }
  const object = walk(data, instancePath);
  const present = isRecord(object) ? Object.keys(object) : [];
  const problems: string[] = [];
  const noun = instancePath === '' ? 'section' : 'field';
  const unknownPart = unknown.length ? unknownNames(unknown, known, present, noun) : { text: '', guessed: [] };
  if (unknownPart.text) problems.push(unknownPart.text);
  // "did you mean price?" already says that price is missing.
  const unexplained = missing.filter((name) => !unknownPart.guessed.includes(name));
  if (unexplained.length) problems.push(`missing ${noun}${unexplained.length > 1 ? 's' : ''} ${unexplained.join(', ')}`);
  return problems.join('; ');
}

function anyOfProblem(data: unknown, schema: unknown, errors: readonly ValidationError[], error: ValidationError, value: unknown): string {
  const branches = schemaAt(schema, error.schemaPath).anyOf;
  const nodes = Array.isArray(branches) ? branches.filter(isRecord) : [];
  // Constants, perhaps with null beside them (an optional choice that null clears: an operator's network).
  if (nodes.length && nodes.every((b) => 'const' in b || b.type === 'null')) {
    const allowed = nodes.map((b) => ('const' in b ? (typeof b.const === 'string' ? b.const : JSON.stringify(b.const)) : 'null'));
    return `must be one of ${allowed.join(', ')} (got ${shown(value)})`;
  }
  // When the value has the type of one alternative, what is wrong with it is that alternative's error.
  const branch = nodes.findIndex((b) => hasType(value, b.type));
  const prefix = `${error.schemaPath}/anyOf/${branch}`;
  const inner = errors.find((e) => e.instancePath === error.instancePath && (e.schemaPath === prefix || e.schemaPath.startsWith(`${prefix}/`)));
  if (branch >= 0 && inner) return valueProblem(data, schema, errors, inner);
  const described = nodes.map((b) => ('const' in b ? JSON.stringify(b.const) : typeNames(b.type)));
  return `must be ${described.join(' or ')} (got ${shown(value)})`;
}

function valueProblem(data: unknown, schema: unknown, errors: readonly ValidationError[], error: ValidationError): string {
  const value = walk(data, error.instancePath);
  const got = ` (got ${shown(value)})`;
  switch (error.keyword) {
    case 'type':
      return `must be ${typeNames(error.params.type)}${got}`;
    case 'anyOf':
      return anyOfProblem(data, schema, errors, error, value);
    case 'const':
      return `must be ${shown(error.params.allowedValue)}${got}`;
    case 'enum':
      return `must be one of ${error.params.allowedValues.map((v) => shown(v)).join(', ')}${got}`;
    case 'minLength':
      return error.params.limit === 1 ? `must not be empty` : `must be at least ${error.params.limit} characters long${got}`;
    case 'maxLength':
      return `must be at most ${error.params.limit} characters long (got ${typeof value === 'string' ? value.length : '?'} characters)`;
    case 'minimum':
      return `must be at least ${error.params.limit}${got}`;
    case 'maximum':
      return `must be at most ${error.params.limit}${got}`;
    case 'pattern': {
      const description = schemaAt(schema, error.schemaPath).description;
      return `${typeof description === 'string' ? `must be ${description}` : `must match the pattern ${String(error.params.pattern)}`}${got}`;
    }
    default:
      return `${error.message}${got}`;
  }
}

/** Errors that only restate another: "schema is false" under additionalProperties, and each failed alternative of an anyOf. */
function withoutEchoes(errors: readonly ValidationError[]): ValidationError[] {
  const anyOfPaths = errors.filter((e) => e.keyword === 'anyOf').map((e) => `${e.schemaPath}/anyOf/`);
  return errors.filter((e) => e.keyword !== 'boolean' && !anyOfPaths.some((p) => e.schemaPath.startsWith(p)));
}

/** Which entry a location belongs to: the file, a section, or a section's entry (with its fields). */
function entryKey(instancePath: string): { key: string; level: number } {
  const parts = segments(instancePath).slice(0, 2);
  return { key: parts.join('/'), level: parts.length };
}

/**
 * One message for the first bad entry of the file (problems with the file as a whole or a section
 * first), about the field that explains it best: an unknown field (often a misspelt required one),
 * else the most deeply nested problem.
 */
export function describeSeedErrors(data: unknown, schema: unknown, errors: readonly ValidationError[]): string {
  const relevant = withoutEchoes(errors);
  const first = [...relevant].sort((a, b) => entryKey(a.instancePath).level - entryKey(b.instancePath).level)[0];
  if (!first) return 'seed file is malformed';
  const key = entryKey(first.instancePath).key;
  const inEntry = relevant.filter((e) => entryKey(e.instancePath).key === key);
  const unknownField = inEntry.find((e) => e.keyword === 'additionalProperties');
  const deepest = [...inEntry].sort((a, b) => segments(b.instancePath).length - segments(a.instancePath).length)[0] ?? first;
  const target = (unknownField ?? deepest).instancePath;
  const atTarget = inEntry.filter((e) => e.instancePath === target);
  const objectLevel = atTarget.filter((e) => e.keyword === 'additionalProperties' || e.keyword === 'required');
  const problem = objectLevel.length
    ? objectProblems(data, schema, objectLevel, target)
    : valueProblem(data, schema, errors, atTarget[0] ?? first);
  if (target === '' && objectLevel.length) return problem;
  if (target === '') return `the seed file ${problem}`;
  return `${locationName(data, target)}: ${problem}`;
}
