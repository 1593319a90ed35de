import { sql } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { PackageRouteRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Role } from '../../domain/types.js';
import type { Route, UpstreamName } from '../../providers/types.js';
import type { Prices } from './pricing.js';

/** A route as stored: its package and its place in the package's order (0 is tried first). */
export interface StoredRoute {
  packageId: string;
  position: number;
  route: Route;
}

/** A stored row → a Route; a row no version of this code could have written is a bug, not a refusal. */
function routeOf(row: Pick<PackageRouteRow, 'provider' | 'service_id' | 'bundle' | 'operator_id' | 'product_id' | 'amount' | 'cost'>): Route {
  const cost = row.cost === null ? {} : { cost: Number(row.cost) };
  const broken = () => new Error(`package_routes row of provider ${row.provider} lacks its fields`);
  switch (row.provider) {
    case 'hubtel':
      if (row.service_id === null || row.bundle === null || row.amount === null) throw broken();
      return { provider: 'hubtel', serviceId: row.service_id, bundle: row.bundle, amount: Number(row.amount), ...cost };
    case 'reloadly':
      if (row.operator_id === null || row.amount === null) throw broken();
      return { provider: 'reloadly', operatorId: Number(row.operator_id), amount: Number(row.amount), ...cost };
    case 'dtone':
      if (row.product_id === null) throw broken();
      return { provider: 'dtone', productId: Number(row.product_id), ...cost };
    case 'sandbox':
      return { provider: 'sandbox', ...cost };
    default:
      throw new Error(`package_routes has a route of unknown provider ${row.provider}`);
  }
}

function rowOf(packageId: string, position: number, route: Route) {
  return {
    package_id: packageId,
    position,
    provider: route.provider,
    service_id: route.provider === 'hubtel' ? route.serviceId : null,
    bundle: route.provider === 'hubtel' ? route.bundle : null,
    operator_id: route.provider === 'reloadly' ? route.operatorId : null,
    product_id: route.provider === 'dtone' ? route.productId : null,
    amount: route.provider === 'hubtel' || route.provider === 'reloadly' ? route.amount : null,
    cost: route.cost ?? null,
  };
}

/** A finished attempt through an upstream, newest first: what route-health reads. */
export interface RecentAttempt {
  packageId: string;
  route: Route;
  status: string;
  problem: string | null;
  message: string | null;
  createdAt: number;
}

const COLUMNS = ['package_id', 'position', 'provider', 'service_id', 'bundle', 'operator_id', 'product_id', 'amount', 'cost'] as const;

/** The routes of data packages (table package_routes, migration 0013), in their order. */
export class PackageRouteRepository {
  constructor(private readonly database: Database) {}

  /** One package's routes in order: inside a unit when `tx` is given. */
  async ofPackage(packageId: string, tx?: Tx): Promise<Route[]> {
    const query = (tx?.qb ?? this.database.read)
      .selectFrom('package_routes')
      .select(COLUMNS)
      .where('package_id', '=', packageId)
      .orderBy('position');
    const rows = tx ? (await tx.execute(query)).rows : await query.execute();
    return rows.map(routeOf);
  }

  /** The routes of several packages, in one query; a package without routes maps to an empty list. */
  async ofPackages(packageIds: readonly string[]): Promise<Map<string, Route[]>> {
    const found = new Map<string, Route[]>(packageIds.map((id) => [id, []]));
    if (packageIds.length === 0) return found;
    const rows = await this.database.readRows(
      this.database.statements.withList('routes of packages', [], [...new Set(packageIds)], (qb, _, ids) =>
        qb
          .selectFrom('package_routes')
          .select(COLUMNS)
          .where('package_id', 'in', ids as string[])
          .orderBy('package_id')
          .orderBy('position'),
      ),
    );
    for (const row of rows) found.get(row.package_id)?.push(routeOf(row));
    return found;
  }

  /** Every stored route, by package then position. */
  async all(): Promise<StoredRoute[]> {
    const rows = await this.database.read.selectFrom('package_routes').select(COLUMNS).orderBy('package_id').orderBy('position').execute();
    return rows.map((row) => ({ packageId: row.package_id, position: Number(row.position), route: routeOf(row) }));
  }

  /** Replaces a package's routes with `routes`, in their order (positions 0, 1, …). */
  async replace(tx: Tx, packageId: string, routes: readonly Route[]): Promise<void> {
    await tx.execute(tx.qb.deleteFrom('package_routes').where('package_id', '=', packageId));
    if (routes.length > 0) {
      await tx.execute(tx.qb.insertInto('package_routes').values(routes.map((route, position) => rowOf(packageId, position, route))));
    }
  }

  /** A data package's status (`Active`, `Inactive`), or undefined when there is no such package. */
  async packageStatus(packageId: string, tx?: Tx): Promise<string | undefined> {
    const query = (tx?.qb ?? this.database.read).selectFrom('data_packages').select('status').where('id', '=', packageId);
    const rows = tx ? (await tx.execute(query)).rows : await query.execute();
    return rows[0]?.status;
  }

  /** A package's price and role prices (in the unit when given); undefined when there is no such package. */
  async pricesOf(packageId: string, tx?: Tx): Promise<Prices | undefined> {
    const priceQuery = (tx?.qb ?? this.database.read).selectFrom('data_packages').select('price').where('id', '=', packageId);
    const [row] = tx ? (await tx.execute(priceQuery)).rows : await priceQuery.execute();
    if (!row) return undefined;
    const rolesQuery = (tx?.qb ?? this.database.read).selectFrom('data_package_prices').select(['role', 'price']).where('package_id', '=', packageId);
    const roles = tx ? (await tx.execute(rolesQuery)).rows : await rolesQuery.execute();
    return { price: Number(row.price), rolePrices: roles.map((r) => ({ role: r.role, price: Number(r.price) })) };
  }

  /** The prices of every active data package, by id. */
  async activePrices(): Promise<Map<string, Prices>> {
    const rows = await this.database.read.selectFrom('data_packages').select(['id', 'price']).where('status', '=', 'Active').orderBy('id').execute();
    const found = new Map<string, { price: number; rolePrices: { role: Role; price: number }[] }>(
      rows.map((r) => [r.id, { price: Number(r.price), rolePrices: [] }]),
    );
    if (found.size === 0) return found;
    const roles = await this.database.read
      .selectFrom('data_package_prices as p')
      .innerJoin('data_packages as d', 'd.id', 'p.package_id')
      .select(['p.package_id', 'p.role', 'p.price'])
      .where('d.status', '=', 'Active')
      .execute();
    for (const r of roles) found.get(r.package_id)?.rolePrices.push({ role: r.role, price: Number(r.price) });
    return found;
  }

  /**
   * The last `limit` finished attempts through `provider` (completed, failed or refused), newest
   * first, with the package they delivered: read backwards through provider_attempts_window
   * (provider, created_at; no sandbox attempt), so the cost is bounded by `limit`.
   */
  async recentAttempts(provider: UpstreamName, limit: number): Promise<RecentAttempt[]> {
    const rows = await this.database.read
      .selectFrom('provider_attempts as a')
      .innerJoin('order_items as i', 'i.id', 'a.order_item_id')
      .select(['i.package_id', 'a.route', 'a.status', 'a.problem', 'a.message', 'a.created_at'])
      .where('a.provider', '=', provider)
      // As a literal: the partial index provider_attempts_window holds exactly these (migration 0022).
      .where(sql<boolean>`a.provider <> 'sandbox'`)
      .where('a.status', 'in', ['completed', 'failed', 'refused'])
      .orderBy('a.created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      packageId: r.package_id,
      route: JSON.parse(r.route) as Route,
      status: r.status,
      problem: r.problem,
      message: r.message,
      createdAt: Number(r.created_at),
    }));
  }

  /** The ids of the data packages whose status is Active, in order. */
  async activePackageIds(): Promise<string[]> {
    const rows = await this.database.read.selectFrom('data_packages').select('id').where('status', '=', 'Active').orderBy('id').execute();
    return rows.map((r) => r.id);
  }
}
