import type SQLite from 'better-sqlite3';

/**
 * What Kysely's SQLite driver and our precompiled reads use of a prepared statement: `reader`,
 * `all`, `run` and `iterate`, exactly as better-sqlite3 defines them.
 */
export interface CachedStatement {
  readonly reader: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SQLite.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * better-sqlite3 builds each result row as an object property by property in C++, which costs
 * more than reading the row (measured 2026-11, better-sqlite3 12: 21 rows of 30 columns took ~180 µs
 * as objects and ~70 µs as arrays). So readers fetch arrays and turn them into objects here, with a constructor generated once per
 * statement: every row then has one fixed shape that V8 builds in one step. Column names come from
 * our own SQL and are embedded as JSON string literals, never as code.
 */
function rowBuilder(columns: readonly string[]): RowBuilder {
  // A name that appears twice keeps its last value, as better-sqlite3's own objects do.
  const last = new Map(columns.map((name, index) => [name, index]));
  const fields = [...last].map(([name, index]) => `${JSON.stringify(name)}: v[${index}]`);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from JSON string literals only (see above).
  return new Function('v', `return { ${fields.join(', ')} };`) as RowBuilder;
}

function wrap(statement: SQLite.Statement): CachedStatement {
  if (!statement.reader) {
    return {
      reader: false,
      all: (parameters) => statement.all(parameters),
      run: (parameters) => statement.run(parameters),
      iterate: (parameters) => statement.iterate(parameters),
    };
  }
  statement.raw(true);
  const toRow = rowBuilder(statement.columns().map((column) => column.name));
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toRow),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * The `prepare` Kysely's SqliteDialect calls, keeping prepared statements (an LRU keyed by SQL
 * text): our queries are a small fixed set of texts, and Kysely would otherwise prepare each anew.
 */
export function withStatementCache(handle: SQLite.Database): { close(): void; prepare(text: string): CachedStatement } {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => handle.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = wrap(handle.prepare(text));
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}
