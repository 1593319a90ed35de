/**
 * Buys a data bundle in test mode and waits for the outcome.
 *
 *   npm run demo                                   # in one terminal: the API on http://127.0.0.1:8080
 *   npx tsx clients/typescript/examples/buy-bundle.ts   # in another
 *
 * Environment (all optional): PARTNER_API_URL (default http://127.0.0.1:8080), PARTNER_API_KEY
 * (default: the demo's test key), MSISDN (default 0244123456; a number ending 0000 fails, see the
 * sandbox test numbers), PACKAGE_ID / PRODUCT_ID / OPERATOR_ID (default: MTN 1GB of the demo catalog).
 * Exit code 0 when the bundle was delivered, 1 when the order failed or the API refused it.
 */
import { createPartnerApi, OrderFailedError, PartnerApiError } from '../src/index.js';

const env = process.env;
const api = createPartnerApi({
  baseUrl: env.PARTNER_API_URL ?? 'http://127.0.0.1:8080',
  apiKey: env.PARTNER_API_KEY ?? 'service_test_demoAmaMensahTest0001',
});

try {
  const profile = await api.getProfile();
  console.log(`${profile.fullName} (${profile.role}): ${profile.walletAvailableBalance.toFixed(2)} GHS available`);

  const bundle = {
    operatorId: env.OPERATOR_ID ?? 'op_mtn',
    productId: env.PRODUCT_ID ?? 'prd_mtn_data',
    packageId: env.PACKAGE_ID ?? 'pkg_mtn_1gb',
    beneficiaryMsisdn: env.MSISDN ?? '0244123456',
  };
  const pkg = await api.getDataPackage(bundle.packageId);
  console.log(`buying ${pkg.label} (${pkg.price.toFixed(2)} GHS) for ${bundle.beneficiaryMsisdn}`);

  // One Idempotency-Key per purchase: sending this same call again (after a timeout, say) never buys twice.
  const idempotencyKey = crypto.randomUUID();
  const order = await api.buyDataSingle(bundle, { idempotencyKey });
  console.log(
    `order ${order.orderId} (${order.shortReference}) is ${order.status}; wallet ${order.walletBalanceBefore} → ${order.walletBalanceAfter} GHS`,
  );

  const final = await api.waitForOrder(order.orderId, { intervalMs: Number(env.POLL_INTERVAL_MS ?? 1000) });
  if (final.state === 'Failed') throw new OrderFailedError(final);
  console.log(`order ${final.orderId}: ${final.state}`);
} catch (error) {
  if (error instanceof OrderFailedError) {
    console.log(`order ${error.order.orderId}: Failed (${error.message}); the wallet was refunded`);
  } else if (error instanceof PartnerApiError) {
    console.log(`refused: ${error.status} ${error.code}: ${error.message}`);
  } else {
    throw error;
  }
  process.exitCode = 1;
}
