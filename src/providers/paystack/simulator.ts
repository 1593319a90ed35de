import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { delay, sendCallback } from '../simulator-kit.js';
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

export interface RunningPaystackSimulator {
  readonly url: string;
  /** Variables that point partner-api here (both keys). */
  readonly env: Record<string, string>;
  configure(change: Partial<PaystackBehaviour>): void;
  behaviour(): PaystackBehaviour;
  stats(): PaystackStats;
  /** Ends a charge now and sends its webhook (as the behaviour says); false when unknown. */
  settle(reference: string, status: 'success' | 'failed' | 'abandoned'): boolean;
  /** Where webhooks go from now on (an app that listens after the simulator started). */
  setWebhookUrl(url: string): void;
  /** Sends a charge.success webhook for `reference` of `mode`, known or not; true when answered 2xx. */
  sendWebhook(mode: SimMode, reference: string, event?: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface PaystackSimulatorOptions {
  port?: number;
  host?: string;
  behaviour?: Partial<PaystackBehaviour>;
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

  function control(method: string, path: string, body: Record<string, unknown>): { status: number; body?: unknown } | Promise<{ status: number; body?: unknown }> {
    if (method === 'GET' && path === '/_sim/state') return { status: 200, body: { behaviour, stats } };
    if (method === 'POST' && path === '/_sim/behaviour') {
      const problem = behaviourProblem(body);
      if (problem) return { status: 400, body: { message: problem } };
      behaviour = { ...behaviour, ...(body as Partial<PaystackBehaviour>) };
      return { status: 200, body: { behaviour } };
    }
    if (method === 'POST' && path === '/_sim/settle') {
      const status = body.status;
      if (typeof body.reference !== 'string' || (status !== 'success' && status !== 'failed' && status !== 'abandoned')) {
        return { status: 400, body: { message: 'send { reference, status: success | failed | abandoned }' } };
      }
      return running.settle(body.reference, status) ? { status: 204 } : { status: 404, body: { message: 'no such charge' } };
    }
    if (method === 'POST' && path === '/_sim/webhook') {
      if (typeof body.reference !== 'string' || (body.mode !== 'live' && body.mode !== 'test')) {
        return { status: 400, body: { message: 'send { mode: live | test, reference }' } };
      }
      return running.sendWebhook(body.mode, body.reference).then((acknowledged) => ({ status: 200, body: { acknowledged } }));
    }
    return { status: 404, body: { message: 'no such control endpoint' } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://simulator');
        let body: Record<string, unknown> = {};
        try {
          const raw = Buffer.concat(chunks).toString('utf8');
          const parsed = raw === '' ? {} : (JSON.parse(raw) as unknown);
          if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
        } catch {
          body = {};
        }
        let answer: { status: number; body?: unknown };
        if (url.pathname.startsWith('/_sim/')) {
          answer = await control(req.method ?? 'GET', url.pathname, body);
        } else {
          if (behaviour.latencyMs > 0) await delay(behaviour.latencyMs);
          const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
          const mode = bearer === undefined ? undefined : keys[bearer];
          answer = mode ? await handle(req.method ?? 'GET', url.pathname, url.searchParams, mode, body) : { status: 401, body: { status: false, message: 'Invalid key' } };
        }
        if (res.destroyed) return;
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
      })();
    });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const running: RunningPaystackSimulator = {
    url,
    env: { PAYSTACK_API_URL: url, PAYSTACK_SECRET_KEY: secretOf.live, PAYSTACK_TEST_SECRET_KEY: secretOf.test },
    configure(change) {
      behaviour = { ...behaviour, ...change };
    },
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
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return running;
}

const isOutcome = (v: unknown): v is PaystackOutcome => typeof v === 'string' && (PAYSTACK_OUTCOMES as readonly string[]).includes(v);

export function behaviourProblem(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'send a JSON object';
  for (const [name, v] of Object.entries(value)) {
    if (name === 'outcome') {
      if (!isOutcome(v)) return `outcome must be one of ${PAYSTACK_OUTCOMES.join(', ')}`;
    } else if (name === 'numbers') {
      if (v === null || typeof v !== 'object' || Array.isArray(v) || !Object.values(v as object).every(isOutcome)) return 'numbers maps numbers to outcomes';
    } else if (name === 'settleMs' || name === 'latencyMs' || name === 'feeBasisPoints') {
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) return `${name} must be a whole number`;
    } else if (name === 'verifyAmountDelta') {
      if (typeof v !== 'number' || !Number.isInteger(v)) return 'verifyAmountDelta must be a whole number of pesewas';
    } else if (name === 'verifyCurrency') {
      if (v !== null && typeof v !== 'string') return 'verifyCurrency must be a currency code or null';
    } else if (name === 'webhooks') {
      if (!(WEBHOOK_MODES as readonly unknown[]).includes(v)) return `webhooks must be one of ${WEBHOOK_MODES.join(', ')}`;
    } else if (name === 'wrongSignature') {
      if (typeof v !== 'boolean') return 'wrongSignature must be true or false';
    } else return `unknown setting ${name}`;
  }
  return null;
}
