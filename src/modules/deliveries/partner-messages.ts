import type { ProviderAttemptRow } from '../../db/schema.js';
import type { ProviderName, UpstreamAnswer } from '../../providers/types.js';

/**
 * What a partner reads of a failed delivery (docs/order-lifecycle.md, "Why a delivery failed"): one
 * of a small fixed set of sentences in the partner's words, chosen by the class of the upstream's
 * answer, never the upstream's name, code or text. Staff keep the upstream's full answer on the
 * attempt (console order page, `cli orders show`). The sandbox is ours: its documented messages
 * ("Sandbox: delivery failed", docs/api.md "Sandbox test numbers") are the test-mode contract and pass through.
 */
export const PARTNER_MESSAGES = {
  /** Refused or failed for the number (invalid, barred, ineligible): no other route would do better. */
  number: 'The number is not valid for this network',
  /** Every route refused for a route reason (float, product, limits), or none is usable now. */
  unavailable: 'The operator is not available now',
  /** Taken by the last route, then failed there for a route reason. */
  notDelivered: 'The bundle could not be delivered',
  /** Every route refused because the number was topped up moments before, for five rounds. */
  recentlyRecharged: 'The number was topped up moments ago: try again in a few minutes',
  /** A delivery failed by staff without a message of their own. */
  resolvedFailed: 'The delivery failed and your wallet was refunded',
} as const;

export type PartnerMessage = (typeof PARTNER_MESSAGES)[keyof typeof PARTNER_MESSAGES];

type Failure = Extract<UpstreamAnswer, { class: 'refused' | 'failed' }>;

/** The partner's message of a delivery that fails at this answer (a number problem). */
export function partnerMessageOf(provider: ProviderName, answer: Failure): string {
  if (provider === 'sandbox') return answer.message;
  return PARTNER_MESSAGES.number;
}

/** The partner's message of a delivery that fails for want of a route, after these attempts (oldest first). */
export function partnerMessageAfter(attempts: readonly Pick<ProviderAttemptRow, 'provider' | 'status' | 'message' | 'retry_at'>[]): string {
  const last = attempts.at(-1);
  if (!last) return PARTNER_MESSAGES.unavailable;
  if (last.provider === 'sandbox' && (last.status === 'refused' || last.status === 'failed') && last.message) return last.message;
  if (last.retry_at !== null) return PARTNER_MESSAGES.recentlyRecharged;
  if (last.status === 'failed') return PARTNER_MESSAGES.notDelivered;
  return PARTNER_MESSAGES.unavailable;
}
