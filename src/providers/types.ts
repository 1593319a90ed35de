import type { Mode } from '../domain/types.js';

/**
 * What the delivery module needs from an upstream (docs/live-delivery.md): one adapter per upstream
 * submits one attempt under its reference, follows it (status by the upstream's transaction id,
 * lookup by our reference) and classifies every answer. An adapter never throws for what the
 * upstream said or did not say: a timeout, a reset connection, a 5xx or a body it cannot read is
 * an `unknown` answer; only a bug of ours throws.
 */

export const PROVIDER_NAMES = ['sandbox', 'hubtel', 'reloadly', 'dtone'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
export const UPSTREAM_NAMES = ['hubtel', 'reloadly', 'dtone'] as const;
export type UpstreamName = (typeof UPSTREAM_NAMES)[number];

/**
 * One way of delivering a data package (docs/live-delivery.md, "Routes"). Money in pesewas: `amount`
 * is what the upstream is asked for (Hubtel: the bundle's Amount; Reloadly: the local amount),
 * `cost` what the route costs the platform when the upstream's answer does not say.
 */
export type Route =
  | { provider: 'sandbox'; cost?: number }
  | { provider: 'hubtel'; serviceId: string; bundle: string; amount: number; cost?: number }
  | { provider: 'reloadly'; operatorId: number; amount: number; cost?: number }
  | { provider: 'dtone'; productId: number; cost?: number };

export type RouteOf<P extends ProviderName> = Extract<Route, { provider: P }>;

/** One submission to an upstream, as the attempt row recorded it before the call. */
export interface AttemptRequest<R extends Route = Route> {
  /** At most 36 letters and digits, unique per attempt: the upstream's idempotency field. */
  reference: string;
  /** Normalised beneficiary, international form without "+" (233244123456). */
  msisdn: string;
  route: R;
  /** The package sold, and the price the partner paid (pesewas): for the sandbox and logs. */
  packageId: string;
  price: number;
  mode: Mode;
  /** Where the upstream should call back, or null (no PUBLIC_BASE_URL: status checks alone). */
  callbackUrl: string | null;
}

/** An attempt the upstream may know: follow it by its transaction id, or find it by our reference. */
export interface AttemptHandle<R extends Route = Route> {
  reference: string;
  /** The upstream's id of the transaction, once an answer gave it. */
  transactionId: string | null;
  msisdn: string;
  route: R;
  /** When the attempt was recorded (unix ms): lookups by date search from shortly before it. */
  createdAt: number;
}

/**
 * Every answer of an upstream, classified (docs/live-delivery.md, "One delivery, many attempts"):
 * - `accepted`: the upstream took it and has not finished; follow by callback and status checks.
 *   `cost` (pesewas) when the answer already says what it will cost in GHS (Hubtel's commission).
 * - `completed`: delivered. `cost` in pesewas when the upstream reported it in GHS.
 * - `refused`: nothing was delivered. `problem: 'number'` (invalid, barred, ineligible number) fails
 *   the delivery; `'route'` (float, product, limits, auth) moves on to the next route. `retryAfterMs`:
 *   with no route left, try again this much later instead of failing (Reloadly PHONE_RECENTLY_RECHARGED).
 * - `failed`: the upstream took it, then failed it (nothing delivered), with the same two problems.
 * - `unknown`: the upstream may have taken it (timeout, reset, 5xx, a reference already used);
 *   never another route: look the reference up at the same upstream.
 * - `absent`: a lookup proved the upstream has no transaction under the reference.
 */
export type UpstreamAnswer =
  | { class: 'accepted'; transactionId: string | null; message?: string; checkAfterMs?: number; cost?: number }
  | { class: 'completed'; transactionId: string | null; cost?: number; message?: string }
  | { class: 'refused'; problem: 'number' | 'route'; message: string; retryAfterMs?: number; lowFloat?: boolean }
  | { class: 'failed'; problem: 'number' | 'route'; transactionId: string | null; message: string }
  | { class: 'unknown'; message: string; tokenRefused?: boolean }
  | { class: 'absent'; message?: string };

export type SubmitAnswer = Exclude<UpstreamAnswer, { class: 'absent' }>;
/** A status check: the transaction as the upstream has it now. */
export type CheckAnswer = Extract<UpstreamAnswer, { class: 'accepted' | 'completed' | 'failed' | 'unknown' | 'absent' }>;

/** What a callback says about whom: the attempt it wakes (by our reference or the upstream's id). */
export interface CallbackSubject {
  reference: string | null;
  transactionId: string | null;
}

export interface UpstreamAdapter<R extends Route = Route> {
  readonly name: ProviderName;
  /** Submits the attempt once. Never sends a second submission itself. */
  submit(request: AttemptRequest<R>): Promise<SubmitAnswer>;
  /** The transaction's status at the upstream, by its transaction id (or the reference where that is how it is read). */
  check(attempt: AttemptHandle<R>): Promise<CheckAnswer>;
  /** Finds the attempt by our reference: its status when found, `absent` when certainly not there. */
  lookup(attempt: AttemptHandle<R>): Promise<CheckAnswer>;
}

/** Reads who a callback is about; null when the body names no transaction. */
export type CallbackReader = (body: unknown) => CallbackSubject | null;

/** An upstream's float as it reports it, in its own currency and units (docs/live-delivery.md, "Float balances"). */
export interface FloatReading {
  currency: string;
  available: number;
}

/**
 * One transaction as an upstream's own records have it, for reconciliation (docs/live-delivery.md,
 * "Reconciliation"). `state`: delivered, failed (refused after taking it, refunded, reversed) or
 * still in flight. Money in pesewas when the upstream reports it in GHS, else null.
 */
export interface UpstreamRecord {
  reference: string | null;
  transactionId: string | null;
  state: 'delivered' | 'failed' | 'in-flight';
  /** The upstream's own word for the status (SUCCESSFUL, COMPLETED, REVERSED, Paid…). */
  status: string;
  /** What was asked or delivered (GHS amounts; DT One: null, its product is the route's). */
  amount: number | null;
  /** What it cost the platform. */
  cost: number | null;
  /** When the upstream dates it (unix ms), when it says. */
  at: number | null;
}

/** A read of an upstream's books that did not get an answer (no answer, HTTP error, a body we cannot read). */
export class UpstreamReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamReadError';
  }
}

/**
 * What reconciliation and the float reading need of an upstream, beside delivering. Reloadly and DT
 * One list their transactions by date (`transactions`, paged: one array a page); Hubtel has no list
 * and is asked per reference (`record`). A read that gets no answer throws UpstreamReadError.
 */
export interface UpstreamBooks {
  /** The float, or null when unreadable (Hubtel: no balance read). */
  balance?(): Promise<FloatReading | null>;
  transactions?(window: { from: number; to: number }): AsyncIterable<UpstreamRecord[]>;
  /** The upstream's record of one attempt; null when it certainly has none. */
  record?(attempt: AttemptHandle): Promise<UpstreamRecord | null>;
}

/**
 * Whether an upstream offers a route's product now, read when staff save a route (docs/live-delivery.md,
 * "Routes"): `offered` with what the upstream calls it; `missing` when it answered that it does not
 * offer it (the route is refused); `unread` when the read got no usable answer (no answer, a 5xx, a
 * refused credential): the route is not saved either, since nothing proved it.
 */
export type ProductCheck =
  | { result: 'offered'; detail: string }
  | { result: 'missing'; why: string }
  | { result: 'unread'; why: string };

/** The read an upstream's adapter makes of its own catalogue (Hubtel's bundle list for a test number, Reloadly's operator, DT One's product). */
export interface UpstreamCatalog<R extends Route = Route> {
  offers(route: R): Promise<ProductCheck>;
}
