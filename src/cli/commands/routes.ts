import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { formatGhs } from '../../lib/money.js';
import { readRouteList, RouteListError, routeToWire } from '../../modules/package-routes/schemas.js';
import { describeEnabled, usable, type PackageRoutes, type RoutingPolicy } from '../../modules/package-routes/service.js';
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

/** One line per route: package, position, provider, product, amount and cost, and whether its upstream is enabled. */
function routeLines(list: readonly PackageRoutes[], policy: RoutingPolicy): string[] {
  return list.flatMap(({ packageId, routes }) =>
    routes.length === 0
      ? [`${packageId}  no routes`]
      : routes.map((route, position) =>
          [packageId, `#${position}`, route.provider, productOf(route), enabledText(route, policy)].filter((part) => part !== '').join('  '),
        ),
  );
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
          if (opts.json) {
            return io.json(
              list.map(({ packageId, routes: r }) => ({
                packageId,
                routes: r.map((route) => ({ ...routeToWire(route), enabled: policy.enabled.has(route.provider) })),
              })),
            );
          }
          if (list.length === 0) io.out('no routes (set them with: routes set <packageId> <routes.json>)');
          for (const line of routeLines(list, policy)) io.out(line);
        },
        { logLevel: 'warn' },
      );
    });

  routes
    .command('set')
    .argument('<packageId>', 'the data package')
    .argument('<file>', 'a JSON file holding the list of routes, first tried first (the format is in docs/live-delivery.md, "Routes")')
    .description("replace a data package's routes (recorded in the audit trail); prints the new list")
    .action(async (packageId: string, file: string) => {
      const list = await readRoutesFile(file);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const policy = ctx.packageRoutes.policy;
          await refused(() => ctx.console.setPackageRoutes(cliActor(), packageId, list), 'refused: ');
          io.out(`routes of ${packageId} set`);
          for (const line of routeLines([{ packageId, routes: list }], policy)) io.out(line);
          if (usable(list, policy.enabled).length === 0) {
            io.err(`warning: no route of ${packageId} has an upstream enabled in this configuration (upstreams enabled: ${describeEnabled(policy.enabled)})`);
          }
        },
        { logLevel: 'warn' },
      );
    });
}
