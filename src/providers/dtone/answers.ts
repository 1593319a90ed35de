import { field, ghsToPesewas, numberField, stringField } from '../http.js';
import type { CheckAnswer, SubmitAnswer } from '../types.js';

/**
 * How DT One's answers read (docs/upstream-apis.md, "DT One DVS v1"): a transaction's status
 * class decides, its status message gives the reason; an error body's codes decide when there is
 * no transaction. Pure functions of the parsed body, so the adapter only moves bytes.
 */

type StatusClass = 'in-flight' | 'completed' | 'failed' | 'reversed';

/** Status classes by id. Ids are not in DT One's published specification (it names classes only); names win when both are given. */
const CLASS_BY_ID: Record<number, { name: string; kind: StatusClass }> = {
  1: { name: 'CREATED', kind: 'in-flight' },
  2: { name: 'CONFIRMED', kind: 'in-flight' },
  3: { name: 'REJECTED', kind: 'failed' },
  4: { name: 'CANCELLED', kind: 'failed' },
  5: { name: 'SUBMITTED', kind: 'in-flight' },
  7: { name: 'COMPLETED', kind: 'completed' },
  8: { name: 'REVERSED', kind: 'reversed' },
  9: { name: 'DECLINED', kind: 'failed' },
};
const CLASS_BY_NAME = new Map(Object.values(CLASS_BY_ID).map((c) => [c.name, c]));

/** A status message made comparable: "Declined - Credit party is invalid" and "DECLINED-INVALID-CREDIT-PARTY" alike. */
const normalised = (message: string) =>
  message
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Reasons that fail the delivery whatever the route: the number itself. Debit-party reasons are about the sender (us), not the number. */
const NUMBER_REASONS: { pattern: RegExp; words: string }[] = [
  { pattern: /INVALID-CREDIT-PARTY|CREDIT-PARTY-IS-INVALID/, words: 'the number is invalid' },
  { pattern: /BARRED-CREDIT-PARTY|CREDIT-PARTY-IS-BARRED/, words: 'the number is barred' },
  { pattern: /INELIGIBLE-CREDIT-PARTY|CREDIT-PARTY-IS-INELIGIBLE/, words: 'the number is not eligible for this product' },
];

const ROUTE_REASONS: { pattern: RegExp; words: string }[] = [
  { pattern: /OPERATOR-CURRENTLY-UNAVAILABLE/, words: 'the operator is unavailable' },
  { pattern: /INSUFFICIENT-BALANCE/, words: 'insufficient balance' },
  { pattern: /LIMITATIONS-ON/, words: 'a transaction limit was reached' },
  { pattern: /DUPLICATED-TRANSACTION/, words: 'the operator took it for a duplicate' },
  { pattern: /DEBIT-PARTY/, words: 'the sending account was refused' },
  { pattern: /EXCEPTION/, words: 'an error at the operator' },
];

const FAILED_VERB: Record<string, string> = { REJECTED: 'rejected', CANCELLED: 'cancelled', DECLINED: 'declined' };

/** The transaction's class, by the class name when DT One gives one we know, else by its id. */
export function statusClassOf(transaction: unknown): { name: string; kind: StatusClass } | null {
  const statusClass = field(field(transaction, 'status'), 'class');
  const name = stringField(statusClass, 'message');
  const byName = name === null ? undefined : CLASS_BY_NAME.get(normalised(name));
  if (byName) return byName;
  const id = numberField(statusClass, 'id');
  return id === null ? null : (CLASS_BY_ID[id] ?? null);
}

/** What the platform pays for it, in pesewas: wholesale amount plus fee (both are debited), only when DT One states them in GHS. */
export function dtoneCostOf(transaction: unknown): number | undefined {
  const wholesale = field(field(transaction, 'prices'), 'wholesale');
  const unit = stringField(wholesale, 'unit');
  const amount = numberField(wholesale, 'amount');
  if (unit === null || unit.trim().toUpperCase() !== 'GHS' || amount === null || amount < 0) return undefined;
  return ghsToPesewas(amount + (numberField(wholesale, 'fee') ?? 0));
}

/** Classifies a transaction as DT One returned it (the buy's 201, a status read, a list item). */
export function answerForTransaction(transaction: unknown): Exclude<CheckAnswer, { class: 'absent' }> {
  const transactionId = stringField(transaction, 'id');
  const statusClass = statusClassOf(transaction);
  const statusMessage = stringField(field(transaction, 'status'), 'message') ?? statusClass?.name ?? 'no status';
  if (transactionId === null || statusClass === null) {
    return { class: 'unknown', message: `DT One answered with a transaction we cannot read (status: ${statusMessage})` };
  }
  const cost = dtoneCostOf(transaction);
  switch (statusClass.kind) {
    case 'in-flight':
      return { class: 'accepted', transactionId, message: `DT One is processing it (${statusMessage})`, ...(cost === undefined ? {} : { cost }) };
    case 'completed':
      return { class: 'completed', transactionId, ...(cost === undefined ? {} : { cost }) };
    case 'reversed':
      // The bundle was delivered, then DT One put the money back: the attempt stays completed and
      // reconciliation reports the reversal.
      return {
        class: 'completed',
        transactionId,
        message: `DT One reversed this transaction after completing it (${statusMessage}): reconciliation reports it`,
        ...(cost === undefined ? {} : { cost }),
      };
    case 'failed': {
      const reasonKey = normalised(statusMessage);
      const numberReason = NUMBER_REASONS.find((r) => r.pattern.test(reasonKey));
      const reason = numberReason ?? ROUTE_REASONS.find((r) => r.pattern.test(reasonKey));
      const verb = FAILED_VERB[statusClass.name] ?? 'failed';
      return {
        class: 'failed',
        problem: numberReason ? 'number' : 'route',
        transactionId,
        message: `DT One ${verb} it: ${reason?.words ?? 'no reason given'} (${statusMessage})`,
      };
    }
  }
}

interface DtoneError {
  code: number | null;
  message: string;
}

/** The `{ errors: [{ code, message }] }` of an error answer; empty when the body has none. */
export function dtoneErrorsOf(body: unknown): DtoneError[] {
  const errors = field(body, 'errors');
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => ({ code: numberField(e, 'code'), message: (stringField(e, 'message') ?? '').trim().slice(0, 200) }));
}

type ErrorMeaning = { kind: 'unknown' | 'number' | 'route'; words: string; lowFloat?: true };

/** What each documented code means for a submission (DT One's API error codes). */
const ERROR_MEANINGS: Record<number, ErrorMeaning> = {
  1000400: { kind: 'route', words: 'bad request' },
  1000401: { kind: 'route', words: 'our credentials were refused' },
  1000404: { kind: 'route', words: 'resource not found' },
  1000429: { kind: 'unknown', words: 'too many requests' },
  1003001: { kind: 'route', words: 'product not available' },
  1003002: { kind: 'route', words: 'product amount out of range' },
  1003003: { kind: 'route', words: 'product unit invalid' },
  1005003: { kind: 'number', words: 'invalid mobile number' },
  1005004: { kind: 'route', words: 'service not found' },
  1005005: { kind: 'route', words: 'country not found' },
  1005006: { kind: 'route', words: 'operator not found' },
  1006001: { kind: 'route', words: 'insufficient balance', lowFloat: true },
  1006009: { kind: 'route', words: 'account balance not found' },
  1006503: { kind: 'number', words: 'invalid beneficiary mobile number' },
  1007001: { kind: 'unknown', words: 'this reference was already used; look it up' },
  1007500: { kind: 'route', words: 'method not supported by the operator' },
  1008004: { kind: 'unknown', words: 'transaction not found' },
  1009001: { kind: 'unknown', words: 'unexpected error at DT One' },
  1009503: { kind: 'unknown', words: 'service unavailable' },
};

/** The meaning of a code we do not know, by the HTTP status that carried it. */
function meaningByStatus(status: number): ErrorMeaning {
  if (status === 401 || status === 403) return { kind: 'route', words: 'our credentials were refused' };
  if (status === 408 || status === 429 || status >= 500) return { kind: 'unknown', words: `HTTP ${status}` };
  return { kind: 'route', words: `HTTP ${status}` };
}

const SEVERITY: Record<ErrorMeaning['kind'], number> = { unknown: 2, number: 1, route: 0 };

/** Classifies a submission's non-2xx answer (or a 2xx without a transaction): unknown wins over number, number over route. */
export function answerForSubmitError(status: number, body: unknown): SubmitAnswer {
  if (status < 400) return { class: 'unknown', message: `DT One answered ${status} without a transaction we can read` };
  const errors = dtoneErrorsOf(body);
  if (errors.length === 0) {
    if (meaningByStatus(status).kind === 'unknown') return { class: 'unknown', message: `DT One answered ${status} with a body we cannot read` };
    return { class: 'refused', problem: 'route', message: `DT One refused it: HTTP ${status} with a body we cannot read` };
  }
  const read = errors.map((e) => ({ ...e, meaning: (e.code === null ? undefined : ERROR_MEANINGS[e.code]) ?? meaningByStatus(status) }));
  const decisive = read.reduce((worst, e) => (SEVERITY[e.meaning.kind] > SEVERITY[worst.meaning.kind] ? e : worst));
  const described = describeErrors(read);
  if (decisive.meaning.kind === 'unknown') return { class: 'unknown', message: `DT One answered ${status}: ${described}` };
  const lowFloat = read.some((e) => e.meaning.lowFloat === true);
  return { class: 'refused', problem: decisive.meaning.kind, message: `DT One refused it: ${described}`, ...(lowFloat ? { lowFloat } : {}) };
}

/** The errors of an answer in plain words, each with its code: "insufficient balance (1006001)". */
export function describeErrors(errors: DtoneError[]): string {
  return errors
    .map((e) => {
      const words = (e.code === null ? undefined : ERROR_MEANINGS[e.code]?.words) ?? (e.message || 'no message');
      return e.code === null ? words : `${words} (${e.code})`;
    })
    .join('; ');
}
