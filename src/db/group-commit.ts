import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

type Work<T> = (trx: Kysely<DB>) => Promise<T>;

interface Pending {
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export interface GroupCommitOptions {
  /** Most units in one transaction; the rest wait for the next one. */
  maxBatch: number;
  /** Whether the handle is still inside a transaction (better-sqlite3's `inTransaction`). */
  inTransaction(): boolean;
}

/**
 * Group commit for SQLite's single writer. Units of work that arrive while a commit is being
 * written to disk are run together in the next transaction, each inside its own savepoint: a unit
 * that throws is rolled back to its savepoint and rejected alone, the others commit together with
 * one fsync. A unit's promise settles only after the transaction holding it has committed (or
 * failed as a whole), so nothing is acknowledged before it is durable.
 */
export class GroupCommitter {
  private queue: Pending[] = [];
  private running = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: GroupCommitOptions,
  ) {}

  run<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: work as Work<unknown>, resolve: resolve as (value: unknown) => void, reject });
      if (!this.running) {
        this.running = true;
        // Let the requests that arrive in this turn of the event loop join the first batch.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        await this.runBatch(batch);
      }
    } finally {
      this.running = false;
    }
  }

  private async runBatch(batch: Pending[]): Promise<void> {
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      await this.db.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          for (const unit of batch) {
            await sql`savepoint unit`.execute(conn);
            try {
              const value = await unit.work(conn);
              await sql`release unit`.execute(conn);
              outcomes.push({ ok: true, value });
            } catch (error) {
              await sql`rollback to unit`.execute(conn);
              await sql`release unit`.execute(conn);
              outcomes.push({ ok: false, error });
            }
          }
          await sql`commit`.execute(conn);
        } catch (error) {
          if (this.options.inTransaction()) await sql`rollback`.execute(conn);
          throw error;
        }
      });
    } catch (error) {
      // The transaction as a whole failed: nothing of any unit was written.
      for (const unit of batch) unit.reject(error);
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) unit.resolve(outcome.value);
      else unit.reject(outcome ? outcome.error : new Error('unit of work did not run'));
    });
  }
}
