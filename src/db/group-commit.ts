import { CompiledQuery, type Kysely } from 'kysely';
import type { DB } from './schema.js';
import type { DirectRunner } from './unit-of-work.js';
import { WalSync } from './wal-sync.js';

type Work<T> = (trx: Kysely<DB>) => Promise<T>;

// Compiled once: every unit of work runs two of these around its own statements.
const BEGIN = CompiledQuery.raw('begin immediate');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');

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
  /** SQLite `synchronous=FULL`: commit without syncing, then acknowledge after WalSync's fsync. */
  walSync?: WalSync;
  /** Runs SQL directly on the writer connection (the group's own statements), skipping Kysely's executor. */
  direct?: DirectRunner;
  /** Told of each transaction that committed: how many units it held and how long it ran (metrics). */
  onBatch?(units: number, seconds: number): void;
}

/**
 * Group commit for SQLite's single writer. Units of work that arrive while a commit is being
 * written to disk are run together in the next transaction, each inside its own savepoint: a unit
 * that throws is rolled back to its savepoint and rejected alone, the others commit together with
 * one fsync. A unit's promise settles only after the transaction holding it has committed (or
 * failed as a whole), so nothing is acknowledged before it is durable. With a WalSync the fsync
 * runs off the event loop: the next group runs while the previous one's sync is in progress, and
 * each group is acknowledged when the sync covering it completes.
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
      this.queue.push({ work, resolve, reject });
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
    const { walSync } = this.options;
    let durable: Promise<void> = Promise.resolve();
    const began = process.hrtime.bigint();
    try {
      await this.db.connection().execute(async (conn) => {
        const { direct } = this.options;
        const exec = async (query: CompiledQuery): Promise<void> => {
          if (direct) direct(query.sql, query.parameters);
          else await conn.executeQuery(query);
        };
        if (walSync) await exec(WalSync.deferSync);
        try {
          await exec(BEGIN);
          for (const unit of batch) {
            await exec(SAVEPOINT);
            try {
              const value = await unit.work(conn);
              await exec(RELEASE);
              outcomes.push({ ok: true, value });
            } catch (error) {
              await exec(ROLLBACK_TO);
              await exec(RELEASE);
              outcomes.push({ ok: false, error });
            }
          }
          if (walSync) {
            const ticket = walSync.beginCommit();
            try {
              await exec(COMMIT);
            } finally {
              durable = walSync.committed(ticket);
            }
          } else {
            await exec(COMMIT);
          }
        } catch (error) {
          if (this.options.inTransaction()) await exec(ROLLBACK);
          throw error;
        } finally {
          if (walSync) await exec(WalSync.restoreSync);
        }
      });
    } catch (error) {
      // The transaction as a whole failed: nothing of any unit was written.
      durable.catch(() => {});
      for (const unit of batch) unit.reject(error);
      return;
    }
    this.options.onBatch?.(batch.length, Number(process.hrtime.bigint() - began) / 1e9);
    // Not awaited: the next group runs while this one's commit is being synced.
    durable.then(
      () => {
        batch.forEach((unit, i) => {
          const outcome = outcomes[i];
          if (outcome?.ok) unit.resolve(outcome.value);
          else unit.reject(outcome ? outcome.error : new Error('unit of work did not run'));
        });
      },
      (error: unknown) => {
        // Committed, but not known to be on disk: no unit may be acknowledged.
        for (const unit of batch) unit.reject(error);
      },
    );
  }
}
