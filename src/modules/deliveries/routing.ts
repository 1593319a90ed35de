import type { ProviderAttemptRow } from '../../db/schema.js';
import type { Mode } from '../../domain/types.js';
import type { ProviderName, Route } from '../../providers/types.js';
import { partnerMessageAfter } from './partner-messages.js';

/**
 * Which route a delivery takes next (docs/live-delivery.md, "Routes" and "One delivery, many attempts").
 * Pure: the caller reads the package's routes, the attempts so far and which upstreams are enabled
 * and which are resting behind their breaker.
 */

/** How many times a delivery waits out "recently recharged" refusals on every route before it fails. */
export const MAX_RETRY_ROUNDS = 5;

/**
 * How many more times an attempt proved absent at its upstream is submitted there again (same
 * reference) when no other route is usable; the next proof of absence fails the delivery.
 */
export const MAX_ABSENT_RESUBMISSIONS = 3;

/** A route and its place in the package's order (0 is tried first). */
export interface PositionedRoute {
  position: number;
  route: Route;
}

export type RouteChoice =
  /** Submit through this route (position null: the sandbox stand-in of a package without routes). */
  | { kind: 'route'; route: Route; position: number | null }
  /** Submit the last attempt again under its own reference: proved absent, and no other route is usable. */
  | { kind: 'resubmit' }
  /** Nothing to submit now: the remaining routes' upstreams rest behind their breakers, or a retry is due later. */
  | { kind: 'wait'; until: number }
  /** No route is left: the delivery fails; `reason` is the partner's message (partner-messages.ts). */
  | { kind: 'none'; reason: string };

export interface RoutingContext {
  mode: Mode;
  routes: readonly PositionedRoute[];
  /** This charge's attempts so far, oldest first. */
  attempts: readonly ProviderAttemptRow[];
  enabled: ReadonlySet<ProviderName>;
  /** When each resting upstream may be tried again. */
  resting: ReadonlyMap<ProviderName, number>;
  now: number;
}

/**
 * The next step of a delivery whose last attempt (if any) needs no more calls: refused or failed for
 * a route reason, or proved absent by a lookup. An attempt proved absent delivered nothing, so the
 * next usable route is tried at once (a new attempt, a new reference); the same upstream gets it
 * again under the same reference only when no other route is usable, at most
 * MAX_ABSENT_RESUBMISSIONS more times. A route whose upstream rests behind its breaker is waited for.
 */
export function chooseRoute(c: RoutingContext): RouteChoice {
  const last = c.attempts.at(-1);
  const none = (): RouteChoice => ({ kind: 'none', reason: partnerMessageAfter(c.attempts) });
  // Proved absent, and no other route to take: the same upstream again, a bounded number of times.
  const again = (): RouteChoice => {
    if (!last || last.absences > MAX_ABSENT_RESUBMISSIONS) return none();
    const rests = c.resting.get(last.provider as ProviderName) ?? 0;
    return rests > c.now ? { kind: 'wait', until: rests } : { kind: 'resubmit' };
  };
  const absent = last?.status === 'absent';
  const usable = c.mode === 'test' ? [] : c.routes.filter((r) => c.enabled.has(r.route.provider));
  if (usable.length === 0) {
    // Test mode always, and live mode without a usable route where the sandbox stands in (not in production).
    const sandboxAllowed = c.mode === 'test' || c.enabled.has('sandbox');
    if (!sandboxAllowed) return none();
    if (last) return absent ? again() : none();
    return { kind: 'route', route: { provider: 'sandbox' }, position: null };
  }

  let after = last?.route_position ?? -1;
  if (last && last.retry_at !== null && usable.every((r) => r.position <= after)) {
    // Every route refused for now ("recently recharged"): start over once the wait is done.
    const rounds = c.attempts.filter((a) => a.retry_at !== null).length;
    if (rounds >= MAX_RETRY_ROUNDS * usable.length) return none();
    if (c.now < last.retry_at) return { kind: 'wait', until: last.retry_at };
    after = -1;
  }
  const remaining = usable.filter((r) => r.position > after);
  if (remaining.length === 0) return absent ? again() : none();
  const open = remaining.find((r) => (c.resting.get(r.route.provider) ?? 0) <= c.now);
  if (open) return { kind: 'route', route: open.route, position: open.position };
  return { kind: 'wait', until: Math.min(...remaining.map((r) => c.resting.get(r.route.provider) ?? c.now)) };
}
