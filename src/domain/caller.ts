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
}

/** What reads need of the caller: records are visible to their owner, in the key's mode only. */
export type Owner = Pick<Caller, 'profileId' | 'mode'>;
