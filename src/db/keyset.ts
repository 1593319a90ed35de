import { sql, type Expression, type SqlBool } from 'kysely';
import type { PageRequest } from '../lib/staff-page.js';

/**
 * The SQL side of a keyset page (src/lib/staff-page.ts): the row-value comparison with the cursor
 * (both engines seek an index on (…, created_at, id) to it; spelled with OR, SQLite would scan every
 * newer row first) and the order to read in. Repositories apply both, then limit to limit + 1.
 */
export function keysetSeek(createdAt: string, id: string, page: PageRequest): { where: Expression<SqlBool> | null; order: 'asc' | 'desc' } {
  const order = page.direction === 'older' ? 'desc' : 'asc';
  const cursor = page.cursor;
  if (cursor === null) return { where: null, order };
  const operator = sql.raw(page.direction === 'older' ? '<' : '>');
  return { where: sql<SqlBool>`(${sql.ref(createdAt)}, ${sql.ref(id)}) ${operator} (${cursor.createdAt}, ${cursor.id})`, order };
}
