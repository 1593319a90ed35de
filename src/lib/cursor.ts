/**
 * Opaque keyset cursor for newest-first lists ordered by (created_at desc, id desc).
 * The wire form is base64url JSON; callers see only a string they pass back as `cursor`.
 */
export interface KeysetPosition {
  createdAt: number;
  id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names, or null when the text is not a cursor this service issued. */
export function decodeCursor(cursor: string): KeysetPosition | null {
  if (cursor.length === 0 || cursor.length > 512 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 2) return null;
  const [createdAt, id] = value as unknown[];
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0) return null;
  if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
  return { createdAt, id };
}
