import type { ReloadlySettings } from '../../config.js';
import { callUpstream, field, ghsToPesewas, numberField, pesewasToGhs, stringField, type UpstreamReply } from '../http.js';
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
import {
  ERROR_CODE_WORDS,
  NUMBER_ERROR_CODES,
  RECENTLY_RECHARGED_WAIT_MS,
  TOKEN_ERROR_CODES,
  TOPUPS_MEDIA_TYPE,
  parseReportDate,
  reportDate,
} from './api.js';
import { ReloadlyTokens } from './token.js';

type ReloadlyRoute = RouteOf<'reloadly'>;

/** A Top-ups API call's outcome once the token is dealt with. */
type ApiOutcome = { token: 'ok'; reply: UpstreamReply } | { token: 'missing'; refused: boolean; message: string };

/**
 * The report's date filter is searched this far around the attempt: Reloadly does not publish the
 * time zone of its report dates, and the reference alone identifies the transaction.
 */
const LOOKUP_MARGIN_MS = 24 * 60 * 60_000;
const LOOKUP_PAGE_SIZE = 50;
const LOOKUP_MAX_PAGES = 10;
/** The report's largest page; a day of 100 000 transactions is 500 pages. */
const REPORT_PAGE_SIZE = 200;
const REPORT_MAX_PAGES = 100_000;

/**
 * Reloadly Top-ups (docs/upstream-apis.md): an attempt is an async top-up of the
 * route's local amount under our reference (`customIdentifier`), followed by its status by
 * transaction id and found by reference in the transactions report. Every answer is classified,
 * nothing the upstream does or says makes it throw. Reloadly's callback URL is set in its dashboard,
 * not per call, so the attempt's callbackUrl is not sent.
 */
export class ReloadlyAdapter implements UpstreamAdapter<ReloadlyRoute>, UpstreamBooks, UpstreamCatalog<ReloadlyRoute> {
  readonly name = 'reloadly' as const;
  private readonly tokens: ReloadlyTokens;
  private readonly clock: () => number;

  constructor(
    private readonly settings: ReloadlySettings,
    /** `reportPageSize`: transactions a page of the reconciliation report (default and most 200). */
    private readonly options: { timeoutMs: number; clock?: () => number; reportPageSize?: number },
  ) {
    this.clock = options.clock ?? Date.now;
    this.tokens = new ReloadlyTokens(settings, { timeoutMs: options.timeoutMs, clock: this.clock });
  }

  async submit(request: AttemptRequest<ReloadlyRoute>): Promise<SubmitAnswer> {
    const outcome = await this.call('POST', '/topups-async', {
      operatorId: request.route.operatorId,
      amount: pesewasToGhs(request.route.amount),
      useLocalAmount: true,
      customIdentifier: request.reference,
      // Routes name Ghana operators; numbers arrive normalised as 233XXXXXXXXX.
      recipientPhone: { countryCode: 'GH', number: request.msisdn },
    });
    // No token means nothing reached the buy endpoint (or only a call it refused): another route is safe.
    if (outcome.token === 'missing') return { class: 'refused', problem: 'route', message: outcome.message };
    const { reply } = outcome;
    if (!reply.reached) return { class: 'unknown', message: `Reloadly did not answer the top-up (${reply.message}); it may have taken it` };
    if (reply.status >= 200 && reply.status < 300) return readBuyAnswer(reply.body);
    if (reply.status >= 500) return { class: 'unknown', message: `Reloadly answered the top-up with HTTP ${reply.status}; it may have taken it` };
    return readRefusal(reply.status, reply.body);
  }

  /**
   * Whether Reloadly has the route's operator, in Ghana, with the route's amount among its local
   * amounts (`GET /operators/{id}`): a fixed list must hold it, a range must contain it.
   */
  async offers(route: ReloadlyRoute): Promise<ProductCheck> {
    const outcome = await this.call('GET', `/operators/${encodeURIComponent(String(route.operatorId))}`);
    if (outcome.token === 'missing') return { result: 'unread', why: `${outcome.message}; operator ${route.operatorId} could not be read` };
    const { reply } = outcome;
    if (!reply.reached) return { result: 'unread', why: `Reloadly did not answer for operator ${route.operatorId} (${reply.message})` };
    if (reply.status === 404) return { result: 'missing', why: `Reloadly has no operator ${route.operatorId}${codeSuffix(reply.body)}` };
    if (reply.status !== 200) return { result: 'unread', why: `Reloadly answered HTTP ${reply.status} for operator ${route.operatorId}${codeSuffix(reply.body)}` };
    return readOperator(reply.body, route);
  }

  async check(attempt: AttemptHandle<ReloadlyRoute>): Promise<CheckAnswer> {
    if (attempt.transactionId === null) return this.lookup(attempt);
    return this.checkById(attempt.transactionId);
  }

  async lookup(attempt: AttemptHandle<ReloadlyRoute>): Promise<CheckAnswer> {
    const startDate = reportDate(attempt.createdAt - LOOKUP_MARGIN_MS);
    const endDate = reportDate(this.clock() + LOOKUP_MARGIN_MS);
    for (let page = 1; page <= LOOKUP_MAX_PAGES; page++) {
      const query = new URLSearchParams({ customIdentifier: attempt.reference, startDate, endDate, page: String(page), size: String(LOOKUP_PAGE_SIZE) });
      const read = readBody(await this.call('GET', `/topups/reports/transactions?${query.toString()}`), 'the transactions report', null);
      if (!read.ok) return read.answer;
      const { body } = read;
      const content = field(body, 'content');
      if (!Array.isArray(content)) return { class: 'unknown', message: 'Reloadly answered the transactions report with a body we cannot read' };
      const found: unknown = content.find((item) => stringField(item, 'customIdentifier') === attempt.reference);
      if (found !== undefined) return this.readReportLine(found);
      if (isLastPage(body, page, content.length, LOOKUP_PAGE_SIZE)) return { class: 'absent', message: `Reloadly has no transaction under reference ${attempt.reference}` };
    }
    return { class: 'unknown', message: `Reloadly's report for reference ${attempt.reference} ran past ${LOOKUP_MAX_PAGES} pages` };
  }

  /** The account's float as Reloadly reports it (its own currency and units), or null when unreadable. */
  async balance(): Promise<{ currency: string; available: number } | null> {
    const outcome = await this.call('GET', '/accounts/balance');
    if (outcome.token !== 'ok' || !outcome.reply.reached || outcome.reply.status !== 200) return null;
    const available = numberField(outcome.reply.body, 'balance');
    const currency = stringField(outcome.reply.body, 'currencyCode');
    return available === null || currency === null ? null : { currency, available };
  }

  /**
   * Every transaction of the transactions report dated in the window (`startDate`/`endDate`, read
   * as UTC), a page of 200 at a time (reconciliation). A line without a status is completed by its
   * status endpoint.
   */
  async *transactions(window: { from: number; to: number }): AsyncIterable<UpstreamRecord[]> {
    const startDate = reportDate(window.from);
    // Report dates have whole seconds and the end is inclusive: the last second before the window's end.
    const endDate = reportDate(window.to - 1);
    for (let page = 1; page <= REPORT_MAX_PAGES; page++) {
      const size = Math.min(this.options.reportPageSize ?? REPORT_PAGE_SIZE, REPORT_PAGE_SIZE);
      const query = new URLSearchParams({ startDate, endDate, page: String(page), size: String(size) });
      const read = readBody(await this.call('GET', `/topups/reports/transactions?${query.toString()}`), 'the transactions report', null);
      if (!read.ok) throw new UpstreamReadError(read.answer.class === 'unknown' ? read.answer.message : 'Reloadly did not give the transactions report');
      const content = field(read.body, 'content');
      if (!Array.isArray(content)) throw new UpstreamReadError('Reloadly answered the transactions report with a body we cannot read');
      const records: UpstreamRecord[] = [];
      for (const line of content) records.push(await this.recordOf(line));
      yield records;
      if (isLastPage(read.body, page, content.length, size)) return;
    }
    throw new UpstreamReadError(`Reloadly's transactions report ran past ${REPORT_MAX_PAGES} pages`);
  }

  /** A report line as reconciliation compares it; its status from the status endpoint when the line has none. */
  private async recordOf(line: unknown): Promise<UpstreamRecord> {
    let status = stringField(line, 'status')?.toUpperCase() ?? null;
    const transactionId = stringField(line, 'transactionId');
    if (status === null && transactionId !== null) {
      const read = readBody(await this.call('GET', `/topups/${encodeURIComponent(transactionId)}/status`), `the status of transaction ${transactionId}`, null);
      if (read.ok) status = (stringField(read.body, 'status') ?? stringField(field(read.body, 'transaction'), 'status'))?.toUpperCase() ?? null;
    }
    const requested = numberField(line, 'requestedAmount');
    const requestedIn = stringField(line, 'requestedAmountCurrencyCode')?.toUpperCase() ?? 'GHS';
    const date = stringField(line, 'transactionDate');
    return {
      reference: stringField(line, 'customIdentifier'),
      transactionId,
      state: status === 'SUCCESSFUL' ? 'delivered' : status === 'FAILED' || status === 'REFUNDED' ? 'failed' : 'in-flight',
      status: status ?? 'unreadable',
      amount: requested !== null && requestedIn === 'GHS' ? ghsToPesewas(requested) : null,
      cost: costInPesewas(line) ?? null,
      at: date === null ? null : parseReportDate(date),
    };
  }

  /** How many tokens this adapter has asked for (for logs and tests). */
  get tokenFetches(): number {
    return this.tokens.fetchCount;
  }

  /**
   * A report line names the transaction. Its status endpoint decides when the line has no readable
   * status, and gives the cost when a success comes without its balance info (some documents show
   * report lines with `balanceInfo: null`).
   */
  private async readReportLine(line: unknown): Promise<CheckAnswer> {
    const answer = readTransaction(line);
    const transactionId = stringField(line, 'transactionId');
    if (transactionId === null) return answer;
    if (answer.class === 'unknown') return this.checkById(transactionId);
    const balanceInfo = field(line, 'balanceInfo');
    if (answer.class === 'completed' && (balanceInfo === null || typeof balanceInfo !== 'object')) {
      const checked = await this.checkById(transactionId);
      return checked.class === 'completed' ? checked : answer;
    }
    return answer;
  }

  private async checkById(transactionId: string): Promise<CheckAnswer> {
    const read = readBody(
      await this.call('GET', `/topups/${encodeURIComponent(transactionId)}/status`),
      `the status of transaction ${transactionId}`,
      `Reloadly does not know transaction ${transactionId} by its id (HTTP 404); look it up by reference`,
    );
    if (!read.ok) return read.answer;
    const answer = readTransaction(read.body);
    // The status endpoint may leave the id out of the transaction it describes: we asked by it.
    return 'transactionId' in answer && answer.transactionId === null ? { ...answer, transactionId } : answer;
  }

  /**
   * One Top-ups API call with the shared token; a 401 TOKEN_EXPIRED / INVALID_TOKEN drops that
   * token, and the call is repeated once with a new one.
   */
  private async call(method: 'GET' | 'POST', path: string, json?: unknown): Promise<ApiOutcome> {
    const first = await this.tokens.token();
    if (!first.ok) return { token: 'missing', refused: first.refused, message: first.message };
    const reply = await this.send(method, path, first.token, json);
    if (!isTokenRefusal(reply)) return { token: 'ok', reply };
    this.tokens.invalidate(first.token);
    const second = await this.tokens.token();
    if (!second.ok) return { token: 'missing', refused: second.refused, message: second.message };
    const repeated = await this.send(method, path, second.token, json);
    if (isTokenRefusal(repeated)) return { token: 'missing', refused: true, message: 'Reloadly refused a fresh access token (auth refused)' };
    return { token: 'ok', reply: repeated };
  }

  private send(method: 'GET' | 'POST', path: string, token: string, json: unknown): Promise<UpstreamReply> {
    return callUpstream({
      method,
      url: `${this.settings.apiUrl}${path}`,
      headers: { authorization: `Bearer ${token}`, accept: TOPUPS_MEDIA_TYPE },
      ...(json === undefined ? {} : { json }),
      timeoutMs: this.options.timeoutMs,
    });
  }
}

function isTokenRefusal(reply: UpstreamReply): boolean {
  return reply.reached && reply.status === 401 && TOKEN_ERROR_CODES.has(stringField(reply.body, 'errorCode') ?? '');
}

/** A read's (status, report) 200 body, or the `unknown` answer it comes to without one. */
function readBody(outcome: ApiOutcome, what: string, onNotFound: string | null): { ok: true; body: unknown } | { ok: false; answer: CheckAnswer } {
  if (outcome.token === 'missing') {
    const message = `${outcome.message}; ${what} could not be read`;
    return { ok: false, answer: outcome.refused ? { class: 'unknown', message, tokenRefused: true } : { class: 'unknown', message } };
  }
  const { reply } = outcome;
  if (!reply.reached) return { ok: false, answer: { class: 'unknown', message: `Reloadly did not answer for ${what} (${reply.message})` } };
  if (reply.status === 404 && onNotFound !== null) return { ok: false, answer: { class: 'unknown', message: onNotFound } };
  if (reply.status !== 200) return { ok: false, answer: { class: 'unknown', message: `Reloadly answered HTTP ${reply.status} for ${what}${codeSuffix(reply.body)}` } };
  return { ok: true, body: reply.body };
}

/** The buy endpoint's 2xx: `{transactionId}` (taken), or a whole transaction when it already has its status. */
function readBuyAnswer(body: unknown): SubmitAnswer {
  const transactionId = stringField(body, 'transactionId');
  if (stringField(body, 'status') !== null || field(body, 'transaction') !== undefined) {
    const answer = readTransaction(body);
    if (answer.class !== 'absent' && answer.class !== 'unknown') return answer;
  }
  if (transactionId === null) return { class: 'unknown', message: 'Reloadly accepted the top-up without a transaction id we can read; it may have taken it' };
  return { class: 'accepted', transactionId };
}

/** A 4xx of the buy endpoint: nothing was taken, except for a reference already used. */
function readRefusal(status: number, body: unknown): SubmitAnswer {
  const code = stringField(body, 'errorCode');
  const reason = describe(code, body, status);
  if (code === 'CUSTOM_IDENTIFIER_ALREADY_USED') {
    return { class: 'unknown', message: `Reloadly says ${reason}: the reference may have been taken, look it up` };
  }
  if (code === 'PHONE_RECENTLY_RECHARGED') {
    return { class: 'refused', problem: 'route', message: `Reloadly refused: ${reason}`, retryAfterMs: RECENTLY_RECHARGED_WAIT_MS };
  }
  if (code !== null && NUMBER_ERROR_CODES.has(code)) return { class: 'refused', problem: 'number', message: `Reloadly refused: ${reason}` };
  if (code === 'INSUFFICIENT_BALANCE') return { class: 'refused', problem: 'route', message: `Reloadly refused: ${reason}`, lowFloat: true };
  if (status === 401 || status === 403) return { class: 'refused', problem: 'route', message: `Reloadly refused: auth refused, ${reason}` };
  return { class: 'refused', problem: 'route', message: `Reloadly refused: ${reason}` };
}

/**
 * A transaction as the status endpoint, the report or a final buy answer describes it. The status
 * endpoint nests it (`{code, message, status, transaction: {…}}`); some documents show its fields
 * flat: both are read.
 */
function readTransaction(body: unknown): CheckAnswer {
  const nested = field(body, 'transaction');
  const transaction = nested !== null && typeof nested === 'object' ? nested : body;
  const status = (stringField(body, 'status') ?? stringField(transaction, 'status'))?.toUpperCase() ?? null;
  const transactionId = stringField(transaction, 'transactionId') ?? stringField(body, 'transactionId');
  switch (status) {
    case 'SUCCESSFUL': {
      const cost = costInPesewas(transaction);
      return cost === undefined ? { class: 'completed', transactionId } : { class: 'completed', transactionId, cost };
    }
    case 'PROCESSING':
    case 'PENDING':
      return { class: 'accepted', transactionId };
    case 'FAILED':
    case 'REFUNDED': {
      const code = stringField(body, 'code') ?? stringField(transaction, 'code') ?? stringField(body, 'errorCode');
      const verb = status === 'FAILED' ? 'failed' : 'refunded';
      const reason = code !== null || stringField(body, 'message') !== null ? `: ${describe(code, body, null)}` : ` (${status})`;
      const problem = code !== null && NUMBER_ERROR_CODES.has(code) ? 'number' : 'route';
      return { class: 'failed', problem, transactionId, message: `Reloadly ${verb} the top-up${reason}` };
    }
    default:
      return { class: 'unknown', message: status === null ? 'Reloadly answered with a body we cannot read' : `Reloadly reported a status we do not know (${status.slice(0, 40)})` };
  }
}

/** What the transaction cost, in pesewas, when Reloadly reports it in GHS (the account's currency). */
function costInPesewas(transaction: unknown): number | undefined {
  const balance = field(transaction, 'balanceInfo');
  if (stringField(balance, 'currencyCode')?.toUpperCase() !== 'GHS') return undefined;
  const before = numberField(balance, 'oldBalance');
  const after = numberField(balance, 'newBalance');
  const cost = numberField(balance, 'cost') ?? (before !== null && after !== null ? before - after : null);
  return cost === null || cost < 0 ? undefined : ghsToPesewas(cost);
}

/** "insufficient balance (INSUFFICIENT_BALANCE)", or the upstream's own message for a code we have no words for. */
function describe(code: string | null, body: unknown, status: number | null): string {
  const words = code === null ? undefined : ERROR_CODE_WORDS[code];
  const said = stringField(body, 'message')?.trim().slice(0, 160) || null;
  const what = words ?? said ?? (status === null ? 'no reason given' : `HTTP ${status}`);
  return code === null ? what : `${what} (${code})`;
}

/** An operator (`GET /operators/{id}`) against a route: its country, then its local amounts. */
function readOperator(body: unknown, route: ReloadlyRoute): ProductCheck {
  const id = numberField(body, 'operatorId') ?? numberField(body, 'id');
  if (id !== null && id !== route.operatorId) return { result: 'unread', why: `Reloadly answered for operator ${id}, not ${route.operatorId}` };
  const name = stringField(body, 'name') ?? `operator ${route.operatorId}`;
  const country = stringField(field(body, 'country'), 'isoName');
  if (country !== null && country.toUpperCase() !== 'GH') return { result: 'missing', why: `Reloadly's operator ${route.operatorId} (${name}) is in ${country}, not Ghana` };
  const asked = pesewasToGhs(route.amount);
  const fixed = field(body, 'localFixedAmounts');
  const amounts = Array.isArray(fixed) ? fixed.filter((a): a is number => typeof a === 'number') : [];
  const denomination = (stringField(body, 'denominationType') ?? '').toUpperCase();
  if (amounts.length > 0 && denomination !== 'RANGE') {
    if (amounts.some((a) => ghsToPesewas(a) === route.amount)) return { result: 'offered', detail: `Reloadly's ${name} (${route.operatorId}) has GHS ${asked.toFixed(2)} among its fixed amounts` };
    return { result: 'missing', why: `Reloadly's ${name} (${route.operatorId}) has no fixed amount of GHS ${asked.toFixed(2)} (it has GHS ${amounts.map((a) => a.toFixed(2)).join(', ')})` };
  }
  const min = numberField(body, 'localMinAmount');
  const max = numberField(body, 'localMaxAmount');
  if (min !== null && max !== null) {
    if (route.amount >= ghsToPesewas(min) && route.amount <= ghsToPesewas(max)) return { result: 'offered', detail: `Reloadly's ${name} (${route.operatorId}) takes GHS ${min.toFixed(2)} to ${max.toFixed(2)}` };
    return { result: 'missing', why: `Reloadly's ${name} (${route.operatorId}) takes GHS ${min.toFixed(2)} to ${max.toFixed(2)}, not GHS ${asked.toFixed(2)}` };
  }
  return { result: 'offered', detail: `Reloadly has operator ${route.operatorId} (${name}); it lists no local amounts to check GHS ${asked.toFixed(2)} against` };
}

function codeSuffix(body: unknown): string {
  const code = stringField(body, 'errorCode');
  return code === null ? '' : ` (${code})`;
}

/** Spring's page: `last`, else `totalPages`, else a short page. */
function isLastPage(body: unknown, page: number, count: number, size: number): boolean {
  const last = field(body, 'last');
  if (typeof last === 'boolean') return last;
  const totalPages = numberField(body, 'totalPages');
  if (totalPages !== null) return page >= totalPages;
  return count < size;
}

/**
 * Whom a Reloadly callback is about: `{ type, data: { transactionId, customIdentifier, … } }`, the
 * transaction possibly nested once more under `data.transaction` (unconfirmed: both are read).
 */
export function readReloadlyCallback(body: unknown): CallbackSubject | null {
  const data = field(body, 'data');
  const nested = field(data, 'transaction');
  const sources = [nested, data, body].filter((v) => v !== null && typeof v === 'object');
  const first = (key: string) => sources.map((s) => stringField(s, key)).find((v) => v !== null && v !== '') ?? null;
  const reference = first('customIdentifier');
  const transactionId = first('transactionId');
  return reference === null && transactionId === null ? null : { reference, transactionId };
}
