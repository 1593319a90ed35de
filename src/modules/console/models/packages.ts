import type { StaffRole } from '../../../db/schema.js';
import { invalid } from '../../../domain/errors.js';
import { ROLES, type Role } from '../../../domain/types.js';
import { fromGhs } from '../../../lib/money.js';
import type { PackagePricing } from '../../catalog/editor.js';
import type { StaffOperatorRow, StaffPackageRow } from '../../catalog/repository.js';
import { NETWORKS } from '../../../domain/networks.js';
import { MAX_ROUTES, readRouteList, ROUTE_FIELDS, RouteListError } from '../../package-routes/schemas.js';
import { describeBelowCost, marginsOn, routeCost } from '../../package-routes/pricing.js';
import {
  describeEnabled,
  ROUTE_REFUSALS_FLAGGED,
  usable,
  type BelowCostPackage,
  type RefusedRoute,
  type RoutingPolicy,
} from '../../package-routes/service.js';
import { PROVIDER_NAMES, type ProviderName, type Route } from '../../../providers/types.js';
import { mayAct } from '../service.js';
import { at, ghs } from './frame.js';

type PackageWithRoutes = StaffPackageRow & { routes: Route[] };
type PackageWithHealth = PackageWithRoutes & { refused: RefusedRoute[] };

/** One route's cost against each role's price (docs/console.md, "Pages"). */
export interface PriceCostLine {
  position: number;
  provider: string;
  /** `GHS 10.00 (cost)`, `GHS 10.00 (amount)`, or `unknown`. */
  cost: string;
  roles: { role: Role; price: string; margin: string; below: boolean }[];
}

export interface PackageLine {
  id: string;
  label: string;
  operator: string;
  product: string;
  price: string;
  /** `Agent GHS 9.50 · SuperAgent GHS 9.00`, or a dash. */
  rolePrices: string;
  status: string;
  /** Sold now: the package Active, its product Available, its operator Active. */
  sellable: boolean;
  /** `2 (1 usable)`, `none`. */
  routes: string;
  /** The package has no usable route: what its live orders do (or that it may not be active). */
  unrouted: string | null;
}

/** A stored route as the page lists it. */
export interface RouteLine {
  position: number;
  provider: string;
  /** The upstream's product: `serviceId … · bundle DATA10`, `operatorId 643`, `productId 35211`, or a dash. */
  product: string;
  amount: string;
  cost: string;
  enabled: boolean;
  /** `enabled`, or `not enabled: <why>`. */
  upstream: string;
  /** `refused on its last 5 orders since …: <the latest answer>`, or empty. */
  refused: string;
}

/** One row of the routes form, as text. */
export interface RouteRow {
  /** 1-based, as the form labels it. */
  number: number;
  order: string;
  provider: string;
  serviceId: string;
  bundle: string;
  amount: string;
  operatorId: string;
  productId: string;
  cost: string;
}

export interface PackageView {
  id: string;
  label: string;
  operator: string;
  product: string;
  dataAmount: string;
  validity: string;
  status: string;
  sellable: boolean;
  /** GHS as typed in the form: `10.00`. */
  price: string;
  rolePrices: { role: Role; value: string }[];
  statuses: readonly string[];
  routes: RouteLine[];
  rows: RouteRow[];
  providers: readonly string[];
  /** Upstreams enabled in this configuration: `hubtel, sandbox`, or `none`. */
  enabled: string;
  unrouted: string | null;
  /** Price, status and routes: admins only. */
  canEdit: boolean;
  /** Each route's cost against each role's price, with the margin. */
  priceAgainstCost: PriceCostLine[];
  roles: readonly Role[];
  /** What sells below cost now (an active package), or null. */
  belowCost: string | null;
}

const ghsText = (pesewas: number) => (pesewas / 100).toFixed(2);

function productText(route: Route): string {
  switch (route.provider) {
    case 'hubtel':
      return `serviceId ${route.serviceId} · bundle ${route.bundle}`;
    case 'reloadly':
      return `operatorId ${route.operatorId}`;
    case 'dtone':
      return `productId ${route.productId}`;
    case 'sandbox':
      return '—';
  }
}

const amountOf = (route: Route): number | undefined =>
  route.provider === 'hubtel' || route.provider === 'reloadly' ? route.amount : undefined;

function refusedText(refused: readonly RefusedRoute[], position: number): string {
  const found = refused.find((r) => r.position === position);
  if (!found) return '';
  return `refused on its last ${ROUTE_REFUSALS_FLAGGED} orders (since ${at(found.since)})${found.message ? `: ${found.message}` : ''}`;
}

function priceCostLine(p: PackageWithRoutes, route: Route, position: number): PriceCostLine {
  const cost = routeCost(route);
  return {
    position,
    provider: route.provider,
    cost: cost === null ? 'unknown' : `${ghs(cost.cost)} (${cost.from})`,
    roles: marginsOn(p, route).map((m) => ({
      role: m.role,
      price: ghs(m.price),
      margin: m.margin === null ? '—' : ghs(m.margin),
      below: m.margin !== null && m.margin < 0,
    })),
  };
}

function belowCostText(p: PackageWithRoutes): string | null {
  if (p.status !== 'Active') return null;
  const lines = p.routes.flatMap((route, position) => {
    const cost = routeCost(route);
    if (cost === null) return [];
    return marginsOn(p, route)
      .filter((m) => m.price < cost.cost)
      .map((m) => ({ role: m.role, price: m.price, position, provider: route.provider, cost: cost.cost }));
  });
  return lines.length === 0 ? null : `Sells below cost: ${describeBelowCost(lines)}.`;
}

function routeLine(route: Route, position: number, policy: RoutingPolicy, refused: readonly RefusedRoute[] = []): RouteLine {
  const enabled = policy.enabled.has(route.provider);
  const amount = amountOf(route);
  return {
    position,
    provider: route.provider,
    product: productText(route),
    amount: amount === undefined ? '—' : ghs(amount),
    cost: route.cost === undefined ? '—' : ghs(route.cost),
    enabled,
    upstream: enabled ? 'enabled' : `not enabled: ${policy.notEnabledBecause[route.provider] ?? 'not configured'}`,
    refused: refusedText(refused, position),
  };
}

/** What a package without a usable route means here; null when it has one. */
function unroutedText(p: PackageWithRoutes, policy: RoutingPolicy): string | null {
  if (usable(p.routes, policy.enabled).length > 0) return null;
  if (policy.usableRouteRequired) {
    return p.status === 'Active'
      ? 'No usable route: the service refuses to start while this package is active'
      : 'No usable route: it cannot be activated until it has one';
  }
  return p.status === 'Active' ? 'No usable route: its live orders go to the sandbox' : 'No usable route';
}

const isSellable = (p: StaffPackageRow) => p.status === 'Active' && p.product_status === 'Available' && p.operator_status === 'Active';

/** An operator and the network its recipients' numbers are checked against. */
export interface OperatorLine {
  id: string;
  name: string;
  status: string;
  /** MTN, TELECEL, AT, or '' for none. */
  network: string;
}

export interface PackagesView {
  operators: OperatorLine[];
  networks: readonly string[];
  /** Setting an operator's network: admins only. */
  canEditNetworks: boolean;
  packages: PackageLine[];
  /** Upstreams enabled in this configuration: `hubtel, sandbox`, or `none`. */
  enabled: string;
  /** What happens to an active package without a usable route here. */
  rule: string;
}

export const packagesView = (
  packages: PackageWithRoutes[],
  policy: RoutingPolicy,
  operators: StaffOperatorRow[],
  role: StaffRole,
): PackagesView => ({
  operators: operators.map((o) => ({ id: o.id, name: o.name, status: o.status, network: o.network ?? '' })),
  networks: NETWORKS,
  canEditNetworks: mayAct(role, 'admin'),
  packages: packageLines(packages, policy),
  enabled: describeEnabled(policy.enabled),
  rule: policy.usableRouteRequired
    ? 'Production without LIVE_SANDBOX: an active package needs a usable route (the service refuses to start otherwise, and a package without one cannot be activated).'
    : 'A package without a usable route sends its live orders to the sandbox.',
});

const packageLines = (packages: PackageWithRoutes[], policy: RoutingPolicy): PackageLine[] =>
  packages.map((p) => {
    const usableCount = usable(p.routes, policy.enabled).length;
    return {
      id: p.id,
      label: p.label,
      operator: p.operator_name,
      product: p.product_name,
      price: ghs(p.price),
      rolePrices: p.rolePrices.map((r) => `${r.role} ${ghs(r.price)}`).join(' · ') || '—',
      status: p.status,
      sellable: isSellable(p),
      routes: p.routes.length === 0 ? 'none' : `${p.routes.length} (${usableCount} usable)`,
      unrouted: unroutedText(p, policy),
    };
  });

function formRows(routes: Route[]): RouteRow[] {
  const rows: RouteRow[] = [];
  for (let i = 0; i < MAX_ROUTES; i++) {
    const route = routes[i];
    const amount = route ? amountOf(route) : undefined;
    rows.push({
      number: i + 1,
      order: String(i + 1),
      provider: route?.provider ?? '',
      serviceId: route?.provider === 'hubtel' ? route.serviceId : '',
      bundle: route?.provider === 'hubtel' ? route.bundle : '',
      amount: amount === undefined ? '' : ghsText(amount),
      operatorId: route?.provider === 'reloadly' ? String(route.operatorId) : '',
      productId: route?.provider === 'dtone' ? String(route.productId) : '',
      cost: route?.cost === undefined ? '' : ghsText(route.cost),
    });
  }
  return rows;
}

export function packageView(p: PackageWithHealth, policy: RoutingPolicy, role: StaffRole): PackageView {
  return {
    id: p.id,
    label: p.label,
    operator: `${p.operator_name} (${p.operator_id}, ${p.operator_status})`,
    product: `${p.product_name} (${p.product_id}, ${p.product_status})`,
    dataAmount: p.data_amount,
    validity: p.validity,
    status: p.status,
    sellable: isSellable(p),
    price: ghsText(p.price),
    rolePrices: ROLES.map((role) => {
      const found = p.rolePrices.find((r) => r.role === role);
      return { role, value: found ? ghsText(found.price) : '' };
    }),
    statuses: ['Active', 'Inactive'],
    routes: p.routes.map((route, position) => routeLine(route, position, policy, p.refused)),
    rows: formRows(p.routes),
    providers: PROVIDER_NAMES,
    enabled: describeEnabled(policy.enabled),
    unrouted: unroutedText(p, policy),
    canEdit: mayAct(role, 'admin'),
    priceAgainstCost: p.routes.map((route, position) => priceCostLine(p, route, position)),
    roles: ROLES,
    belowCost: belowCostText(p),
  };
}

/** The dashboard's flags on data packages (docs/console.md, "Pages"). */
export interface PackageFlagsView {
  belowCost: { packageId: string; what: string }[];
  refused: { packageId: string; route: string; since: string; lastAnswer: string }[];
  refusalsFlagged: number;
}

export function packageFlagsView(flags: { belowCost: BelowCostPackage[]; refused: RefusedRoute[] }): PackageFlagsView {
  return {
    belowCost: flags.belowCost.map((b) => ({ packageId: b.packageId, what: describeBelowCost(b.belowCost) })),
    refused: flags.refused.map((r) => ({ packageId: r.packageId, route: `#${r.position} ${r.provider}`, since: at(r.since), lastAnswer: r.message ?? '—' })),
    refusalsFlagged: ROUTE_REFUSALS_FLAGGED,
  };
}

// ---- the forms, read into the services' values ----

/** GHS typed into a form (`10`, `10.5`, `10.50`) → pesewas; a refusal naming the field otherwise. */
function ghsField(what: string, text: string): number {
  const trimmed = text.trim();
  const pesewas = /^\d{1,9}(\.\d{1,2})?$/.test(trimmed) ? fromGhs(Number(trimmed)) : null;
  if (pesewas === null) throw invalid('INVALID_REQUEST', `${what}: "${text}" is not a GHS amount (like 10 or 9.50)`);
  return pesewas;
}

/** The price form: `price`, `price_<Role>` (empty: the role pays the package price), `status`. */
export function pricingFromForm(form: Record<string, string | undefined>): PackagePricing {
  const status = form.status;
  if (status !== 'Active' && status !== 'Inactive') throw invalid('INVALID_REQUEST', 'status must be Active or Inactive');
  const rolePrices: PackagePricing['rolePrices'] = [];
  for (const role of ROLES) {
    const text = form[`price_${role}`] ?? '';
    if (text.trim() !== '') rolePrices.push({ role, price: ghsField(`${role} price`, text) });
  }
  return { price: ghsField('price', form.price ?? ''), rolePrices, status };
}

const NUMERIC_FIELDS = new Set(['amount', 'cost', 'operatorId', 'productId']);

/**
 * The routes form: rows `r<i>_<field>` (i from 0), each with a provider (none: the row is empty),
 * its provider's fields (others in the row are ignored: a row changed from one provider to another
 * keeps stale text) and an order (rows are tried by it, then by row). A bad route is refused naming
 * its row.
 */
export function routesFromForm(form: Record<string, string | undefined>): Route[] {
  const rows: { number: number; order: number; route: Record<string, unknown> }[] = [];
  for (let i = 0; i < MAX_ROUTES; i++) {
    const provider = (form[`r${i}_provider`] ?? '').trim();
    if (provider === '') continue;
    const route: Record<string, unknown> = { provider };
    const known = PROVIDER_NAMES.find((p): p is ProviderName => p === provider);
    for (const field of known ? ROUTE_FIELDS[known] : []) {
      if (field === 'provider') continue;
      const text = (form[`r${i}_${field}`] ?? '').trim();
      if (text === '') continue;
      // A number field that is not a number stays text, so the refusal shows what was typed.
      route[field] = NUMERIC_FIELDS.has(field) && /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
    }
    const order = Number((form[`r${i}_order`] ?? '').trim());
    rows.push({ number: i + 1, order: Number.isFinite(order) && (form[`r${i}_order`] ?? '').trim() !== '' ? order : i + 1, route });
  }
  rows.sort((a, b) => a.order - b.order || a.number - b.number);
  try {
    return readRouteList(rows.map((r) => r.route));
  } catch (error) {
    if (!(error instanceof RouteListError)) throw error;
    const rowOf = (index: string) => `route ${rows[Number(index)]?.number ?? Number(index) + 1}`;
    const at = /^\[(\d+)\](?:\.(\w+))?$/.exec(error.path);
    const where = at?.[1] === undefined ? 'routes' : `${rowOf(at[1])}${at[2] === undefined ? '' : ` field ${at[2]}`}`;
    const problem = error.problem.replace(/routes\[(\d+)\]/g, (_, index: string) => rowOf(index));
    throw invalid('INVALID_REQUEST', `${where}: ${problem}`);
  }
}
