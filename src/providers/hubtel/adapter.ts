import type { HubtelSettings } from '../../config.js';
import { callUpstream, ghsToPesewas, pesewasToGhs, type UpstreamCall } from '../http.js';
import {
  UpstreamReadError,
  type AttemptHandle,
  type AttemptRequest,
  type CallbackSubject,
  type CheckAnswer,
  type ProductCheck,
  type RouteOf,
  type SubmitAnswer,
  type UpstreamAdapter,
  type UpstreamBooks,
  type UpstreamCatalog,
  type UpstreamRecord,
} from '../types.js';
import { chooseBundle, classifyOffer, classifyPurchase, classifyStatus } from './answers.js';
import { HUBTEL_CODES, HUBTEL_DATA_SERVICES, hubtelField, hubtelNumber, hubtelString, responseCodeOf } from './wire.js';

type HubtelRoute = RouteOf<'hubtel'>;

export interface HubtelAdapterOptions {
  /** Each HTTP call's timeout; a submission makes two calls (the bundle list, then the purchase). */
  timeoutMs: number;
  /** Not needed by Hubtel's calls; accepted so that every adapter is built the same way. */
  clock?: () => number;
  /**
   * Base of Hubtel's Balance Query API (`https://trnf.hubtel.com/api/inter-transfers` in
   * production; HUBTEL_BALANCE_URL of a simulator's env). Without it balance() answers null.
   */
  balanceUrl?: string | null;
}

/**
 * The number whose bundle list a route is checked against when staff save it (docs/live-delivery.md,
 * "Routes"), by the data service of Appendix A; a service we do not know is asked with the MTN one.
 * The lists depend on the number: these are ordinary prepaid numbers of each network's first prefix.
 */
export const HUBTEL_CHECK_NUMBERS: Readonly<Record<string, string>> = {
  [HUBTEL_DATA_SERVICES.mtn]: '233244123456',
  [HUBTEL_DATA_SERVICES.telecel]: '233201234567',
  [HUBTEL_DATA_SERVICES.at]: '233271234567',
};

/**
 * Hubtel Commission Services (docs/upstream-apis.md). A submission reads the number's bundle
 * list first and buys only when the route's bundle is listed at the route's price; the purchase's
 * ClientReference is the attempt's reference. Status and lookup are one call: Hubtel's status
 * endpoint, by ClientReference. Every answer is classified in answers.ts; nothing here throws for
 * what Hubtel says or does not say.
 */
export class HubtelAdapter implements UpstreamAdapter<HubtelRoute>, UpstreamBooks, UpstreamCatalog<HubtelRoute> {
  readonly name = 'hubtel' as const;
  private readonly authorization: string;

  constructor(
    private readonly settings: HubtelSettings,
    private readonly options: HubtelAdapterOptions,
  ) {
    this.authorization = `Basic ${Buffer.from(`${settings.apiId}:${settings.apiKey}`).toString('base64')}`;
  }

  async submit(request: AttemptRequest<HubtelRoute>): Promise<SubmitAnswer> {
    if (request.callbackUrl === null) {
      // Hubtel's CallbackUrl is mandatory: it would refuse the purchase, so nothing is sent.
      return { class: 'refused', problem: 'route', message: 'Hubtel needs a callback URL (PUBLIC_BASE_URL is not set)' };
    }
    const service = this.serviceUrl(request.route);
    const list = await this.call({ method: 'GET', url: `${service}?destination=${encodeURIComponent(request.msisdn)}` });
    const choice = chooseBundle(list, request.route);
    if (!choice.found) return choice.answer;

    const amount = pesewasToGhs(request.route.amount);
    const purchase = await this.call({
      method: 'POST',
      url: service,
      json: {
        Destination: request.msisdn,
        Amount: amount,
        CallbackUrl: request.callbackUrl,
        ClientReference: request.reference,
        // The Value exactly as the list wrote it: Hubtel matches it with the Amount.
        Extradata: { bundle: choice.bundle.value },
      },
    });
    return classifyPurchase(purchase, amount);
  }

  /** Whether the route's bundle is on the bundle list of its service's test number, at the route's amount. */
  async offers(route: HubtelRoute): Promise<ProductCheck> {
    const msisdn = HUBTEL_CHECK_NUMBERS[route.serviceId] ?? '233244123456';
    const reply = await this.call({ method: 'GET', url: `${this.serviceUrl(route)}?destination=${encodeURIComponent(msisdn)}` });
    return classifyOffer(reply, route, msisdn);
  }

  async check(attempt: AttemptHandle<HubtelRoute>): Promise<CheckAnswer> {
    return this.status(attempt.reference);
  }

  async lookup(attempt: AttemptHandle<HubtelRoute>): Promise<CheckAnswer> {
    return this.status(attempt.reference);
  }

  /**
   * Hubtel's record of one attempt, by its status endpoint (reconciliation: Hubtel has no list of
   * transactions): null when it has none; UpstreamReadError when the check got no answer.
   */
  async record(attempt: AttemptHandle<HubtelRoute>): Promise<UpstreamRecord | null> {
    const url = `${this.settings.statusUrl}/transactions/${encodeURIComponent(this.settings.posSalesId)}/status?clientReference=${encodeURIComponent(attempt.reference)}`;
    const reply = await this.call({ method: 'GET', url });
    const answer = classifyStatus(reply, attempt.reference);
    if (answer.class === 'absent') return null;
    if (answer.class === 'unknown') throw new UpstreamReadError(answer.message);
    const data = reply.reached ? hubtelField(reply.body, 'data') : null;
    const amount = hubtelNumber(data, 'amount');
    return {
      reference: attempt.reference,
      transactionId: answer.transactionId,
      state: answer.class === 'completed' ? 'delivered' : answer.class === 'failed' ? 'failed' : 'in-flight',
      status: hubtelString(data, 'status') ?? answer.class,
      amount: amount === null ? null : ghsToPesewas(amount),
      cost: null,
      at: null,
    };
  }

  /** The prepaid deposit's balance in GHS as Hubtel reports it; null when not configured or not readable. */
  async balance(): Promise<{ currency: string; available: number } | null> {
    const base = this.options.balanceUrl;
    if (!base) return null;
    const reply = await this.call({ method: 'GET', url: `${base.replace(/\/+$/, '')}/prepaid/${encodeURIComponent(this.settings.prepaidDepositId)}` });
    if (!reply.reached || reply.status !== 200 || responseCodeOf(reply.body) !== HUBTEL_CODES.success) return null;
    const available = hubtelNumber(hubtelField(reply.body, 'data'), 'amount');
    return available === null ? null : { currency: 'GHS', available };
  }

  private async status(reference: string): Promise<CheckAnswer> {
    const url = `${this.settings.statusUrl}/transactions/${encodeURIComponent(this.settings.posSalesId)}/status?clientReference=${encodeURIComponent(reference)}`;
    return classifyStatus(await this.call({ method: 'GET', url }), reference);
  }

  private serviceUrl(route: HubtelRoute): string {
    return `${this.settings.csUrl}/${encodeURIComponent(this.settings.prepaidDepositId)}/${encodeURIComponent(route.serviceId)}`;
  }

  private call(call: Omit<UpstreamCall, 'timeoutMs' | 'headers'>) {
    return callUpstream({ ...call, headers: { authorization: this.authorization }, timeoutMs: this.options.timeoutMs });
  }
}

/**
 * Whom a Hubtel callback is about: `Data.ClientReference` (our reference) and `Data.TransactionId`.
 * Hubtel's callbacks are unsigned: they only make the status check due (docs/live-delivery.md, "Callbacks").
 */
export function readHubtelCallback(body: unknown): CallbackSubject | null {
  // Tolerant: a body without Data is read at its top level.
  const data = hubtelField(body, 'data') ?? body;
  const reference = nonEmpty(hubtelString(data, 'clientReference'));
  const transactionId = nonEmpty(hubtelString(data, 'transactionId'));
  if (reference === null && transactionId === null) return null;
  return { reference, transactionId };
}

function nonEmpty(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}
