import type { MomoSettings } from '../../config.js';
import type { TopUpGateway } from '../../db/schema.js';
import type { Clock, Mode } from '../../domain/types.js';
import { PaystackGateway } from './client.js';
import type { PaymentGateway } from './gateway.js';
import { SandboxGateway } from './sandbox.js';

/**
 * The gateway of each mode (docs/mobile-money.md, "Modes"): live keys charge through Paystack with
 * PAYSTACK_SECRET_KEY, test keys with PAYSTACK_TEST_SECRET_KEY or, without it, the built-in sandbox.
 * A charge is always followed by the gateway that took it (`gateway` kept on the top-up).
 */
export function paymentGateways(
  settings: MomoSettings,
  options: { sandboxSettleMs: number; timeoutMs: number; clock: Clock },
): (mode: Mode, gateway?: TopUpGateway) => PaymentGateway | null {
  const paystack = (secretKey: string | null) =>
    secretKey === null ? null : new PaystackGateway({ secretKey, apiUrl: settings.apiUrl, timeoutMs: options.timeoutMs });
  const live = paystack(settings.liveSecretKey);
  const test = paystack(settings.testSecretKey);
  const sandbox = new SandboxGateway(options.sandboxSettleMs, options.clock);
  return (mode, gateway) => {
    if (mode === 'live') return gateway === 'sandbox' ? null : live;
    if (gateway === 'sandbox') return sandbox;
    if (gateway === 'paystack') return test;
    return test ?? sandbox;
  };
}
