import type { Command } from 'commander';
import { MARGIN_GROUPS, marginCsv, type MarginGroup, type MarginLine } from '../../modules/margins/service.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import { parseWindow } from '../times.js';
import type { CliIo } from '../io.js';

const ghs = (pesewas: number) => (pesewas / 100).toFixed(2);

function line(l: MarginLine, width: number): string {
  const refunds = l.refunds > 0 ? `  (refunds ${ghs(l.refunds)} taken off)` : '';
  const unknown = l.costUnknown > 0 || l.costUnknownSales !== 0 ? `  cost unknown: ${l.costUnknown} deliveries, sales ${ghs(l.costUnknownSales)} (not in the margin)` : '';
  return `${l.group.padEnd(width)}  sales ${ghs(l.sales).padStart(12)}  cost ${ghs(l.cost).padStart(12)}  margin ${ghs(l.margin).padStart(12)}  deliveries ${String(l.deliveries).padStart(7)}${refunds}${unknown}`;
}

export function register(program: Command, io: CliIo): void {
  const report = program.command('report').description('reports for staff (amounts in GHS)');

  report
    .command('margins')
    .requiredOption('--from <time>', 'start of the period, ISO 8601 (2026-11-01T00:00:00Z)')
    .requiredOption('--to <time>', 'end of the period (not included), ISO 8601')
    .option('--by <group>', `group by ${MARGIN_GROUPS.join('|')}`, 'day')
    .option('--csv', 'print CSV: the group, sales, cost, margin, refunds (GHS), deliveries, unknown-cost deliveries and their sales (GHS); a totals row last')
    .description(
      'sales net of refunds, cost and margin of live data deliveries and result-checker sales (a reversal or refund is a negative sale on its own day; a sale of unknown cost is counted apart, not in the margin; test mode never counts)',
    )
    .action(async (opts: { from: string; to: string; by: string; csv?: boolean }) => {
      if (!(MARGIN_GROUPS as readonly string[]).includes(opts.by)) throw new CliError(`--by must be one of ${MARGIN_GROUPS.join(', ')} (got "${opts.by}")`);
      const window = parseWindow(opts);
      const result = await withRuntime(
        io,
        async ({ ctx }) => {
          return await refused(() => ctx.margins.report(window.from, window.to, opts.by as MarginGroup));
        },
        { logLevel: 'warn' },
      );
      if (opts.csv) {
        io.write(marginCsv(result));
        return;
      }
      const width = Math.max(5, ...result.lines.map((l) => l.group.length));
      if (result.lines.length === 0) io.out('no live sale or refund in the period');
      for (const l of result.lines) io.out(line(l, width));
      io.out(line(result.total, width));
    });
}
