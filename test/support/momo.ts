import assert from 'node:assert/strict';
import { startPaystackSimulator, type RunningPaystackSimulator } from '../../src/providers/paystack/simulator.js';
import type { TestApp } from './app.js';
import { KEYS } from './keys.js';

/** The number whose charges ask for an OTP in the route tables' simulator. */
export const OTP_NUMBER = '0557999999';

/** A Paystack simulator for an app of the route tables: charges wait for the payer; OTP_NUMBER asks for an OTP. */
export function startRoutesPaystack(): Promise<RunningPaystackSimulator> {
  return startPaystackSimulator({ behaviour: { outcome: 'hang', numbers: { [OTP_NUMBER]: 'send_otp' } } });
}

/** A live Mobile Money top-up of usr_super waiting for its OTP (Records.momoTopUp). */
export async function momoTopUpAwaitingOtp(t: TestApp): Promise<string> {
  const res = await t.call('POST', '/api/v1/top-ups/mobile-money', { key: KEYS.superLive, body: { amount: 10, phone: OTP_NUMBER } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  assert.equal(res.body.data.payment.status, 'send_otp');
  return res.body.data._id as string;
}
