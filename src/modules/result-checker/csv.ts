import type { Credential } from './credential-crypto.js';

export class InventoryImportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InventoryImportError';
  }
}

const HEADER = 'username,password';
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

/**
 * The credential inventory file (docs/cli.md, `rc import`): header `username,password`, then one
 * credential a line. Deliberately strict: quoting is not supported, so a quote or an extra
 * comma is an error rather than a guess. Blank lines are ignored. Any bad line rejects the
 * whole file, naming its line number.
 */
export function parseCredentialCsv(text: string): Credential[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = lines[0]?.trim() ?? '';
  if (header !== HEADER) {
    throw new InventoryImportError(`line 1: the header must be exactly "${HEADER}" (found "${header.slice(0, 60)}")`);
  }
  const credentials: Credential[] = [];
  lines.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    if (raw.includes('"')) {
      throw new InventoryImportError(`line ${line}: quotes are not supported; values may not contain quotes or commas`);
    }
    const parts = raw.split(',');
    if (parts.length !== 2) {
      throw new InventoryImportError(
        `line ${line}: expected 2 fields (username,password), found ${parts.length}; values may not contain commas`,
      );
    }
    credentials.push({ username: field(parts[0] ?? '', 'username', line), password: field(parts[1] ?? '', 'password', line) });
  });
  if (credentials.length === 0) throw new InventoryImportError('the file has no credentials after the header');
  return credentials;
}
