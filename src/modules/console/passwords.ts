import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HasherBusy, PasswordHasher, type ScryptCost } from './password-hasher.js';

/**
 * Staff passwords, hashed with scrypt (memory-hard, in node:crypto) at OWASP's recommended cost
 * (N = 2^17, r = 8, p = 1: 128 MiB per hash). The parameters are kept in the hash, so a later
 * change of cost still verifies the hashes made before it.
 */
export const PRODUCTION_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

/** A cost for the test suite only: a sign-in in a test then costs a millisecond, not 0.45 s of CPU. */
const TEST_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };

/**
 * The cost new hashes are made at: the production cost, unless the process runs the test suite
 * (NODE_ENV=test and STAFF_PASSWORD_TEST_COST=1, both set by scripts/run-tests.mjs). Anything else,
 * NODE_ENV=production included, hashes at the production cost.
 */
export function passwordCost(env: NodeJS.ProcessEnv): ScryptCost {
  return env.NODE_ENV === 'test' && env.STAFF_PASSWORD_TEST_COST === '1' ? TEST_COST : PRODUCTION_COST;
}

const COST = passwordCost(process.env);
const KEY_LENGTH = 32;

/** Every hash of this process goes through one thread with a bounded queue (see password-hasher.ts). */
const hasher = new PasswordHasher();

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return hasher.derive(password.normalize('NFKC'), salt, KEY_LENGTH, cost);
}

/** A new hash of `password` at `cost` (this process's: passwordCost). */
export async function hashPassword(password: string, cost: ScryptCost = COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
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
