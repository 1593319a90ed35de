import type { MomoNetwork, PaymentStatus, TopUpGateway } from '../../db/schema.js';

/**
 * What Mobile Money top-ups need from a payment gateway (docs/mobile-money.md): start a charge, pass
 * an OTP on, verify a transaction by our reference, list the successful ones of a period. An
 * adapter classifies every answer and never throws for what the gateway did or did not say; the
 * top-up module decides what an answer means for the money.
 */

/** The gateway's answer to a charge or an OTP. */
export type ChargeAnswer =
  /** The gateway took it: the charge's status and what to tell the payer. */
  | { kind: 'charge'; status: PaymentStatus; displayText: string; message: string }
  /** The gateway refused it (4xx with `status: false`): nothing was charged. */
  | { kind: 'refused'; message: string }
  /** No answer we can read (timeout, reset, 5xx, unreadable body): the gateway may have taken it. */
  | { kind: 'unknown'; message: string };

export interface VerifiedTransaction {
  reference: string;
  /** success, failed, abandoned, reversed, ongoing, pending, … (the document publishes no closed list). */
  status: string;
  /** Pesewas. */
  amount: number;
  currency: string;
  /** Pesewas the gateway kept, when it says. */
  fees: number | null;
  gatewayResponse: string;
  paidAt: string | null;
  channel: string;
}

/** The gateway's answer to a verification. */
export type Verification =
  | { kind: 'transaction'; transaction: VerifiedTransaction }
  /** The gateway has no transaction with this reference (404). */
  | { kind: 'absent'; message: string }
  | { kind: 'unknown'; message: string };

export interface ChargeRequest {
  /** Ours: letters, digits, "-", "." and "=" only. */
  reference: string;
  email: string;
  /** Pesewas. */
  amount: number;
  /** Local form, 0XXXXXXXXX. */
  phone: string;
  network: MomoNetwork;
  metadata: Record<string, string>;
}

/** What a verification needs to know of the charge (the built-in sandbox derives its answer from it). */
export interface ChargeHandle {
  reference: string;
  amount: number;
  /** 233… */
  phone: string;
  createdAt: number;
}

export type SuccessfulTransactions = { ok: true; transactions: VerifiedTransaction[] } | { ok: false; message: string };

export interface PaymentGateway {
  readonly name: TopUpGateway;
  charge(request: ChargeRequest): Promise<ChargeAnswer>;
  submitOtp(reference: string, otp: string): Promise<ChargeAnswer>;
  verify(charge: ChargeHandle): Promise<Verification>;
  /** Successful Mobile Money transactions created from `from` to `to` (every page). */
  successfulTransactions(from: Date, to: Date): Promise<SuccessfulTransactions>;
}

/** Our networks as Paystack names their providers. */
export const PAYSTACK_PROVIDER: Record<MomoNetwork, string> = { MTN: 'mtn', TELECEL: 'vod', AT: 'atl' };

export const PAYMENT_STATUSES: readonly PaymentStatus[] = ['pay_offline', 'send_otp', 'pending', 'success', 'failed'];

/** A charge status as we keep it: Paystack's own when it is one of ours, else pending (still open). */
export function paymentStatusOf(status: unknown): PaymentStatus {
  if (typeof status === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(status)) return status as PaymentStatus;
  if (status === 'abandoned') return 'failed';
  return 'pending';
}
