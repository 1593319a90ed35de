import { ORDER_STATES, ORDER_TYPES, type OrderState, type OrderType } from '../../db/schema.js';
import { invalid } from '../../domain/errors.js';
import { decodeCursor, type KeysetPosition } from '../../lib/cursor.js';
import type { OrdersQuery } from './schemas.js';

export const DEFAULT_ORDER_TYPES: OrderType[] = ['data', 'result_checker'];
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

export interface ListQuery {
  types: OrderType[] | null;
  state: OrderState | null;
  limit: number;
  after: KeysetPosition | null;
}

/** Each bad value is a 400; orderType has its own code, a limit above 100 is capped (docs/errors.md, "Codes of the platform"). */
export function parseListQuery(query: OrdersQuery): ListQuery {
  let types: OrderType[] | null = DEFAULT_ORDER_TYPES;
  if (query.orderType !== undefined && query.orderType !== '') {
    const wanted = query.orderType.trim();
    if (wanted === 'all') types = null;
    else {
      const type = ORDER_TYPES.find((t) => t === wanted);
      if (!type) throw invalid('INVALID_ORDER_TYPE', `orderType must be one of ${[...ORDER_TYPES, 'all'].join(', ')}`);
      types = [type];
    }
  }
  let state: OrderState | null = null;
  if (query.state !== undefined && query.state !== '') {
    const found = ORDER_STATES.find((s) => s === query.state?.trim());
    if (!found) throw invalid('INVALID_REQUEST', `state must be one of ${ORDER_STATES.join(', ')}`);
    state = found;
  }
  let limit = DEFAULT_LIMIT;
  if (query.limit !== undefined && query.limit !== '') {
    const raw = query.limit.trim();
    const value = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(value) || value < 1) throw invalid('INVALID_REQUEST', 'limit must be an integer from 1 to 100');
    limit = Math.min(value, MAX_LIMIT);
  }
  let after: KeysetPosition | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    after = decodeCursor(query.cursor);
    if (!after) throw invalid('INVALID_REQUEST', 'cursor is not a continueCursor returned by this endpoint');
  }
  return { types, state, limit, after };
}
