import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Reloadly's signed callbacks (docs/upstream-apis.md): `X-Reloadly-Signature` is the hex
 * HMAC-SHA256, keyed with the webhook secret from Reloadly's dashboard, of `<raw body>:<timestamp>`,
 * the timestamp being the `X-Reloadly-Request-Timestamp` header as sent.
 *
 * The freshness window: Reloadly's published documents we could read name none, so we take five
 * minutes either way, the usual choice for signed webhooks; a replayed callback could at worst make a
 * status check due early (a callback is a wake-up, never the verdict). The timestamp's unit is not
 * published either: a value below 10^12 is read as seconds, anything larger as milliseconds.
 */
export const RELOADLY_SIGNATURE_WINDOW_MS = 5 * 60_000;

export const RELOADLY_SIGNATURE_HEADER = 'x-reloadly-signature';
export const RELOADLY_TIMESTAMP_HEADER = 'x-reloadly-request-timestamp';

/** The hex signature Reloadly sends with `rawBody` at `timestamp`. */
export function signReloadlyCallback(rawBody: string, timestamp: string, secret: string): string {
  return createHmac('sha256', secret).update(`${rawBody}:${timestamp}`, 'utf8').digest('hex');
}

/** True only for a well-formed signature of this body at a timestamp within the window of `now`. */
export function verifyReloadlySignature(
  rawBody: string,
  timestamp: string | undefined,
  signature: string | undefined,
  secret: string,
  now: number = Date.now(),
): boolean {
  if (secret === '' || timestamp === undefined || signature === undefined) return false;
  const sentAt = timestampMs(timestamp);
  if (sentAt === null || Math.abs(now - sentAt) > RELOADLY_SIGNATURE_WINDOW_MS) return false;
  const given = signature.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = Buffer.from(signReloadlyCallback(rawBody, timestamp, secret), 'hex');
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}

function timestampMs(timestamp: string): number | null {
  if (!/^\d{1,16}$/.test(timestamp.trim())) return null;
  const value = Number(timestamp.trim());
  return value < 1e12 ? value * 1000 : value;
}
