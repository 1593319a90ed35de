import { newId } from '../../lib/ids.js';
import type { SandboxStore } from './store.js';
import { ProviderError, type DataProvider, type PollResult, type SubmitRequest, type SubmitResult } from '../legacy.js';

export const SANDBOX_FAILURE_MESSAGE = 'Sandbox: delivery failed';
export const SANDBOX_NOT_ELIGIBLE_MESSAGE = 'Sandbox: number not eligible for this bundle';

/**
 * The sandbox's test numbers (docs/api.md, "Sandbox test numbers"), by the last four digits of the
 * normalised number: every outcome a real provider can produce, each reached through the worker's
 * real paths.
 */
export const SANDBOX_TEST_NUMBERS = {
  /** Fails after the settle delay: "Sandbox: delivery failed". */
  fails: '0000',
  /** Completes after ten times the settle delay (a slow delivery). */
  slow: '0001',
  /** Refused at submission: fails at once, "Sandbox: number not eligible for this bundle". */
  refused: '0002',
  /** The provider times out on the first two submissions, then accepts; completes once. */
  timesOutTwice: '0003',
  /** The provider answers 5xx on the first poll, then completes. */
  errorOnFirstPoll: '0004',
} as const;

const ends = (msisdn: string, digits: string) => msisdn.endsWith(digits);

/** The final outcome of a delivery to `msisdn`. */
export function sandboxOutcomeFor(msisdn: string): PollResult {
  return ends(msisdn, SANDBOX_TEST_NUMBERS.fails) ? { status: 'failed', errorMessage: SANDBOX_FAILURE_MESSAGE } : { status: 'completed' };
}

export interface SandboxTiming {
  /** Delay before an outcome is reported (SANDBOX_SETTLE_MS). */
  settleMs: number;
  /** How long a "timed out" submission hangs: longer than the worker waits for a provider call. */
  hangMs: number;
}

/**
 * Deterministic provider: accepts a submission at once and reports its outcome `settleMs` after
 * acceptance. It keeps its memory in `sandbox_submissions`, as an external system would in its own
 * store, so a re-submission with a known key returns the original reference (no second delivery).
 */
export class SandboxProvider implements DataProvider {
  readonly name = 'sandbox';
  private readonly timing: SandboxTiming;

  constructor(
    private readonly store: SandboxStore,
    timing: number | SandboxTiming,
    private readonly clock: () => number = Date.now,
  ) {
    this.timing = typeof timing === 'number' ? { settleMs: timing, hangMs: 60_000 } : timing;
  }

  async submit(request: SubmitRequest): Promise<SubmitResult> {
    if (ends(request.msisdn, SANDBOX_TEST_NUMBERS.refused)) {
      throw new ProviderError('number not eligible for this bundle', false, SANDBOX_NOT_ELIGIBLE_MESSAGE);
    }
    const accepted = await this.store.recordSubmission({
      idempotencyKey: request.idempotencyKey,
      providerRef: newId('sbx'),
      msisdn: request.msisdn,
      now: this.clock(),
    });
    if (ends(request.msisdn, SANDBOX_TEST_NUMBERS.timesOutTwice) && accepted.calls <= 2) {
      // Taken, but the answer never comes in time: the worker gives up on the call and submits again.
      await new Promise((resolve) => setTimeout(resolve, this.timing.hangMs).unref());
      throw new ProviderError('sandbox: no answer', true);
    }
    return { providerRef: accepted.providerRef, pollAt: accepted.acceptedAt + this.settleDelay(request.msisdn) };
  }

  async poll(providerRef: string): Promise<PollResult> {
    const submission = await this.store.findSubmission(providerRef);
    if (!submission) throw new ProviderError(`sandbox: unknown reference ${providerRef}`, false);
    if (ends(submission.msisdn, SANDBOX_TEST_NUMBERS.errorOnFirstPoll) && (await this.store.countPoll(providerRef)) === 1) {
      throw new ProviderError('sandbox: provider answered 503', true);
    }
    const outcomeAt = Number(submission.accepted_at) + this.settleDelay(submission.msisdn);
    if (this.clock() < outcomeAt) return { status: 'pending', retryAt: outcomeAt };
    return sandboxOutcomeFor(submission.msisdn);
  }

  private settleDelay(msisdn: string): number {
    return ends(msisdn, SANDBOX_TEST_NUMBERS.slow) ? 10 * this.timing.settleMs : this.timing.settleMs;
  }
}
