import fs from 'node:fs';
import { CompiledQuery } from 'kysely';

interface Waiter {
  seq: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * SQLite's `synchronous=FULL`, with the fsync moved off the event loop. better-sqlite3 runs a
 * COMMIT on the main thread, and with FULL the fsync inside it stalls every request (~1 ms per
 * group when measured in 2026-11). Here the group committer commits with `synchronous=NORMAL`
 * (the WAL frames are written, not synced), then this class `fdatasync`s the WAL file on libuv's
 * thread pool, and the group's units are acknowledged only after that: the same guarantee as FULL,
 * since FULL's only extra step in WAL mode is that sync of the WAL after a commit's frames.
 * Meanwhile the main thread serves requests and runs the next group; one sync covers every commit
 * written before it started.
 *
 * Reads on the other connection can see a commit before its sync completes. Nothing they saw may
 * leave the process before it is durable: the HTTP layer holds every reply until `durable()` (see
 * Database.whenDurable), and the worker calls the provider only after its own claim is acknowledged,
 * which its sync makes durable together with every commit before it.
 */
export class WalSync {
  /** Before its COMMIT runs, so readers wait for it even while it is being written. */
  private started = 0;
  /** Commits whose COMMIT statement has returned: what the next sync covers. */
  private written = 0;
  private synced = 0;
  private syncing = false;
  private fd: number | null = null;
  private failure: Error | null = null;
  private waiters: Waiter[] = [];
  private idle: (() => void) | null = null;

  /** Run before the group's BEGIN, and after its COMMIT (see the class comment). */
  static readonly deferSync = CompiledQuery.raw('pragma synchronous = NORMAL');
  static readonly restoreSync = CompiledQuery.raw('pragma synchronous = FULL');

  constructor(
    private readonly walPath: string,
    /** fs.fdatasync; tests pass one they control. */
    private readonly fdatasync: (fd: number, done: (error: NodeJS.ErrnoException | null) => void) => void = fs.fdatasync,
    /** Told how long each sync took (metrics). */
    private readonly onSynced: (seconds: number) => void = () => {},
  ) {}

  /** True while some commit may be visible to readers and not yet on disk. */
  get behind(): boolean {
    return this.failure !== null || this.started > this.synced;
  }

  /** Call right before a COMMIT runs; pass the ticket to `committed` once it has returned or failed. */
  beginCommit(): number {
    return ++this.started;
  }

  /** Resolves once the commit of `ticket` is on disk; rejects if the WAL could not be synced. */
  committed(ticket: number): Promise<void> {
    this.written = Math.max(this.written, ticket);
    const done = this.waitFor(ticket);
    this.kick();
    return done;
  }

  /** Resolves once every commit begun so far is on disk. */
  durable(): Promise<void> {
    return this.waitFor(this.started);
  }

  async close(): Promise<void> {
    if (this.syncing) await new Promise<void>((resolve) => (this.idle = resolve));
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private waitFor(seq: number): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (seq <= this.synced) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ seq, resolve, reject }));
  }

  /** Starts a sync of everything written so far, unless one is running (its end starts the next). */
  private kick(): void {
    if (this.syncing || this.failure || this.written <= this.synced) return;
    const target = this.written;
    try {
      // The writer connection keeps the WAL file open for its whole life, so its inode never changes.
      this.fd ??= fs.openSync(this.walPath, 'r');
    } catch (error) {
      this.fail(error);
      return;
    }
    this.syncing = true;
    const began = process.hrtime.bigint();
    this.fdatasync(this.fd, (error) => {
      this.syncing = false;
      if (!error) this.onSynced(Number(process.hrtime.bigint() - began) / 1e9);
      if (error) {
        this.fail(error);
      } else {
        this.synced = target;
        const ready = this.waiters.filter((w) => w.seq <= target);
        this.waiters = this.waiters.filter((w) => w.seq > target);
        for (const waiter of ready) waiter.resolve();
        this.kick();
      }
      if (!this.syncing) {
        this.idle?.();
        this.idle = null;
      }
    });
  }

  /**
   * A failed fsync leaves it unknown what reached the disk, and retrying does not tell (the kernel
   * may have dropped the dirty pages). Like PostgreSQL, stop: nothing more is acknowledged or answered
   * until the process restarts and SQLite recovers the WAL from what is really on disk.
   */
  private fail(cause: unknown): void {
    this.failure = new Error(`could not sync the SQLite WAL to disk: ${(cause as Error).message}`, { cause });
    for (const waiter of this.waiters) waiter.reject(this.failure);
    this.waiters = [];
  }
}
