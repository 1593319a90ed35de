import type { ProviderName, UpstreamAnswer } from '../providers/types.js';

/**
 * Per upstream, in this worker: at most `concurrency` calls in flight (a slow upstream cannot take
 * every connection), and a breaker: `failures` calls in a row that proved nothing (timeouts, 5xx,
 * resets) rest the upstream for new submissions for `coolMs`; an insufficient-float refusal rests it
 * at once (docs/live-delivery.md, "One delivery, many attempts"). Attempts it already has keep being followed there.
 */
export interface GateOptions {
  concurrency: number;
  failures: number;
  coolMs: number;
}

interface UpstreamLane {
  inFlight: number;
  queue: (() => void)[];
  failuresInARow: number;
  restingUntil: number;
}

export class UpstreamGate {
  private readonly lanes = new Map<ProviderName, UpstreamLane>();

  constructor(
    private readonly options: GateOptions,
    private readonly clock: () => number = Date.now,
    private readonly onOpen?: (provider: ProviderName, until: number, why: string) => void,
  ) {}

  /** Upstreams resting behind their breaker, and until when. */
  resting(): Map<ProviderName, number> {
    const now = this.clock();
    const result = new Map<ProviderName, number>();
    for (const [name, lane] of this.lanes) if (lane.restingUntil > now) result.set(name, lane.restingUntil);
    return result;
  }

  /** Calls in flight to `provider` in this worker now. */
  inFlight(provider: ProviderName): number {
    return this.lanes.get(provider)?.inFlight ?? 0;
  }

  /** Runs `call` once a slot of `provider` is free, and counts its answer for the breaker. */
  async call<A extends UpstreamAnswer>(provider: ProviderName, call: () => Promise<A>): Promise<A> {
    const lane = this.lane(provider);
    // A finishing call hands its slot to the first waiter (inFlight unchanged): were the slot freed
    // first, a call starting before the woken waiter resumes would take it too, one over the cap.
    if (lane.inFlight >= this.options.concurrency) await new Promise<void>((resolve) => lane.queue.push(resolve));
    else lane.inFlight++;
    try {
      const answer = await call();
      this.count(provider, lane, answer);
      return answer;
    } finally {
      const next = lane.queue.shift();
      if (next) next();
      else lane.inFlight--;
    }
  }

  private count(provider: ProviderName, lane: UpstreamLane, answer: UpstreamAnswer): void {
    if (answer.class === 'unknown') {
      lane.failuresInARow++;
      if (lane.failuresInARow >= this.options.failures) this.rest(provider, lane, `${lane.failuresInARow} calls in a row without an answer`);
      return;
    }
    lane.failuresInARow = 0;
    if (answer.class === 'refused' && answer.lowFloat) this.rest(provider, lane, 'insufficient float');
  }

  private rest(provider: ProviderName, lane: UpstreamLane, why: string): void {
    const until = this.clock() + this.options.coolMs;
    if (lane.restingUntil < until) {
      lane.restingUntil = until;
      this.onOpen?.(provider, until, why);
    }
  }

  private lane(provider: ProviderName): UpstreamLane {
    let lane = this.lanes.get(provider);
    if (!lane) {
      lane = { inFlight: 0, queue: [], failuresInARow: 0, restingUntil: 0 };
      this.lanes.set(provider, lane);
    }
    return lane;
  }
}
