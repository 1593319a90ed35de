export interface WorkerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface LaneSetup {
  log: WorkerLogger;
  /** The worker the lane belongs to: every line it logs names it. */
  workerId: string;
  /** Logged (error) when a pass throws. */
  failed: string;
  /** Logged (info) when the loop starts and when it has stopped, if given. */
  started?: string;
  stopped?: string;
}

/** What a pass asks for next: sleep this many milliseconds (a wake() or finished work ends it early), or pass again at once. */
export type NextPass = number | 'again';

/**
 * One lane of a worker process: a loop of passes, each claiming work and saying when to look again.
 * The lane keeps the schedule: start/stop/wake, the sleep between passes, the backoff after failed
 * passes, and the work a pass left running beside the loop (stop() waits for it).
 */
export abstract class Lane {
  private running: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;
  private readonly working = new Set<Promise<void>>();
  private failures = 0;

  protected constructor(private readonly laneSetup: LaneSetup) {}

  /** One pass; a throw is logged and followed by backoff(failures in a row). */
  protected abstract pass(): Promise<NextPass>;

  /** How long to sleep after `failures` passes in a row have thrown. */
  protected abstract backoff(failures: number): number;

  /** Starts the loop in the background; stop() ends it. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Stops passing; resolves when the work in flight has finished. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    this.running = null;
  }

  /** Ends the current sleep early (e.g. when new work was just queued in this process). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Pieces of work running beside the loop. */
  protected get busy(): number {
    return this.working.size;
  }

  /** Runs `work` beside the loop; when it ends the lane passes again (what it did may have made more work due). */
  protected track(work: Promise<void>): void {
    const tracked: Promise<void> = work.finally(() => {
      this.working.delete(tracked);
      this.wakeUp?.();
    });
    this.working.add(tracked);
  }

  /** Resolves when one piece of work in flight has ended. */
  protected async untilOneEnds(): Promise<void> {
    await Promise.race(this.working);
  }

  /** The pass got an answer from its store: the next failure starts the backoff afresh. */
  protected resetBackoff(): void {
    this.failures = 0;
  }

  private async loop(): Promise<void> {
    const { log, workerId, failed, started, stopped } = this.laneSetup;
    if (started) log.info({ worker: workerId }, started);
    this.failures = 0;
    while (!this.stopping) {
      let next: NextPass;
      try {
        next = await this.pass();
      } catch (error) {
        this.failures++;
        log.error({ err: error, worker: workerId }, failed);
        next = this.backoff(this.failures);
      }
      if (next !== 'again') await this.sleep(Math.max(next, 1));
    }
    await Promise.all(this.working);
    if (stopped) log.info({ worker: workerId }, stopped);
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }
}
