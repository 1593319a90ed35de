/**
 * Where a serving process is in its life, as GET /readyz reports it: `migrating` before the app
 * exists (a boot listener answers then), `ready` while it serves, `stopping` from the shutdown
 * signal on. /healthz (liveness) does not look at it.
 */
export type Phase = 'migrating' | 'ready' | 'stopping';

export class Lifecycle {
  private current: Phase;

  constructor(initial: Phase = 'ready') {
    this.current = initial;
  }

  get phase(): Phase {
    return this.current;
  }

  set(phase: Phase): void {
    // A process that began stopping never becomes ready again.
    if (this.current === 'stopping') return;
    this.current = phase;
  }
}
