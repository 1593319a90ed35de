import type { Clock } from '../../domain/types.js';
import type { ChargeAnswer, ChargeHandle, PaymentGateway, SuccessfulTransactions, Verification } from './gateway.js';

/**
 * Test mode without PAYSTACK_TEST_SECRET_KEY (docs/mobile-money.md, "Modes"): every charge waits for
 * the payer (pay_offline) and succeeds SANDBOX_SETTLE_MS after it was made; a number ending 0000
 * fails. Nothing is kept here: the answer follows from the charge itself, so any process answers
 * alike and a restart changes nothing.
 */
export class SandboxGateway implements PaymentGateway {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly settleMs: number,
    private readonly clock: Clock,
  ) {}

  charge(): Promise<ChargeAnswer> {
    return Promise.resolve({
      kind: 'charge',
      status: 'pay_offline',
      displayText: 'Sandbox: no prompt is sent; the payment is approved in a moment',
      message: 'Charge attempted',
    });
  }

  submitOtp(): Promise<ChargeAnswer> {
    return Promise.resolve({ kind: 'refused', message: 'The sandbox never asks for an OTP' });
  }

  verify(charge: ChargeHandle): Promise<Verification> {
    const failing = charge.phone.endsWith('0000');
    const settled = this.clock() >= charge.createdAt + this.settleMs;
    const status = failing ? 'failed' : settled ? 'success' : 'ongoing';
    return Promise.resolve({
      kind: 'transaction',
      transaction: {
        reference: charge.reference,
        status,
        amount: charge.amount,
        currency: 'GHS',
        fees: status === 'success' ? 0 : null,
        gatewayResponse: failing ? 'Declined (sandbox: numbers ending 0000 fail)' : settled ? 'Approved (sandbox)' : 'Waiting for the payer (sandbox)',
        paidAt: status === 'success' ? new Date(charge.createdAt + this.settleMs).toISOString() : null,
        channel: 'mobile_money',
      },
    });
  }

  successfulTransactions(): Promise<SuccessfulTransactions> {
    return Promise.resolve({ ok: false, message: 'the test-mode sandbox keeps no transactions to reconcile' });
  }
}
