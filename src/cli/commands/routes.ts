import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { formatGhs, toGhs } from '../../lib/money.js';
import { describeBelowCost, marginsOn, routeCost, type Prices } from '../../modules/package-routes/pricing.js';
import { readRouteList, RouteListError, routeToWire } from '../../modules/package-routes/schemas.js';
import {
  describeEnabled,
  ROUTE_REFUSALS_FLAGGED,
  usable,
  type PackageRoutes,
  type RefusedRoute,
  type RouteCheck,
  type RoutingPolicy,
} from '../../modules/package-routes/service.js';
import type { Route } from '../../providers/types.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

/** The upstream's product, as a line shows it: `serviceId … bundle DATA10 amount GHS 10.00`. */
function productOf(route: Route): string {
  const cost = route.cost === undefined ? [] : [`cost ${formatGhs(route.cost)}`];
  switch (route.provider) {
    case 'hubtel':
      return [`serviceId ${route.serviceId}`, `bundle ${route.bundle}`, `amount ${formatGhs(route.amount)}`, ...cost].join('  ');
    case 'reloadly':
      return [`operatorId ${route.operatorId}`, `amount ${formatGhs(route.amount)}`, ...cost].join('  ');
    case 'dtone':
      return [`productId ${route.productId}`, ...cost].join('  ');
    case 'sandbox':
      return cost.join('  ');
  }
}

function enabledText(route: Route, policy: RoutingPolicy): string {
  if (policy.enabled.has(route.provider)) return 'enabled';
  return `not enabled here: ${policy.notEnabledBecause[route.provider] ?? 'not configured'}`;
}

/** What the route costs against each role's price: `    cost GHS 10.00 (amount): Agent GHS 9.00 margin GHS -1.00 BELOW COST · …`. */
function marginLine(route: Route, prices: Prices): string {
  const cost = routeCost(route);
  const roles = marginsOn(prices, route).map((m) =>
    m.margin === null ? `${m.role} ${formatGhs(m.price)}` : `${m.role} ${formatGhs(m.price)} margin ${formatGhs(m.margin)}${m.margin < 0 ? ' BELOW COST' : ''}`,
  );
  return `    ${cost === null ? 'cost unknown (no cost given)' : `cost ${formatGhs(cost.cost)} (${cost.from})`}: ${roles.join(' · ')}`;
}

interface RouteLineContext {
  policy: RoutingPolicy;
  /** Each package's prices: a route is followed by its cost against them. */
  prices: ReadonlyMap<string, Prices>;
  refused: readonly RefusedRoute[];
}

/**
 * One line per route: package, position, provider, product, amount and cost, and whether its
 * upstream is enabled; under it, its cost against each role's price with the margin, and a warning
 * when the upstream refused it on its last orders.
 */
function routeLines(list: readonly PackageRoutes[], c: RouteLineContext): string[] {
  return list.flatMap(({ packageId, routes }) => {
    if (routes.length === 0) return [`${packageId}  no routes`];
    const prices = c.prices.get(packageId);
    return routes.flatMap((route, position) => {
      const refused = c.refused.find((r) => r.packageId === packageId && r.position === position);
      return [
        [packageId, `#${position}`, route.provider, productOf(route), enabledText(route, c.policy)].filter((part) => part !== '').join('  '),
        ...(prices ? [marginLine(route, prices)] : []),
        ...(refused ? [`    REFUSED on its last ${ROUTE_REFUSALS_FLAGGED} orders: ${refused.message ?? 'no reason given'}`] : []),
      ];
    });
  });
}

function checkLine(check: RouteCheck): string | null {
  if (check.checked === 'offered') return `checked #${check.position} ${check.provider}: ${check.detail}`;
  if (check.checked === 'not-enabled') return `not checked #${check.position} ${check.provider}: ${check.detail}`;
  return null;
}

async function readRoutesFile(file: string): Promise<Route[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new CliError(`routes set rejected, nothing written: ${file} is not valid JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
  try {
    return readRouteList(value);
  } catch (error) {
    if (error instanceof RouteListError) throw new CliError(`routes set rejected, nothing written: ${error.message}`);
    throw error;
  }
}

export function register(program: Command, io: CliIo): void {
  const routes = program.command('routes').description("data packages' routes to the upstreams (docs/live-delivery.md, Routes)");

  routes
    .command('list')
    .option('--package <id>', 'only this data package')
    .option('--json', 'print as JSON (amounts in GHS, as in a routes file)')
    .description('one line per route: package, position, provider, product, amount and cost, and whether its upstream is enabled here')
    .action(async (opts: { package?: string; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const policy = ctx.packageRoutes.policy;
          const list = await refused(() => ctx.packageRoutes.list(opts.package));
          const [packages, refusals] = await Promise.all([ctx.packages.list(), ctx.packageRoutes.refusedRoutes(list.map((l) => l.packageId))]);
          const prices = new Map<string, Prices>(packages.map((p) => [p.id, p]));
          if (opts.json) {
            return io.json(
              list.map(({ packageId, routes: r }) => ({
                packageId,
                routes: r.map((route, position) => {
                  const cost = routeCost(route);
                  const p = prices.get(packageId);
                  return {
                    ...routeToWire(route),
                    enabled: policy.enabled.has(route.provider),
                    routeCost: cost === null ? null : toGhs(cost.cost),
                    routeCostFrom: cost?.from ?? null,
                    prices: p ? marginsOn(p, route).map((m) => ({ role: m.role, price: toGhs(m.price), margin: m.margin === null ? null : toGhs(m.margin) })) : [],
                    refusedLastOrders: refusals.some((x) => x.packageId === packageId && x.position === position),
                  };
                }),
              })),
            );
          }
          if (list.length === 0) io.out('no routes (set them with: routes set <packageId> <routes.json>)');
          for (const line of routeLines(list, { policy, prices, refused: refusals })) io.out(line);
        },
        { logLevel: 'warn' },
      );
    });

  routes
    .command('set')
    .argument('<packageId>', 'the data package')
    .argument('<file>', 'a JSON file holding the list of routes, first tried first (the format is in docs/live-delivery.md, "Routes")')
    .option('--below-cost', 'confirm that some role buys the package below a route\'s cost (refused without it)')
    .description(
      "replace a data package's routes (recorded in the audit trail): each new route is first read at its upstream when that upstream is enabled here, and refused if it does not offer it; prints the new list",
    )
    .action(async (packageId: string, file: string, opts: { belowCost?: boolean }) => {
      const list = await readRoutesFile(file);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const policy = ctx.packageRoutes.policy;
          const saved = await refused(
            () => ctx.console.setPackageRoutes(cliActor(), packageId, list, { belowCost: opts.belowCost === true }),
            'refused: ',
          );
          const current = await ctx.packages.find(packageId);
          io.out(`routes of ${packageId} set`);
          const prices = new Map<string, Prices>(current ? [[packageId, current]] : []);
          for (const line of routeLines([{ packageId, routes: list }], { policy, prices, refused: [] })) io.out(line);
          for (const check of saved.checks) {
            const line = checkLine(check);
            if (line !== null) io.out(line);
          }
          if (saved.belowCost.length > 0) io.err(`warning: saved below cost, as confirmed: ${describeBelowCost(saved.belowCost)}`);
          if (usable(list, policy.enabled).length === 0) {
            io.err(`warning: no route of ${packageId} has an upstream enabled in this configuration (upstreams enabled: ${describeEnabled(policy.enabled)})`);
          }
        },
        { logLevel: 'warn' },
      );
    });
}
