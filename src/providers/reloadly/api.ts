/**
 * Reloadly Top-ups, the wire details the adapter and the simulator share (docs/live-delivery.md,
 * Appendix A, read against Reloadly's published OpenAPI and SDKs: where they differ, the adapter
 * accepts both shapes).
 */

/** The Accept header every Top-ups API call carries. */
export const TOPUPS_MEDIA_TYPE = 'application/com.reloadly.topups-v1+json';

/** Transaction statuses: PROCESSING is in flight, SUCCESSFUL delivered, FAILED and REFUNDED final failures. */
export const TRANSACTION_STATUSES = ['PROCESSING', 'SUCCESSFUL', 'FAILED', 'REFUNDED'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Error codes of a refusal (or of a final failure) that are about the number: no other route would do better. */
export const NUMBER_ERROR_CODES: ReadonlySet<string> = new Set(['INVALID_RECIPIENT_PHONE', 'INVALID_PHONE_NUMBER', 'PHONE_BANNED_BY_OPERATOR']);

/** The access token is no longer accepted: fetch a new one and repeat the call once. */
export const TOKEN_ERROR_CODES: ReadonlySet<string> = new Set(['TOKEN_EXPIRED', 'INVALID_TOKEN']);

/** What each error code means, in plain words for staff and for a failed delivery's errorMessage. */
export const ERROR_CODE_WORDS: Readonly<Record<string, string>> = {
  INSUFFICIENT_BALANCE: 'insufficient balance',
  INVALID_RECIPIENT_PHONE: 'invalid recipient number',
  INVALID_PHONE_NUMBER: 'invalid phone number',
  PHONE_BANNED_BY_OPERATOR: 'number barred by the operator',
  PHONE_RECENTLY_RECHARGED: 'number topped up in the last two minutes',
  OPERATOR_UNAVAILABLE_OR_CURRENTLY_INACTIVE: 'operator unavailable or inactive',
  OPERATOR_NOT_IN_SERVICE: 'operator not in service',
  INVALID_AMOUNT_FOR_OPERATOR: 'amount not offered by the operator',
  MAX_DAILY_TRANSACTION_COUNT_REACHED: 'daily transaction count limit reached',
  MAX_DAILY_TRANSACTION_AMOUNT_REACHED: 'daily transaction amount limit reached',
  TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT: 'transaction cannot be processed at the moment',
  INACTIVE_ACCOUNT: 'account inactive',
  COUNTRY_NOT_SUPPORTED: 'country not supported',
  CUSTOM_IDENTIFIER_ALREADY_USED: 'reference already used',
  TOKEN_EXPIRED: 'access token expired',
  INVALID_TOKEN: 'access token not accepted',
  INVALID_CREDENTIALS: 'credentials not accepted',
};

/** How long Reloadly makes a number wait after a top-up (PHONE_RECENTLY_RECHARGED). */
export const RECENTLY_RECHARGED_WAIT_MS = 2 * 60_000;

/** A time as the transactions report reads it: `yyyy-MM-dd HH:mm:ss`, in UTC. */
export function reportDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** The unix ms of a `yyyy-MM-dd HH:mm:ss` report date read as UTC, or null when it is not one. */
export function parseReportDate(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? ms : null;
}
