import type { Command } from 'commander';
import { isNetwork, NETWORKS, type Network } from '../../domain/networks.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

/** `MTN`, `telecel`, … → the network; `none` → null (clears it). */
function networkArgument(text: string): Network | null {
  const upper = text.trim().toUpperCase();
  if (upper === 'NONE') return null;
  if (isNetwork(upper)) return upper;
  throw new CliError(`network must be one of ${NETWORKS.join(', ')} or none (got "${text}")`);
}

export function register(program: Command, io: CliIo): void {
  const operators = program.command('operators').description("operators and the network their bundles are for (docs/api.md, \"The number's network\")");

  operators
    .command('list')
    .option('--json', 'print as JSON')
    .description('one line per operator: id, status, network (none: its recipients are not checked) and name')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const list = await ctx.console.operators();
          if (opts.json) return io.json(list);
          if (list.length === 0) io.out('no operators (import a seed file)');
          for (const o of list) io.out([o.id, o.status, o.network ?? 'none', o.name].join('  '));
        },
        { logLevel: 'warn' },
      );
    });

  operators
    .command('network')
    .argument('<operatorId>', 'the operator')
    .argument('<network>', `${NETWORKS.join(', ')}, or none to stop checking numbers`)
    .description("set the network an operator's bundles are for (recorded in the audit trail)")
    .action(async (operatorId: string, text: string) => {
      const network = networkArgument(text);
      await withRuntime(
        io,
        async ({ ctx }) => {
          await refused(async () => {
            const { before, after } = await ctx.console.setOperatorNetwork(cliActor(), operatorId, network);
            io.out(`network of ${operatorId}: ${before ?? 'none'} -> ${after ?? 'none'}`);
          }, 'refused: ');
        },
        { logLevel: 'warn' },
      );
    });
}
