import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode, type Refusal, type RefusalDetails } from '../domain/errors.js';
import type { RouteIndex } from './route-index.js';

/**
 * The one place errors become HTTP: a domain refusal gets its status from one map, a problem of
 * the HTTP request itself (its size, its type, its method, its JSON) an HttpError of its own.
 * Anything else is a fault of ours: 500 INTERNAL_ERROR, logged, never shown.
 */

const STATUS_OF: Record<Refusal, number> = {
  invalid: 400,
  unauthenticated: 401,
  insufficient_funds: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unprocessable: 422,
  bad_gateway: 502,
  unavailable: 503,
};

/** The HTTP status of a domain refusal (the console renders refusals as pages with it). */
export function statusOfRefusal(refusal: Refusal): number {
  return STATUS_OF[refusal];
}

/** A problem of the request as HTTP sees it. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: RefusalDetails = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint's own failure code (docs/errors.md, "Endpoint codes"), used for its validation errors. */
    failureCode?: ErrorCode;
    /** Overrides the HTTP status of a schema validation error (e.g. 422 for a bulk item count). */
    validationStatus?: (error: FastifyError) => number | undefined;
  }
}

function send(reply: FastifyReply, status: number, code: string, message: string, details: RefusalDetails = {}) {
  return reply.status(status).send({ success: false, error: { code, message, ...details } });
}

/**
 * The values a field may take, when its refusal is that it is none of them: an `enum`, or a union
 * of constants (Ajv reports each constant it tried at the same path, then the `anyOf`).
 */
function allowedValues(error: FastifyError, instancePath: string): unknown[] | null {
  const atPath = (error.validation ?? []).filter((e) => e.instancePath === instancePath);
  const fromEnum = atPath.find((e) => e.keyword === 'enum')?.params as { allowedValues?: unknown[] } | undefined;
  if (fromEnum?.allowedValues) return fromEnum.allowedValues;
  const constants = atPath.filter((e) => e.keyword === 'const').map((e) => (e.params as { allowedValue?: unknown }).allowedValue);
  return constants.length > 0 && atPath.every((e) => e.keyword === 'const' || e.keyword === 'anyOf') ? constants : null;
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
  const allowed = first.keyword === 'enum' || first.keyword === 'const' ? allowedValues(error, first.instancePath) : null;
  if (allowed) {
    const values = allowed.map((v) => JSON.stringify(v));
    return `${where}${field ? `.${field}` : ''} must be ${values.length === 1 ? values[0] : `one of ${values.join(', ')}`}`;
  }
  return `${where}${field ? `.${field}` : ''} ${first.message ?? 'is invalid'}`;
}

/** Any error as the status, code and message the client sees; null for a fault of ours. */
function toHttpError(error: FastifyError, request: FastifyRequest): HttpError | null {
  if (error instanceof DomainError) return new HttpError(STATUS_OF[error.refusal], error.code, error.message, error.details);
  if (error instanceof HttpError) return error;
  const failureCode = request.routeOptions.config.failureCode ?? 'INVALID_REQUEST';
  if (error.validation) {
    const status = request.routeOptions.config.validationStatus?.(error) ?? 400;
    return new HttpError(status, failureCode, validationMessage(error));
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new HttpError(400, 'INVALID_JSON', 'Request body is not valid JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new HttpError(413, 'PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Request body must be application/json');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new HttpError(400, 'INVALID_REQUEST', 'Content-Length does not match the body');
  }
  if (error instanceof SyntaxError && error.statusCode === 400)
    return new HttpError(400, 'INVALID_JSON', 'Request body is not valid JSON');
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new HttpError(error.statusCode, failureCode, 'Invalid request');
  }
  return null;
}

const pathOf = (url: string) => url.split('?')[0] ?? url;

/**
 * A path the API knows, asked with a method it does not serve there: 405 with `Allow` (and the
 * methods named in the message); null when the path is unknown for every method.
 */
export function methodNotAllowed(routes: RouteIndex, request: FastifyRequest, reply: FastifyReply): HttpError | null {
  const allowed = routes.methodsAt(pathOf(request.url));
  if (allowed.length === 0 || allowed.includes(request.method)) return null;
  void reply.header('allow', allowed.join(', '));
  return new HttpError(
    405,
    'METHOD_NOT_ALLOWED',
    `${request.method} is not allowed on ${pathOf(request.url)}; allowed: ${allowed.join(', ')}`,
  );
}

/** For a hidden route answering a whole subtree: 405 when the path is known with other methods, else 404 `message`. */
export function notHere(routes: RouteIndex, message: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    throw methodNotAllowed(routes, request, reply) ?? new HttpError(404, 'NOT_FOUND', message);
  };
}

const CLIENT_ERRORS: Record<string, { status: number; reason: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request was not received in time' },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are too large' },
};

/**
 * Errors Node's HTTP parser and timeouts raise before a request reaches Fastify (a request line
 * that does not parse, headers or body not arriving in time): answered in the envelope, then the
 * connection is closed.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', message: 'The request is malformed' };
  const body = JSON.stringify({ success: false, error: { code: 'INVALID_REQUEST', message: known.message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

export function registerErrorHandling(app: FastifyInstance, routes: RouteIndex): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = toHttpError(error, request);
    if (known) {
      if (known.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return send(reply, known.statusCode, known.code, known.message, known.details);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, 'INTERNAL_ERROR', 'Internal server error');
  });

  app.setNotFoundHandler((request, reply) => {
    const wrongMethod = methodNotAllowed(routes, request, reply);
    if (wrongMethod) return send(reply, 405, wrongMethod.code, wrongMethod.message);
    return send(reply, 404, 'NOT_FOUND', `No route ${request.method} ${pathOf(request.url)}`);
  });
}
