/**
 * One error family for the whole service, in domain terms. A service refuses with a DomainError:
 * why (the refusal) and the documented code. The edge gives each refusal its HTTP status in one
 * place (src/http/errors.ts); the CLI prints the message.
 */

/** Every error code the API documents (docs/errors.md). */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'INVALID_JSON',
  'INVALID_REQUEST',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'PROFILE_NOT_FOUND',
  'PROFILE_SUSPENDED',
  'ORDER_NOT_FOUND',
  'PACKAGE_NOT_FOUND',
  'INVALID_ORDER_TYPE',
  'TOPUP_REQUEST_FAILED',
  'TOPUP_NOT_FOUND',
  'TOPUP_METHOD_UNAVAILABLE',
  'TOPUP_GATEWAY_FAILED',
  'BUY_DATA_FAILED',
  'BUY_DATA_BULK_FAILED',
  'RC_WALLET_BUY_FAILED',
  'RC_WALLET_BULK_BUY_FAILED',
  'INTERNAL_ERROR',
  'RATE_LIMITED',
  'IDEMPOTENCY_KEY_INVALID',
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'EVENT_NOT_FOUND',
  'WEBHOOK_ENDPOINT_INVALID',
  'WEBHOOK_ENDPOINT_NOT_FOUND',
  'BELOW_COST',
  'ROUTE_NOT_OFFERED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Why a request was refused. */
export type Refusal =
  /** The input is wrong (a bad field, an unknown package, a number that is not a mobile number). */
  | 'invalid'
  /** No valid API key. */
  | 'unauthenticated'
  /** The wallet cannot pay. */
  | 'insufficient_funds'
  /** The caller may not do this (role, suspension). */
  | 'forbidden'
  /** The record does not exist, or is not the caller's. */
  | 'not_found'
  /** The state of things refuses it (an open delivery for the number, a repeated reference, out of stock). */
  | 'conflict'
  /** The request is well formed but out of range in a way the contract singles out (bulk item count). */
  | 'unprocessable'
  /** An outside system the request needs refused it or could not be reached (a payment gateway). */
  | 'bad_gateway'
  /** What the request needs is not configured here (no payment gateway key for the mode). */
  | 'unavailable';

/** What a refusal may tell besides its message: the record it is about. */
export interface RefusalDetails {
  /** The order the refusal refers to (a repeated paymentReference names the caller's order). */
  orderId?: string;
}

export class DomainError extends Error {
  constructor(
    readonly refusal: Refusal,
    readonly code: ErrorCode,
    message: string,
    readonly details: RefusalDetails = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (code: ErrorCode, message: string) => new DomainError('invalid', code, message);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', 'UNAUTHORIZED', message);
export const insufficientFunds = (code: ErrorCode, message: string) => new DomainError('insufficient_funds', code, message);
export const forbidden = (code: ErrorCode, message: string) => new DomainError('forbidden', code, message);
export const notFound = (code: ErrorCode, message: string) => new DomainError('not_found', code, message);
export const conflict = (code: ErrorCode, message: string, details?: RefusalDetails) =>
  new DomainError('conflict', code, message, details);
export const badGateway = (code: ErrorCode, message: string) => new DomainError('bad_gateway', code, message);
export const unavailable = (code: ErrorCode, message: string) => new DomainError('unavailable', code, message);
export const unprocessable = (code: ErrorCode, message: string) => new DomainError('unprocessable', code, message);
