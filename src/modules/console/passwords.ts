import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HasherBusy, PasswordHasher, type ScryptCost } from './password-hasher.js';

/**
 * Staff passwords, hashed with scrypt (memory-hard, in node:crypto) at OWASP's recommended cost
 * (N = 2^17, r = 8, p = 1: 128 MiB per hash). The parameters are kept in the hash, so a later
 * change of cost still verifies the hashes made before it.
 */
const COST = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** Every hash of this process goes through one thread with a bounded queue (see password-hasher.ts). */
const hasher = new PasswordHasher();

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return hasher.derive(password.normalize('NFKC'), salt, KEY_LENGTH, cost);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches `stored`; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  let actual: Buffer;
  try {
    actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  } catch (error) {
    if (error instanceof HasherBusy) throw error;
    return false; // parameters scrypt refuses: a malformed hash
  }
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash no password matches, verified against for unknown e-mails so that they take as long as known ones. */
export const DUMMY_HASH = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/** A one-time password for a new account: 20 characters, about 119 bits. */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

/** Staff passwords set by hand must be at least this long. */
export const MIN_PASSWORD_LENGTH = 12;
