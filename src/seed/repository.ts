import type { Executor } from '../db/connection.js';
import type { Role } from '../db/schema.js';

/** Reads the seed import needs for order history; lists are queried in chunks to stay under bind-parameter limits. */

const IN_CHUNK = 1000;

async function inChunks<T>(values: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < values.length; start += IN_CHUNK) out.push(...(await read(values.slice(start, start + IN_CHUNK))));
  return out;
}

/** Which of `ids` are already orders (of any type or owner). */
export async function existingOrderIds(db: Executor, ids: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(ids, (chunk) => db.selectFrom('orders').select('id').where('id', 'in', chunk).execute());
  return new Set(rows.map((r) => r.id));
}

/** Which of `references` are already some order's short reference. */
export async function takenShortReferences(db: Executor, references: readonly string[]): Promise<Set<string>> {
  const rows = await inChunks(references, (chunk) =>
    db.selectFrom('orders').select('short_reference').where('short_reference', 'in', chunk).execute(),
  );
  return new Set(rows.map((r) => r.short_reference));
}

export async function profileRoles(db: Executor, ids: readonly string[]): Promise<Map<string, Role>> {
  const rows = await inChunks(ids, (chunk) => db.selectFrom('profiles').select(['id', 'role']).where('id', 'in', chunk).execute());
  return new Map(rows.map((r) => [r.id, r.role]));
}
