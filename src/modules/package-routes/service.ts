import type { Config } from '../../config.js';
import type { Database } from '../../db/connection.js';
import { conflict, notFound } from '../../domain/errors.js';
import { enabledProviders } from '../../providers/index.js';
import { PROVIDER_NAMES, type ProviderName, type Route } from '../../providers/types.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { PackageRouteRepository, StoredRoute } from './repository.js';
import { routeToWire } from './schemas.js';

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
   * `guardActive` (the console): refuse to leave an active package without a usable route where
   * one is required (NODE_ENV=production without LIVE_SANDBOX).
   */
  async replace(actor: Actor, packageId: string, routes: readonly Route[], options: { guardActive?: boolean } = {}): Promise<RouteChange> {
    return this.database.unit(async (tx) => {
      const status = await this.routes.packageStatus(packageId, tx);
      if (status === undefined) throw notFound('PACKAGE_NOT_FOUND', `no data package ${packageId}`);
      if (options.guardActive && status === 'Active' && this.policy.usableRouteRequired && usable(routes, this.policy.enabled).length === 0) {
        throw conflict(
          'INVALID_REQUEST',
          `${packageId} is active and would have no usable route (upstreams enabled: ${describeEnabled(this.policy.enabled)}): keep a route to an enabled upstream, or deactivate the package first`,
        );
      }
      const before = await this.routes.ofPackage(packageId, tx);
      await this.routes.replace(tx, packageId, routes);
      await this.audit.record(tx, actor, 'package.routes.set', { type: 'data_package', id: packageId }, {
        before: before.map(routeToWire),
        after: routes.map(routeToWire),
      });
      return { packageId, before, after: [...routes] };
    });
  }

  /** Active data packages with no route whose provider is in `enabled`, by id. */
  async unroutedLivePackages(enabled: ReadonlySet<ProviderName> = this.policy.enabled): Promise<string[]> {
    const active = await this.routes.activePackageIds();
    const routes = await this.routes.ofPackages(active);
    return active.filter((id) => usable(routes.get(id) ?? [], enabled).length === 0);
  }
}
