import { newId } from '../lib/ids.js';
import type { SandboxStore } from './sandbox-repository.js';
import { ProviderError, type DataProvider, type PollResult, type SubmitRequest, type SubmitResult } from './types.js';

export const SANDBOX_FAILURE_MESSAGE = 'Sandbox: delivery failed';

/** decisions.md §5: a normalised number ending in 0000 fails; every other number completes. */
export function sandboxOutcomeFor(msisdn: string): PollResult {
  return msisdn.endsWith('0000') ? { status: 'failed', errorMessage: SANDBOX_FAILURE_MESSAGE } : { status: 'completed' };
}

/**
 * Deterministic provider: accepts a submission at once and reports its outcome `settleMs` after
 * acceptance. It keeps its memory in `sandbox_submissions`, as an external system would in its own
 * store, so a re-submission with a known key returns the original reference (no second delivery).
 */
export class SandboxProvider implements DataProvider {
  readonly name = 'sandbox';

  constructor(
    private readonly store: SandboxStore,
    private readonly settleMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  async submit(request: SubmitRequest): Promise<SubmitResult> {
    const accepted = await this.store.recordSubmission({
      idempotencyKey: request.idempotencyKey,
      providerRef: newId('sbx'),
      msisdn: request.msisdn,
      now: this.clock(),
    });
    return { providerRef: accepted.providerRef, pollAt: accepted.acceptedAt + this.settleMs };
  }

  async poll(providerRef: string): Promise<PollResult> {
    const submission = await this.store.findSubmission(providerRef);
    if (!submission) throw new ProviderError(`sandbox: unknown reference ${providerRef}`, false);
    const outcomeAt = Number(submission.accepted_at) + this.settleMs;
    if (this.clock() < outcomeAt) return { status: 'pending', retryAt: outcomeAt };
    return sandboxOutcomeFor(submission.msisdn);
  }
}
