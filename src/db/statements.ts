import { createHash } from 'node:crypto';
import type { CompiledQuery, Insertable, Kysely, Updateable } from 'kysely';
import type { DialectName } from './dialect.js';
import type { DB } from './schema.js';

/**
 * SQL of one database, compiled once and then bound with new parameters. A repository describes
 * its statements with Kysely's builder when it is built (once per database, in the composition
 * root); each call only binds values: the same text the builder would produce, minus building and
 * compiling it (10-25 µs a call when measured in 2026-11, more than most of our statements take to
 * run). The texts form a small fixed set, which PostgreSQL keeps as named prepared statements (see
 * connection.ts).
 */

/** A statement ready to run: its SQL and the values of its parameters. `Row` is what it returns. */
export interface Bound<Row = unknown> {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /**
   * The statement's rows must be written after those of the ordered statements before it (their
   * ids say the order: the ledger's). Never combined with another ordered statement, as the parts
   * of one PostgreSQL statement run in no set order.
   */
  readonly ordered?: boolean;
  /** Only carries the row type. */
  readonly row?: Row;
}

export type Compilable<Row> = { compile(): CompiledQuery<Row> };

const SENTINEL = '\u0000arg:';

interface Slot {
  arg?: number;
  value?: unknown;
}

interface Compiled {
  sql: string;
  slots: Slot[];
}

/** The most rows one statement of insertRows() inserts. */
const ROWS_PER_INSERT = 16;

const placeholder = (index: number) => `${SENTINEL}${index}`;

/** A row of `columns` whose values are the placeholders `first`, `first + 1`, … in column order. */
function placeholderRow(columns: readonly string[], first: number): Record<string, string> {
  return Object.fromEntries(columns.map((column, i) => [column, placeholder(first + i)]));
}

function placeholders<Args extends unknown[]>(count: number): Args {
  return Array.from({ length: count }, (_, i) => placeholder(i)) as unknown as Args;
}

function bindSlots(compiled: Compiled, args: readonly unknown[]): unknown[] {
  return compiled.slots.map((slot) => (slot.arg === undefined ? slot.value : args[slot.arg]));
}

/** The row's columns, as Kysely's values() and set() take them: undefined means "not given". */
function givenColumns(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((column) => record[column] !== undefined);
}

/** A step of shapeByColumns' walk: the shape of the columns so far, if compiled, and the next column's steps. */
interface ColumnsNode {
  compiled?: Compiled;
  next: Map<string, ColumnsNode>;
}

/** Combined texts of recurring combinations, found part by part (each part's string hash is kept by V8). */
interface CombinedNode {
  text?: string;
  next: Map<string, CombinedNode>;
}

export class Statements {
  /** Every text compiled here, and each recurring combination of them. */
  private readonly precompiled = new Set<string>();
  private readonly shapes = new Map<string, Compiled>();
  private readonly combinations: CombinedNode = { next: new Map() };
  private readonly names = new Map<string, string>();
  /** insert() and updateById() shapes by table, then column by column (see shapeByColumns). */
  private readonly insertShapes = new Map<string, ColumnsNode>();
  private readonly updateShapes = new Map<string, ColumnsNode>();

  /** `builder` only compiles (it never runs a query): any Kysely instance of the database's dialect. */
  constructor(
    private readonly builder: Kysely<DB>,
    readonly dialect: DialectName,
  ) {}

  /**
   * A statement described once: `build` receives placeholder arguments, so each argument must be
   * used as a plain value (no `in` lists, no branching on it). Branch on `this.dialect` instead.
   */
  prepare<Args extends unknown[], Row>(build: (qb: Kysely<DB>, ...args: Args) => Compilable<Row>): (...args: Args) => Bound<Row> {
    let compiled: Compiled | undefined;
    return (...args) => {
      compiled ??= this.compile(build(this.builder, ...placeholders<Args>(build.length - 1)));
      return { sql: compiled.sql, parameters: bindSlots(compiled, args) };
    };
  }

  /** An insert of one row, compiled once per table and set of columns (the row's own keys). */
  insert<T extends keyof DB>(table: T, row: Insertable<DB[T]>): Bound {
    const record = row as Record<string, unknown>;
    const columns = givenColumns(record);
    const compiled = this.shapeByColumns(this.insertShapes, table, columns, () =>
      this.builder.insertInto(table).values(placeholderRow(columns, 0) as Insertable<DB[T]>),
    );
    return {
      sql: compiled.sql,
      parameters: bindSlots(
        compiled,
        columns.map((c) => record[c] ?? null),
      ),
    };
  }

  /** `update <table> set <the given columns> where id = ?`, compiled once per table and set of columns. */
  updateById<T extends keyof DB>(table: T, id: string, values: Updateable<DB[T]>): Bound {
    const record = values as Record<string, unknown>;
    const columns = givenColumns(record);
    const compiled = this.shapeByColumns(this.updateShapes, table, columns, () =>
      // Typed per table by the signature; the builder only needs the names to compile.
      (this.builder as unknown as Kysely<Record<string, Record<string, unknown>>>)
        .updateTable(table as string)
        .set(placeholderRow(columns, 0))
        .where('id', '=', placeholder(columns.length)),
    );
    return { sql: compiled.sql, parameters: bindSlots(compiled, [...columns.map((c) => record[c] ?? null), id]) };
  }

  /**
   * A statement whose shape takes a few values (the columns an update sets, the length of an `in`
   * list): compiled once per `key`, which must name the shape. `build` receives one placeholder per
   * value of `args`, used as plain values as in prepare().
   */
  shaped<Row>(key: string, args: readonly unknown[], build: (qb: Kysely<DB>, args: readonly unknown[]) => Compilable<Row>): Bound<Row> {
    const compiled = this.shape(key, () => build(this.builder, placeholders<unknown[]>(args.length)));
    return { sql: compiled.sql, parameters: bindSlots(compiled, args) };
  }

  /**
   * A statement with one `in` list (a worker's batch), compiled once per list length rounded up to
   * a power of two: the list is padded with its last value, which an `in` ignores, so batches of 1
   * to 200 take one of nine shapes. `build` receives one placeholder per value of `fixed`, then one
   * per value of the padded list, used as plain values as in prepare().
   */
  withList<Row>(
    key: string,
    fixed: readonly unknown[],
    list: readonly unknown[],
    build: (qb: Kysely<DB>, fixed: readonly unknown[], list: readonly unknown[]) => Compilable<Row>,
  ): Bound<Row> {
    const last = list.at(-1);
    if (last === undefined) throw new Error(`${key}: an empty list`);
    const size = 2 ** Math.ceil(Math.log2(list.length));
    const compiled = this.shape(`${key} [${size}]`, () => {
      const slots = placeholders<unknown[]>(fixed.length + size);
      return build(this.builder, slots.slice(0, fixed.length), slots.slice(fixed.length));
    });
    const parameters = [...fixed, ...list];
    for (let i = list.length; i < size; i++) parameters.push(last);
    return { sql: compiled.sql, parameters: bindSlots(compiled, parameters) };
  }

  /**
   * Rows of one table with the same columns, inserted in their order by statements of at most
   * ROWS_PER_INSERT rows, each compiled once per number of rows: one statement for a typical batch,
   * and a bounded set of shapes for any. One row is insert()'s statement.
   */
  insertRows<T extends keyof DB>(table: T, rows: readonly Insertable<DB[T]>[]): Bound[] {
    const [first] = rows;
    if (first === undefined) return [];
    if (rows.length === 1) return [this.insert(table, first)];
    const columns = givenColumns(first);
    const values: unknown[] = [];
    for (const [index, row] of rows.entries()) {
      const record = row as Record<string, unknown>;
      // A column given in one row and not in another would be silently left out of the statement.
      if (givenColumns(record).length !== columns.length || columns.some((c) => record[c] === undefined)) {
        throw new Error(`insertRows(${table}): row ${index} gives other columns than row 0 (${columns.join(', ')})`);
      }
      for (const c of columns) values.push(record[c] ?? null);
    }
    const bound: Bound[] = [];
    for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
      const size = Math.min(ROWS_PER_INSERT, rows.length - at);
      const compiled = this.shape(`insert ${table}(${columns.join(',')}) x${size}`, () =>
        this.builder.insertInto(table).values(Array.from({ length: size }, (_, row) => placeholderRow(columns, row * columns.length) as Insertable<DB[T]>)),
      );
      bound.push({ sql: compiled.sql, parameters: bindSlots(compiled, values.slice(at * columns.length, (at + size) * columns.length)) });
    }
    return bound;
  }

  /** A query whose shape varies (an `in` list, a multi-row insert), compiled for this one call. */
  once<Row>(query: Compilable<Row>): Bound<Row> {
    const compiled = query.compile();
    return { sql: compiled.sql, parameters: compiled.parameters };
  }

  /**
   * True for SQL compiled once here: texts that recur with new parameters, which a server may keep
   * prepared. Others (built per call) are not, and must not accumulate on the server.
   */
  isPrecompiled(sql: string): boolean {
    return this.precompiled.has(sql);
  }

  /** A PostgreSQL prepared statement's name, the same for the same text on every connection. */
  nameOf(sql: string): string {
    let name = this.names.get(sql);
    if (name === undefined) {
      name = `q_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      this.names.set(sql, name);
    }
    return name;
  }

  /**
   * PostgreSQL: writes whose results nobody reads, as one statement (every one but the last in a
   * WITH clause, where each still runs in full, in one snapshot). Their numbered parameters are
   * renumbered to follow each other: Kysely writes only placeholders, never literals containing "$n".
   */
  combine(statements: readonly Bound[]): Bound {
    return { sql: this.combinedText(statements), parameters: statements.flatMap((s) => s.parameters) };
  }

  private combinedText(statements: readonly Bound[]): string {
    if (!statements.every((s) => this.precompiled.has(s.sql))) return asOneStatement(statements.map((s) => s.sql));
    let node = this.combinations;
    for (const { sql } of statements) {
      let child = node.next.get(sql);
      if (!child) node.next.set(sql, (child = { next: new Map() }));
      node = child;
    }
    if (node.text === undefined) {
      node.text = asOneStatement(statements.map((s) => s.sql));
      // A recurring combination recurs itself: keep it prepared too.
      this.precompiled.add(node.text);
    }
    return node.text;
  }

  /**
   * The shape of a statement on `table` setting `columns`, found name by name: column names are
   * constant strings whose hashes V8 keeps, where a key joined from them was a new string to build
   * and hash on every insert and update (about 1 % of a sandbox purchase's and its delivery's
   * instructions, docs/performance.md, "Kysely off the worker's path").
   */
  private shapeByColumns(roots: Map<string, ColumnsNode>, table: string, columns: readonly string[], build: () => Compilable<unknown>): Compiled {
    let node = roots.get(table);
    if (!node) roots.set(table, (node = { next: new Map() }));
    for (const column of columns) {
      let child: ColumnsNode | undefined = node.next.get(column);
      if (!child) node.next.set(column, (child = { next: new Map() }));
      node = child;
    }
    node.compiled ??= this.compile(build());
    return node.compiled;
  }

  private shape(key: string, build: () => Compilable<unknown>): Compiled {
    let compiled = this.shapes.get(key);
    if (!compiled) {
      compiled = this.compile(build());
      this.shapes.set(key, compiled);
    }
    return compiled;
  }

  private compile(query: Compilable<unknown>): Compiled {
    const compiled = query.compile();
    this.precompiled.add(compiled.sql);
    return {
      sql: compiled.sql,
      slots: compiled.parameters.map((value): Slot => {
        if (typeof value === 'string' && value.startsWith(SENTINEL)) return { arg: Number(value.slice(SENTINEL.length)) };
        return { value };
      }),
    };
  }
}

/** Several writes as one PostgreSQL statement (see Statements.combine). */
function asOneStatement(texts: readonly string[]): string {
  let offset = 0;
  const parts = texts.map((text) => {
    let count = 0;
    const renumbered = text.replace(/\$(\d+)/g, (_, n: string) => {
      count = Math.max(count, Number(n));
      return `$${Number(n) + offset}`;
    });
    offset += count;
    return renumbered;
  });
  const last = parts.pop() ?? '';
  return parts.length === 0 ? last : `with ${parts.map((p, i) => `w${i} as (${p})`).join(', ')} ${last}`;
}
