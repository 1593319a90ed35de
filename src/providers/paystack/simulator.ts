import {
  behaviourEndpoints,
  NO_SUCH_CONTROL,
  outcomeRules,
  sendCallback,
  serveSimulator,
  settingsProblem,
  trueOrFalse,
  wholeNumber,
  type SettingRule,
  type SimRequest,
  type SimResponse,
  type Simulator,
  type SimulatorStart,
} from '../simulator-kit.js';
import { PAYSTACK_SIGNATURE_HEADER, signPaystackWebhook } from './signature.js';

/**
 * A Paystack stand-in for tests, staging and the demo (docs/paystack-api.md is what it speaks): a
 * real HTTP server on loopback with the charge, OTP, verify and list endpoints, two secret keys
 * (live and test, each with its own transactions) and signed webhooks. Switches under /_sim/:
 * GET /_sim/state, POST /_sim/behaviour (a partial behaviour), POST /_sim/webhook (send one for any
 * reference, known or not), POST /_sim/settle (end a charge now: success, failed or abandoned).
 */

/**
 * What a charge does: `pay_offline` waits for the payer, who approves `settleMs` later; `send_otp`
 * asks for an OTP first (SIMULATED_OTP), then waits like pay_offline; `success` is paid at once;
 * `failure` / `abandonment` wait, then fail / are abandoned; `hang` waits and never ends by itself;
 * `refuse` is refused at once (400, nothing charged).
 */
export const PAYSTACK_OUTCOMES = ['pay_offline', 'send_otp', 'success', 'failure', 'abandonment', 'hang', 'refuse'] as const;
export type PaystackOutcome = (typeof PAYSTACK_OUTCOMES)[number];

/** `deliver` one webhook per final state, `lose` none, `duplicate` each one twice. */
export const WEBHOOK_MODES = ['deliver', 'lose', 'duplicate'] as const;
export type WebhookMode = (typeof WEBHOOK_MODES)[number];

export const SIMULATED_OTP = '123456';
export const SIM_LIVE_KEY = 'sk_live_simulator0000000000000000000000';
export const SIM_TEST_KEY = 'sk_test_simulator0000000000000000000000';
/** Paystack's test number: succeeds at once without a prompt (test key only). */
export const PAYSTACK_TEST_NUMBER = '0551234987';

export interface PaystackBehaviour {
  outcome: PaystackOutcome;
  /** By local number (0551234987): overrides `outcome`. */
  numbers: Record<string, PaystackOutcome>;
  settleMs: number;
  latencyMs: number;
  webhooks: WebhookMode;
  /** Webhooks signed with a wrong key. */
  wrongSignature: boolean;
  /** Added to the amount that verification reports (a mismatch). */
  verifyAmountDelta: number;
  /** The currency verification reports, when set (a mismatch). */
  verifyCurrency: string | null;
  /** Basis points of the amount kept as `fees` (Paystack Ghana: 1.95 %). */
  feeBasisPoints: number;
}

export const DEFAULT_PAYSTACK_BEHAVIOUR: PaystackBehaviour = {
  outcome: 'pay_offline',
  numbers: {},
  settleMs: 50,
  latencyMs: 0,
  webhooks: 'deliver',
  wrongSignature: false,
  verifyAmountDelta: 0,
  verifyCurrency: null,
  feeBasisPoints: 195,
};

type SimMode = 'live' | 'test';
type TxStatus = 'send_otp' | 'pay_offline' | 'pending' | 'success' | 'failed' | 'abandoned';

interface SimTransaction {
  id: number;
  mode: SimMode;
  reference: string;
  amount: number;
  currency: string;
  email: string;
  phone: string;
  provider: string;
  status: TxStatus;
  gatewayResponse: string;
  outcome: PaystackOutcome;
  createdAt: string;
  paidAt: string | null;
  metadata: unknown;
}

export interface PaystackStats {
  calls: Record<string, number>;
  charges: number;
  /** References paid (success), per mode. */
  paid: { mode: SimMode; reference: string; amount: number }[];
  webhooksSent: number;
  webhooksAcknowledged: number;
}

/** A Paystack simulator started; its env sets both keys. */
export interface RunningPaystackSimulator extends Simulator<PaystackBehaviour, PaystackStats> {
  /** Ends a charge now and sends its webhook (as the behaviour says); false when unknown. */
  settle(reference: string, status: 'success' | 'failed' | 'abandoned'): boolean;
  /** Where webhooks go from now on (an app that listens after the simulator started). */
  setWebhookUrl(url: string): void;
  /** Sends a charge.success webhook for `reference` of `mode`, known or not; true when answered 2xx. */
  sendWebhook(mode: SimMode, reference: string, event?: string): Promise<boolean>;
}

export interface PaystackSimulatorOptions extends SimulatorStart<PaystackBehaviour> {
  /** Where webhooks go (the dashboard's webhook URL: <PUBLIC_BASE_URL>/callbacks/paystack); none: no webhooks. */
  webhookUrl?: string;
  liveKey?: string;
  testKey?: string;
}

const local = (phone: string) => (phone.startsWith('233') ? `0${phone.slice(3)}` : phone);
const REFERENCE = /^[A-Za-z0-9.=-]{1,100}$/;

export async function startPaystackSimulator(options: PaystackSimulatorOptions = {}): Promise<RunningPaystackSimulator> {
  let behaviour: PaystackBehaviour = { ...DEFAULT_PAYSTACK_BEHAVIOUR, ...options.behaviour };
  let webhookUrl = options.webhookUrl;
  const keys: Record<string, SimMode> = { [options.liveKey ?? SIM_LIVE_KEY]: 'live', [options.testKey ?? SIM_TEST_KEY]: 'test' };
  const secretOf: Record<SimMode, string> = { live: options.liveKey ?? SIM_LIVE_KEY, test: options.testKey ?? SIM_TEST_KEY };
  const transactions = new Map<string, SimTransaction>();
  const timers = new Set<NodeJS.Timeout>();
  const stats: PaystackStats = { calls: {}, charges: 0, paid: [], webhooksSent: 0, webhooksAcknowledged: 0 };
  let nextId = 4_000_000_000;
  const key = (mode: SimMode, reference: string) => `${mode}:${reference}`;

  const transactionJson = (t: SimTransaction) => ({
    id: t.id,
    domain: t.mode,
    status: t.status === 'send_otp' || t.status === 'pay_offline' || t.status === 'pending' ? 'ongoing' : t.status,
    reference: t.reference,
    amount: t.amount + behaviour.verifyAmountDelta,
    currency: behaviour.verifyCurrency ?? t.currency,
    channel: 'mobile_money',
    gateway_response: t.gatewayResponse,
    paid_at: t.paidAt,
    created_at: t.createdAt,
    fees: t.status === 'success' ? Math.round((t.amount * behaviour.feeBasisPoints) / 10_000) : null,
    metadata: t.metadata,
    customer: { email: t.email },
    authorization: { channel: 'mobile_money', bank: t.provider.toUpperCase(), mobile_money_number: t.phone },
  });

  const chargeJson = (t: SimTransaction) => ({
    status: true,
    message: 'Charge attempted',
    data: {
      reference: t.reference,
      status: t.status === 'abandoned' ? 'failed' : t.status,
      display_text:
        t.status === 'send_otp'
          ? 'Please enter the OTP sent to your phone'
          : t.status === 'pay_offline'
            ? 'Please complete authorization process on your mobile phone'
            : t.gatewayResponse,
      gateway_response: t.gatewayResponse,
      amount: t.amount,
      currency: t.currency,
    },
  });

  async function webhook(mode: SimMode, body: unknown): Promise<boolean> {
    if (!webhookUrl) return false;
    const raw = JSON.stringify(body);
    const secret = behaviour.wrongSignature ? `${secretOf[mode]}-wrong` : secretOf[mode];
    stats.webhooksSent++;
    const ok = await sendCallback(webhookUrl, body, { [PAYSTACK_SIGNATURE_HEADER]: signPaystackWebhook(raw, secret) }, raw);
    if (ok) stats.webhooksAcknowledged++;
    return ok;
  }

  function notify(t: SimTransaction): void {
    if (behaviour.webhooks === 'lose') return;
    const event = t.status === 'success' ? 'charge.success' : 'charge.failed';
    const times = behaviour.webhooks === 'duplicate' ? 2 : 1;
    for (let i = 0; i < times; i++) void webhook(t.mode, { event, data: transactionJson(t) });
  }

  function finish(t: SimTransaction, status: 'success' | 'failed' | 'abandoned'): void {
    if (t.status === 'success' || t.status === 'failed' || t.status === 'abandoned') {
      if (status !== 'success' || t.status === 'success') return;
      // A late success after a failure: Paystack reports what the network finally says.
    }
    t.status = status;
    t.gatewayResponse = status === 'success' ? 'Approved' : status === 'failed' ? 'Declined by the payer' : 'The payer did not approve the prompt';
    if (status === 'success') {
      t.paidAt = new Date().toISOString();
      stats.paid.push({ mode: t.mode, reference: t.reference, amount: t.amount });
    }
    notify(t);
  }

  function later(t: SimTransaction): void {
    const end = t.outcome === 'failure' ? 'failed' : t.outcome === 'abandonment' ? 'abandoned' : t.outcome === 'hang' ? null : 'success';
    if (end === null) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      finish(t, end);
    }, behaviour.settleMs);
    timer.unref();
    timers.add(timer);
  }

  const notFound = { status: 404, body: { status: false, message: 'Transaction reference not found' } };

  async function handle(method: string, path: string, query: URLSearchParams, mode: SimMode, body: Record<string, unknown>) {
    if (method === 'POST' && path === '/charge') {
      stats.calls.charge = (stats.calls.charge ?? 0) + 1;
      const mm = body.mobile_money as { phone?: unknown; provider?: unknown } | undefined;
      const { reference, amount, email } = body;
      if (typeof email !== 'string' || !email.includes('@')) return { status: 400, body: { status: false, message: 'Invalid Email Address Passed' } };
      if (typeof amount !== 'number' || !Number.isInteger(amount) || amount <= 0) return { status: 400, body: { status: false, message: 'Invalid Amount Sent' } };
      if (typeof reference !== 'string' || !REFERENCE.test(reference)) return { status: 400, body: { status: false, message: 'Invalid transaction reference' } };
      if (typeof mm?.phone !== 'string' || typeof mm.provider !== 'string' || !['mtn', 'vod', 'atl', 'tgo'].includes(mm.provider)) {
        return { status: 400, body: { status: false, message: 'Invalid mobile money details' } };
      }
      if (transactions.has(key(mode, reference))) return { status: 400, body: { status: false, message: 'Duplicate Transaction Reference' } };
      const phone = local(mm.phone);
      const outcome = behaviour.numbers[phone] ?? (mode === 'test' && phone === PAYSTACK_TEST_NUMBER ? 'success' : behaviour.outcome);
      if (outcome === 'refuse') return { status: 400, body: { status: false, message: 'Charge attempt failed: the mobile money number cannot be charged' } };
      stats.charges++;
      const t: SimTransaction = {
        id: nextId++,
        mode,
        reference,
        amount,
        currency: typeof body.currency === 'string' ? body.currency : 'GHS',
        email,
        phone,
        provider: mm.provider,
        status: outcome === 'send_otp' ? 'send_otp' : 'pay_offline',
        gatewayResponse: 'Charge attempted',
        outcome,
        createdAt: new Date().toISOString(),
        paidAt: null,
        metadata: body.metadata ?? null,
      };
      transactions.set(key(mode, reference), t);
      if (outcome === 'success') {
        finish(t, 'success');
      } else if (outcome !== 'send_otp') {
        later(t);
      }
      return { status: 200, body: chargeJson(t) };
    }
    if (method === 'POST' && path === '/charge/submit_otp') {
      stats.calls.submit_otp = (stats.calls.submit_otp ?? 0) + 1;
      const t = typeof body.reference === 'string' ? transactions.get(key(mode, body.reference)) : undefined;
      if (!t) return notFound;
      if (t.status !== 'send_otp') return { status: 400, body: { status: false, message: 'Transaction is not awaiting an OTP' } };
      if (body.otp !== SIMULATED_OTP) return { status: 400, body: { status: false, message: 'Invalid OTP provided' } };
      t.status = 'pay_offline';
      t.outcome = 'pay_offline';
      later(t);
      return { status: 200, body: chargeJson(t) };
    }
    const charge = /^\/charge\/([^/]+)$/.exec(path);
    if (method === 'GET' && charge) {
      stats.calls.charge_check = (stats.calls.charge_check ?? 0) + 1;
      const t = transactions.get(key(mode, decodeURIComponent(charge[1] ?? '')));
      return t ? { status: 200, body: chargeJson(t) } : notFound;
    }
    const verify = /^\/transaction\/verify\/([^/]+)$/.exec(path);
    if (method === 'GET' && verify) {
      stats.calls.verify = (stats.calls.verify ?? 0) + 1;
      const t = transactions.get(key(mode, decodeURIComponent(verify[1] ?? '')));
      return t ? { status: 200, body: { status: true, message: 'Verification successful', data: transactionJson(t) } } : notFound;
    }
    if (method === 'GET' && path === '/transaction') {
      stats.calls.list = (stats.calls.list ?? 0) + 1;
      const perPage = Math.min(Number(query.get('per_page') ?? query.get('perPage') ?? 50) || 50, 100);
      const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
      const from = query.get('from') ? Date.parse(query.get('from') ?? '') : -Infinity;
      const to = query.get('to') ? Date.parse(query.get('to') ?? '') : Infinity;
      const status = query.get('status');
      const all = [...transactions.values()]
        .filter((t) => t.mode === mode)
        .filter((t) => Date.parse(t.createdAt) >= from && Date.parse(t.createdAt) <= to)
        .filter((t) => status === null || t.status === status)
        .sort((a, b) => b.id - a.id);
      const pageCount = Math.max(Math.ceil(all.length / perPage), 1);
      return {
        status: 200,
        body: {
          status: true,
          message: 'Transactions retrieved',
          data: all.slice((page - 1) * perPage, page * perPage).map(transactionJson),
          meta: { total: all.length, total_volume: all.reduce((s, t) => s + t.amount, 0), skipped: (page - 1) * perPage, perPage, page, pageCount },
        },
      };
    }
    return { status: 404, body: { status: false, message: 'Not found' } };
  }

  function configure(change: Partial<PaystackBehaviour>): void {
    behaviour = { ...behaviour, ...change };
  }

  const settings = { behaviour: () => behaviour, configure, stats: () => stats, problem: behaviourProblem };

  function control(request: SimRequest): SimResponse | Promise<SimResponse> {
    const body = objectBody(request.body);
    const answer = behaviourEndpoints(request, body, settings);
    if (answer) return answer;
    if (request.method === 'POST' && request.path === '/_sim/settle') {
      const status = body.status;
      if (typeof body.reference !== 'string' || (status !== 'success' && status !== 'failed' && status !== 'abandoned')) {
        return { status: 400, body: { message: 'send { reference, status: success | failed | abandoned }' } };
      }
      return running.settle(body.reference, status) ? { status: 204 } : { status: 404, body: { message: 'no such charge' } };
    }
    if (request.method === 'POST' && request.path === '/_sim/webhook') {
      if (typeof body.reference !== 'string' || (body.mode !== 'live' && body.mode !== 'test')) {
        return { status: 400, body: { message: 'send { mode: live | test, reference }' } };
      }
      return running.sendWebhook(body.mode, body.reference).then((acknowledged) => ({ status: 200, body: { acknowledged } }));
    }
    return NO_SUCH_CONTROL;
  }

  const server = await serveSimulator({
    port: options.port,
    host: options.host,
    latencyMs: () => behaviour.latencyMs,
    control,
    handle: async (request) => {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const mode = bearer === undefined ? undefined : keys[bearer];
      if (!mode) return { status: 401, body: { status: false, message: 'Invalid key' } };
      return handle(request.method, request.path, request.query, mode, objectBody(request.body));
    },
  });
  const { url } = server;

  const running: RunningPaystackSimulator = {
    url,
    env: { PAYSTACK_API_URL: url, PAYSTACK_SECRET_KEY: secretOf.live, PAYSTACK_TEST_SECRET_KEY: secretOf.test },
    configure,
    behaviour: () => behaviour,
    stats: () => stats,
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    settle(reference, status) {
      const t = transactions.get(key('live', reference)) ?? transactions.get(key('test', reference));
      if (!t) return false;
      finish(t, status);
      return true;
    },
    sendWebhook(mode, reference, event = 'charge.success') {
      const t = transactions.get(key(mode, reference));
      const data = t
        ? transactionJson(t)
        : { id: nextId++, reference, status: 'success', amount: 100, currency: 'GHS', channel: 'mobile_money', gateway_response: 'Approved' };
      return webhook(mode, { event, data });
    },
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      return server.close();
    },
  };
  return running;
}

/** A request's JSON body when it is an object; {} for anything else. */
function objectBody(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}

const BEHAVIOUR_RULES: Record<string, SettingRule> = {
  ...outcomeRules(PAYSTACK_OUTCOMES),
  settleMs: wholeNumber('settleMs must be a whole number'),
  latencyMs: wholeNumber('latencyMs must be a whole number'),
  feeBasisPoints: wholeNumber('feeBasisPoints must be a whole number'),
  verifyAmountDelta: (v) => (typeof v === 'number' && Number.isInteger(v) ? null : 'verifyAmountDelta must be a whole number of pesewas'),
  verifyCurrency: (v) => (v === null || typeof v === 'string' ? null : 'verifyCurrency must be a currency code or null'),
  webhooks: (v) => ((WEBHOOK_MODES as readonly unknown[]).includes(v) ? null : `webhooks must be one of ${WEBHOOK_MODES.join(', ')}`),
  wrongSignature: trueOrFalse('wrongSignature'),
};

export function behaviourProblem(value: unknown): string | null {
  return settingsProblem(value, BEHAVIOUR_RULES);
}
