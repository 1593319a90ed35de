import { createHash } from 'node:crypto';
import type { Tx } from '../../db/unit-of-work.js';
import type { Caller, Owner } from '../../domain/caller.js';
import type { Clock } from '../../domain/types.js';
import type { Sealer } from '../../lib/sealer.js';
import type { IdempotencyRepository } from './repository.js';

/**
 * Idempotency keys (docs/errors.md, "Retrying safely"; after Stripe and the IETF Idempotency-Key
 * draft): the first request with a key runs; its result is kept with the key, and any later request
 * with the same key and the same fingerprint gets that result again, without running. A success is
 * written in the unit of work that did the work (`succeeded`), so after a crash a retry finds either
 * the work and its result, or neither.
 */

export type Begun =
  | { kind: 'claimed' }
  /** A success (`data`, sent as the route sends it) or a refusal (`status` and `body`, as sent). */
  | { kind: 'replay'; data: unknown; status: number | null; body: string | null }
  | { kind: 'in_use' }
  | { kind: 'reused' };

/** How long a first request holds its key; a request that died lets it go after this. */
export const DEFAULT_IDEMPOTENCY_LOCK_MS = 60_000;

/** JSON with object keys in order, so key order and whitespace do not change a fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The request's fingerprint: its method, its path and its body as parsed JSON. */
export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method} ${path}\n${canonical(body)}`).digest('hex');
}

export class IdempotencyService {
  constructor(
    private readonly keys: IdempotencyRepository,
    /** Stored answers may hold secrets (a result checker's credential): sealed at rest. */
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    private readonly lockMs: number = DEFAULT_IDEMPOTENCY_LOCK_MS,
  ) {}

  /** What a request with `key` may do: run (it holds the key now), replay a stored result, or neither. */
  async begin(owner: Owner, key: string, fingerprint: string): Promise<Begun> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock();
      if (await this.keys.claim(owner, key, fingerprint, now + this.lockMs, now)) return { kind: 'claimed' };
      const row = await this.keys.find(owner, key);
      if (!row) continue; // purged meanwhile: claim it again
      if (row.fingerprint !== fingerprint) return { kind: 'reused' };
      if (row.state === 'done') {
        return {
          kind: 'replay',
          data: row.response_data === null ? null : (JSON.parse(this.sealer.open(row.response_data)) as unknown),
          status: row.response_status,
          body: row.response_body === null ? null : this.sealer.open(row.response_body),
        };
      }
      if (Number(row.locked_until ?? 0) > now) return { kind: 'in_use' };
      // The first request died without an outcome (nothing it did committed): this one runs instead.
      return (await this.keys.takeOver(owner, key, fingerprint, now + this.lockMs, now)) ? { kind: 'claimed' } : { kind: 'in_use' };
    }
    return { kind: 'in_use' };
  }

  /**
   * In the unit of work that did the caller's work, just before it ends: the key is done, with
   * `data` to send again. Nothing to do when the caller gave no key.
   */
  succeeded(tx: Tx, caller: Caller, data: unknown): void {
    const claim = caller.idempotency;
    if (!claim) return;
    this.keys.succeeded(tx, caller, claim.key, this.sealer.seal(JSON.stringify(data)), this.clock());
    claim.recorded = true;
  }

  /** The key is done with a refusal, as it was sent. */
  async answered(owner: Owner, key: string, status: number, body: string): Promise<void> {
    await this.keys.answered(owner, key, status, this.sealer.seal(body), this.clock());
  }

  /** The outcome is not kept (a malformed request, a fault of ours): the client may retry with the key. */
  async release(owner: Owner, key: string): Promise<void> {
    await this.keys.release(owner, key);
  }

  /** Deletes the keys older than `ttlMs`, in batches; how many went. */
  async purgeOlderThan(ttlMs: number): Promise<number> {
    let purged = 0;
    for (;;) {
      const batch = await this.keys.purge(this.clock() - ttlMs, 1_000);
      purged += batch;
      if (batch < 1_000) return purged;
    }
  }
}
