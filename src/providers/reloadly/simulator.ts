import { randomBytes } from 'node:crypto';
import {
  DEFAULT_BEHAVIOUR,
  delay,
  outcomeFor,
  sendCallback,
  startSimulatorServer,
  type RunningSimulator,
  type SimRequest,
  type SimResponse,
  type SimulatedOutcome,
  type SimulatorBehaviour,
  type SimulatorOptions,
  type SimulatorStats,
} from '../simulator-kit.js';
import { field, numberField, stringField } from '../http.js';
import { TOPUPS_MEDIA_TYPE, parseReportDate, reportDate, type TransactionStatus } from './api.js';
import { RELOADLY_SIGNATURE_HEADER, RELOADLY_TIMESTAMP_HEADER, signReloadlyCallback } from './signature.js';

/**
 * A Reloadly Top-ups stand-in for tests, staging and `cli simulate reloadly` (docs/live-delivery.md,
 * Appendix A): it serves the auth endpoint and the Top-ups API on one address, so RELOADLY_AUTH_URL
 * and RELOADLY_API_URL both point at it.
 *
 * Demo credentials, unless options give others: client id `reloadly-sim-client`, client secret
 * `reloadly-sim-secret`; a token's audience must be the simulator's own URL.
 *
 * - `POST /oauth/token`: client credentials; wrong ones 401 INVALID_CREDENTIALS, a wrong audience
 *   401 INVALID_AUDIENCE. Tokens live `tokenTtlS` (default one day); after expireTokens() or their
 *   life they answer 401 TOKEN_EXPIRED, unknown ones 401 INVALID_TOKEN.
 * - `POST /topups-async` → 200 `{transactionId}`, or Reloadly's error body with its errorCode. A
 *   customIdentifier used before answers 400 CUSTOM_IDENTIFIER_ALREADY_USED and takes nothing.
 * - `GET /topups/{id}/status` → `{code, message, status, transaction}` (`flatStatus`: the
 *   transaction's fields flat, with code and message beside them).
 * - `GET /topups/reports/transactions` → a Spring page (`page` from 1, `size` default 200) of
 *   transactions filtered by customIdentifier and startDate/endDate (`yyyy-MM-dd HH:mm:ss`, UTC).
 * - `GET /accounts/balance` → `{balance, currencyCode, currencyName, updatedAt}`.
 * - `GET /operators/{id}` → the operator (RELOADLY_SIMULATOR_OPERATORS and `operators`) with its
 *   country and local amounts (`localFixedAmounts`, or `localMinAmount`/`localMaxAmount`); 404
 *   OPERATOR_NOT_FOUND for any other id.
 *
 * Every API call needs `Authorization: Bearer` and `Accept: application/com.reloadly.topups-v1+json`.
 * stats(): `calls` counts every request per endpoint (token, buy, status, lookup, balance);
 * `submissions` only the buy requests that got past the token check.
 * The account is debited (amount less a 2% discount, converted to `currency`) when a top-up is
 * taken and refunded when it fails. A taken top-up reaches its final status `settleMs` later, and
 * its callback `{type: 'airtime_transaction.status', data: <transaction>}` then goes to callbackUrl,
 * signed with webhookSecret (X-Reloadly-Signature over `<raw body>:<X-Reloadly-Request-Timestamp>`,
 * the timestamp in milliseconds).
 */
export const RELOADLY_SIMULATOR_CLIENT_ID = 'reloadly-sim-client';
export const RELOADLY_SIMULATOR_CLIENT_SECRET = 'reloadly-sim-secret';

/** An operator as `GET /operators/{id}` describes it: local amounts in GHS, a fixed list or a range. */
export interface ReloadlySimulatedOperator {
  name: string;
  /** ISO country code (default GH). */
  country?: string;
  fixed?: readonly number[];
  range?: { min: number; max: number };
}

/** 643 is the example route of docs/live-delivery.md (any amount from GHS 1 to 1000); 644 sells fixed amounts; 645 is not in Ghana. */
export const RELOADLY_SIMULATOR_OPERATORS: Readonly<Record<number, ReloadlySimulatedOperator>> = {
  643: { name: 'MTN Ghana Data', range: { min: 1, max: 1000 } },
  644: { name: 'AirtelTigo Ghana Data', fixed: [5, 10, 20, 50] },
  645: { name: 'MTN Nigeria Data', country: 'NG', fixed: [10, 20] },
};

export interface ReloadlySimulatorOptions extends SimulatorOptions {
  /** Added to (or replacing by id) RELOADLY_SIMULATOR_OPERATORS. */
  operators?: Record<number, ReloadlySimulatedOperator>;
  /** The tokens' `expires_in`, in seconds (default 86400). */
  tokenTtlS?: number;
  /** The status endpoint answers with the transaction's fields flat instead of nested. */
  flatStatus?: boolean;
  /** The account's currency (default GHS, so that costs can be read). */
  currency?: string;
  /** The account's opening balance, in its currency (default 10000). */
  openingBalance?: number;
  /**
   * What the report's lines carry: everything (default), no status (only the status endpoint
   * tells), or `balanceInfo: null` (as some of Reloadly's documents show them).
   */
  reportLines?: 'full' | 'without-status' | 'without-balance';
  clientId?: string;
  clientSecret?: string;
}

export type ReloadlyEndpoint = 'token' | 'buy' | 'status' | 'lookup' | 'balance' | 'operator';

export interface RunningReloadlySimulator extends RunningSimulator {
  /** Buys for `msisdn` are refused with this errorCode (400, nothing taken), whatever the behaviour says. */
  refuseWith(msisdn: string, errorCode: string): void;
  /** Buys for `msisdn` are taken, then end in `status` with `code` as the reason. */
  failWith(msisdn: string, status: 'FAILED' | 'REFUNDED', code: string | null): void;
  /** The next answer of this endpoint is a 200 whose body is not what the endpoint returns. */
  garbleNext(endpoint: ReloadlyEndpoint): void;
}

interface SimTransaction {
  transactionId: number;
  reference: string | null;
  msisdn: string;
  operatorId: number;
  /** GHS, the local amount asked for. */
  amount: number;
  /** In the account's currency. */
  cost: number;
  balanceBefore: number;
  takenAt: number;
  settleAt: number;
  /** The settle timer has run (timers may fire a millisecond before the wall clock says settleAt). */
  settled: boolean;
  final: Exclude<TransactionStatus, 'PROCESSING'>;
  code: string | null;
  message: string | null;
}

interface IssuedToken {
  expiresAt: number;
  revoked: boolean;
}

const DISCOUNT_SHARE = 0.02;
/** Units of a non-GHS account currency per GHS (a round figure for USD and anything else). */
const FOREIGN_UNITS_PER_GHS = 0.065;

const FAILURE_MESSAGES: Record<string, string> = {
  INVALID_RECIPIENT_PHONE: 'Recipient phone number is not valid',
  TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT: 'Transaction cannot be processed at the moment',
};

export async function startReloadlySimulator(options: ReloadlySimulatorOptions = {}): Promise<RunningReloadlySimulator> {
  const clientId = options.clientId ?? RELOADLY_SIMULATOR_CLIENT_ID;
  const clientSecret = options.clientSecret ?? RELOADLY_SIMULATOR_CLIENT_SECRET;
  const currency = (options.currency ?? 'GHS').toUpperCase();
  const tokenTtlS = options.tokenTtlS ?? 86_400;
  const reportLines = options.reportLines ?? 'full';
  let behaviour: SimulatorBehaviour = { ...DEFAULT_BEHAVIOUR, numbers: {}, ...options.behaviour };
  const operators: Record<number, ReloadlySimulatedOperator> = { ...RELOADLY_SIMULATOR_OPERATORS, ...options.operators };
  let balance = options.openingBalance ?? 10_000;
  let balanceUpdatedAt = Date.now();
  let nextTransactionId = 10_001;

  const tokens = new Map<string, IssuedToken>();
  const transactions = new Map<number, SimTransaction>();
  const byReference = new Map<string, number>();
  const refusals = new Map<string, string>();
  const failures = new Map<string, { status: 'FAILED' | 'REFUNDED'; code: string | null }>();
  const garbled = new Set<ReloadlyEndpoint>();
  const timers = new Set<NodeJS.Timeout>();
  const calls: Record<string, number> = {};
  const counters = { submissions: 0, callbacksSent: 0, callbacksAcknowledged: 0 };
  let url = '';

  const count = (endpoint: ReloadlyEndpoint) => {
    calls[endpoint] = (calls[endpoint] ?? 0) + 1;
  };

  function issueToken(request: SimRequest): SimResponse {
    const body = request.body ?? Object.fromEntries(new URLSearchParams(request.rawBody));
    if (stringField(body, 'grant_type') !== 'client_credentials') {
      return errorResponse(400, request.path, 'UNSUPPORTED_GRANT_TYPE', 'Only client_credentials is supported');
    }
    if (stringField(body, 'client_id') !== clientId || stringField(body, 'client_secret') !== clientSecret) {
      return errorResponse(401, request.path, 'INVALID_CREDENTIALS', 'Access Denied');
    }
    if (stringField(body, 'audience') !== url) return errorResponse(401, request.path, 'INVALID_AUDIENCE', 'The provided audience is not valid');
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, { expiresAt: Date.now() + tokenTtlS * 1000, revoked: false });
    return { status: 200, body: { access_token: token, scope: 'send-topups read-topups-history read-operators', expires_in: tokenTtlS, token_type: 'Bearer' } };
  }

  /** Reloadly's answer to a call without a valid token or the Top-ups media type, or null. */
  function accessProblem(request: SimRequest): SimResponse | null {
    const authorization = request.headers.authorization ?? '';
    const issued = authorization.startsWith('Bearer ') ? tokens.get(authorization.slice('Bearer '.length).trim()) : undefined;
    if (!issued) return errorResponse(401, request.path, 'INVALID_TOKEN', 'Full authentication is required to access this resource');
    if (issued.revoked || Date.now() >= issued.expiresAt) return errorResponse(401, request.path, 'TOKEN_EXPIRED', 'Access token has expired');
    if (!(request.headers.accept ?? '').includes(TOPUPS_MEDIA_TYPE)) {
      return errorResponse(406, request.path, 'MEDIA_TYPE_NOT_ACCEPTABLE', `Accept must be ${TOPUPS_MEDIA_TYPE}`);
    }
    return null;
  }

  function statusOf(transaction: SimTransaction, now = Date.now()): TransactionStatus {
    return transaction.settled || now >= transaction.settleAt ? transaction.final : 'PROCESSING';
  }

  function view(transaction: SimTransaction, lines: typeof reportLines = 'full'): Record<string, unknown> {
    const status = statusOf(transaction);
    const refunded = status === 'FAILED' || status === 'REFUNDED';
    return {
      transactionId: transaction.transactionId,
      ...(lines === 'without-status' ? {} : { status }),
      operatorTransactionId: status === 'SUCCESSFUL' ? `OP${transaction.transactionId}` : null,
      customIdentifier: transaction.reference,
      recipientPhone: transaction.msisdn,
      recipientEmail: null,
      senderPhone: null,
      countryCode: 'GH',
      operatorId: transaction.operatorId,
      operatorName: `Simulated operator ${transaction.operatorId}`,
      discount: round(transaction.amount * DISCOUNT_SHARE),
      discountCurrencyCode: 'GHS',
      requestedAmount: transaction.amount,
      requestedAmountCurrencyCode: 'GHS',
      deliveredAmount: transaction.amount,
      deliveredAmountCurrencyCode: 'GHS',
      transactionDate: reportDate(transaction.takenAt),
      pinDetail: null,
      balanceInfo: lines === 'without-balance' ? null : {
        oldBalance: transaction.balanceBefore,
        newBalance: refunded ? transaction.balanceBefore : round(transaction.balanceBefore - transaction.cost),
        currencyCode: currency,
        currencyName: currency === 'GHS' ? 'Ghanaian Cedi' : currency,
        updatedAt: reportDate(transaction.takenAt),
      },
    };
  }

  function statusBody(transaction: SimTransaction): Record<string, unknown> {
    const status = statusOf(transaction);
    const failed = status === 'FAILED' || status === 'REFUNDED';
    const code = failed ? transaction.code : null;
    const message = failed ? transaction.message : null;
    return options.flatStatus ? { ...view(transaction), code, message } : { code, message, status, transaction: view(transaction) };
  }

  function settle(transaction: SimTransaction): void {
    transaction.settled = true;
    if (transaction.final !== 'SUCCESSFUL') {
      balance = round(balance + transaction.cost);
      balanceUpdatedAt = Date.now();
    }
    const target = options.callbackUrl;
    if (!target || behaviour.loseCallbacks) return;
    const rawBody = JSON.stringify({ type: 'airtime_transaction.status', data: { ...view(transaction), code: transaction.code, message: transaction.message } });
    const timestamp = String(Date.now());
    const headers: Record<string, string> = { [RELOADLY_TIMESTAMP_HEADER]: timestamp };
    if (options.webhookSecret) headers[RELOADLY_SIGNATURE_HEADER] = signReloadlyCallback(rawBody, timestamp, options.webhookSecret);
    counters.callbacksSent++;
    void sendCallback(target, null, headers, rawBody).then((acknowledged) => {
      if (acknowledged) counters.callbacksAcknowledged++;
    });
  }

  function take(request: { reference: string | null; msisdn: string; operatorId: number; amount: number }, settleMs: number, final: SimTransaction['final'], code: string | null): SimTransaction {
    const cost = round(request.amount * (1 - DISCOUNT_SHARE) * (currency === 'GHS' ? 1 : FOREIGN_UNITS_PER_GHS));
    const now = Date.now();
    const transaction: SimTransaction = {
      transactionId: nextTransactionId++,
      ...request,
      cost,
      balanceBefore: balance,
      takenAt: now,
      settleAt: now + settleMs,
      settled: false,
      final,
      code,
      message: code === null ? null : (FAILURE_MESSAGES[code] ?? code.toLowerCase().replaceAll('_', ' ')),
    };
    balance = round(balance - cost);
    balanceUpdatedAt = now;
    transactions.set(transaction.transactionId, transaction);
    if (transaction.reference !== null) byReference.set(transaction.reference, transaction.transactionId);
    const timer = setTimeout(() => {
      timers.delete(timer);
      settle(transaction);
    }, settleMs);
    timers.add(timer);
    return transaction;
  }

  async function buy(request: SimRequest): Promise<SimResponse> {
    counters.submissions++;
    const body = request.body;
    const phone = field(body, 'recipientPhone');
    const msisdn = (stringField(phone, 'number') ?? '').replace(/^\+/, '');
    const operatorId = numberField(body, 'operatorId');
    const amount = numberField(body, 'amount');
    const reference = stringField(body, 'customIdentifier');
    if (!/^\d{8,15}$/.test(msisdn) || stringField(phone, 'countryCode') === null) {
      return errorResponse(400, request.path, 'INVALID_RECIPIENT_PHONE', 'Recipient phone number is not valid');
    }
    if (operatorId === null || amount === null || amount <= 0) return errorResponse(400, request.path, 'INVALID_AMOUNT', 'operatorId and a positive amount are required');

    const outcome: SimulatedOutcome = outcomeFor(behaviour, msisdn);
    if (outcome === 'error-before-taking') return springError(503, request.path, 'Service Unavailable');
    if (reference !== null && byReference.has(reference)) {
      return errorResponse(400, request.path, 'CUSTOM_IDENTIFIER_ALREADY_USED', 'Custom identifier has already been used');
    }
    const refusal = refusals.get(msisdn) ?? refusalFor(outcome);
    if (refusal !== null) return errorResponse(400, request.path, refusal, FAILURE_MESSAGES[refusal] ?? refusal.toLowerCase().replaceAll('_', ' '));

    const order = { reference, msisdn, operatorId, amount };
    const forced = failures.get(msisdn);
    if (forced) return { status: 200, body: { transactionId: take(order, behaviour.settleMs, forced.status, forced.code).transactionId } };
    switch (outcome) {
      case 'complete-at-once':
        return { status: 200, body: view(take(order, 0, 'SUCCESSFUL', null)) };
      case 'fail-after-accept':
        return { status: 200, body: { transactionId: take(order, behaviour.settleMs, 'FAILED', 'TRANSACTION_CANNOT_BE_PROCESSED_AT_THE_MOMENT').transactionId } };
      case 'fail-number-after-accept':
        return { status: 200, body: { transactionId: take(order, behaviour.settleMs, 'FAILED', 'INVALID_RECIPIENT_PHONE').transactionId } };
      case 'hang-after-taking': {
        const { transactionId } = take(order, behaviour.settleMs, 'SUCCESSFUL', null);
        await delay(behaviour.hangMs);
        return { status: 200, body: { transactionId } };
      }
      case 'error-after-taking':
        take(order, behaviour.settleMs, 'SUCCESSFUL', null);
        return springError(500, request.path, 'Internal Server Error');
      default:
        return { status: 200, body: { transactionId: take(order, behaviour.settleMs, 'SUCCESSFUL', null).transactionId } };
    }
  }

  function status(request: SimRequest, id: string): SimResponse {
    const transaction = /^\d+$/.test(id) ? transactions.get(Number(id)) : undefined;
    if (!transaction) return errorResponse(404, request.path, 'TRANSACTION_NOT_FOUND', `No transaction with id ${id}`);
    return { status: 200, body: statusBody(transaction) };
  }

  function report(request: SimRequest): SimResponse {
    const page = Number(request.query.get('page') ?? '1');
    const size = Number(request.query.get('size') ?? '200');
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(size) || size < 1 || size > 200) {
      return errorResponse(400, request.path, 'INVALID_REQUEST', 'page starts at 1; size is 1 to 200');
    }
    const bounds: number[] = [];
    for (const name of ['startDate', 'endDate']) {
      const text = request.query.get(name);
      const ms = text === null ? null : parseReportDate(text);
      if (text !== null && ms === null) return errorResponse(400, request.path, 'INVALID_REQUEST', `${name} must read yyyy-MM-dd HH:mm:ss`);
      bounds.push(ms ?? (name === 'startDate' ? -Infinity : Infinity));
    }
    const [from = -Infinity, to = Infinity] = bounds;
    const reference = request.query.get('customIdentifier');
    const matching = [...transactions.values()].filter(
      // Report dates have whole seconds: a transaction taken within the end second is inside.
      (t) => (reference === null || t.reference === reference) && t.takenAt >= from && Math.floor(t.takenAt / 1000) * 1000 <= to,
    );
    const content = matching.slice((page - 1) * size, page * size).map((t) => view(t, reportLines));
    const totalPages = Math.ceil(matching.length / size);
    return {
      status: 200,
      body: {
        content,
        pageable: { pageNumber: page - 1, pageSize: size, offset: (page - 1) * size, paged: true, unpaged: false },
        totalElements: matching.length,
        totalPages,
        last: page >= totalPages,
        first: page === 1,
        number: page - 1,
        size,
        numberOfElements: content.length,
        empty: content.length === 0,
      },
    };
  }

  /** `GET /operators/{id}`: the operator with its local amounts, or 404 OPERATOR_NOT_FOUND. */
  function operator(request: SimRequest): SimResponse {
    const id = request.path.split('/')[2] ?? '';
    const found = /^\d+$/.test(id) ? operators[Number(id)] : undefined;
    if (!found) return errorResponse(404, request.path, 'OPERATOR_NOT_FOUND', `Operator not found for id ${id}`);
    const country = found.country ?? 'GH';
    return {
      status: 200,
      body: {
        id: Number(id),
        operatorId: Number(id),
        name: found.name,
        bundle: false,
        data: true,
        denominationType: found.range ? 'RANGE' : 'FIXED',
        senderCurrencyCode: currency,
        destinationCurrencyCode: country === 'GH' ? 'GHS' : 'NGN',
        localFixedAmounts: found.fixed ?? [],
        localMinAmount: found.range?.min ?? null,
        localMaxAmount: found.range?.max ?? null,
        country: { isoName: country, name: country === 'GH' ? 'Ghana' : country },
      },
    };
  }

  async function handle(request: SimRequest): Promise<SimResponse> {
    const endpoint = endpointOf(request);
    if (endpoint === null) return springError(404, request.path, 'Not Found');
    count(endpoint);
    if (garbled.delete(endpoint)) return { status: 200, body: 'Service temporarily degraded, please retry' };
    if (endpoint === 'token') return issueToken(request);
    const problem = accessProblem(request);
    if (problem) return problem;
    switch (endpoint) {
      case 'buy':
        return buy(request);
      case 'status':
        return status(request, request.path.split('/')[2] ?? '');
      case 'lookup':
        return report(request);
      case 'operator':
        return operator(request);
      case 'balance':
        return {
          status: 200,
          body: { balance, currencyCode: currency, currencyName: currency === 'GHS' ? 'Ghanaian Cedi' : currency, updatedAt: reportDate(balanceUpdatedAt) },
        };
    }
  }

  const stats = (): SimulatorStats => {
    const now = Date.now();
    const deliveries = [...transactions.values()]
      .filter((t) => statusOf(t, now) === 'SUCCESSFUL')
      .map((t) => ({ reference: t.reference ?? '', transactionId: String(t.transactionId), msisdn: t.msisdn, product: String(t.amount) }));
    return {
      submissions: counters.submissions,
      deliveries,
      calls: { ...calls },
      maxInFlight: server.trackInFlight.max,
      callbacksSent: counters.callbacksSent,
      callbacksAcknowledged: counters.callbacksAcknowledged,
    };
  };
  const configure = (change: Partial<SimulatorBehaviour>) => {
    behaviour = { ...behaviour, ...change };
  };
  const expireTokens = () => {
    for (const token of tokens.values()) token.revoked = true;
  };

  const server = await startSimulatorServer({ port: options.port, host: options.host, behaviour: () => behaviour, configure, stats, expireTokens, handle });
  url = server.url;

  return {
    name: 'reloadly',
    url,
    env: {
      RELOADLY_CLIENT_ID: clientId,
      RELOADLY_CLIENT_SECRET: clientSecret,
      RELOADLY_API_URL: url,
      RELOADLY_AUTH_URL: url,
      ...(options.webhookSecret ? { RELOADLY_WEBHOOK_SECRET: options.webhookSecret } : {}),
    },
    configure,
    behaviour: () => behaviour,
    stats,
    expireTokens,
    refuseWith(msisdn, errorCode) {
      refusals.set(msisdn, errorCode);
    },
    failWith(msisdn, finalStatus, code) {
      failures.set(msisdn, { status: finalStatus, code });
    },
    garbleNext(endpoint) {
      garbled.add(endpoint);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await server.close();
    },
  };
}

function endpointOf(request: SimRequest): ReloadlyEndpoint | null {
  const { method, path } = request;
  if (method === 'POST' && path === '/oauth/token') return 'token';
  if (method === 'POST' && path === '/topups-async') return 'buy';
  if (method === 'GET' && /^\/topups\/[^/]+\/status$/.test(path)) return 'status';
  if (method === 'GET' && path === '/topups/reports/transactions') return 'lookup';
  if (method === 'GET' && path === '/accounts/balance') return 'balance';
  if (method === 'GET' && /^\/operators\/[^/]+$/.test(path)) return 'operator';
  return null;
}

function refusalFor(outcome: SimulatedOutcome): string | null {
  switch (outcome) {
    case 'refuse-float':
      return 'INSUFFICIENT_BALANCE';
    case 'refuse-number':
      return 'INVALID_RECIPIENT_PHONE';
    case 'refuse-product':
      return 'INVALID_AMOUNT_FOR_OPERATOR';
    case 'recently-recharged':
      return 'PHONE_RECENTLY_RECHARGED';
    default:
      return null;
  }
}

/** Reloadly's error body. */
function errorResponse(status: number, path: string, errorCode: string, message: string): SimResponse {
  return { status, body: { timeStamp: reportDate(Date.now()), message, path, errorCode, infoLink: null, details: [] } };
}

/** The framework's own error body (a 5xx or an unknown path): no errorCode. */
function springError(status: number, path: string, error: string): SimResponse {
  return { status, body: { timestamp: reportDate(Date.now()), status, error, message: 'No message available', path } };
}

function round(value: number): number {
  return Math.round(value * 100_000) / 100_000;
}
