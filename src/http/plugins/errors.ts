import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode } from '../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint's own failure code (spec §7), used for its validation errors. */
    failureCode?: ErrorCode;
    /** Overrides the HTTP status of a schema validation error (e.g. 422 for a bulk item count). */
    validationStatus?: (error: FastifyError) => number | undefined;
  }
}

function send(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.status(status).send({ success: false, error: { code, message } });
}

function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const where = error.validationContext ?? 'request';
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  const extra = (first.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (missing) return `${where}: ${field ? `${field}.` : ''}${missing} is required`;
  if (extra) return `${where}: unknown field ${field ? `${field}.` : ''}${extra}`;
  return `${where}${field ? `.${field}` : ''} ${first.message ?? 'is invalid'}`;
}

/** Maps framework errors (parse, size, validation) into AppError; anything unknown becomes a 500. */
function toAppError(error: FastifyError, request: FastifyRequest): AppError | null {
  if (error instanceof AppError) return error;
  const failureCode = request.routeOptions.config.failureCode ?? 'INVALID_REQUEST';
  if (error.validation) {
    const status = request.routeOptions.config.validationStatus?.(error) ?? 400;
    return new AppError(status, failureCode, validationMessage(error));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, 'INVALID_REQUEST', 'Content-Length does not match the body');
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError(error.statusCode, failureCode, 'Invalid request');
  }
  return null;
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error, request);
    if (appError) {
      if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, appError.statusCode, appError.code, appError.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, 'INTERNAL_ERROR', 'Internal server error');
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, 'NOT_FOUND', `No route ${request.method} ${request.url.split('?')[0]}`),
  );
}
