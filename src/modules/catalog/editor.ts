import type { Database } from '../../db/connection.js';
import { conflict, invalid, notFound } from '../../domain/errors.js';
import { NETWORKS, type Network } from '../../domain/networks.js';
import { ROLES, type Clock, type Role } from '../../domain/types.js';
import { toGhs } from '../../lib/money.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { PackageRouteRepository } from '../package-routes/repository.js';
import { belowCostInGhs, guardBelowCost, type BelowCost } from '../package-routes/pricing.js';
import { describeEnabled, usable, type RoutingPolicy } from '../package-routes/service.js';
import type { CatalogRepository, PackagePricing, StaffOperatorRow, StaffPackageRow } from './repository.js';

export type { PackagePricing, StaffOperatorRow, StaffPackageRow } from './repository.js';

/** The most a package may cost (pesewas): GHS 10,000,000, the seed file's limit too. */
const MAX_PRICE = 1_000_000_000;

/** Prices and status in GHS, as the audit trail records them. */
function pricingInGhs(p: PackagePricing) {
  const rolePrices: Partial<Record<Role, number>> = {};
  for (const role of ROLES) {
    const found = p.rolePrices.find((r) => r.role === role);
    if (found) rolePrices[role] = toGhs(found.price);
  }
  return { price: toGhs(p.price), rolePrices, status: p.status };
}

function checkPrice(what: string, pesewas: number): void {
  if (!Number.isSafeInteger(pesewas) || pesewas <= 0 || pesewas > MAX_PRICE) {
    throw invalid('INVALID_REQUEST', `${what} must be more than GHS 0 and at most GHS ${toGhs(MAX_PRICE)}`);
  }
}

/**
 * What staff change on a data package outside the seed file (docs/console.md, "Pages"): its
 * price, role prices and status, audited as `package.update` in the unit of the change, with the
 * catalog version bumped there too, so that every API process shows the new price on its next
 * request. A package is not activated without a usable route where one is required
 * (NODE_ENV=production without LIVE_SANDBOX).
 */
export class PackageEditor {
  constructor(
    private readonly database: Database,
    private readonly catalog: CatalogRepository,
    private readonly routes: PackageRouteRepository,
    private readonly audit: AuditTrail,
    private readonly policy: RoutingPolicy,
    private readonly clock: Clock,
  ) {}

  list(): Promise<StaffPackageRow[]> {
    return this.catalog.packagesForStaff();
  }

  async find(packageId: string): Promise<StaffPackageRow | undefined> {
    return (await this.catalog.packagesForStaff(packageId))[0];
  }

  /**
   * `belowCost`: the staff member confirmed that the package, active after the change, sells below
   * one of its routes' costs for some role; without it such a change is refused (BELOW_COST).
   */
  async update(
    actor: Actor,
    packageId: string,
    change: PackagePricing,
    options: { belowCost?: boolean } = {},
  ): Promise<{ before: PackagePricing; after: PackagePricing; belowCost: BelowCost[] }> {
    checkPrice('the price', change.price);
    const roles = new Set<Role>();
    for (const r of change.rolePrices) {
      if (roles.has(r.role)) throw invalid('INVALID_REQUEST', `the ${r.role} price is given twice`);
      roles.add(r.role);
      checkPrice(`the ${r.role} price`, r.price);
    }
    return this.database.unit(async (tx) => {
      const before = await this.catalog.pricingOf(tx, packageId);
      if (!before) throw notFound('PACKAGE_NOT_FOUND', `no data package ${packageId}`);
      if (change.status === 'Active' && before.status !== 'Active' && this.policy.usableRouteRequired) {
        const routes = await this.routes.ofPackage(packageId, tx);
        if (usable(routes, this.policy.enabled).length === 0) {
          throw conflict(
            'INVALID_REQUEST',
            `${packageId} cannot be activated: it has no usable route (upstreams enabled: ${describeEnabled(this.policy.enabled)}). Set a route to an enabled upstream first, or run with LIVE_SANDBOX=true`,
          );
        }
      }
      // An inactive package sells nothing: its prices are checked against its routes when it is activated.
      const below = change.status === 'Active' ? guardBelowCost(packageId, change, await this.routes.ofPackage(packageId, tx), options.belowCost === true) : [];
      await this.catalog.setPricing(tx, packageId, change, this.clock());
      await this.catalog.bumpVersion(tx);
      await this.audit.record(tx, actor, 'package.update', { type: 'data_package', id: packageId }, {
        before: pricingInGhs(before),
        after: pricingInGhs(change),
        ...(below.length > 0 ? { belowCostConfirmed: belowCostInGhs(below) } : {}),
      });
      return { before, after: change, belowCost: below };
    });
  }

  operators(): Promise<StaffOperatorRow[]> {
    return this.catalog.operatorsForStaff();
  }

  /**
   * Sets (or, with null, clears) the network an operator's bundles are for (docs/api.md, "The
   * number's network"), audited as `operator.network` with the catalog version bumped in the same
   * unit, so every process checks numbers against it from its next request.
   */
  async setOperatorNetwork(
    actor: Actor,
    operatorId: string,
    network: Network | null,
  ): Promise<{ before: Network | null; after: Network | null }> {
    if (network !== null && !NETWORKS.includes(network)) {
      throw invalid('INVALID_REQUEST', `network must be one of ${NETWORKS.join(', ')}, or none`);
    }
    return this.database.unit(async (tx) => {
      const found = await this.catalog.networkOf(tx, operatorId);
      if (!found) throw notFound('NOT_FOUND', `no operator ${operatorId}`);
      await this.catalog.setNetwork(tx, operatorId, network, this.clock());
      await this.catalog.bumpVersion(tx);
      await this.audit.record(tx, actor, 'operator.network', { type: 'operator', id: operatorId }, {
        before: found.network,
        after: network,
      });
      return { before: found.network, after: network };
    });
  }
}
