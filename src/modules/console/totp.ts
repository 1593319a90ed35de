import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';

/**
 * Time-based one-time passwords (RFC 6238) through the `otpauth` library: SHA-1, 6 digits, 30-second
 * steps, the parameters every authenticator app reads from an `otpauth://` URI. A code is accepted
 * within one step either side of now (clocks drift); which step it matched is returned so that the
 * caller can refuse it a second time.
 */
export const TOTP_PERIOD_SECONDS = 30;
const ISSUER = 'partner-api console';

/** A new random secret (160 bits, as RFC 4226 recommends), base32 as apps take it. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totp(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The `otpauth://totp/…` URI an authenticator app imports (as a QR code or pasted). */
export function totpUri(secretBase32: string, email: string): string {
  return totp(secretBase32, email).toString();
}

/** The code of `atMs` (tests, and the CLI nothing else). */
export function totpCode(secretBase32: string, atMs: number): string {
  return totp(secretBase32, 'code').generate({ timestamp: atMs });
}

/** The time step of the code when it is valid within ±1 step of `nowMs`, else null. */
export function matchingStep(secretBase32: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32, 'code').validate({ token, timestamp: nowMs, window: 1 });
  if (delta === null) return null;
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

// ---- recovery codes ----

export const RECOVERY_CODE_COUNT = 10;
/** No 0/O, 1/I/L: read off paper without doubt. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten random codes of the form `xxxxx-xxxxx` (about 49 bits each), shown once. */
export function newRecoveryCodes(): string[] {
  const one = () => Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const raw = one();
    return `${raw.slice(0, 5)}-${raw.slice(5)}`;
  });
}

/** Whether what was typed has the shape of a recovery code (not of a TOTP code). */
export const looksLikeRecoveryCode = (typed: string): boolean => /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(typed.trim());

/**
 * How a recovery code is stored: sha-256 of its ten characters, lower-cased, without the dash. A
 * fast hash suffices here (unlike passwords): the codes are random with ~49 bits each, and a guess
 * online is limited like a password.
 */
export const recoveryCodeHash = (typed: string): string =>
  createHash('sha256').update(typed.trim().toLowerCase().replace('-', '')).digest('hex');
