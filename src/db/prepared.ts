import type { CompiledQuery, Kysely } from 'kysely';
import type { Database } from './connection.js';
import type { DB } from './schema.js';

/**
 * Hot read queries, built with Kysely once per database and then run as plain SQL with new
 * parameters: the same query text as the builder would produce, minus the cost of building and
 * compiling it on every request. Arguments must be used as plain values (no `in` lists).
 */

const SENTINEL = '\u0000arg:';

interface Slot {
  arg?: number;
  value?: unknown;
}

interface Compiled {
  sql: string;
  slots: Slot[];
}

export function prepared<Args extends unknown[], Row>(
  build: (db: Kysely<DB>, ...args: Args) => { compile(): CompiledQuery<Row> },
): (database: Database, ...args: Args) => Promise<Row[]> {
  const byDatabase = new WeakMap<Database, Compiled>();
  const compile = (database: Database): Compiled => {
    const placeholders = Array.from({ length: build.length - 1 }, (_, i) => `${SENTINEL}${i}`) as unknown as Args;
    const query = build(database.read, ...placeholders).compile();
    const slots = query.parameters.map((value): Slot => {
      if (typeof value === 'string' && value.startsWith(SENTINEL)) return { arg: Number(value.slice(SENTINEL.length)) };
      return { value };
    });
    const compiled = { sql: query.sql, slots };
    byDatabase.set(database, compiled);
    return compiled;
  };
  return (database, ...args) => {
    const { sql, slots } = byDatabase.get(database) ?? compile(database);
    return database.readRows<Row>(
      sql,
      slots.map((slot) => (slot.arg === undefined ? slot.value : args[slot.arg])),
    );
  };
}
