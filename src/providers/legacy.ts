import type { Mode } from '../domain/types.js';

// The worker's provider interface before attempts (replaced in this change by types.ts).

export interface SubmitRequest {
  /** `<itemId>:<attempt>`: submitting the same key again must not start a second delivery. */
  idempotencyKey: string;
  /** Normalised beneficiary, international form without "+" (233244123456). */
  msisdn: string;
  packageId: string;
  /** Pesewas. */
  amount: number;
  mode: Mode;
}

export interface SubmitResult {
  providerRef: string;
  /** When an outcome can first be expected (unix ms); the worker schedules its first poll then. */
  pollAt?: number;
}

export type PollResult =
  | { status: 'pending'; /** when to ask again (unix ms), if the provider knows */ retryAt?: number }
  | { status: 'completed' }
  | { status: 'failed'; errorMessage: string };

/** A final outcome, from a poll or reported by a provider callback. */
export type ProviderOutcome = { status: 'completed' } | { status: 'failed'; errorMessage: string };

/**
 * A provider failure. `retryable` errors (timeouts, 5xx, network) are retried with backoff, which
 * is safe because submissions are idempotent per key; a permanent error on submit fails the item
 * (the bundle was not delivered, so the hold is released).
 */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    /** For a refusal: what the failed delivery says, when the provider gives it in words for the customer. */
    readonly customerMessage?: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface DataProvider {
  readonly name: string;
  /** Idempotent per idempotencyKey: the same key returns the same providerRef, without a new delivery. */
  submit(request: SubmitRequest): Promise<SubmitResult>;
  poll(providerRef: string): Promise<PollResult>;
}

/** Which provider serves a mode: test mode always the sandbox, live the configured one. */
export interface ProviderRegistry {
  forMode(mode: Mode): DataProvider;
}
