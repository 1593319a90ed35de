import { newId } from '../../lib/ids.js';
import type { AttemptHandle, AttemptRequest, CheckAnswer, RouteOf, SubmitAnswer, UpstreamAdapter } from '../types.js';
import type { SandboxStore } from './store.js';

export const SANDBOX_FAILURE_MESSAGE = 'Sandbox: delivery failed';
export const SANDBOX_NOT_ELIGIBLE_MESSAGE = 'Sandbox: number not eligible for this bundle';

/**
 * The sandbox's test numbers (docs/api.md, "Sandbox test numbers"), by the last four digits of the
 * normalised number: every outcome a real upstream can produce, each reached through the worker's
 * real paths.
 */
export const SANDBOX_TEST_NUMBERS = {
  /** Fails after the settle delay: "Sandbox: delivery failed". */
  fails: '0000',
  /** Completes after ten times the settle delay (a slow delivery). */
  slow: '0001',
  /** Refused at submission: fails at once, "Sandbox: number not eligible for this bundle". */
  refused: '0002',
  /** Takes the order but the answers to the first two submissions never come in time; completes once. */
  timesOutTwice: '0003',
  /** Answers 5xx to the first status check, then completes. */
  errorOnFirstPoll: '0004',
} as const;

const ends = (msisdn: string, digits: string) => msisdn.endsWith(digits);

export interface SandboxTiming {
  /** Delay before an outcome is reported (SANDBOX_SETTLE_MS). */
  settleMs: number;
  /** How long a call waits for an answer (PROVIDER_TIMEOUT_MS): a "timed out" submission ends after it. */
  timeoutMs: number;
}

/**
 * The deterministic stand-in of an upstream (docs/api.md, "Live and test modes"): takes a
 * submission at once and reports its outcome `settleMs` later. It keeps its memory in
 * `sandbox_submissions`, as an upstream keeps its own, so a submission under a known reference
 * returns the first acceptance (no second delivery) and a lookup by reference finds it.
 */
export class SandboxAdapter implements UpstreamAdapter<RouteOf<'sandbox'>> {
  readonly name = 'sandbox';

  constructor(
    private readonly store: SandboxStore,
    private readonly timing: SandboxTiming,
    private readonly clock: () => number = Date.now,
  ) {}

  async submit(request: AttemptRequest<RouteOf<'sandbox'>>): Promise<SubmitAnswer> {
    if (ends(request.msisdn, SANDBOX_TEST_NUMBERS.refused)) {
      return { class: 'refused', problem: 'number', message: SANDBOX_NOT_ELIGIBLE_MESSAGE };
    }
    const accepted = await this.store.recordSubmission({
      idempotencyKey: request.reference,
      providerRef: newId('sbx'),
      msisdn: request.msisdn,
      now: this.clock(),
    });
    if (ends(request.msisdn, SANDBOX_TEST_NUMBERS.timesOutTwice) && accepted.calls <= 2) {
      // Taken, but the answer never comes in time: the caller must look the reference up.
      await new Promise((resolve) => setTimeout(resolve, this.timing.timeoutMs).unref());
      return { class: 'unknown', message: `sandbox: no answer within ${this.timing.timeoutMs} ms` };
    }
    const outcomeAt = accepted.acceptedAt + this.settleDelay(request.msisdn);
    return { class: 'accepted', transactionId: accepted.providerRef, checkAfterMs: Math.max(outcomeAt - this.clock(), 0) };
  }

  async check(attempt: AttemptHandle<RouteOf<'sandbox'>>): Promise<CheckAnswer> {
    if (attempt.transactionId === null) return this.lookup(attempt);
    const submission = await this.store.findSubmission(attempt.transactionId);
    if (!submission) return { class: 'absent', message: `sandbox: unknown transaction ${attempt.transactionId}` };
    if (ends(submission.msisdn, SANDBOX_TEST_NUMBERS.errorOnFirstPoll) && (await this.store.countPoll(attempt.transactionId)) === 1) {
      return { class: 'unknown', message: 'sandbox: the upstream answered 503' };
    }
    return this.statusOf(submission);
  }

  async lookup(attempt: AttemptHandle<RouteOf<'sandbox'>>): Promise<CheckAnswer> {
    const submission = await this.store.findByKey(attempt.reference);
    if (!submission) return { class: 'absent', message: 'sandbox: no submission under this reference' };
    return this.statusOf(submission);
  }

  private statusOf(submission: { provider_ref: string; msisdn: string; accepted_at: number }): CheckAnswer {
    const outcomeAt = Number(submission.accepted_at) + this.settleDelay(submission.msisdn);
    const now = this.clock();
    if (now < outcomeAt) return { class: 'accepted', transactionId: submission.provider_ref, checkAfterMs: outcomeAt - now };
    if (ends(submission.msisdn, SANDBOX_TEST_NUMBERS.fails)) {
      // The outcome depends on the number alone: no other route would do better.
      return { class: 'failed', problem: 'number', transactionId: submission.provider_ref, message: SANDBOX_FAILURE_MESSAGE };
    }
    return { class: 'completed', transactionId: submission.provider_ref };
  }

  private settleDelay(msisdn: string): number {
    return ends(msisdn, SANDBOX_TEST_NUMBERS.slow) ? 10 * this.timing.settleMs : this.timing.settleMs;
  }
}
