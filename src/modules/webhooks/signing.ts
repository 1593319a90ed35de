import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks v1 signatures: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed
 * with the bytes after "whsec_"; several signatures are separated by spaces (a rotation's overlap).
 */

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a webhook secret starts with whsec_');
  return Buffer.from(secret.slice(PREFIX.length), 'base64');
}

/** The webhook-signature header for `body`, one signature per secret (newest first). */
export function signatureHeader(secrets: readonly string[], id: string, timestampS: number, body: string): string {
  const signed = `${id}.${timestampS}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`).join(' ');
}
