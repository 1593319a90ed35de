import type { Config } from '../../config.js';
import type { Database } from '../../db/connection.js';
import { badGateway, conflict, invalid, notFound } from '../../domain/errors.js';
import { enabledProviders } from '../../providers/index.js';
import { PROVIDER_NAMES, UPSTREAM_NAMES, type ProviderName, type Route, type UpstreamCatalog } from '../../providers/types.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import { belowCost, belowCostInGhs, guardBelowCost, type BelowCost } from './pricing.js';
import type { PackageRouteRepository, RecentAttempt, StoredRoute } from './repository.js';
import { routeIdentity, routeToWire } from './schemas.js';

/** A route refused (route problem) on this many of its last orders in a row is flagged (docs/live-delivery.md, "Routes"). */
export const ROUTE_REFUSALS_FLAGGED = 5;
/** How many of each upstream's latest attempts that flag is read from: a bounded read, however old the platform. */
const RECENT_ATTEMPTS_READ = 1000;

/** The adapter that reads an upstream's catalogue, by name (undefined: none in this configuration). */
export type CatalogOf = (name: ProviderName) => UpstreamCatalog | undefined;

/** What became of one route of a saved list at its upstream. */
export interface RouteCheck {
  position: number;
  provider: ProviderName;
  /**
   * `offered`: the upstream said it offers the product; `not-enabled`: saved without a check (its
   * upstream is not enabled here); `kept`: the package had this route already (not read again);
   * `sandbox`: nothing to check.
   */
  checked: 'offered' | 'not-enabled' | 'kept' | 'sandbox';
  detail: string;
}

/** A route of a package refused (route problem) on each of its last ROUTE_REFUSALS_FLAGGED orders. */
export interface RefusedRoute {
  packageId: string;
  position: number;
  provider: ProviderName;
  /** The latest refusal's words (staff only: the upstream's own). */
  message: string | null;
  since: number;
}

/** An active package some role buys below a route's cost. */
export interface BelowCostPackage {
  packageId: string;
  belowCost: BelowCost[];
}

/** The routes of `routes` whose provider is enabled, in their order: the ones a live delivery may try. */
export function usable(routes: readonly Route[], enabled: ReadonlySet<ProviderName>): Route[] {
  return routes.filter((route) => enabled.has(route.provider));
}

/** How routes are judged in this configuration. */
export interface RoutingPolicy {
  enabled: ReadonlySet<ProviderName>;
  /**
   * NODE_ENV=production without LIVE_SANDBOX: an active package must have a usable route (the
   * service refuses to start without one, the console to activate a package without one). Otherwise
   * live orders of a package without a usable route go to the sandbox.
   */
  usableRouteRequired: boolean;
  /** Why a provider is not enabled, for the start-up log and the console ("HUBTEL_API_KEY not set"). */
  notEnabledBecause: Partial<Record<ProviderName, string>>;
}

export function routingPolicy(config: Config): RoutingPolicy {
  const enabled = enabledProviders(config);
  const notEnabledBecause: Partial<Record<ProviderName, string>> = {};
  for (const name of PROVIDER_NAMES) {
    if (enabled.has(name)) continue;
    const disabled = config.upstreams.disabled.find((d) => d.provider === name);
    notEnabledBecause[name] =
      name === 'sandbox' ? 'LIVE_SANDBOX is not true' : (disabled?.reason ?? 'its variables are not set');
  }
  return { enabled, usableRouteRequired: config.nodeEnv === 'production' && !config.upstreams.liveSandbox, notEnabledBecause };
}

/** `hubtel, sandbox`, or `none`. */
export const describeEnabled = (enabled: ReadonlySet<ProviderName>) =>
  PROVIDER_NAMES.filter((p) => enabled.has(p)).join(', ') || 'none';

export interface PackageRoutes {
  packageId: string;
  routes: Route[];
}

export interface RouteChange {
  packageId: string;
  before: Route[];
  after: Route[];
  checks: RouteCheck[];
  /** What sells below cost, saved with the staff member's confirmation. */
  belowCost: BelowCost[];
}

export interface RouteSaveOptions {
  /** The console: refuse to leave an active package without a usable route where one is required. */
  guardActive?: boolean;
  /** The staff member confirmed that the package sells below a route's cost. */
  belowCost?: boolean;
}

/**
 * A data package's routes (docs/live-delivery.md, "Routes"): read by the delivery module and the staff tools,
 * replaced by the seed import (its own unit), the CLI and the console (audited in the unit of the
 * change).
 */
export class PackageRouteService {
  constructor(
    private readonly database: Database,
    private readonly routes: PackageRouteRepository,
    private readonly audit: AuditTrail,
    readonly policy: RoutingPolicy,
    private readonly catalogOf: CatalogOf = () => undefined,
  ) {}

  /** One package's routes, in the order they are tried. */
  routesOf(packageId: string): Promise<Route[]> {
    return this.routes.ofPackage(packageId);
  }

  /** Several packages' routes in one query; a package without routes maps to an empty list. */
  routesOfMany(packageIds: readonly string[]): Promise<Map<string, Route[]>> {
    return this.routes.ofPackages(packageIds);
  }

  /** Every package that has routes (or just `packageId`, which must exist), by package id. */
  async list(packageId?: string): Promise<PackageRoutes[]> {
    if (packageId !== undefined) {
      if ((await this.routes.packageStatus(packageId)) === undefined) throw notFound('PACKAGE_NOT_FOUND', `no data package ${packageId}`);
      return [{ packageId, routes: await this.routes.ofPackage(packageId) }];
    }
    const byPackage = new Map<string, Route[]>();
    for (const stored of await this.routes.all()) {
      const list = byPackage.get(stored.packageId) ?? [];
      list.push(stored.route);
      byPackage.set(stored.packageId, list);
    }
    return [...byPackage].map(([id, routes]) => ({ packageId: id, routes }));
  }

  /** Every stored route with its package and position. */
  all(): Promise<StoredRoute[]> {
    return this.routes.all();
  }

  /**
   * Replaces a package's routes (already validated: readRouteList), audited as
   * `package.routes.set` in the same unit, with the lists before and after in GHS.
   * Each new route to an enabled upstream is first read there (Hubtel's bundle list for a test
   * number, Reloadly's operator, DT One's product): one it does not offer, or one that could not be
   * read, refuses the whole list. An active package that some role would buy below a route's cost
   * needs `belowCost` (the staff member's confirmation). `guardActive` (the console): refuse to
   * leave an active package without a usable route where one is required (NODE_ENV=production
   * without LIVE_SANDBOX).
   */
  async replace(actor: Actor, packageId: string, routes: readonly Route[], options: RouteSaveOptions = {}): Promise<RouteChange> {
    const current = await this.routes.packageStatus(packageId);
    if (current === undefined) throw notFound('PACKAGE_NOT_FOUND', `no data package ${packageId}`);
    // A list refused for its cost is refused before any upstream is asked (checked again in the unit).
    const currentPrices = current === 'Active' ? await this.routes.pricesOf(packageId) : undefined;
    if (currentPrices) guardBelowCost(packageId, currentPrices, routes, options.belowCost === true);
    const checks = await this.checkAtUpstreams(routes, await this.routes.ofPackage(packageId));
    return this.database.unit(async (tx) => {
      const status = await this.routes.packageStatus(packageId, tx);
      const prices = await this.routes.pricesOf(packageId, tx);
      if (status === undefined || prices === undefined) throw notFound('PACKAGE_NOT_FOUND', `no data package ${packageId}`);
      if (options.guardActive && status === 'Active' && this.policy.usableRouteRequired && usable(routes, this.policy.enabled).length === 0) {
        throw conflict(
          'INVALID_REQUEST',
          `${packageId} is active and would have no usable route (upstreams enabled: ${describeEnabled(this.policy.enabled)}): keep a route to an enabled upstream, or deactivate the package first`,
        );
      }
      // An inactive package sells nothing: its prices are checked against its routes when it is activated.
      const below = status === 'Active' ? guardBelowCost(packageId, prices, routes, options.belowCost === true) : [];
      const before = await this.routes.ofPackage(packageId, tx);
      await this.routes.replace(tx, packageId, routes);
      const offered = checks.filter((c) => c.checked === 'offered');
      await this.audit.record(tx, actor, 'package.routes.set', { type: 'data_package', id: packageId }, {
        before: before.map(routeToWire),
        after: routes.map(routeToWire),
        ...(offered.length > 0 ? { checkedAtUpstream: offered.map((c) => `#${c.position} ${c.detail}`) } : {}),
        ...(below.length > 0 ? { belowCostConfirmed: belowCostInGhs(below) } : {}),
      });
      return { packageId, before, after: [...routes], checks, belowCost: below };
    });
  }

  /**
   * Reads each new route's product at its upstream, when that upstream is enabled here; throws
   * ROUTE_NOT_OFFERED naming every route it does not offer (400), or that could not be read (502).
   */
  private async checkAtUpstreams(routes: readonly Route[], current: readonly Route[]): Promise<RouteCheck[]> {
    const kept = new Set(current.map(routeIdentity));
    const problems: { missing: string[]; unread: string[] } = { missing: [], unread: [] };
    const checks = await Promise.all(
      routes.map(async (route, position): Promise<RouteCheck> => {
        const { provider } = route;
        if (provider === 'sandbox') return { position, provider, checked: 'sandbox', detail: 'the sandbox: nothing to check' };
        const catalog = this.policy.enabled.has(provider) ? this.catalogOf(provider) : undefined;
        if (catalog === undefined) {
          const why = this.policy.notEnabledBecause[provider] ?? 'not configured';
          return { position, provider, checked: 'not-enabled', detail: `saved without a check at ${provider}: it is not enabled here (${why})` };
        }
        if (kept.has(routeIdentity(route))) return { position, provider, checked: 'kept', detail: 'unchanged, not read again' };
        const answer = await catalog.offers(route);
        if (answer.result === 'missing') problems.missing.push(`route #${position} (${provider}): ${answer.why}`);
        if (answer.result === 'unread') problems.unread.push(`route #${position} (${provider}): ${answer.why}`);
        return { position, provider, checked: 'offered', detail: answer.result === 'offered' ? answer.detail : '' };
      }),
    );
    if (problems.missing.length > 0) {
      throw invalid('ROUTE_NOT_OFFERED', `the upstream does not offer ${problems.missing.join('; ')}. Nothing was saved`);
    }
    if (problems.unread.length > 0) {
      throw badGateway('ROUTE_NOT_OFFERED', `could not check ${problems.unread.join('; ')}. Nothing was saved; try again`);
    }
    return checks;
  }

  /**
   * The routes of `packageIds` (every package when not given) refused, with a route problem, on
   * each of their last ROUTE_REFUSALS_FLAGGED attempts, by package and position.
   */
  async refusedRoutes(packageIds?: readonly string[]): Promise<RefusedRoute[]> {
    const recent = (await Promise.all(UPSTREAM_NAMES.map((name) => this.routes.recentAttempts(name, RECENT_ATTEMPTS_READ)))).flat();
    const wanted = packageIds === undefined ? null : new Set(packageIds);
    const streaks = new Map<string, RecentAttempt[]>();
    for (const attempt of recent) {
      if (wanted !== null && !wanted.has(attempt.packageId)) continue;
      const key = `${attempt.packageId}\n${routeIdentity(attempt.route)}`;
      const streak = streaks.get(key) ?? [];
      if (streak.length < ROUTE_REFUSALS_FLAGGED) streak.push(attempt);
      streaks.set(key, streak);
    }
    const refused = new Map<string, RecentAttempt[]>();
    for (const [key, streak] of streaks) {
      if (streak.length === ROUTE_REFUSALS_FLAGGED && streak.every((a) => a.status === 'refused' && a.problem === 'route')) refused.set(key, streak);
    }
    if (refused.size === 0) return [];
    const packages = [...new Set([...refused.values()].map((streak) => streak[0]?.packageId ?? ''))].sort();
    const current = await this.routes.ofPackages(packages);
    const flagged: RefusedRoute[] = [];
    for (const packageId of packages) {
      (current.get(packageId) ?? []).forEach((route, position) => {
        const streak = refused.get(`${packageId}\n${routeIdentity(route)}`);
        if (!streak) return;
        const latest = streak[0];
        const oldest = streak[streak.length - 1];
        flagged.push({ packageId, position, provider: route.provider, message: latest?.message ?? null, since: oldest?.createdAt ?? 0 });
      });
    }
    return flagged;
  }

  /** Active packages that some role buys below one of their routes' costs, by id. */
  async belowCostPackages(): Promise<BelowCostPackage[]> {
    const prices = await this.routes.activePrices();
    const routes = await this.routes.ofPackages([...prices.keys()]);
    const found: BelowCostPackage[] = [];
    for (const [packageId, p] of prices) {
      const list = belowCost(p, routes.get(packageId) ?? []);
      if (list.length > 0) found.push({ packageId, belowCost: list });
    }
    return found;
  }

  /** Active data packages with no route whose provider is in `enabled`, by id. */
  async unroutedLivePackages(enabled: ReadonlySet<ProviderName> = this.policy.enabled): Promise<string[]> {
    const active = await this.routes.activePackageIds();
    const routes = await this.routes.ofPackages(active);
    return active.filter((id) => usable(routes.get(id) ?? [], enabled).length === 0);
  }
}
