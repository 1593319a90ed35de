import { ghsToPesewas, type UpstreamReply } from '../http.js';
import type { CheckAnswer, ProductCheck, RouteOf, SubmitAnswer } from '../types.js';
import { HUBTEL_CODES, type HubtelBundle, hubtelField, hubtelNumber, hubtelString, messageOf, readBundleList, responseCodeOf } from './wire.js';

/**
 * Hubtel's answers, classified into the answer classes of types.ts (docs/live-delivery.md, "One delivery, many attempts" and
 * Appendix A). Pure functions of what came back: the adapter makes the calls. The body's response
 * code decides, not the HTTP status that carries it; an answer without a code we know is `unknown`
 * wherever Hubtel may have taken the purchase.
 */

/** The bundle to buy, as the number's list has it, or the answer that ends the submission before any purchase. */
export type BundleChoice = { found: true; bundle: HubtelBundle } | { found: false; answer: SubmitAnswer };

export function chooseBundle(reply: UpstreamReply, route: RouteOf<'hubtel'>): BundleChoice {
  if (!reply.reached) return stop({ class: 'unknown', message: `Hubtel did not answer the bundle list (${reply.message}); nothing was bought` });
  if (isCredentialRefusal(reply.status) && responseCodeOf(reply.body) === null) {
    return stop({ class: 'refused', problem: 'route', message: credentialRefusal(reply.status) });
  }
  const code = responseCodeOf(reply.body);
  if (code === null || reply.status >= 500) {
    return stop({ class: 'unknown', message: `Hubtel's bundle list was unreadable (HTTP ${reply.status}); nothing was bought` });
  }
  if (code === HUBTEL_CODES.failed || code === HUBTEL_CODES.failedWithReason) {
    const reason = reasonOf(code, reply.body, undefined);
    return stop({ class: 'refused', problem: isAboutTheNumber(reason) ? 'number' : 'route', message: `Hubtel refused: ${reason} (${code})` });
  }
  if (code !== HUBTEL_CODES.success) {
    const refusal = refusalFor(code, reply.body);
    return stop(refusal ?? { class: 'unknown', message: `Hubtel answered the bundle list with ${describeCode(code, reply.body)}; nothing was bought` });
  }
  const bundles = readBundleList(reply.body);
  if (bundles === null) return stop({ class: 'unknown', message: `Hubtel's bundle list had no list of bundles (HTTP ${reply.status}); nothing was bought` });

  // Values are not unique (MTN lists several "flexi_data_bundle" at different prices): the pair decides.
  const sameValue = bundles.filter((b) => b.value.trim() === route.bundle.trim());
  const bundle = sameValue.find((b) => ghsToPesewas(b.amount) === route.amount);
  if (bundle) return { found: true, bundle };
  if (sameValue.length === 0) {
    return stop({ class: 'refused', problem: 'route', message: `Hubtel does not offer bundle ${route.bundle} for this number` });
  }
  const listed = sameValue.map((b) => ghs(ghsToPesewas(b.amount))).join(', ');
  return stop({
    class: 'refused',
    problem: 'route',
    message: `Hubtel's price of bundle ${route.bundle} differs from the route's: GHS ${listed} listed, GHS ${ghs(route.amount)} expected`,
  });
}

/**
 * A route checked against the bundle list of `msisdn` (a test number), when staff save it: offered
 * when the list has the route's bundle at the route's amount; missing when Hubtel listed bundles
 * without it, or refused the service as invalid (a wrong serviceId); unread otherwise (no answer,
 * a 5xx, refused credentials, the test number refused).
 */
export function classifyOffer(reply: UpstreamReply, route: RouteOf<'hubtel'>, msisdn: string): ProductCheck {
  const choice = chooseBundle(reply, route);
  if (choice.found) {
    const label = choice.bundle.display === '' ? '' : ` (${choice.bundle.display})`;
    return { result: 'offered', detail: `Hubtel lists bundle ${choice.bundle.value}${label} at GHS ${ghs(route.amount)} for ${msisdn}` };
  }
  const code = reply.reached ? responseCodeOf(reply.body) : null;
  const listed = reply.reached && reply.status < 500 && code === HUBTEL_CODES.success && readBundleList(reply.body) !== null;
  const serviceRefused =
    (code === HUBTEL_CODES.invalidRequest || code === HUBTEL_CODES.validation) &&
    choice.answer.class === 'refused' &&
    choice.answer.problem === 'route';
  const said = choice.answer.message ?? 'no reason given';
  if (listed || serviceRefused) return { result: 'missing', why: `${said} (bundle list for the test number ${msisdn})` };
  return { result: 'unread', why: `Hubtel's bundle list for the test number ${msisdn} could not be read: ${said.replace(/; nothing was bought$/, '')}` };
}

/** The answer to a purchase (POST {CS}/{deposit}/{service}); `askedGhs` is the Amount we sent. */
export function classifyPurchase(reply: UpstreamReply, askedGhs: number): SubmitAnswer {
  if (!reply.reached) return { class: 'unknown', message: `Hubtel did not answer the purchase (${reply.message}); it may have taken it` };
  const code = responseCodeOf(reply.body);
  if (code === null) {
    if (isCredentialRefusal(reply.status)) return { class: 'refused', problem: 'route', message: credentialRefusal(reply.status) };
    return { class: 'unknown', message: `Hubtel's answer to the purchase was unreadable (HTTP ${reply.status}); it may have taken it` };
  }
  const data = hubtelField(reply.body, 'data');
  const transactionId = nonEmpty(hubtelString(data, 'transactionId'));
  const cost = costOf(data, askedGhs);
  switch (code) {
    case HUBTEL_CODES.success:
      return { class: 'completed', transactionId, ...(cost === null ? {} : { cost }), message: 'Hubtel: delivered' };
    case HUBTEL_CODES.pending:
      return { class: 'accepted', transactionId, ...(cost === null ? {} : { cost }), message: 'Hubtel: pending, a callback will follow' };
    case HUBTEL_CODES.failed:
    case HUBTEL_CODES.failedWithReason: {
      const reason = reasonOf(code, reply.body, data);
      return { class: 'failed', problem: isAboutTheNumber(reason) ? 'number' : 'route', transactionId, message: `Hubtel failed it: ${reason} (${code})` };
    }
    default:
      return refusalFor(code, reply.body) ?? { class: 'unknown', message: `Hubtel answered the purchase with ${describeCode(code, reply.body)}; it may have taken it` };
  }
}

/**
 * The answer of the status endpoint (GET {STATUS}/transactions/{posSalesId}/status?clientReference=).
 * Paid and fulfilled: completed; Paid otherwise: still in flight; Unpaid or Refunded: failed; no
 * record (404, or another code without a transaction): absent.
 */
export function classifyStatus(reply: UpstreamReply, reference: string): CheckAnswer {
  if (!reply.reached) return { class: 'unknown', message: `Hubtel did not answer the status check (${reply.message})` };
  if (isCredentialRefusal(reply.status)) return { class: 'unknown', message: `Hubtel refused the status check (HTTP ${reply.status}): check the credentials, POS Sales ID and IP whitelisting` };
  if (reply.status >= 500) return { class: 'unknown', message: `Hubtel's status check failed (HTTP ${reply.status})` };
  const isObject = reply.body !== null && typeof reply.body === 'object' && !Array.isArray(reply.body);
  const code = responseCodeOf(reply.body);
  if (reply.status === 404 && isObject) return { class: 'absent', message: 'Hubtel has no transaction under this reference' };
  if (code === null) return { class: 'unknown', message: `Hubtel's status answer was unreadable (HTTP ${reply.status})` };

  const data = hubtelField(reply.body, 'data');
  const hasTransaction = data !== null && typeof data === 'object' && !Array.isArray(data);
  if (code === HUBTEL_CODES.success) {
    if (data === null || data === undefined) return { class: 'absent', message: 'Hubtel has no transaction under this reference' };
    if (!hasTransaction) return { class: 'unknown', message: `Hubtel's status answer was unreadable (HTTP ${reply.status})` };
    return classifyTransaction(data, reference);
  }
  if (code === HUBTEL_CODES.pending) return { class: 'accepted', transactionId: nonEmpty(hubtelString(data, 'transactionId')), message: 'Hubtel: pending' };
  const unanswered: string[] = [HUBTEL_CODES.stateUnknown, HUBTEL_CODES.authDenied, HUBTEL_CODES.permissionDenied];
  if (unanswered.includes(code) || hasTransaction) {
    return { class: 'unknown', message: `Hubtel answered the status check with ${describeCode(code, reply.body)}` };
  }
  return { class: 'absent', message: `Hubtel has no transaction under this reference (${describeCode(code, reply.body)})` };
}

function classifyTransaction(data: object, reference: string): CheckAnswer {
  const theirReference = hubtelString(data, 'clientReference');
  if (theirReference !== null && theirReference !== '' && theirReference !== reference) {
    return { class: 'unknown', message: `Hubtel's status answer is about another reference (${theirReference})` };
  }
  const transactionId = nonEmpty(hubtelString(data, 'transactionId'));
  const status = (hubtelString(data, 'status') ?? '').toLowerCase();
  const fulfilled = hubtelField(data, 'isFulfilled');
  if (status === 'paid') {
    if (fulfilled === true) return { class: 'completed', transactionId, message: 'Hubtel: paid and fulfilled' };
    // Paid with isFulfilled null (or false, which the documents never show) is not final: keep following it.
    return { class: 'accepted', transactionId, message: 'Hubtel: paid, not fulfilled yet' };
  }
  if (status === 'unpaid' || status === 'refunded') {
    // The status endpoint documents no reason; a description is read when one is given.
    const description = nonEmpty(hubtelString(data, 'description'));
    const reason = description === null ? `the transaction is ${status === 'unpaid' ? 'Unpaid' : 'Refunded'}` : plainWords(description);
    return { class: 'failed', problem: description !== null && isAboutTheNumber(description) ? 'number' : 'route', transactionId, message: `Hubtel failed it: ${reason}` };
  }
  return { class: 'unknown', message: `Hubtel reported a status it does not document (${status === '' ? 'none' : status})` };
}

/**
 * A refusal for a code that means nothing was taken (unknown for a reference already used), or null
 * when the code says no such thing.
 */
function refusalFor(code: string, body: unknown): SubmitAnswer | null {
  const reason = reasonOf(code, body, undefined);
  switch (code) {
    case HUBTEL_CODES.insufficientBalance:
      return { class: 'refused', problem: 'route', lowFloat: true, message: `Hubtel refused: ${reason} (${code})` };
    case HUBTEL_CODES.authDenied:
    case HUBTEL_CODES.permissionDenied:
      return { class: 'refused', problem: 'route', message: `Hubtel refused: ${reason} (${code})` };
    case HUBTEL_CODES.invalidRequest:
    case HUBTEL_CODES.validation:
      // A reference already used means Hubtel may hold the first submission: look it up, never move on.
      if (isDuplicateReference(reason)) return { class: 'unknown', message: `Hubtel says the reference was already used: ${reason} (${code})` };
      return { class: 'refused', problem: isAboutTheNumber(reason) ? 'number' : 'route', message: `Hubtel refused: ${reason} (${code})` };
    default:
      return null;
  }
}

const DEFAULT_REASONS: Record<string, string> = {
  [HUBTEL_CODES.failed]: 'general failure',
  [HUBTEL_CODES.failedWithReason]: 'general failure',
  [HUBTEL_CODES.invalidRequest]: 'invalid request',
  [HUBTEL_CODES.validation]: 'validation errors',
  [HUBTEL_CODES.insufficientBalance]: 'insufficient prepaid balance',
  [HUBTEL_CODES.authDenied]: 'authorization denied or prepaid account not found',
  [HUBTEL_CODES.permissionDenied]: 'permission denied',
};

/** Hubtel's reason in plain words: the transaction's Description, else the Message, else the code's meaning. */
function reasonOf(code: string, body: unknown, data: unknown): string {
  const text = nonEmpty(hubtelString(data, 'description')) ?? messageOf(body) ?? DEFAULT_REASONS[code] ?? 'no reason given';
  return plainWords(text);
}

function describeCode(code: string, body: unknown): string {
  const message = messageOf(body);
  return message === null ? `code ${code}` : `code ${code} (${plainWords(message)})`;
}

/** One line, no trailing full stop, lower-case start (unless an acronym), at most 200 characters. */
function plainWords(text: string): string {
  let line = text.replace(/\s+/g, ' ').trim().replace(/[.\s]+$/, '');
  if (line.length > 200) line = `${line.slice(0, 199)}…`;
  if (/^[A-Z][a-z]/.test(line)) line = line.charAt(0).toLowerCase() + line.slice(1);
  return line === '' ? 'no reason given' : line;
}

const NUMBER_WORDS =
  /destination|recipient|receiving user|msisdn|subscriber|phone number|mobile (number|value)|(invalid|wrong|unknown|unregistered|not registered|barred|ineligible|not eligible)\b.{0,20}\bnumber|\bnumber\b.{0,20}(invalid|not valid|not registered|barred|ineligible|not eligible)/i;

/** Whether Hubtel's reason is about the beneficiary's number (the delivery then fails: another route would refuse too). */
export function isAboutTheNumber(reason: string): boolean {
  return NUMBER_WORDS.test(reason);
}

// Hubtel does not document the duplicate's wording. Our references are always valid (at most 36
// letters and digits), so any validation error about the reference is taken for a duplicate.
const DUPLICATE_WORDS = /reference|duplicate/i;

/** Whether a 4000/4010 is about the ClientReference: the first submission may be held there. */
export function isDuplicateReference(reason: string): boolean {
  return DUPLICATE_WORDS.test(reason);
}

/**
 * What the purchase costs the platform: Amount − Commission (GHS), in pesewas; null when no
 * commission is reported. The Amount is the bundle's, as listed and asked: Hubtel debits that
 * (AmountDebited), while the answer's Data.Amount is inconsistent in Hubtel's own samples.
 */
function costOf(data: unknown, askedGhs: number): number | null {
  const commission = hubtelNumber(hubtelField(data, 'meta'), 'commission');
  if (commission === null || commission < 0 || commission > askedGhs) return null;
  return ghsToPesewas(askedGhs - commission);
}

function isCredentialRefusal(status: number): boolean {
  return status === 401 || status === 403;
}

function credentialRefusal(status: number): string {
  return `Hubtel refused the call (HTTP ${status}): check the credentials, the prepaid deposit id and IP whitelisting`;
}

function stop(answer: SubmitAnswer): BundleChoice {
  return { found: false, answer };
}

function nonEmpty(value: string | null): string | null {
  return value === null || value === '' ? null : value;
}

function ghs(pesewas: number): string {
  return (pesewas / 100).toFixed(2);
}
