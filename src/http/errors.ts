/**
 * One error family for the whole service. Services throw AppError; the error handler
 * (plugins/errors.ts) is the only place that turns anything into the wire envelope.
 */

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
  'BUY_DATA_FAILED',
  'BUY_DATA_BULK_FAILED',
  'RC_WALLET_BUY_FAILED',
  'RC_WALLET_BULK_BUY_FAILED',
  'INTERNAL_ERROR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const unauthorized = (message = 'Missing or invalid API key') => new AppError(401, 'UNAUTHORIZED', message);
export const notFound = (message = 'Route not found') => new AppError(404, 'NOT_FOUND', message);
export const badRequest = (code: ErrorCode, message: string) => new AppError(400, code, message);
export const paymentRequired = (code: ErrorCode, message: string) => new AppError(402, code, message);
export const forbidden = (code: ErrorCode, message: string) => new AppError(403, code, message);
export const conflict = (code: ErrorCode, message: string) => new AppError(409, code, message);
