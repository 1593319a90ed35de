import { fromGhs } from '../../lib/money.js';
import type { CostedCredential } from './credential-crypto.js';

export class InventoryImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InventoryImportError';
  }
}

const HEADER = 'username,password';
/** The header with the optional third column: what each credential cost the platform, in GHS (margins). */
const HEADER_WITH_COST = 'username,password,cost';
const MAX_FIELD = 200;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function field(value: string, name: string, line: number): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new InventoryImportError(`line ${line}: ${name} is empty`);
  if (trimmed.length > MAX_FIELD) throw new InventoryImportError(`line ${line}: ${name} is longer than ${MAX_FIELD} characters`);
  if (CONTROL.test(trimmed)) throw new InventoryImportError(`line ${line}: ${name} contains a control character`);
  return trimmed;
}

/** A cost cell: GHS with at most two decimals, in pesewas; empty means not known. */
function cost(value: string, line: number): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const pesewas = /^\d+(\.\d{1,2})?$/.test(trimmed) ? fromGhs(Number(trimmed)) : null;
  if (pesewas === null) throw new InventoryImportError(`line ${line}: cost must be an amount in GHS such as 12.50 (found "${trimmed.slice(0, 20)}")`);
  return pesewas;
}

/**
 * The credential inventory file (docs/cli.md, `rc import`): header `username,password` (or
 * `username,password,cost`, the cost in GHS, a cell left empty when not known), then one
 * credential a line. Deliberately strict: quoting is not supported, so a quote or an extra
 * comma is an error rather than a guess. Blank lines are ignored. Any bad line rejects the
 * whole file, naming its line number.
 */
export function parseCredentialCsv(text: string): CostedCredential[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.trim() ?? '';
  if (header !== HEADER && header !== HEADER_WITH_COST) {
    throw new InventoryImportError(`line 1: the header must be exactly "${HEADER}" or "${HEADER_WITH_COST}" (found "${header.slice(0, 60)}")`);
  }
  const fields = header === HEADER ? 2 : 3;
  const credentials: CostedCredential[] = [];
  lines.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    if (raw.includes('"')) {
      throw new InventoryImportError(`line ${line}: quotes are not supported; values may not contain quotes or commas`);
    }
    const parts = raw.split(',');
    if (parts.length !== fields) {
      throw new InventoryImportError(`line ${line}: expected ${fields} fields (${header}), found ${parts.length}; values may not contain commas`);
    }
    const credential: CostedCredential = { username: field(parts[0] ?? '', 'username', line), password: field(parts[1] ?? '', 'password', line) };
    if (fields === 3) credential.cost = cost(parts[2] ?? '', line);
    credentials.push(credential);
  });
  if (credentials.length === 0) throw new InventoryImportError('the file has no credentials after the header');
  return credentials;
}
