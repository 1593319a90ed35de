import { randomBytes, randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

/**
 * A fraction in [0, 1) from the CSPRNG, drawn from a pooled buffer: ulid asks for one per
 * character, and one getRandomValues call per character cost ~5% of a purchase.
 */
function pooledRandom(): number {
  if (poolOffset >= pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return (pool[poolOffset++] ?? 0) / 0x100;
}

const ulid = monotonicFactory(pooledRandom);

/** Time-ordered, globally unique id with a readable type prefix: `ord_01JD6…`. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}

const REFERENCE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** User-friendly reference, no ambiguous characters (0/O, 1/I): `DB-7KQ2M9XH`. */
export function shortReference(prefix: string): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const byte of bytes) out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return `${prefix}-${out}`;
}
