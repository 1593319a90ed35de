import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { FastifySchema, FastifySchemaCompiler } from 'fastify';

/**
 * Request validation, one rule set for every route (docs/api.md, "Conventions"):
 * - bodies are typed strictly: `"100"` is not a number, `100` is not a string, `null` is no value;
 * - query strings and path parameters arrive as text and are coerced (`limit=20`);
 * - no string anywhere in a request (body, query, path) may hold a control character (NUL, BEL,
 *   ESC, newline, DEL, C1) or a lone surrogate: PostgreSQL refuses NUL in text, the others would
 *   be stored and shown back to people. Refused at the schema, before any service code runs;
 * - no body nests arrays and objects more than MAX_DEPTH levels deep: measured first, without
 *   recursion, so neither the schema check nor the character walk can run out of stack (a 500).
 */

const shared = { removeAdditional: false, useDefaults: true, allErrors: false, strict: false } as const;
const strictTypes = new Ajv({ ...shared, coerceTypes: false });
const coercedTypes = new Ajv({ ...shared, coerceTypes: true });

/** A control character (Unicode Cc: C0, DEL, C1) or a surrogate that is not part of a pair. */
const FORBIDDEN_CHARACTER = /[\p{Cc}\p{Cs}]/u;

function describeCharacter(text: string): string {
  const found = FORBIDDEN_CHARACTER.exec(text)?.[0] ?? '';
  const code = found.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The JSON-pointer path of the first string in `value` holding a forbidden character, if any. */
export function findForbiddenCharacter(value: unknown, path = ''): { path: string; character: string } | null {
  if (typeof value === 'string') {
    return FORBIDDEN_CHARACTER.test(value) ? { path, character: describeCharacter(value) } : null;
  }
  if (Array.isArray(value)) {
    for (const [index, element] of value.entries()) {
      const found = findForbiddenCharacter(element, `${path}/${index}`);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, element] of Object.entries(value)) {
      const found = findForbiddenCharacter(key, path) ?? findForbiddenCharacter(element, `${path}/${key}`);
      if (found) return found;
    }
  }
  return null;
}

/** How deep arrays and objects may nest in a request: far beyond any body of ours or of an upstream. */
export const MAX_DEPTH = 32;

/** Whether `value` nests arrays or objects more than `limit` levels deep; iterative, so any depth is measured safely. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** The depth limit, the schema check, then the character rule, reported the way Ajv reports its own errors. */
function withCharacterRule(validate: ValidateFunction): Validator {
  const validator: Validator = (data) => {
    if (nestedDeeperThan(data, MAX_DEPTH)) {
      validator.errors = [
        {
          instancePath: '',
          schemaPath: '#/maxDepth',
          keyword: 'maxDepth',
          params: { limit: MAX_DEPTH },
          message: `must not be nested more than ${MAX_DEPTH} levels deep`,
        },
      ];
      return false;
    }
    if (!validate(data)) {
      validator.errors = validate.errors ?? null;
      return false;
    }
    const found = findForbiddenCharacter(data);
    if (!found) {
      validator.errors = null;
      return true;
    }
    validator.errors = [
      {
        instancePath: found.path,
        schemaPath: '#/controlCharacters',
        keyword: 'controlCharacters',
        params: { character: found.character },
        message: `must not contain control characters (found ${found.character})`,
      },
    ];
    return false;
  };
  return validator;
}

export const validatorCompiler: FastifySchemaCompiler<FastifySchema> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strictTypes : coercedTypes;
  return withCharacterRule(ajv.compile(schema));
};
