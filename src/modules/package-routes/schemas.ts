import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { closestName } from '../../lib/did-you-mean.js';
import { fromGhs, toGhs } from '../../lib/money.js';
import { PROVIDER_NAMES, type ProviderName, type Route } from '../../providers/types.js';

/**
 * A data package's routes in their wire form (docs/live-delivery.md, "Routes"): what the seed file, the CLI's
 * routes file and the console's form carry. Money in GHS here; a stored `Route` holds pesewas.
 */

export const MAX_ROUTES = 8;

const Amount = Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'GHS, more than 0, at most two decimals' });
const Cost = Type.Number({ minimum: 0, maximum: 1_000_000, description: 'GHS, at most two decimals' });
const Printable = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[\\x21-\\x7e]([\\x20-\\x7e]*[\\x21-\\x7e])?$',
  description: 'printable characters, no leading or trailing space',
});
const UpstreamId = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'a positive integer' });

export const SandboxWireRoute = Type.Object(
  { provider: Type.Literal('sandbox'), cost: Type.Optional(Cost) },
  { additionalProperties: false },
);
export const HubtelWireRoute = Type.Object(
  { provider: Type.Literal('hubtel'), serviceId: Printable, bundle: Printable, amount: Amount, cost: Type.Optional(Cost) },
  { additionalProperties: false },
);
export const ReloadlyWireRoute = Type.Object(
  { provider: Type.Literal('reloadly'), operatorId: UpstreamId, amount: Amount, cost: Type.Optional(Cost) },
  { additionalProperties: false },
);
export const DtoneWireRoute = Type.Object(
  { provider: Type.Literal('dtone'), productId: UpstreamId, cost: Type.Optional(Cost) },
  { additionalProperties: false },
);

export const WireRoute = Type.Union([HubtelWireRoute, ReloadlyWireRoute, DtoneWireRoute, SandboxWireRoute]);
export type WireRoute = Static<typeof WireRoute>;

/** The strict shape; readRouteList adds what JSON Schema cannot say (two decimals, no duplicates). */
export const WireRouteList = Type.Array(WireRoute, { maxItems: MAX_ROUTES });

const BRANCHES: Record<ProviderName, TSchema & { properties: Record<string, TSchema>; required?: string[] }> = {
  hubtel: HubtelWireRoute,
  reloadly: ReloadlyWireRoute,
  dtone: DtoneWireRoute,
  sandbox: SandboxWireRoute,
};

/** The fields each provider's route has, provider first: the console's form and the CLI print them in this order. */
export const ROUTE_FIELDS: Record<ProviderName, readonly string[]> = {
  hubtel: Object.keys(HubtelWireRoute.properties),
  reloadly: Object.keys(ReloadlyWireRoute.properties),
  dtone: Object.keys(DtoneWireRoute.properties),
  sandbox: Object.keys(SandboxWireRoute.properties),
};

/**
 * A route list refused; `path` is where within the list (`[1].amount`, `[2]`, or empty for the list
 * itself), so that each caller names it in its own words (the seed: its entry and field).
 */
export class RouteListError extends Error {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super(`routes${path}: ${problem}`);
    this.name = 'RouteListError';
  }
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TYPE_WORDS: Record<string, string> = { number: 'a number', integer: 'an integer', string: 'a string' };

/** What is wrong with one field, in words, from the first of its schema errors. */
function fieldProblem(schema: TSchema, value: unknown): string {
  const [error] = [...Value.Errors(schema, value)];
  const got = ` (got ${shown(value)})`;
  if (!error) return `is not valid${got}`;
  const description = (schema as { description?: unknown }).description;
  switch (error.keyword) {
    case 'type':
      return `must be ${TYPE_WORDS[String(error.params.type)] ?? String(error.params.type)}${got}`;
    case 'exclusiveMinimum':
    case 'minimum':
    case 'maximum':
    case 'pattern':
      return `must be ${typeof description === 'string' ? description : error.message}${got}`;
    case 'minLength':
      return 'must not be empty';
    case 'maxLength':
      return `must be at most ${String(error.params.limit)} characters long`;
    default:
      return `${error.message}${got}`;
  }
}

/** One route of the list, checked against its provider's shape; the route in pesewas. */
function readRoute(item: unknown, index: number): Route {
  const at = `[${index}]`;
  if (!isRecord(item)) throw new RouteListError(at, `must be an object (got ${shown(item)})`);
  const provider = item.provider;
  if (provider === undefined) throw new RouteListError(at, `missing field provider (one of ${PROVIDER_NAMES.join(', ')})`);
  const name = PROVIDER_NAMES.find((p) => p === provider);
  if (name === undefined) throw new RouteListError(`${at}.provider`, `must be one of ${PROVIDER_NAMES.join(', ')} (got ${shown(provider)})`);
  const branch = BRANCHES[name];
  const known = Object.keys(branch.properties);
  const unknown = Object.keys(item).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    const parts = unknown.map((k) => {
      const guess = closestName(k, known.filter((f) => !(f in item)));
      return guess ? `${k} (did you mean ${guess}?)` : k;
    });
    throw new RouteListError(at, `unknown field${unknown.length > 1 ? 's' : ''} ${parts.join(', ')} (a ${name} route has ${known.join(', ')})`);
  }
  const missing = (branch.required ?? []).filter((k) => !(k in item));
  if (missing.length > 0) throw new RouteListError(at, `missing field${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (a ${name} route needs them)`);
  for (const field of known) {
    const schema = branch.properties[field];
    if (schema === undefined || !(field in item)) continue;
    const value = item[field];
    if (!Value.Check(schema, value)) throw new RouteListError(`${at}.${field}`, fieldProblem(schema, value));
  }
  const pesewas = (field: 'amount' | 'cost'): number | undefined => {
    const value = item[field];
    if (value === undefined) return undefined;
    const converted = typeof value === 'number' ? fromGhs(value) : null;
    if (converted === null) throw new RouteListError(`${at}.${field}`, `must be a GHS amount with at most two decimals (got ${shown(value)})`);
    return converted;
  };
  const cost = pesewas('cost');
  const withCost = cost === undefined ? {} : { cost };
  // Each field was checked against the provider's schema above.
  switch (name) {
    case 'hubtel':
      return { provider: name, serviceId: item.serviceId as string, bundle: item.bundle as string, amount: pesewas('amount') as number, ...withCost };
    case 'reloadly':
      return { provider: name, operatorId: item.operatorId as number, amount: pesewas('amount') as number, ...withCost };
    case 'dtone':
      return { provider: name, productId: item.productId as number, ...withCost };
    case 'sandbox':
      return { provider: name, ...withCost };
  }
}

/** What makes two routes the same route (the cost aside): the same upstream and the same product. */
export function routeIdentity(route: Route): string {
  switch (route.provider) {
    case 'hubtel':
      return JSON.stringify([route.provider, route.serviceId, route.bundle, route.amount]);
    case 'reloadly':
      return JSON.stringify([route.provider, route.operatorId, route.amount]);
    case 'dtone':
      return JSON.stringify([route.provider, route.productId]);
    case 'sandbox':
      return JSON.stringify([route.provider]);
  }
}

/**
 * A route list in its wire form (GHS) → routes in pesewas, in order. Throws RouteListError naming
 * the first problem: not a list, more than MAX_ROUTES, a route of no known provider, an unknown or
 * missing field, a bad value, an amount with more than two decimals, a route listed twice.
 */
export function readRouteList(value: unknown): Route[] {
  if (!Array.isArray(value)) throw new RouteListError('', `must be a list of routes (got ${shown(value)})`);
  if (value.length > MAX_ROUTES) throw new RouteListError('', `at most ${MAX_ROUTES} routes (got ${value.length})`);
  const routes = value.map((item: unknown, index) => readRoute(item, index));
  const seen = new Map<string, number>();
  routes.forEach((route, index) => {
    const identity = routeIdentity(route);
    const first = seen.get(identity);
    if (first !== undefined) throw new RouteListError(`[${index}]`, `the same route as routes[${first}]`);
    seen.set(identity, index);
  });
  // Everything the schema says was checked above, route by route; this holds unless they drift apart.
  if (!Value.Check(WireRouteList, value)) throw new RouteListError('', 'does not match the route list schema');
  return routes;
}

/** A stored route in its wire form (GHS). */
export function routeToWire(route: Route): WireRoute {
  const cost = route.cost === undefined ? {} : { cost: toGhs(route.cost) };
  switch (route.provider) {
    case 'hubtel':
      return { provider: 'hubtel', serviceId: route.serviceId, bundle: route.bundle, amount: toGhs(route.amount), ...cost };
    case 'reloadly':
      return { provider: 'reloadly', operatorId: route.operatorId, amount: toGhs(route.amount), ...cost };
    case 'dtone':
      return { provider: 'dtone', productId: route.productId, ...cost };
    case 'sandbox':
      return { provider: 'sandbox', ...cost };
  }
}
