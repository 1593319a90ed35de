import { decodeCursor, encodeCursor, type KeysetPosition } from './cursor.js';

/**
 * Keyset paging of the staff lists (console, CLI): newest first, ordered by (created_at, id), so
 * a page never shifts when rows are added meanwhile. A page is asked for from a cursor in one of two
 * directions: `older` (rows after it in the list) or `newer` (rows before it).
 */
export interface PageRequest {
  cursor: KeysetPosition | null;
  direction: 'older' | 'newer';
  /** Rows per page. */
  limit: number;
}

export interface Page<T> {
  /** Newest first. */
  rows: T[];
  /** The cursor of the page before this one (newer rows), null on the first page. */
  newer: string | null;
  /** The cursor of the page after this one (older rows), null on the last page. */
  older: string | null;
}

export const FIRST_PAGE = (limit: number): PageRequest => ({ cursor: null, direction: 'older', limit });

/** What the caller asked for: `older` / `newer` cursors as the links carry them (at most one is given). */
export function pageRequest(links: { older?: string | undefined; newer?: string | undefined }, limit: number): PageRequest | null {
  const text = links.older || links.newer;
  if (!text) return FIRST_PAGE(limit);
  const cursor = decodeCursor(text);
  if (!cursor) return null;
  return { cursor, direction: links.older ? 'older' : 'newer', limit };
}

interface Keyed {
  created_at: number | string;
  id: string;
}

const positionOf = (row: Keyed): KeysetPosition => ({ createdAt: Number(row.created_at), id: row.id });

/** Newest first: created_at descending, then id descending. */
export function newestFirst(a: Keyed, b: Keyed): number {
  const byTime = Number(b.created_at) - Number(a.created_at);
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

/**
 * The page from the rows read for `request`: up to limit + 1 rows, in the direction's order (newest
 * first for `older`, oldest first for `newer`); the extra row only tells that there are more.
 */
export function pageOf<T extends Keyed>(fetched: readonly T[], request: PageRequest): Page<T> {
  const more = fetched.length > request.limit;
  const shown = fetched.slice(0, request.limit);
  if (request.direction === 'older') {
    const last = shown.at(-1);
    const first = shown[0];
    return {
      rows: shown,
      newer: request.cursor !== null && first ? encodeCursor(positionOf(first)) : null,
      older: more && last ? encodeCursor(positionOf(last)) : null,
    };
  }
  const rows = [...shown].reverse();
  const first = rows[0];
  const last = rows.at(-1);
  return {
    rows,
    newer: more && first ? encodeCursor(positionOf(first)) : null,
    older: last ? encodeCursor(positionOf(last)) : null,
  };
}

/**
 * Several reads of one list (each already in the direction's order, each up to limit + 1 rows)
 * merged into one: the first limit + 1 rows of their union, without repeats.
 */
export function mergeReads<T extends Keyed>(reads: readonly (readonly T[])[], request: PageRequest): T[] {
  const seen = new Set<string>();
  const merged: T[] = [];
  for (const row of reads.flat()) {
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    merged.push(row);
  }
  merged.sort(request.direction === 'older' ? newestFirst : (a, b) => newestFirst(b, a));
  return merged.slice(0, request.limit + 1);
}

/**
 * Reads a page with `read` (which returns up to limit + 1 rows in the direction's order). A newer
 * page that reaches the top of the list is the first page, full, rather than a short one.
 */
export async function readPage<T extends Keyed>(request: PageRequest, read: (request: PageRequest) => Promise<T[]>): Promise<Page<T>> {
  const fetched = await read(request);
  if (request.direction === 'newer' && fetched.length <= request.limit) {
    const first = FIRST_PAGE(request.limit);
    return pageOf(await read(first), first);
  }
  return pageOf(fetched, request);
}
