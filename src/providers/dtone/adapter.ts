import type { DtoneSettings } from '../../config.js';
import { callUpstream, field, numberField, stringField, type UpstreamCall, type UpstreamReply } from '../http.js';
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
import { answerForSubmitError, answerForTransaction, describeErrors, dtoneCostOf, dtoneErrorsOf, statusClassOf } from './answers.js';

type DtoneRoute = RouteOf<'dtone'>;

/** DT One's list endpoints give at most 100 records a page. */
const PER_PAGE = 100;
/** A reference names one transaction; more pages than this means the filter was ignored and we stop reading. */
const MAX_LOOKUP_PAGES = 20;
const TRANSACTION_NOT_FOUND = 1008004;
/** DT One's list takes a window of at most 24 hours: longer windows are read a day at a time. */
const LIST_WINDOW_MS = 24 * 60 * 60_000;
/** A day of 100 000 transactions is 1 000 pages; more than this means the list does not end. */
const MAX_LIST_PAGES = 100_000;

/**
 * DT One DVS v1 (docs/upstream-apis.md): a transaction per attempt, created and confirmed in
 * one asynchronous call under our reference as `external_id`, followed by its id, found again by
 * `GET /transactions?external_id=`. Basic auth with the API key and secret on every call.
 */
export class DtoneAdapter implements UpstreamAdapter<DtoneRoute>, UpstreamBooks, UpstreamCatalog<DtoneRoute> {
  readonly name = 'dtone';
  private readonly baseUrl: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;
  private readonly listPageSize: number;

  /**
   * `clock` is accepted like the other adapters' but unused: DT One finds a reference without a date
   * window. `listPageSize`: transactions a page of the reconciliation list (default and most 100).
   */
  constructor(settings: DtoneSettings, options: { timeoutMs: number; clock?: () => number; listPageSize?: number }) {
    this.baseUrl = settings.apiUrl.replace(/\/+$/, '');
    this.authorization = `Basic ${Buffer.from(`${settings.apiKey}:${settings.apiSecret}`).toString('base64')}`;
    this.timeoutMs = options.timeoutMs;
    this.listPageSize = Math.min(options.listPageSize ?? PER_PAGE, PER_PAGE);
  }

  async submit(request: AttemptRequest<DtoneRoute>): Promise<SubmitAnswer> {
    const reply = await this.call('POST', '/async/transactions', {
      external_id: request.reference,
      product_id: request.route.productId,
      auto_confirm: true,
      credit_party_identifier: { mobile_number: `+${request.msisdn}` },
      ...(request.callbackUrl === null ? {} : { callback_url: request.callbackUrl }),
    });
    if (!reply.reached) return { class: 'unknown', message: `DT One did not answer: ${reply.message}` };
    if (reply.status >= 200 && reply.status < 300 && field(reply.body, 'status') !== undefined) {
      return answerForTransaction(reply.body);
    }
    return answerForSubmitError(reply.status, reply.body);
  }

  /**
   * Whether DT One offers the route's product to this account (`GET /products/{id}`): a 404 (1003001
   * product not available, or no such product) is a product it does not offer; a product of another
   * country than Ghana too.
   */
  async offers(route: DtoneRoute): Promise<ProductCheck> {
    const reply = await this.call('GET', `/products/${encodeURIComponent(String(route.productId))}`);
    if (!reply.reached) return { result: 'unread', why: `DT One did not answer for product ${route.productId} (${reply.message})` };
    const errors = dtoneErrorsOf(reply.body);
    const said = errors.length === 0 ? `HTTP ${reply.status}` : describeErrors(errors);
    if (reply.status === 404) return { result: 'missing', why: `DT One does not offer product ${route.productId} to this account (${said})` };
    if (reply.status !== 200) return { result: 'unread', why: `DT One answered ${said} for product ${route.productId}` };
    const id = numberField(reply.body, 'id');
    if (id !== null && id !== route.productId) return { result: 'unread', why: `DT One answered for product ${id}, not ${route.productId}` };
    const name = stringField(reply.body, 'name') ?? `product ${route.productId}`;
    const country = stringField(field(field(reply.body, 'operator'), 'country'), 'iso_code');
    if (country !== null && country.toUpperCase() !== 'GHA') return { result: 'missing', why: `DT One's product ${route.productId} (${name}) is for ${country}, not Ghana` };
    return { result: 'offered', detail: `DT One offers product ${route.productId} (${name})` };
  }

  async check(attempt: AttemptHandle<DtoneRoute>): Promise<CheckAnswer> {
    if (attempt.transactionId === null) return this.lookup(attempt);
    const reply = await this.call('GET', `/transactions/${encodeURIComponent(attempt.transactionId)}`);
    if (!reply.reached) return { class: 'unknown', message: `DT One did not answer: ${reply.message}` };
    // An id DT One gave us and no longer knows: only the reference can prove the attempt absent.
    if (reply.status === 404 && hasErrorCode(reply.body, TRANSACTION_NOT_FOUND)) return this.lookup(attempt);
    if (reply.status !== 200) return unknownFromReply(reply);
    const reference = stringField(reply.body, 'external_id');
    if (reference !== null && reference !== attempt.reference) {
      return { class: 'unknown', message: `DT One's transaction ${attempt.transactionId} carries another reference (${reference})` };
    }
    return answerForTransaction(reply.body);
  }

  async lookup(attempt: AttemptHandle<DtoneRoute>): Promise<CheckAnswer> {
    for (let page = 1; page <= MAX_LOOKUP_PAGES; ) {
      const query = new URLSearchParams({ external_id: attempt.reference, page: String(page), per_page: String(PER_PAGE) });
      const reply = await this.call('GET', `/transactions?${query.toString()}`);
      if (!reply.reached) return { class: 'unknown', message: `DT One did not answer: ${reply.message}` };
      // Appendix A says an empty list; DT One's specification also lists a 404 "transaction not found": both mean absent.
      if (reply.status === 404 && hasErrorCode(reply.body, TRANSACTION_NOT_FOUND)) return { class: 'absent', message: 'DT One has no transaction under this reference' };
      if (reply.status !== 200) return unknownFromReply(reply);
      if (!Array.isArray(reply.body)) return { class: 'unknown', message: 'DT One answered the lookup with a body we cannot read' };
      const found: unknown = reply.body.find((transaction) => stringField(transaction, 'external_id') === attempt.reference);
      if (found !== undefined) return answerForTransaction(found);
      const next = Number(reply.headers.get('x-next-page') ?? '');
      if (!Number.isInteger(next) || next <= page) return { class: 'absent', message: 'DT One has no transaction under this reference' };
      page = next;
    }
    return { class: 'unknown', message: `DT One's list under this reference ran past ${MAX_LOOKUP_PAGES} pages without it` };
  }

  /** The first balance of the account, in DT One's own unit (`available`), or null when unreadable. */
  async balance(): Promise<{ currency: string; available: number } | null> {
    const reply = await this.call('GET', '/balances');
    if (!reply.reached || reply.status !== 200) return null;
    const balances: unknown[] = Array.isArray(reply.body) ? reply.body : [reply.body];
    for (const balance of balances) {
      const currency = stringField(balance, 'unit');
      const available = numberField(balance, 'available');
      if (currency !== null && currency.trim() !== '' && available !== null) return { currency, available };
    }
    return null;
  }

  /**
   * Every transaction DT One dates in the window, a page (≤ 100) at a time, read with
   * `GET /transactions?from_date=&to_date=&page=&per_page=` (reconciliation); windows longer than
   * 24 hours are read a day at a time.
   */
  async *transactions(window: { from: number; to: number }): AsyncIterable<UpstreamRecord[]> {
    for (let start = window.from; start < window.to; start += LIST_WINDOW_MS) {
      const end = Math.min(start + LIST_WINDOW_MS, window.to);
      for (let page = 1, pages = 0; ; pages++) {
        if (pages >= MAX_LIST_PAGES) throw new UpstreamReadError(`DT One's transaction list ran past ${MAX_LIST_PAGES} pages`);
        const query = new URLSearchParams({
          from_date: new Date(start).toISOString(),
          // DT One's bounds are inclusive: the window's end is not.
          to_date: new Date(end - 1).toISOString(),
          page: String(page),
          per_page: String(this.listPageSize),
        });
        const reply = await this.call('GET', `/transactions?${query.toString()}`);
        if (!reply.reached) throw new UpstreamReadError(`DT One did not answer the transaction list: ${reply.message}`);
        if (reply.status !== 200) throw new UpstreamReadError(replyProblem(reply));
        if (!Array.isArray(reply.body)) throw new UpstreamReadError('DT One answered the transaction list with a body we cannot read');
        yield reply.body.map(dtoneRecord);
        const next = Number(reply.headers.get('x-next-page') ?? '');
        if (!Number.isInteger(next) || next <= page) break;
        page = next;
      }
    }
  }

  private call(method: UpstreamCall['method'], path: string, json?: unknown): Promise<UpstreamReply> {
    return callUpstream({
      method,
      url: `${this.baseUrl}${path}`,
      headers: { authorization: this.authorization },
      ...(json === undefined ? {} : { json }),
      timeoutMs: this.timeoutMs,
    });
  }
}

function hasErrorCode(body: unknown, code: number): boolean {
  return dtoneErrorsOf(body).some((e) => e.code === code);
}

/** A status check or lookup that did not get a transaction: DT One may still have it. */
function unknownFromReply(reply: Extract<UpstreamReply, { reached: true }>): CheckAnswer {
  return { class: 'unknown', message: replyProblem(reply) };
}

function replyProblem(reply: Extract<UpstreamReply, { reached: true }>): string {
  const errors = dtoneErrorsOf(reply.body);
  if (errors.length === 0) return `DT One answered ${reply.status} with a body we cannot read`;
  return `DT One answered ${reply.status}: ${describeErrors(errors)}`;
}

/** Who a DT One callback (the transaction JSON, unsigned) is about; null when it names no transaction. */
export function readDtoneCallback(body: unknown): CallbackSubject | null {
  const reference = stringField(body, 'external_id');
  const transactionId = stringField(body, 'id');
  if (reference === null && transactionId === null) return null;
  return { reference, transactionId };
}

/** A transaction of DT One's list as reconciliation compares it: REVERSED (after completion) counts as failed there. */
export function dtoneRecord(transaction: unknown): UpstreamRecord {
  const statusClass = statusClassOf(transaction);
  const status = stringField(field(transaction, 'status'), 'message') ?? statusClass?.name ?? 'unreadable';
  const created = stringField(transaction, 'creation_date');
  const at = created === null ? NaN : Date.parse(created);
  const kind = statusClass?.kind;
  return {
    reference: stringField(transaction, 'external_id'),
    transactionId: stringField(transaction, 'id'),
    state: kind === 'completed' ? 'delivered' : kind === 'failed' || kind === 'reversed' ? 'failed' : 'in-flight',
    status,
    amount: null,
    cost: dtoneCostOf(transaction) ?? null,
    at: Number.isFinite(at) ? at : null,
  };
}
