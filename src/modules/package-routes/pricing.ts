import { invalid } from '../../domain/errors.js';
import { ROLES, type Role } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import type { Route } from '../../providers/types.js';

/**
 * A package's prices against its routes' costs (docs/live-delivery.md, "Routes"): what each role
 * pays, what each route costs the platform, and the margin between them. Money in pesewas.
 */

/** A package's prices: its price, and the roles that pay their own. */
export interface Prices {
  price: number;
  rolePrices: readonly { role: Role; price: number }[];
}

/** What a route costs the platform: its `cost`, else what the upstream is asked for (Hubtel, Reloadly); null when neither is known (DT One, the sandbox, without a cost). */
export interface RouteCost {
  cost: number;
  from: 'cost' | 'amount';
}

export function routeCost(route: Route): RouteCost | null {
  if (route.cost !== undefined) return { cost: route.cost, from: 'cost' };
  if (route.provider === 'hubtel' || route.provider === 'reloadly') return { cost: route.amount, from: 'amount' };
  return null;
}

/** What each role pays, in ROLES order: its own price, else the package price. */
export function pricesByRole(prices: Prices): { role: Role; price: number; own: boolean }[] {
  return ROLES.map((role) => {
    const own = prices.rolePrices.find((r) => r.role === role);
    return { role, price: own?.price ?? prices.price, own: own !== undefined };
  });
}

/** One role's price against one route's cost. */
export interface RoleMargin {
  role: Role;
  price: number;
  /** price − cost; null when the route's cost is not known. */
  margin: number | null;
}

/** Each role's price and margin on `route`. */
export function marginsOn(prices: Prices, route: Route): RoleMargin[] {
  const cost = routeCost(route);
  return pricesByRole(prices).map(({ role, price }) => ({ role, price, margin: cost === null ? null : price - cost.cost }));
}

/** A role whose price is lower than a route's cost. */
export interface BelowCost {
  role: Role;
  price: number;
  /** The route's place in the package's order (0 is tried first) and its upstream. */
  position: number;
  provider: Route['provider'];
  cost: number;
}

/** Every (role, route) pair where the role's price is lower than the route's known cost. */
export function belowCost(prices: Prices, routes: readonly Route[]): BelowCost[] {
  const found: BelowCost[] = [];
  routes.forEach((route, position) => {
    const cost = routeCost(route);
    if (cost === null) return;
    for (const { role, price } of pricesByRole(prices)) {
      if (price < cost.cost) found.push({ role, price, position, provider: route.provider, cost: cost.cost });
    }
  });
  return found;
}

/** `the SuperAgent price GHS 8.50 is below the cost of route #0 (hubtel), GHS 10.00; …` */
export function describeBelowCost(list: readonly BelowCost[]): string {
  return list
    .map((b) => `the ${b.role} price ${formatGhs(b.price)} is below the cost of route #${b.position} (${b.provider}), ${formatGhs(b.cost)}`)
    .join('; ');
}

/** The below-cost pairs in GHS, as the audit trail records a save confirmed below cost. */
export function belowCostInGhs(list: readonly BelowCost[]) {
  return list.map((b) => ({ role: b.role, price: b.price / 100, route: b.position, provider: b.provider, cost: b.cost / 100 }));
}

/**
 * Refuses a save that would sell below cost unless the staff member confirmed it (the console's
 * "I know this sells below cost", the CLI's --below-cost); returns what sells below cost.
 */
export function guardBelowCost(packageId: string, prices: Prices, routes: readonly Route[], confirmed: boolean): BelowCost[] {
  const found = belowCost(prices, routes);
  if (found.length > 0 && !confirmed) {
    throw invalid(
      'BELOW_COST',
      `${packageId} would sell below cost: ${describeBelowCost(found)}. Nothing was saved; confirm that it sells below cost to save it (console: tick "I know this sells below cost"; CLI: --below-cost)`,
    );
  }
  return found;
}
