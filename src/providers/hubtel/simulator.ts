import { randomInt, randomUUID } from 'node:crypto';
import { ghsToPesewas } from '../http.js';
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
  type SimulatorBehaviour,
  type SimulatorOptions,
  type SimulatorStats,
} from '../simulator-kit.js';
import { HUBTEL_CODES, HUBTEL_DATA_SERVICES, type HubtelBundle, hubtelField, hubtelNumber, hubtelString } from './wire.js';

/**
 * A Hubtel Commission Services stand-in for tests, staging and `cli simulate hubtel` (docs/live-delivery.md,
 * Appendix A): a real HTTP server speaking Hubtel's paths, bodies and codes, driven by the behaviour
 * switches of simulator-kit.ts like the other upstream simulators.
 *
 * Demo credentials (fixed, also in `env`): API id `hubtel-sim-id`, API key `hubtel-sim-key`, prepaid
 * deposit id `11691`, POS Sales id `11684`. Wrong ones get Hubtel's 401 body (ResponseCode 4101).
 *
 * Endpoints (every call counted in stats().calls by the name in brackets):
 * - [bundles] GET /commissionservices/{depositId}/{serviceId}?destination=233… : the bundle list of a
 *   number, for the three data services of Appendix A (HUBTEL_SIMULATOR_BUNDLES unless `bundles`
 *   replaces it); `refuse-number` answers 400/4010 about the Destination, `refuse-product` (and
 *   `recently-recharged`) an empty list.
 * - [buy] POST /commissionservices/{depositId}/{serviceId}: takes the purchase (0001 pending, with
 *   Data.Meta.Commission = 2% of Amount) when its Extradata.bundle and Amount match the number's
 *   list (else 2001, nothing taken). `refuse-float` → 400/4075, `refuse-number` → 400/4010 about the
 *   Destination, `error-before-taking` → 503 (nothing taken), `error-after-taking` → taken, then 500,
 *   `hang-after-taking` → taken, the answer held `hangMs`, `complete-at-once` → 0000 at once. A
 *   ClientReference already used → 400/4000 "ClientReference has already been used", never a second
 *   transaction.
 * - [status] GET /transactions/{posSalesId}/status?clientReference=… : Paid with isFulfilled null
 *   while pending, Paid/true once delivered, Unpaid/false once failed (with a `description` giving
 *   the reason: our addition, Hubtel documents none there); 404 when the reference is unknown.
 * - [balance] GET /api/inter-transfers/prepaid/{depositId}: the prepaid balance, GHS.
 *
 * A taken transaction reaches its final state `settleMs` later (`fail-after-accept`: a failure for
 * a route reason; `fail-number-after-accept`: for a number reason); then Hubtel's unsigned callback
 * goes to the purchase's CallbackUrl, unless `loseCallbacks`.
 */

export const HUBTEL_SIMULATOR_CREDENTIALS = {
  apiId: 'hubtel-sim-id',
  apiKey: 'hubtel-sim-key',
  prepaidDepositId: '11691',
  posSalesId: '11684',
} as const;

/** The list every data service offers every number, unless the simulator is given another. */
export const HUBTEL_SIMULATOR_BUNDLES: readonly HubtelBundle[] = [
  { display: 'Data 100MB (GHS 1)', value: 'DATA1', amount: 1 },
  { display: 'Data 250MB (GHS 2)', value: 'DATA2', amount: 2 },
  { display: 'Data 700MB (GHS 5)', value: 'DATA5', amount: 5 },
  { display: 'Data 2GB (GHS 10)', value: 'DATA10', amount: 10 },
  { display: 'Data 5GB (GHS 20)', value: 'DATA20', amount: 20 },
  { display: 'Data 12GB (GHS 50)', value: 'DATA50', amount: 50 },
];

export const HUBTEL_SIMULATOR_FAILURES = {
  route: 'The network could not provision the bundle at this time',
  number: 'The destination number is not eligible for this bundle',
} as const;

export type HubtelEndpoint = 'bundles' | 'buy' | 'status' | 'balance';

/** An answer a test puts in place of the behaviour's, for one call (Hubtel codes no switch produces). */
export interface HubtelScriptedAnswer {
  status: number;
  body?: unknown;
  /** Buy only: the purchase is taken (and will complete) before this answer is given. */
  takes?: boolean;
}

export interface HubtelSimulatorOptions extends SimulatorOptions {
  /** Replaces the bundle list of every data service. */
  bundles?: readonly HubtelBundle[];
  /** The prepaid deposit's starting balance, GHS (default 1000). */
  prepaidBalance?: number;
}

export interface RunningHubtelSimulator extends RunningSimulator {
  /** The next call to `endpoint` gets `answer` (after the credentials are checked); queued, one call each. */
  scriptNext(endpoint: HubtelEndpoint, answer: HubtelScriptedAnswer): void;
}

type FinalOutcome = 'complete' | 'fail-route' | 'fail-number';

interface Transaction {
  reference: string;
  transactionId: string;
  externalTransactionId: string;
  msisdn: string;
  bundle: string;
  /** GHS. */
  amount: number;
  commission: number;
  callbackUrl: string;
  takenAt: number;
  state: 'pending' | 'completed' | 'failed';
  failure: string | null;
}

const SERVICE_PATH = /^\/commissionservices\/([^/]+)\/([^/]+)\/?$/;
const STATUS_PATH = /^\/transactions\/([^/]+)\/status\/?$/;
const BALANCE_PATH = /^\/api\/inter-transfers\/prepaid\/([^/]+)\/?$/;
const GHANA_NUMBER = /^233\d{9}$/;
const DATA_SERVICE_IDS: readonly string[] = Object.values(HUBTEL_DATA_SERVICES);

export async function startHubtelSimulator(options: HubtelSimulatorOptions = {}): Promise<RunningHubtelSimulator> {
  const credentials = HUBTEL_SIMULATOR_CREDENTIALS;
  const bundles = options.bundles ?? HUBTEL_SIMULATOR_BUNDLES;
  let behaviour: SimulatorBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
  let prepaidBalance = options.prepaidBalance ?? 1000;
  const transactions = new Map<string, Transaction>();
  const deliveries: SimulatedDelivery[] = [];
  const calls: Record<string, number> = {};
  const scripts = new Map<HubtelEndpoint, HubtelScriptedAnswer[]>();
  const timers = new Set<NodeJS.Timeout>();
  let submissions = 0;
  let callbacksSent = 0;
  let callbacksAcknowledged = 0;
  let inFlight: { max: number } = { max: 0 };

  const count = (endpoint: HubtelEndpoint) => {
    calls[endpoint] = (calls[endpoint] ?? 0) + 1;
  };
  const scripted = (endpoint: HubtelEndpoint): HubtelScriptedAnswer | undefined => scripts.get(endpoint)?.shift();
  const authorized = (request: SimRequest) =>
    request.headers.authorization === `Basic ${Buffer.from(`${credentials.apiId}:${credentials.apiKey}`).toString('base64')}`;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timer.unref();
    timers.add(timer);
  };

  const notify = async (transaction: Transaction) => {
    if (behaviour.loseCallbacks) return;
    callbacksSent++;
    if (await sendCallback(transaction.callbackUrl, callbackBody(transaction))) callbacksAcknowledged++;
  };

  const settle = (transaction: Transaction, outcome: FinalOutcome) => {
    if (transaction.state !== 'pending') return;
    if (outcome === 'complete') {
      transaction.state = 'completed';
      prepaidBalance = roundGhs(prepaidBalance - transaction.amount + transaction.commission);
      deliveries.push({ reference: transaction.reference, transactionId: transaction.transactionId, msisdn: transaction.msisdn, product: transaction.amount.toFixed(2) });
    } else {
      transaction.state = 'failed';
      transaction.failure = outcome === 'fail-number' ? HUBTEL_SIMULATOR_FAILURES.number : HUBTEL_SIMULATOR_FAILURES.route;
    }
    void notify(transaction);
  };

  const take = (purchase: Purchase, outcome: FinalOutcome, at: 'now' | 'after-settle'): Transaction => {
    const transaction: Transaction = {
      ...purchase,
      transactionId: randomUUID().replace(/-/g, ''),
      externalTransactionId: String(randomInt(100_000_000, 999_999_999)),
      commission: Math.round(purchase.amount * 200) / 10_000,
      takenAt: Date.now(),
      state: 'pending',
      failure: null,
    };
    transactions.set(transaction.reference, transaction);
    if (at === 'now') settle(transaction, outcome);
    else later(behaviour.settleMs, () => settle(transaction, outcome));
    return transaction;
  };

  const listFor = (msisdn: string): readonly HubtelBundle[] => {
    const outcome = outcomeFor(behaviour, msisdn);
    return outcome === 'refuse-product' || outcome === 'recently-recharged' ? [] : bundles;
  };

  async function handleBundles(request: SimRequest, depositId: string, serviceId: string): Promise<SimResponse> {
    count('bundles');
    const refusal = csRefusal(request, depositId, serviceId);
    if (refusal) return refusal;
    const script = scripted('bundles');
    if (script) return script;
    const destination = (request.query.get('destination') ?? request.query.get('Destination') ?? '').trim();
    if (!GHANA_NUMBER.test(destination) || outcomeFor(behaviour, destination) === 'refuse-number') return invalidDestination();
    const list = listFor(destination);
    return {
      status: 200,
      body: {
        ResponseCode: HUBTEL_CODES.success,
        Message: 'Successful',
        Label: list.length === 0 ? 'No bundles available' : 'Select bundle',
        Data: list.map((b) => ({ Display: b.display, Value: b.value, Amount: b.amount })),
      },
    };
  }

  async function handleBuy(request: SimRequest, depositId: string, serviceId: string): Promise<SimResponse> {
    count('buy');
    submissions++;
    const refusal = csRefusal(request, depositId, serviceId);
    if (refusal) return refusal;
    const purchase = readPurchase(request.body);
    if (typeof purchase === 'string') return csAnswer(400, HUBTEL_CODES.validation, `Validation Errors: ${purchase}`);
    if (transactions.has(purchase.reference)) {
      return csAnswer(400, HUBTEL_CODES.invalidRequest, 'ClientReference has already been used: a transaction with this ClientReference exists');
    }
    const script = scripted('buy');
    if (script) {
      if (script.takes) take(purchase, 'complete', 'after-settle');
      return script;
    }

    const outcome = outcomeFor(behaviour, purchase.msisdn);
    if (outcome === 'refuse-float') return csAnswer(400, HUBTEL_CODES.insufficientBalance, 'Insufficient prepaid balance.');
    if (outcome === 'refuse-number') return invalidDestination();
    if (outcome === 'error-before-taking') return { status: 503, body: { Message: 'Service Unavailable' } };
    const listed = listFor(purchase.msisdn).some((b) => b.value === purchase.bundle && ghsToPesewas(b.amount) === ghsToPesewas(purchase.amount));
    if (!listed) return csAnswer(200, HUBTEL_CODES.failedWithReason, 'The Bundle is invalid or does not match the Amount');

    const final: FinalOutcome = outcome === 'fail-after-accept' ? 'fail-route' : outcome === 'fail-number-after-accept' ? 'fail-number' : 'complete';
    const transaction = take(purchase, final, outcome === 'complete-at-once' ? 'now' : 'after-settle');
    if (outcome === 'complete-at-once') return { status: 200, body: purchaseBody(transaction, HUBTEL_CODES.success, 'Successful') };
    if (outcome === 'error-after-taking') return { status: 500, body: { Message: 'An error has occurred.' } };
    if (outcome === 'hang-after-taking') await delay(behaviour.hangMs);
    return { status: 200, body: purchaseBody(transaction, HUBTEL_CODES.pending, 'Transaction pending. Expect callback request for final state') };
  }

  async function handleStatus(request: SimRequest, posSalesId: string): Promise<SimResponse> {
    count('status');
    if (!authorized(request) || posSalesId !== credentials.posSalesId) {
      return { status: 401, body: { message: 'Authorization for request is denied', responseCode: HUBTEL_CODES.authDenied, data: null } };
    }
    const script = scripted('status');
    if (script) return script;
    const reference = request.query.get('clientReference');
    const transactionId = request.query.get('hubtelTransactionId');
    if (!reference && !transactionId) {
      return { status: 400, body: { message: 'Validation Errors: clientReference is required', responseCode: HUBTEL_CODES.validation, data: null } };
    }
    const transaction = reference ? transactions.get(reference) : [...transactions.values()].find((t) => t.transactionId === transactionId);
    if (!transaction) return { status: 404, body: { message: 'No transaction found', responseCode: HUBTEL_CODES.failedWithReason, data: null } };
    return { status: 200, body: { message: 'Successful', responseCode: HUBTEL_CODES.success, data: statusData(transaction) } };
  }

  async function handleBalance(request: SimRequest, depositId: string): Promise<SimResponse> {
    count('balance');
    if (!authorized(request)) return { status: 401, body: { message: 'Authorization for request is denied', responseCode: HUBTEL_CODES.authDenied, data: null } };
    if (depositId !== credentials.prepaidDepositId) {
      return { status: 400, body: { message: 'Invalid Prepaid Deposit ID', responseCode: HUBTEL_CODES.invalidRequest, data: null } };
    }
    const script = scripted('balance');
    if (script) return script;
    return { status: 200, body: { responseCode: HUBTEL_CODES.success, message: 'Success', data: { amount: roundGhs(prepaidBalance) } } };
  }

  /** Hubtel's refusal of a Commission Services call before it reads the request: credentials, deposit, service. */
  function csRefusal(request: SimRequest, depositId: string, serviceId: string): SimResponse | null {
    if (!authorized(request)) return csAnswer(401, HUBTEL_CODES.authDenied, 'Authorization for request is denied');
    if (depositId !== credentials.prepaidDepositId) return csAnswer(401, HUBTEL_CODES.authDenied, 'Could not find prepaid account');
    if (!DATA_SERVICE_IDS.includes(serviceId)) return csAnswer(400, HUBTEL_CODES.validation, 'Validation Errors: unknown service');
    return null;
  }

  const stats = (): SimulatorStats => ({
    submissions,
    deliveries: deliveries.map((d) => ({ ...d })),
    calls: { ...calls },
    maxInFlight: inFlight.max,
    callbacksSent,
    callbacksAcknowledged,
  });
  const configure = (change: Partial<SimulatorBehaviour>) => {
    behaviour = { ...behaviour, ...change };
  };

  const server = await startSimulatorServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.host === undefined ? {} : { host: options.host }),
    behaviour: () => behaviour,
    configure,
    stats,
    expireTokens: () => {},
    handle: async (request) => {
      const service = SERVICE_PATH.exec(request.path);
      if (service) {
        const [, depositId = '', serviceId = ''] = service.map(decodeURIComponent);
        if (request.method === 'GET') return handleBundles(request, depositId, serviceId);
        if (request.method === 'POST') return handleBuy(request, depositId, serviceId);
      }
      const status = STATUS_PATH.exec(request.path);
      if (status && request.method === 'GET') return handleStatus(request, decodeURIComponent(status[1] ?? ''));
      const balance = BALANCE_PATH.exec(request.path);
      if (balance && request.method === 'GET') return handleBalance(request, decodeURIComponent(balance[1] ?? ''));
      return { status: 404, body: { Message: 'No HTTP resource was found that matches the request URI' } };
    },
  });
  inFlight = server.trackInFlight;

  return {
    name: 'hubtel',
    url: server.url,
    env: {
      HUBTEL_API_ID: credentials.apiId,
      HUBTEL_API_KEY: credentials.apiKey,
      HUBTEL_PREPAID_DEPOSIT_ID: credentials.prepaidDepositId,
      HUBTEL_POS_SALES_ID: credentials.posSalesId,
      HUBTEL_CS_URL: `${server.url}/commissionservices`,
      HUBTEL_STATUS_URL: server.url,
      HUBTEL_BALANCE_URL: `${server.url}/api/inter-transfers`,
    },
    configure,
    behaviour: () => behaviour,
    stats,
    expireTokens: () => {},
    scriptNext(endpoint, answer) {
      scripts.set(endpoint, [...(scripts.get(endpoint) ?? []), answer]);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await server.close();
    },
  };
}

interface Purchase {
  reference: string;
  msisdn: string;
  bundle: string;
  amount: number;
  callbackUrl: string;
}

/** The purchase a request body asks for, or what is wrong with it (Hubtel's validation errors). */
function readPurchase(body: unknown): Purchase | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'a JSON body is required';
  const msisdn = hubtelString(body, 'destination') ?? '';
  if (!GHANA_NUMBER.test(msisdn)) return 'The Destination is not a valid mobile number (233XXXXXXXXX)';
  const amount = hubtelNumber(body, 'amount');
  if (amount === null || amount <= 0 || Math.abs(amount * 100 - Math.round(amount * 100)) > 1e-6) return 'Amount must be positive, with at most 2 decimal places';
  const callbackUrl = hubtelString(body, 'callbackUrl') ?? '';
  if (callbackUrl === '') return 'CallbackUrl is required';
  const reference = hubtelString(body, 'clientReference') ?? '';
  if (reference === '' || reference.length > 36) return 'ClientReference is required, at most 36 characters';
  const extra = hubtelField(body, 'extradata') ?? hubtelField(body, 'extraData');
  const bundle = hubtelString(extra, 'bundle');
  if (bundle === null || bundle === '') return 'Extradata.bundle is required';
  return { reference, msisdn, bundle, amount, callbackUrl };
}

function invalidDestination(): SimResponse {
  return csAnswer(400, HUBTEL_CODES.validation, 'Validation Errors: The Destination is not a valid mobile number for this network');
}

function csAnswer(status: number, code: string, message: string): SimResponse {
  return { status, body: { ResponseCode: code, Message: message, Data: null } };
}

function purchaseBody(transaction: Transaction, code: string, message: string) {
  return {
    ResponseCode: code,
    Message: message,
    Data: {
      ClientReference: transaction.reference,
      Amount: transaction.amount,
      TransactionId: transaction.transactionId,
      Meta: { Commission: transaction.commission.toFixed(4) },
    },
  };
}

function statusData(transaction: Transaction) {
  const failed = transaction.state === 'failed';
  return {
    date: new Date(transaction.takenAt).toISOString(),
    status: failed ? 'Unpaid' : 'Paid',
    transactionId: transaction.transactionId,
    externalTransactionId: transaction.state === 'completed' ? transaction.externalTransactionId : null,
    paymentMethod: 'cash',
    clientReference: transaction.reference,
    currencyCode: null,
    amount: transaction.amount,
    charges: 0,
    amountAfterCharges: transaction.amount,
    isFulfilled: transaction.state === 'completed' ? true : failed ? false : null,
    ...(failed ? { description: transaction.failure } : {}),
  };
}

/** Hubtel's final callback (unsigned). */
function callbackBody(transaction: Transaction) {
  const completed = transaction.state === 'completed';
  return {
    ResponseCode: completed ? HUBTEL_CODES.success : HUBTEL_CODES.failedWithReason,
    Message: completed ? 'success' : 'failed',
    Data: {
      AmountDebited: transaction.amount,
      TransactionId: transaction.transactionId,
      ClientReference: transaction.reference,
      Description: completed ? `Bundle ${transaction.bundle} (GHS ${transaction.amount.toFixed(2)}) delivered to ${transaction.msisdn}` : transaction.failure,
      ExternalTransactionId: transaction.externalTransactionId,
      Amount: transaction.amount,
      Charges: 0,
      Meta: { Commission: transaction.commission.toFixed(4) },
      RecipientName: null,
    },
  };
}

function roundGhs(ghs: number): number {
  return Math.round(ghs * 10_000) / 10_000;
}
