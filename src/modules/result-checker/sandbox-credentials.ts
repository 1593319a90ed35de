import { randomInt } from 'node:crypto';
import type { Credential } from './credential-crypto.js';

function digits(count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += String(randomInt(10));
  return out;
}

/**
 * A generated credential for test-mode purchases (docs/api.md, "Live and test modes"): recognisable
 * as sandbox (`SBX` prefix), never taken from live inventory, and useless on the real results portal.
 */
export function sandboxCredential(): Credential {
  return { username: `SBX${digits(9)}`, password: `${digits(4)}-${digits(4)}` };
}
