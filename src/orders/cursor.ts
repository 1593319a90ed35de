/**
 * The orders list's continueCursor: an opaque base64url token of the last row's sort key
 * (created_at, id). Keyset pagination on it is stable while new orders are inserted.
 */
export interface OrderCursor {
  createdAt: number;
  id: string;
}

export function encodeCursor(c: OrderCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id]), 'utf8').toString('base64url');
}

/** null when the token is not one this service produced. */
export function decodeCursor(token: string): OrderCursor | null {
  if (token.length === 0 || token.length > 512 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || createdAt < 0) return null;
    if (typeof id !== 'string' || id.length === 0 || id.length > 128) return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
