import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';

/**
 * The failed-authentication limit per client address (docs/api.md, "Rate limits"): at most `limit`
 * key checks per address and window fail, however many requests arrive at once.
 *
 * Checking the count and adding a failure after the lookup let a burst pass the check before any
 * failure was counted. So each window counts, in one atomic step with the check, both the failures
 * and the lookups in flight, and lets a lookup start only while failures + in flight < limit: every
 * lookup holds a place until it ends, and keeps it if it failed. A valid key gives its place back,
 * so successful requests never spend the budget. A place is only ever released in the window that
 * granted it, so one taken at the end of a window cannot free a place in the next. When all places
 * are held by lookups still running (a client with many requests in flight and nothing failed), a
 * request waits for one to end instead of being refused.
 */

export type AuthAttempt =
  /** Refused without looking at the key: retry in that many seconds. */
  | { blockedFor: number; reason: 'failures' | 'busy' }
  /** Look at the key, then call ended() once with whether it was a failed authentication. */
  | { blockedFor: null; ended(failed: boolean): void };

export interface AuthFailureLimit {
  /** Takes a place for one key check of `address`, or says why not. */
  attempt(address: string): Promise<AuthAttempt>;
}

type Admission =
  | { kind: 'admitted'; window: string }
  /** The window's failures reached the limit: refused until it ends, in `ttlMs`. */
  | { kind: 'blocked'; ttlMs: number }
  /** Every place left is held by a lookup still running. */
  | { kind: 'busy' };

interface AttemptStore {
  admit(address: string, limit: number): Promise<Admission>;
  /** Gives the place back, keeping it as a failure if `failed`; ignored once `window` has ended. */
  end(address: string, window: string, failed: boolean): Promise<void>;
}

/** How long a request waits for a place held by lookups still running, polling at most every 50 ms. */
const BUSY_WAIT_MS = 2_000;

export function authFailureLimit(store: AttemptStore, limit: number): AuthFailureLimit {
  return {
    async attempt(address) {
      const giveUpAt = Date.now() + BUSY_WAIT_MS;
      for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
        let admission: Admission;
        try {
          admission = await store.admit(address, limit);
        } catch {
          // Redis unreachable: served without the limit (fail open; the client's error handler logs it).
          return { blockedFor: null, ended() {} };
        }
        if (admission.kind === 'blocked') return { blockedFor: Math.max(1, Math.ceil(admission.ttlMs / 1000)), reason: 'failures' };
        if (admission.kind === 'admitted') {
          const { window } = admission;
          return {
            blockedFor: null,
            ended(failed) {
              // Not awaited: the answer need not wait, and until it lands the place stays held (the safe side).
              store.end(address, window, failed).catch(() => {});
            },
          };
        }
        if (Date.now() >= giveUpAt) return { blockedFor: 1, reason: 'busy' };
        await sleep(pause);
      }
    },
  };
}

/** Beyond this many addresses counted in memory, ended windows are dropped, then the oldest. */
const MEMORY_ADDRESSES = 50_000;

interface MemoryWindow {
  failures: number;
  inFlight: number;
  endsAt: number;
  window: string;
}

/** Counts in this process's memory (one API process). */
export class MemoryAttemptStore implements AttemptStore {
  private readonly windows = new Map<string, MemoryWindow>();
  private nextWindow = 0;

  constructor(private readonly windowMs: number) {}

  admit(address: string, limit: number): Promise<Admission> {
    const now = Date.now();
    let current = this.windows.get(address);
    if (current === undefined || current.endsAt <= now) {
      // Deleted first so that a new window moves to the end of the map's (oldest-first) order.
      this.windows.delete(address);
      if (this.windows.size >= MEMORY_ADDRESSES) this.makeRoom(now);
      current = { failures: 0, inFlight: 0, endsAt: now + this.windowMs, window: String(++this.nextWindow) };
      this.windows.set(address, current);
    }
    if (current.failures >= limit) return Promise.resolve({ kind: 'blocked', ttlMs: current.endsAt - now });
    if (current.failures + current.inFlight >= limit) return Promise.resolve({ kind: 'busy' });
    current.inFlight += 1;
    return Promise.resolve({ kind: 'admitted', window: current.window });
  }

  end(address: string, window: string, failed: boolean): Promise<void> {
    const current = this.windows.get(address);
    if (current?.window === window && current.inFlight > 0) {
      current.inFlight -= 1;
      if (failed) current.failures += 1;
    }
    return Promise.resolve();
  }

  private makeRoom(now: number): void {
    for (const [address, entry] of this.windows) if (entry.endsAt <= now) this.windows.delete(address);
    // Still full: forget the windows that end soonest (a tenth, so this does not run on every new address).
    for (const address of this.windows.keys()) {
      if (this.windows.size < MEMORY_ADDRESSES * 0.9) break;
      this.windows.delete(address);
    }
  }
}

/**
 * One hash per address and window: failures (f), lookups in flight (r) and the window's name (w),
 * expiring with the window. KEYS[1]: the address's key; ARGV: window ms, a name for a new window, limit.
 */
const ADMIT = `
local key = KEYS[1]
if redis.call('EXISTS', key) == 0 then
  redis.call('HSET', key, 'f', 0, 'r', 0, 'w', ARGV[2])
end
local ttl = redis.call('PTTL', key)
if ttl < 0 then
  redis.call('PEXPIRE', key, ARGV[1])
  ttl = tonumber(ARGV[1])
end
local failures = tonumber(redis.call('HGET', key, 'f')) or 0
local inFlight = tonumber(redis.call('HGET', key, 'r')) or 0
local limit = tonumber(ARGV[3])
if failures >= limit then return {'blocked', ttl} end
if failures + inFlight >= limit then return {'busy', ttl} end
redis.call('HINCRBY', key, 'r', 1)
return {'admitted', redis.call('HGET', key, 'w')}
`;

/** ARGV: the window the place was taken in, and '1' when the lookup failed. */
const END = `
local key = KEYS[1]
if redis.call('HGET', key, 'w') ~= ARGV[1] then return 0 end
if (tonumber(redis.call('HGET', key, 'r')) or 0) > 0 then
  redis.call('HINCRBY', key, 'r', -1)
  if ARGV[2] == '1' then redis.call('HINCRBY', key, 'f', 1) end
end
return 1
`;

/** Counts in Redis, shared by every API process. */
export class RedisAttemptStore implements AttemptStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly windowMs: number,
  ) {}

  async admit(address: string, limit: number): Promise<Admission> {
    const reply = await this.redis.eval(ADMIT, 1, this.key(address), this.windowMs, randomUUID(), limit);
    const [kind, value] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (kind === 'admitted' && typeof value === 'string') return { kind, window: value };
    if (kind === 'blocked' && typeof value === 'number') return { kind, ttlMs: value };
    if (kind === 'busy') return { kind };
    throw new Error(`unexpected reply from Redis: ${JSON.stringify(reply)}`);
  }

  async end(address: string, window: string, failed: boolean): Promise<void> {
    await this.redis.eval(END, 1, this.key(address), window, failed ? '1' : '0');
  }

  private key(address: string): string {
    return `${this.keyPrefix}auth-failures:${address}`;
  }
}
