import type { ProviderAttemptRow } from '../../db/schema.js';
import type { Mode } from '../../domain/types.js';
import type { ProviderName, Route } from '../../providers/types.js';

/**
 * Which route a delivery takes next (docs/live-delivery.md, "Routes" and "One delivery, many attempts").
 * Pure: the caller reads the package's routes, the attempts so far and which upstreams are enabled
 * and which are resting behind their breaker.
 */

/** How many times a delivery waits out "recently recharged" refusals on every route before it fails. */
export const MAX_RETRY_ROUNDS = 5;

/** A route and its place in the package's order (0 is tried first). */
export interface PositionedRoute {
  position: number;
  route: Route;
}

export type RouteChoice =
  /** Submit through this route (position null: the sandbox stand-in of a package without routes). */
  | { kind: 'route'; route: Route; position: number | null }
  /** Nothing to submit now: the remaining routes' upstreams rest behind their breakers, or a retry is due later. */
  | { kind: 'wait'; until: number }
  /** No route is left: the delivery fails with the last refusal's reason. */
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

export const NO_ROUTE_MESSAGE = 'No upstream can deliver this package at the moment';

export function chooseRoute(c: RoutingContext): RouteChoice {
  const last = c.attempts.at(-1);
  const usable = c.mode === 'test' ? [] : c.routes.filter((r) => c.enabled.has(r.route.provider));
  if (usable.length === 0) {
    // Test mode always, and live mode without a usable route where the sandbox stands in (not in production).
    const sandboxAllowed = c.mode === 'test' || c.enabled.has('sandbox');
    if (!sandboxAllowed) return { kind: 'none', reason: NO_ROUTE_MESSAGE };
    if (last) return { kind: 'none', reason: last.message ?? NO_ROUTE_MESSAGE };
    return { kind: 'route', route: { provider: 'sandbox' }, position: null };
  }

  let after = last?.route_position ?? -1;
  if (last && last.retry_at !== null && usable.every((r) => r.position <= after)) {
    // Every route refused for now ("recently recharged"): start over once the wait is done.
    const rounds = c.attempts.filter((a) => a.retry_at !== null).length;
    if (rounds >= MAX_RETRY_ROUNDS * usable.length) return { kind: 'none', reason: last.message ?? NO_ROUTE_MESSAGE };
    if (c.now < last.retry_at) return { kind: 'wait', until: last.retry_at };
    after = -1;
  }
  const remaining = usable.filter((r) => r.position > after);
  if (remaining.length === 0) return { kind: 'none', reason: last?.message ?? NO_ROUTE_MESSAGE };
  const open = remaining.find((r) => (c.resting.get(r.route.provider) ?? 0) <= c.now);
  if (open) return { kind: 'route', route: open.route, position: open.position };
  return { kind: 'wait', until: Math.min(...remaining.map((r) => c.resting.get(r.route.provider) ?? c.now)) };
}
