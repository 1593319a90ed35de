import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '../../domain/types.js';

/** `service_live_` / `service_test_` followed by the secret part (docs/api.md, "Conventions"). */
const KEY_PATTERN = /^service_(live|test)_([A-Za-z0-9_-]{8,200})$/;

export interface ParsedKey {
  mode: Mode;
  hash: string;
  prefix: string;
}

/** Parses a presented key; null when malformed. Only the hash is ever compared or stored. */
export function parseApiKey(key: string): ParsedKey | null {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const mode = match[1] as Mode;
  return { mode, hash: hashApiKey(key), prefix: displayPrefix(key, mode) };
}

/** SHA-256 suffices: keys are long random secrets, so no stretching is needed (as Stripe and unkey do). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function displayPrefix(key: string, mode: Mode): string {
  const head = `service_${mode}_`;
  return `${head}${key.slice(head.length, head.length + 4)}…`;
}

/** A new key: 32 random bytes, base64url. */
export function generateApiKey(mode: Mode): string {
  return `service_${mode}_${randomBytes(32).toString('base64url')}`;
}
