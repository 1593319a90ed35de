import { CompiledQuery, type Kysely, type QueryResult } from 'kysely';
import type { DB } from './schema.js';
import type { Bound, Compilable, Statements } from './statements.js';
import { translateDriverError } from './unique-indexes.js';

/** Runs compiled SQL at once on one connection, with the result Kysely's driver would give. */
export type DirectRunner = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown>;

/**
 * One unit of work: what a service does atomically (a purchase, a settlement), as repositories
 * see it. Statements whose results are needed run at once (`execute`); writes whose results nobody
 * reads are queued (`write`) and go out together, before the next statement that runs and at the
 * latest when the unit ends: on PostgreSQL in one round trip (one statement), on SQLite one after
 * another on the writer. A refusal by a unique index surfaces as a UniqueViolation.
 */
export interface Tx {
  /** For building queries per call; run them with `execute`, which sends the queued writes first. */
  readonly qb: Kysely<DB>;
  /**
   * The unit's connection, to run queries on directly (the snapshot's reads). Queued writes must
   * have gone out first (`flush`): using the handle with writes queued throws.
   */
  readonly db: Kysely<DB>;
  execute<Row>(statement: Bound<Row> | Compilable<Row>): Promise<QueryResult<Row>>;
  /**
   * `execute` without sending the queued writes first: only for a statement that neither reads
   * nor changes anything a queued write touches (a wallet's balance while ledger rows are queued),
   * so writes that belong together still go out together.
   */
  executeAhead<Row>(statement: Bound<Row>): Promise<QueryResult<Row>>;
  write(statement: Bound): void;
  /** Sends the queued writes now (a caller that wants to react to their refusal awaits this). */
  flush(): Promise<void>;
}

export class UnitOfWork implements Tx {
  private pending: Bound[] = [];

  constructor(
    private readonly handle: Kysely<DB>,
    private readonly statements: Statements,
    /** SQLite's writer runs the unit's statements directly (see GroupCommitter), skipping Kysely's executor. */
    private readonly direct: DirectRunner | null,
  ) {}

  get qb(): Kysely<DB> {
    return this.handle;
  }

  get db(): Kysely<DB> {
    if (this.pending.length > 0) throw new Error("flush() the queued writes before using the unit's connection");
    return this.handle;
  }

  async execute<Row>(statement: Bound<Row> | Compilable<Row>): Promise<QueryResult<Row>> {
    await this.flush();
    const bound = 'sql' in statement ? statement : this.statements.once(statement);
    return (await this.run(bound)) as QueryResult<Row>;
  }

  async executeAhead<Row>(statement: Bound<Row>): Promise<QueryResult<Row>> {
    return (await this.run(statement)) as QueryResult<Row>;
  }

  write(statement: Bound): void {
    this.pending.push(statement);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    if (this.direct !== null || this.statements.dialect !== 'postgres') {
      for (const statement of batch) await this.run(statement);
      return;
    }
    for (const part of inOrderedParts(batch))
      await this.run(part.length === 1 && part[0] ? part[0] : this.statements.combine(part));
  }

  private async run(statement: Bound): Promise<QueryResult<unknown>> {
    try {
      if (this.direct) return this.direct(statement.sql, statement.parameters);
      return await this.handle.executeQuery(CompiledQuery.raw(statement.sql, [...statement.parameters]));
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}

/** The batch cut before each ordered statement but the first, so no two ordered ones share a statement. */
function inOrderedParts(batch: readonly Bound[]): Bound[][] {
  const parts: Bound[][] = [[]];
  let orderedInPart = false;
  for (const statement of batch) {
    if (statement.ordered && orderedInPart) {
      parts.push([]);
      orderedInPart = false;
    }
    parts[parts.length - 1]?.push(statement);
    orderedInPart ||= statement.ordered === true;
  }
  return parts;
}

/** `work` on a fresh unit over `handle`, its queued writes sent before the unit ends. */
export async function inUnit<T>(
  handle: Kysely<DB>,
  statements: Statements,
  direct: DirectRunner | null,
  work: (tx: Tx) => Promise<T>,
): Promise<T> {
  const unit = new UnitOfWork(handle, statements, direct);
  const value = await work(unit);
  await unit.flush();
  return value;
}
