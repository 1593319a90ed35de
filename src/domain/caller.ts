import type { Mode, Role } from './types.js';

/**
 * Who is calling: the API key's owner and mode, resolved once per request. Every service takes
 * this one type (or the part of it it needs).
 */
export interface Caller {
  profileId: string;
  mode: Mode;
  role: Role;
  /** The wallet of the key's mode as the request began, or null until it is first created. */
  wallet: { id: string; available: number; held: number } | null;
  /** The catalog's version as the request began (the catalog cache is checked against it). */
  catalogVersion?: number;
  /** The Idempotency-Key this request holds, if it gave one: the unit that does the work records its result with it. */
  idempotency?: IdempotencyClaim;
}

/** A request's hold on its Idempotency-Key (docs/errors.md, "Retrying safely"). */
export interface IdempotencyClaim {
  key: string;
  /** Set once the unit of work that did the work has written its result with the key. */
  recorded: boolean;
}

/** What reads need of the caller: records are visible to their owner, in the key's mode only. */
export type Owner = Pick<Caller, 'profileId' | 'mode'>;
