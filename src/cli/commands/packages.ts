import type { Command } from 'commander';
import { ROLES, type Role } from '../../domain/types.js';
import { formatGhs, fromGhs, toGhs } from '../../lib/money.js';
import type { PackagePricing, StaffPackageRow } from '../../modules/catalog/editor.js';
import { describeBelowCost } from '../../modules/package-routes/pricing.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

function ghs(option: string, text: string): number {
  const trimmed = text.trim();
  const pesewas = /^\d+(\.\d{1,2})?$/.test(trimmed) ? fromGhs(Number(trimmed)) : null;
  if (pesewas === null) throw new CliError(`${option} must be an amount in GHS such as 12.50 (got "${text}")`);
  return pesewas;
}

/** `--role-price Agent=19.50` (repeatable); `Agent=none` drops that role's price (the package price applies). */
function rolePrice(text: string, earlier: string[]): string[] {
  return [...earlier, text];
}

function pricingChange(current: StaffPackageRow, opts: { price?: string; rolePrice: string[]; status?: string }): PackagePricing {
  let status: PackagePricing['status'] = current.status === 'Active' ? 'Active' : 'Inactive';
  if (opts.status !== undefined) {
    if (opts.status !== 'Active' && opts.status !== 'Inactive') throw new CliError('--status must be Active or Inactive');
    status = opts.status;
  }
  const prices = new Map<Role, number>(current.rolePrices.map((r) => [r.role, r.price]));
  for (const given of opts.rolePrice) {
    const [name = '', value = ''] = given.split('=');
    const role = ROLES.find((r) => r === name.trim());
    if (!role) throw new CliError(`--role-price must be ROLE=GHS with a role of ${ROLES.join(', ')} (got "${given}")`);
    if (value.trim() === 'none') prices.delete(role);
    else prices.set(role, ghs('--role-price', value));
  }
  return {
    price: opts.price === undefined ? current.price : ghs('--price', opts.price),
    rolePrices: [...prices].map(([role, price]) => ({ role, price })),
    status,
  };
}

function line(p: StaffPackageRow): string {
  const roles = p.rolePrices.map((r) => `${r.role} ${formatGhs(r.price)}`).join(', ');
  return `${p.id}  ${p.status}  ${formatGhs(p.price)}${roles ? ` (${roles})` : ''}  ${p.operator_name} ${p.label}`;
}

/** A package as the console's page shows it, in GHS. */
function packageJson(p: StaffPackageRow) {
  return {
    id: p.id,
    label: p.label,
    dataAmount: p.data_amount,
    validity: p.validity,
    status: p.status,
    price: toGhs(p.price),
    rolePrices: Object.fromEntries(p.rolePrices.map((r) => [r.role, toGhs(r.price)])),
    operatorId: p.operator_id,
    operatorName: p.operator_name,
    productId: p.product_id,
    productName: p.product_name,
  };
}

export function register(program: Command, io: CliIo): void {
  const packages = program.command('packages').description('data packages: prices and status (routes: see routes)');

  packages
    .command('list')
    .option('--json', 'print as JSON (amounts in GHS)')
    .description('every data package with its price, role prices and status')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const list = await ctx.packages.list();
          if (opts.json) return io.json(list.map(packageJson));
          if (list.length === 0) io.out('no data packages');
          for (const p of list) io.out(line(p));
        },
        { logLevel: 'warn' },
      );
    });

  packages
    .command('update')
    .argument('<packageId>', 'the data package')
    .option('--price <ghs>', 'the price for every role without its own')
    .option('--role-price <role=ghs>', 'a role price, such as Agent=19.50 (repeatable; Agent=none drops it)', rolePrice, [])
    .option('--status <status>', 'Active or Inactive')
    .option('--below-cost', 'confirm that some role buys the package below a route\'s cost (refused without it)')
    .description("change a package's price, role prices or status (what is not given is kept); audited as package.update")
    .action(async (packageId: string, opts: { price?: string; rolePrice: string[]; status?: string; belowCost?: boolean }) => {
      if (opts.price === undefined && opts.rolePrice.length === 0 && opts.status === undefined) {
        throw new CliError('give --price, --role-price or --status');
      }
      await withRuntime(
        io,
        async ({ ctx }) => {
          const current = await ctx.packages.find(packageId);
          if (!current) throw new CliError(`no data package ${packageId}`);
          const saved = await refused(
            () => ctx.console.updatePackage(cliActor(), packageId, pricingChange(current, opts), { belowCost: opts.belowCost === true }),
            'refused: ',
          );
          const after = await ctx.packages.find(packageId);
          if (after) io.out(`updated ${line(after)}`);
          if (saved.belowCost.length > 0) io.err(`warning: saved below cost, as confirmed: ${describeBelowCost(saved.belowCost)}`);
        },
        { logLevel: 'warn' },
      );
    });
}
