import { timingSafeEqual } from 'node:crypto';
import { field } from '../http.js';
import {
  DEFAULT_BEHAVIOUR,
  delay,
  outcomeFor,
  sendCallback,
  startSimulatorServer,
  type RunningSimulator,
  type SimRequest,
  type SimResponse,
  type SimulatedDelivery,
  type SimulatedOutcome,
  type SimulatorBehaviour,
  type SimulatorOptions,
  type SimulatorStats,
} from '../simulator-kit.js';

/**
 * A DT One DVS v1 stand-in (docs/upstream-apis.md), for tests, staging and
 * `cli simulate dtone --port <n>`. Under /v1: `POST /async/transactions` (201 with the transaction),
 * `GET /transactions/{id}`, `GET /transactions?external_id=&from_date=&to_date=&page=&per_page=`
 * (an array, paged by the X-Total / X-Next-Page headers, per_page ≤ 100), `GET /balances` and
 * `GET /products/{id}` (a product of the account, 404 1003001 for any other).
 *
 * Basic auth with fixed demo credentials: API key `dtone-sim-key`, secret `dtone-sim-secret`
 * (`env` holds them with DTONE_API_URL). A transaction is CONFIRMED when taken and reaches its
 * final status `settleMs` later; its callback (the transaction JSON, unsigned) then goes to the
 * submission's `callback_url`, retried on a non-2xx answer. Products by id with their wholesale
 * price (default GHS, so costs can be read); the account's balance is debited as DT One does
 * (held when taken, captured when completed, released when failed, returned when reversed).
 */

export const DTONE_SIMULATOR_API_KEY = 'dtone-sim-key';
export const DTONE_SIMULATOR_API_SECRET = 'dtone-sim-secret';

export interface DtoneSimulatedProduct {
  /** Wholesale price in `unit`. */
  amount: number;
  /** Default GHS. */
  unit?: string;
  fee?: number;
}

/** 35211 is the example route of docs/live-delivery.md; 35299 is priced in USD (its cost is not read). */
export const DTONE_SIMULATOR_PRODUCTS: Readonly<Record<number, DtoneSimulatedProduct>> = {
  35211: { amount: 9.5 },
  35212: { amount: 19, fee: 0.25 },
  35299: { amount: 0.85, unit: 'USD' },
};

export interface DtoneSimulatorOptions extends SimulatorOptions {
  /** Added to (or replacing by id) DTONE_SIMULATOR_PRODUCTS. */
  products?: Record<number, DtoneSimulatedProduct>;
  /** The account's available balance at start, in `balanceUnit` (default 10000 GHS). */
  balance?: number;
  balanceUnit?: string;
}

/** Every status the simulator can give, with DT One's class; status ids are the simulator's own. */
const STATUSES = {
  CREATED: 1,
  CONFIRMED: 2,
  REJECTED: 3,
  'REJECTED-INVALID-CREDIT-PARTY': 3,
  'REJECTED-BARRED-CREDIT-PARTY': 3,
  'REJECTED-INELIGIBLE-CREDIT-PARTY': 3,
  'REJECTED-LIMITATIONS-ON-CREDIT-PARTY-AMOUNT': 3,
  'REJECTED-OPERATOR-CURRENTLY-UNAVAILABLE': 3,
  'REJECTED-INSUFFICIENT-BALANCE': 3,
  CANCELLED: 4,
  SUBMITTED: 5,
  COMPLETED: 7,
  REVERSED: 8,
  DECLINED: 9,
  'DECLINED-INVALID-CREDIT-PARTY': 9,
  'DECLINED-BARRED-CREDIT-PARTY': 9,
  'DECLINED-INELIGIBLE-CREDIT-PARTY': 9,
  'DECLINED-LIMITATIONS-ON-OPERATOR-AMOUNT': 9,
  'DECLINED-DUPLICATED-TRANSACTION': 9,
  'DECLINED-EXCEPTION': 9,
  'DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE': 9,
} as const;
export type DtoneSimulatedStatus = keyof typeof STATUSES;

const CLASS_NAMES: Record<number, string> = { 1: 'CREATED', 2: 'CONFIRMED', 3: 'REJECTED', 4: 'CANCELLED', 5: 'SUBMITTED', 7: 'COMPLETED', 8: 'REVERSED', 9: 'DECLINED' };
const IN_FLIGHT_CLASSES = new Set([1, 2, 5]);
const FAILED_CLASSES = new Set([3, 4, 9]);

/** Status ids: the class times 10000, then one hundred apart within the class (70000 COMPLETED, 90100 DECLINED-INVALID-CREDIT-PARTY…). */
const STATUS_IDS = new Map<string, number>();
const perClass = new Map<number, number>();
for (const [name, classId] of Object.entries(STATUSES)) {
  const n = perClass.get(classId) ?? 0;
  perClass.set(classId, n + 1);
  STATUS_IDS.set(name, classId * 10_000 + n * 100);
}

/** The final status each outcome that takes a submission ends in. */
const FINAL_STATUS: Partial<Record<SimulatedOutcome, DtoneSimulatedStatus>> = {
  complete: 'COMPLETED',
  'complete-at-once': 'COMPLETED',
  'hang-after-taking': 'COMPLETED',
  'error-after-taking': 'COMPLETED',
  'fail-after-accept': 'DECLINED-OPERATOR-CURRENTLY-UNAVAILABLE',
  'fail-number-after-accept': 'DECLINED-INVALID-CREDIT-PARTY',
};

/** DT One's error codes with the HTTP status and message that carry them. */
const ERRORS = {
  badRequest: { status: 400, code: 1000400, message: 'Bad Request' },
  unauthorized: { status: 401, code: 1000401, message: 'Unauthorized' },
  notFound: { status: 404, code: 1000404, message: 'Resource not found' },
  productUnavailable: { status: 404, code: 1003001, message: 'Product is not available in your account' },
  invalidNumber: { status: 400, code: 1005003, message: 'Credit party mobile number is invalid' },
  insufficientBalance: { status: 400, code: 1006001, message: 'Insufficient balance' },
  externalIdUsed: { status: 400, code: 1007001, message: 'Transaction external ID has already been used' },
  transactionNotFound: { status: 404, code: 1008004, message: 'Transaction not found' },
  unexpected: { status: 500, code: 1009001, message: 'Unexpected error, please contact our support team' },
  unavailable: { status: 503, code: 1009503, message: 'Service unavailable, please retry later' },
} as const;

const errorAnswer = (error: (typeof ERRORS)[keyof typeof ERRORS], message: string = error.message): SimResponse => ({
  status: error.status,
  body: { errors: [{ code: error.code, message }] },
});

/** Waits before each retry of a callback the receiver did not acknowledge. */
const CALLBACK_RETRY_DELAYS_MS = [50, 250, 1_000];
const DAY_MS = 86_400_000;

interface SimTransaction {
  id: number;
  externalId: string;
  productId: number;
  product: Required<DtoneSimulatedProduct>;
  mobileNumber: string;
  callbackUrl: string | null;
  createdAt: number;
  confirmedAt: number | null;
  status: DtoneSimulatedStatus;
  /** Price held or captured, in hundredths of the balance unit. */
  chargedCents: number;
}

export interface DtoneSimulator extends RunningSimulator {
  /**
   * Moves a transaction to any status, as DT One's own staff or the operator would (a reversal, a
   * late rejection), with the balance movement and the callback that status brings. False when
   * the simulator has no such transaction.
   */
  setStatus(transactionId: string, status: DtoneSimulatedStatus): boolean;
  /** DT One loses a transaction (it answers 404 for it and lists it no more): reconciliation's "missing there". */
  forget(transactionId: string): boolean;
  /** DT One's record of a transaction now shows another wholesale price (in its product's unit). */
  reprice(transactionId: string, amount: number): boolean;
  /**
   * Adds transactions as if taken at `createdAt`, without calls or balance movement (benchmarks:
   * a day of transactions in one step). Each ends in `status`.
   */
  load(transactions: { externalId: string; productId: number; mobileNumber: string; createdAt: number; status: DtoneSimulatedStatus }[]): void;
}

export async function startDtoneSimulator(options: DtoneSimulatorOptions = {}): Promise<DtoneSimulator> {
  let behaviour: SimulatorBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
  const products = new Map<number, Required<DtoneSimulatedProduct>>();
  for (const [id, product] of Object.entries({ ...DTONE_SIMULATOR_PRODUCTS, ...options.products })) {
    products.set(Number(id), { unit: 'GHS', fee: 0, ...product });
  }
  const balanceUnit = options.balanceUnit ?? 'GHS';
  const account = { availableCents: Math.round((options.balance ?? 10_000) * 100), holdingCents: 0 };
  const transactions = new Map<number, SimTransaction>();
  const byExternalId = new Map<string, SimTransaction>();
  let nextId = 4_100_000_001;
  const stats = {
    submissions: 0,
    deliveries: [] as SimulatedDelivery[],
    calls: {} as Record<string, number>,
    callbacksSent: 0,
    callbacksAcknowledged: 0,
  };
  const count = (name: string) => {
    stats.calls[name] = (stats.calls[name] ?? 0) + 1;
  };
  const expectedAuthorization = Buffer.from(`Basic ${Buffer.from(`${DTONE_SIMULATOR_API_KEY}:${DTONE_SIMULATOR_API_SECRET}`).toString('base64')}`);
  const authorized = (request: SimRequest) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    return given.length === expectedAuthorization.length && timingSafeEqual(given, expectedAuthorization);
  };

  const render = (tx: SimTransaction) => {
    const classId = STATUSES[tx.status];
    return {
      id: tx.id,
      external_id: tx.externalId,
      creation_date: new Date(tx.createdAt).toISOString(),
      confirmation_expiration_date: new Date(tx.createdAt + 3_600_000).toISOString(),
      confirmation_date: tx.confirmedAt === null ? null : new Date(tx.confirmedAt).toISOString(),
      status: { id: STATUS_IDS.get(tx.status), message: tx.status, class: { id: classId, message: CLASS_NAMES[classId] } },
      operator_reference: classId === 7 || classId === 8 ? `OP${tx.id}` : null,
      pin: null,
      product: { id: tx.productId, name: `Simulated product ${tx.productId}`, type: 'FIXED_VALUE_RECHARGE' },
      prices: { wholesale: { unit_type: 'CURRENCY', unit: tx.product.unit, amount: tx.product.amount, fee: tx.product.fee }, retail: null },
      benefits: [],
      promotions: null,
      requested_values: null,
      adjusted_values: null,
      sender: null,
      beneficiary: null,
      debit_party_identifier: null,
      credit_party_identifier: { mobile_number: tx.mobileNumber },
      callback_url: tx.callbackUrl,
    };
  };

  const deliverCallback = async (tx: SimTransaction) => {
    if (tx.callbackUrl === null || behaviour.loseCallbacks) return;
    const body = render(tx);
    for (let attempt = 0; ; attempt++) {
      stats.callbacksSent++;
      if (await sendCallback(tx.callbackUrl, body)) {
        stats.callbacksAcknowledged++;
        return;
      }
      const wait = CALLBACK_RETRY_DELAYS_MS[attempt];
      if (wait === undefined) return;
      await delay(wait);
    }
  };

  /** Moves a transaction to a status with DT One's balance movement; callbacks for final ones. */
  const moveTo = (tx: SimTransaction, status: DtoneSimulatedStatus) => {
    const before = STATUSES[tx.status];
    const after = STATUSES[status];
    if (IN_FLIGHT_CLASSES.has(before) && (after === 7 || FAILED_CLASSES.has(after))) {
      account.holdingCents -= tx.chargedCents;
      if (after !== 7) account.availableCents += tx.chargedCents;
    } else if (before === 7 && after === 8) {
      account.availableCents += tx.chargedCents;
    }
    tx.status = status;
    if (after === 7 && before !== 7) {
      stats.deliveries.push({ reference: tx.externalId, transactionId: String(tx.id), msisdn: tx.mobileNumber.replace(/^\+/, ''), product: String(tx.productId) });
    }
    if (!IN_FLIGHT_CLASSES.has(after)) void deliverCallback(tx);
  };

  const settleLater = (tx: SimTransaction, final: DtoneSimulatedStatus) => {
    setTimeout(() => {
      // A status set from outside in the meantime (setStatus) stands.
      if (IN_FLIGHT_CLASSES.has(STATUSES[tx.status])) moveTo(tx, final);
    }, behaviour.settleMs).unref();
  };

  const buy = async (request: SimRequest): Promise<SimResponse> => {
    stats.submissions++;
    const body = request.body;
    const externalId = typeof field(body, 'external_id') === 'string' ? (field(body, 'external_id') as string).trim() : '';
    const productId = field(body, 'product_id');
    const mobileNumber = field(field(body, 'credit_party_identifier'), 'mobile_number');
    if (externalId === '' || externalId.length > 40 || typeof productId !== 'number' || !Number.isInteger(productId) || productId < 1) {
      return errorAnswer(ERRORS.badRequest, 'external_id (1 to 40 characters) and product_id (a positive integer) are required');
    }
    if (typeof mobileNumber !== 'string' || !/^\+[1-9][0-9]{6,14}$/.test(mobileNumber)) return errorAnswer(ERRORS.invalidNumber);
    if (byExternalId.has(externalId)) return errorAnswer(ERRORS.externalIdUsed);
    const product = products.get(productId);
    if (!product) return errorAnswer(ERRORS.productUnavailable);

    const outcome = outcomeFor(behaviour, mobileNumber.slice(1));
    if (outcome === 'error-before-taking') return errorAnswer(ERRORS.unavailable);
    if (outcome === 'refuse-float') return errorAnswer(ERRORS.insufficientBalance);
    if (outcome === 'refuse-number') return errorAnswer(ERRORS.invalidNumber);
    // DT One has no "recently recharged" refusal: an operator's refusal of the product stands for it.
    if (outcome === 'refuse-product' || outcome === 'recently-recharged') return errorAnswer(ERRORS.productUnavailable);
    const chargedCents = Math.round((product.amount + product.fee) * 100);
    if (product.unit === balanceUnit && chargedCents > account.availableCents) return errorAnswer(ERRORS.insufficientBalance);

    const now = Date.now();
    const autoConfirm = field(body, 'auto_confirm') === true;
    const callbackUrl = field(body, 'callback_url');
    const tx: SimTransaction = {
      id: nextId++,
      externalId,
      productId,
      product,
      mobileNumber,
      callbackUrl: typeof callbackUrl === 'string' && callbackUrl !== '' ? callbackUrl : null,
      createdAt: now,
      confirmedAt: autoConfirm ? now : null,
      status: autoConfirm ? 'CONFIRMED' : 'CREATED',
      chargedCents: product.unit === balanceUnit ? chargedCents : 0,
    };
    transactions.set(tx.id, tx);
    byExternalId.set(externalId, tx);
    account.availableCents -= tx.chargedCents;
    account.holdingCents += tx.chargedCents;

    // Without auto_confirm DT One waits for a confirmation this simulator does not take: it stays CREATED.
    const final = FINAL_STATUS[outcome];
    if (autoConfirm && final !== undefined) {
      if (outcome === 'complete-at-once') moveTo(tx, final);
      else settleLater(tx, final);
    }
    if (outcome === 'error-after-taking') return errorAnswer(ERRORS.unexpected);
    if (outcome === 'hang-after-taking') await delay(behaviour.hangMs);
    return { status: 201, body: render(tx) };
  };

  const status = (id: string): SimResponse => {
    const tx = /^[0-9]+$/.test(id) ? transactions.get(Number(id)) : undefined;
    return tx ? { status: 200, body: render(tx) } : errorAnswer(ERRORS.transactionNotFound);
  };

  const list = (query: URLSearchParams): SimResponse => {
    const page = query.has('page') ? Number(query.get('page')) : 1;
    const perPage = query.has('per_page') ? Number(query.get('per_page')) : 50;
    if (!Number.isInteger(page) || page < 1 || !Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return errorAnswer(ERRORS.badRequest, 'page must be 1 or more, per_page 1 to 100');
    }
    const externalId = query.get('external_id');
    const from = query.has('from_date') ? Date.parse(query.get('from_date') ?? '') : null;
    const to = query.has('to_date') ? Date.parse(query.get('to_date') ?? '') : null;
    if (Number.isNaN(from) || Number.isNaN(to)) return errorAnswer(ERRORS.badRequest, 'from_date and to_date are dates and times (ISO 8601)');
    if (from !== null && to !== null && to - from > DAY_MS) return errorAnswer(ERRORS.badRequest, 'the window between from_date and to_date can not exceed 24 hours');
    // Neither a reference nor dates: the last 24 hours, as DT One does.
    const since = from ?? (to !== null ? to - DAY_MS : externalId === null ? Date.now() - DAY_MS : -Infinity);
    const until = to ?? (from !== null ? from + DAY_MS : Infinity);
    // Newest first, as DT One lists them: ids grow with insertion, so the map's order reversed.
    const matching = [...transactions.values()]
      .filter((tx) => (externalId === null || tx.externalId === externalId) && tx.createdAt >= since && tx.createdAt <= until)
      .reverse();
    const totalPages = Math.max(1, Math.ceil(matching.length / perPage));
    const headers: Record<string, string> = {
      'x-total': String(matching.length),
      'x-total-pages': String(totalPages),
      'x-per-page': String(perPage),
      'x-page': String(page),
    };
    if (page < totalPages) headers['x-next-page'] = String(page + 1);
    if (page > 1) headers['x-prev-page'] = String(Math.min(page - 1, totalPages));
    return { status: 200, body: matching.slice((page - 1) * perPage, page * perPage).map(render), headers };
  };

  /** `GET /products/{id}`: a product of this account, as DT One describes one (a Ghana operator's fixed-value recharge). */
  const productAnswer = (id: string): SimResponse => {
    const product = /^\d+$/.test(id) ? products.get(Number(id)) : undefined;
    if (!product) return errorAnswer(ERRORS.productUnavailable);
    return {
      status: 200,
      body: {
        id: Number(id),
        name: `Simulated product ${id}`,
        description: null,
        type: 'FIXED_VALUE_RECHARGE',
        service: { id: 2, name: 'Mobile Data' },
        operator: { id: 1573, name: 'MTN Ghana', country: { iso_code: 'GHA', name: 'Ghana' } },
        prices: { wholesale: { unit_type: 'CURRENCY', unit: product.unit, amount: product.amount, fee: product.fee }, retail: null },
        availability_zones: ['INTERNATIONAL'],
      },
    };
  };

  const handle = async (request: SimRequest): Promise<SimResponse> => {
    const route = routeOf(request);
    if (route === null) return errorAnswer(ERRORS.notFound);
    count(route.name);
    if (!authorized(request)) return { ...errorAnswer(ERRORS.unauthorized), headers: { 'www-authenticate': 'Basic realm="DVS API"' } };
    switch (route.name) {
      case 'buy':
        return buy(request);
      case 'status':
        return status(route.id);
      case 'lookup':
        return list(request.query);
      case 'product':
        return productAnswer(route.id);
      case 'balance':
        return {
          status: 200,
          body: [{ id: 1, unit_type: 'CURRENCY', unit: balanceUnit, available: account.availableCents / 100, holding: account.holdingCents / 100, credit_limit: 0 }],
          headers: { 'x-total': '1', 'x-total-pages': '1', 'x-per-page': '50', 'x-page': '1' },
        };
    }
  };

  const snapshot = (): SimulatorStats => ({ ...stats, deliveries: [...stats.deliveries], calls: { ...stats.calls }, maxInFlight: server.trackInFlight.max });
  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
    behaviour: () => behaviour,
    configure: (change) => {
      behaviour = { ...behaviour, ...change };
    },
    stats: () => snapshot(),
    expireTokens: () => undefined,
    handle,
  });

  return {
    name: 'dtone',
    url: server.url,
    env: { DTONE_API_KEY: DTONE_SIMULATOR_API_KEY, DTONE_API_SECRET: DTONE_SIMULATOR_API_SECRET, DTONE_API_URL: `${server.url}/v1` },
    configure(change) {
      behaviour = { ...behaviour, ...change };
    },
    behaviour: () => ({ ...behaviour, numbers: { ...behaviour.numbers } }),
    stats: () => snapshot(),
    expireTokens: () => undefined,
    setStatus(transactionId, status) {
      const tx = transactions.get(Number(transactionId));
      if (!tx) return false;
      moveTo(tx, status);
      return true;
    },
    forget(transactionId) {
      const tx = transactions.get(Number(transactionId));
      if (!tx) return false;
      transactions.delete(tx.id);
      byExternalId.delete(tx.externalId);
      return true;
    },
    reprice(transactionId, amount) {
      const tx = transactions.get(Number(transactionId));
      if (!tx) return false;
      tx.product = { ...tx.product, amount };
      return true;
    },
    load(list) {
      for (const item of list) {
        const product = products.get(item.productId);
        if (!product) throw new Error(`the simulator has no product ${item.productId}`);
        const tx: SimTransaction = {
          id: nextId++,
          externalId: item.externalId,
          productId: item.productId,
          product,
          mobileNumber: item.mobileNumber,
          callbackUrl: null,
          createdAt: item.createdAt,
          confirmedAt: item.createdAt,
          status: item.status,
          chargedCents: 0,
        };
        transactions.set(tx.id, tx);
        byExternalId.set(tx.externalId, tx);
      }
    },
    close: () => server.close(),
  };
}

type SimRoute = { name: 'buy' } | { name: 'status'; id: string } | { name: 'lookup' } | { name: 'balance' } | { name: 'product'; id: string };

/** The endpoint a request is for, by method and path; null for anything DT One would answer 404. */
function routeOf(request: SimRequest): SimRoute | null {
  const path = request.path.replace(/\/+$/, '');
  if (request.method === 'POST' && path === '/v1/async/transactions') return { name: 'buy' };
  if (request.method !== 'GET') return null;
  if (path === '/v1/transactions') return { name: 'lookup' };
  if (path === '/v1/balances') return { name: 'balance' };
  const product = /^\/v1\/products\/([^/]+)$/.exec(path);
  if (product?.[1]) return { name: 'product', id: product[1] };
  const match = /^\/v1\/transactions\/([^/]+)$/.exec(path);
  return match?.[1] ? { name: 'status', id: match[1] } : null;
}
