import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Paystack's webhook signature (docs/paystack-api.md, "Our reading"): `x-paystack-signature` is the
 * hex HMAC-SHA512 of the raw body, keyed with the secret key of the mode that sent it.
 */
export const PAYSTACK_SIGNATURE_HEADER = 'x-paystack-signature';

export function signPaystackWebhook(rawBody: string, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody, 'utf8').digest('hex');
}

export function verifyPaystackSignature(rawBody: string, signature: string | undefined, secretKey: string): boolean {
  if (secretKey === '' || signature === undefined) return false;
  const given = signature.trim();
  if (!/^[0-9a-fA-F]{128}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given, 'hex'), Buffer.from(signPaystackWebhook(rawBody, secretKey), 'hex'));
}
