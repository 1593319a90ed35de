import type { ProviderName } from '../../providers/types.js';
import { describeEnabled, type PackageRouteService } from './service.js';

/** A route that live deliveries skip because its upstream is not enabled in this configuration. */
export interface SkippedRoute {
  packageId: string;
  position: number;
  provider: ProviderName;
  why: string;
}

export interface RouteStartCheck {
  /** One line refusing the start (NODE_ENV=production without LIVE_SANDBOX, an active package without a usable route), or null. */
  refusal: string | null;
  skipped: SkippedRoute[];
  /** Active packages without a usable route: their live orders go to the sandbox (when the start is not refused). */
  unrouted: string[];
  enabled: string;
}

const SHOWN = 20;

/** `a, b, c` — and past SHOWN names, how many more. */
function names(list: readonly string[]): string {
  const shown = list.slice(0, SHOWN).join(', ');
  return list.length > SHOWN ? `${shown} and ${list.length - SHOWN} more` : shown;
}

/**
 * What `serve` and `worker` check before they start (docs/live-delivery.md, "Routes"): with NODE_ENV=production
 * and not LIVE_SANDBOX, every active data package needs a usable route, or the process refuses to
 * start naming them; otherwise the start-up log says which routes are skipped and which packages'
 * live orders go to the sandbox.
 */
export async function routeStartCheck(routes: PackageRouteService): Promise<RouteStartCheck> {
  const { enabled, notEnabledBecause, usableRouteRequired } = routes.policy;
  const [stored, unrouted] = await Promise.all([routes.all(), routes.unroutedLivePackages()]);
  const skipped = stored
    .filter((s) => !enabled.has(s.route.provider))
    .map((s) => ({ packageId: s.packageId, position: s.position, provider: s.route.provider, why: notEnabledBecause[s.route.provider] ?? 'not enabled' }));
  const refusal =
    usableRouteRequired && unrouted.length > 0
      ? `no usable route for live packages ${names(unrouted)}: set routes (cli routes set) or LIVE_SANDBOX=true`
      : null;
  return { refusal, skipped, unrouted, enabled: describeEnabled(enabled) };
}

interface StartLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** The start-up log lines of a check that did not refuse. */
export function logRouteStartCheck(check: RouteStartCheck, log: StartLog): void {
  if (check.skipped.length > 0) {
    const shown = check.skipped.map((s) => `${s.packageId} #${s.position} ${s.provider}`);
    const why = [...new Map(check.skipped.map((s) => [s.provider, `${s.provider}: ${s.why}`])).values()].join('; ');
    log.warn({ skipped: check.skipped }, `routes skipped, their upstream is not enabled: ${names(shown)} (${why})`);
  }
  if (check.unrouted.length > 0) {
    log.info(
      { packages: check.unrouted, enabled: check.enabled },
      `live orders of packages without a usable route go to the sandbox: ${names(check.unrouted)}`,
    );
  } else {
    log.info({ enabled: check.enabled }, 'every active data package has a usable route');
  }
}
