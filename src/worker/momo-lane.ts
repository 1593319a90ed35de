import type { MomoTopUpService } from '../modules/top-ups/momo.js';
import { Lane, type NextPass, type WorkerLogger } from './lane.js';

/**
 * The worker's Mobile Money lane (docs/mobile-money.md, "Crediting"): every pending charge carries
 * the time of its next check (written with the charge, in the same unit of work, so a restart loses
 * none); the lane claims the due ones and has each verified with the gateway. A lost webhook delays
 * a credit by at most MOMO_POLL_MS.
 */
export class MomoLane extends Lane {
  constructor(
    private readonly momo: MomoTopUpService,
    log: WorkerLogger,
    workerId: string,
    private readonly idleMs: number,
  ) {
    super({ log, workerId, failed: 'mobile money checks failed' });
  }

  /** Checks the due charges; sleeps when none was due (or the checks failed). */
  protected override async pass(): Promise<NextPass> {
    return (await this.momo.checkDue()) === 0 ? this.idleMs : 'again';
  }

  protected override backoff(): number {
    return this.idleMs;
  }
}
