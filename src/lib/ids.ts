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

/** A ULID as it is written: 26 capitals and digits, time-ordered (same source as newId). */
export function newUlid(): string {
  return ulid();
}

/** Digits and capitals a person cannot misread or mishear: no 0/O, no 1/I/L. */
export const REFERENCE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const REFERENCE_RANDOM_LENGTH = 8;
/** The largest multiple of the alphabet's size in a byte: bytes at or above it are redrawn (no bias). */
const UNBIASED_BELOW = 256 - (256 % REFERENCE_ALPHABET.length);

export type ReferencePrefix = 'DB' | 'RC';

/** Where services draw short references from (shortReference; tests give their own). */
export type ReferenceSource = (prefix: ReferencePrefix) => string;

/**
 * The short reference a partner reads out over the phone (`shortReference`, alphanumeric): the kind
 * of record, then eight random characters, e.g. `DB7KQ2M9XH` (31^8, about 8.5 × 10^11 per kind).
 * Uniqueness is the database's job (a unique index; the caller draws again on a collision).
 */
export function shortReference(prefix: ReferencePrefix, random: (size: number) => Buffer = randomBytes): string {
  let out: string = prefix;
  while (out.length < prefix.length + REFERENCE_RANDOM_LENGTH) {
    for (const byte of random(REFERENCE_RANDOM_LENGTH)) {
      if (byte >= UNBIASED_BELOW || out.length === prefix.length + REFERENCE_RANDOM_LENGTH) continue;
      out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
    }
  }
  return out;
}
