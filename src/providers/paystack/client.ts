import { callUpstream, type UpstreamReply } from '../http.js';
import {
  PAYSTACK_PROVIDER,
  paymentStatusOf,
  type ChargeAnswer,
  type ChargeHandle,
  type ChargeRequest,
  type PaymentGateway,
  type SuccessfulTransactions,
  type Verification,
  type VerifiedTransaction,
} from './gateway.js';

/**
 * Paystack over our HTTP helper (docs/paystack-api.md): Bearer secret key, JSON, amounts in pesewas.
 * Paystack's own Node package (@paystack/paystack-sdk) is maintained but wraps the whole API with an
 * HTTP stack of its own; four calls over callUpstream keep the timeouts, keep-alive and answer
 * classification every other outside call has.
 */
export class PaystackGateway implements PaymentGateway {
  readonly name = 'paystack' as const;

  constructor(
    private readonly settings: { secretKey: string; apiUrl: string; timeoutMs: number },
  ) {}

  async charge(request: ChargeRequest): Promise<ChargeAnswer> {
    const reply = await this.call('POST', '/charge', {
      email: request.email,
      amount: request.amount,
      currency: 'GHS',
      reference: request.reference,
      mobile_money: { phone: request.phone, provider: PAYSTACK_PROVIDER[request.network] },
      metadata: request.metadata,
    });
    return chargeAnswer(reply);
  }

  async submitOtp(reference: string, otp: string): Promise<ChargeAnswer> {
    return chargeAnswer(await this.call('POST', '/charge/submit_otp', { otp, reference }));
  }

  async verify(charge: ChargeHandle): Promise<Verification> {
    const reply = await this.call('GET', `/transaction/verify/${encodeURIComponent(charge.reference)}`);
    if (!reply.reached) return { kind: 'unknown', message: `Paystack not reached: ${reply.message}` };
    if (reply.status === 404) return { kind: 'absent', message: messageOf(reply.body) ?? 'Paystack has no such transaction' };
    const data = dataOf(reply);
    const transaction = data ? transactionOf(data) : null;
    if (!transaction) return { kind: 'unknown', message: `Paystack answered ${reply.status}: ${messageOf(reply.body) ?? reply.text.slice(0, 200)}` };
    return { kind: 'transaction', transaction };
  }

  async successfulTransactions(from: Date, to: Date): Promise<SuccessfulTransactions> {
    const transactions: VerifiedTransaction[] = [];
    for (let page = 1; page <= 1000; page++) {
      const query = new URLSearchParams({ from: from.toISOString(), to: to.toISOString(), status: 'success', per_page: '100', page: String(page) });
      const reply = await this.call('GET', `/transaction?${query.toString()}`);
      if (!reply.reached) return { ok: false, message: `Paystack not reached: ${reply.message}` };
      const body = reply.body as { status?: unknown; data?: unknown; meta?: { pageCount?: unknown } } | null;
      if (reply.status !== 200 || body?.status !== true || !Array.isArray(body.data)) {
        return { ok: false, message: `Paystack answered ${reply.status}: ${messageOf(reply.body) ?? reply.text.slice(0, 200)}` };
      }
      for (const row of body.data as unknown[]) {
        const t = row !== null && typeof row === 'object' ? transactionOf(row as Record<string, unknown>) : null;
        if (t && t.channel === 'mobile_money') transactions.push(t);
      }
      const pageCount = Number(body.meta?.pageCount ?? 1);
      if (!Number.isFinite(pageCount) || page >= pageCount || body.data.length === 0) break;
    }
    return { ok: true, transactions };
  }

  private call(method: 'GET' | 'POST', path: string, json?: unknown): Promise<UpstreamReply> {
    return callUpstream({
      method,
      url: `${this.settings.apiUrl}${path}`,
      headers: { authorization: `Bearer ${this.settings.secretKey}` },
      ...(json === undefined ? {} : { json }),
      timeoutMs: this.settings.timeoutMs,
    });
  }
}

function messageOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object') return null;
  const message = (body as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() !== '' ? message.trim().slice(0, 300) : null;
}

function dataOf(reply: Extract<UpstreamReply, { reached: true }>): Record<string, unknown> | null {
  if (reply.status !== 200) return null;
  const body = reply.body as { status?: unknown; data?: unknown } | null;
  if (body?.status !== true || body.data === null || typeof body.data !== 'object') return null;
  return body.data as Record<string, unknown>;
}

/** A charge or OTP answer: 2xx with data is the charge's state; a 4xx is a refusal (nothing taken); anything else unknown. */
function chargeAnswer(reply: UpstreamReply): ChargeAnswer {
  if (!reply.reached) return { kind: 'unknown', message: `Paystack not reached: ${reply.message}` };
  const data = dataOf(reply);
  const message = messageOf(reply.body);
  if (data && typeof data.status === 'string') {
    const displayText = typeof data.display_text === 'string' ? data.display_text : '';
    const gatewayResponse = typeof data.gateway_response === 'string' ? data.gateway_response : '';
    return { kind: 'charge', status: paymentStatusOf(data.status), displayText, message: gatewayResponse || message || data.status };
  }
  if (reply.status >= 400 && reply.status < 500 && reply.status !== 408 && reply.status !== 429) {
    return { kind: 'refused', message: message ?? `HTTP ${reply.status}` };
  }
  return { kind: 'unknown', message: `Paystack answered ${reply.status}: ${message ?? reply.text.slice(0, 200)}` };
}

function transactionOf(data: Record<string, unknown>): VerifiedTransaction | null {
  const { reference, status, amount, currency } = data;
  if (typeof reference !== 'string' || typeof status !== 'string' || typeof amount !== 'number' || !Number.isSafeInteger(amount)) return null;
  const fees = typeof data.fees === 'number' && Number.isSafeInteger(data.fees) ? data.fees : null;
  return {
    reference,
    status,
    amount,
    currency: typeof currency === 'string' ? currency : '',
    fees,
    gatewayResponse: typeof data.gateway_response === 'string' ? data.gateway_response : '',
    paidAt: typeof data.paid_at === 'string' ? data.paid_at : null,
    channel: typeof data.channel === 'string' ? data.channel : '',
  };
}
