import type { MomoTopUpService } from '../modules/top-ups/momo.js';
import type { WorkerLogger } from './worker.js';

/**
 * The worker's Mobile Money lane (docs/mobile-money.md, "Crediting"): every pending charge carries
 * the time of its next check (written with the charge, in the same unit of work, so a restart loses
 * none); the lane claims the due ones and has each verified with the gateway. A lost webhook delays
 * a credit by at most MOMO_POLL_MS.
 */
export class MomoLane {
  private running: Promise<void> | null = null;
  private stopping = false;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly momo: MomoTopUpService,
    private readonly log: WorkerLogger,
    private readonly workerId: string,
    private readonly idleMs: number,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeUp?.();
    await this.running;
    this.running = null;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let checked = 0;
      try {
        checked = await this.momo.checkDue();
      } catch (error) {
        this.log.error({ err: error, worker: this.workerId }, 'mobile money checks failed');
      }
      if (checked === 0) await this.sleep(this.idleMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
    });
  }
}
