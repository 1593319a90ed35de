import type { Command } from 'commander';
import { formatGhs } from '../../lib/money.js';
import { linesCsv, STATEMENT_EXPORT_MAX, toTransactionView } from '../../modules/wallet/statement.js';
import { LINE_TYPES } from '../../modules/wallet/statement-lines.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  const ledger = program.command('ledger').description('check the books');

  ledger
    .command('verify')
    .description('recompute every wallet from the ledger and the orders; exits 1 naming each mismatch')
    .action(async () => {
      const report = await withRuntime(io, ({ ctx }) => ctx.console.verifyLedger(cliActor()), { logLevel: 'warn' });
      if (report.ok) {
        io.out(`ledger verify: OK (${report.wallets} wallets, ${report.entries} entries)`);
        return;
      }
      for (const mismatch of report.mismatches) io.out(`MISMATCH ${mismatch}`);
      throw new CliError(
        `ledger verify: ${report.mismatches.length} mismatches (${report.wallets} wallets, ${report.entries} entries)`,
      );
    });

  ledger
    .command('statement')
    .requiredOption('--profile <id>', 'the partner profile')
    .requiredOption('--mode <mode>', 'live or test')
    .option('--from <date>', 'first day, YYYY-MM-DD (UTC)')
    .option('--to <date>', 'last day, YYYY-MM-DD (UTC), inclusive')
    .option('--kind <type>', `only lines of this type: ${LINE_TYPES.join(', ')} (totals then show the others' net apart)`)
    .option('--csv', 'print the lines as CSV (as the console exports them)')
    .option('--json', 'print the statement as JSON (amounts in GHS)')
    .description(
      "a partner's wallet statement: one line per order, refund, top-up or adjustment with the balance after it, opening and closing balances",
    )
    .action(async (opts: { profile: string; mode: string; from?: string; to?: string; kind?: string; csv?: boolean; json?: boolean }) => {
      if (opts.mode !== 'live' && opts.mode !== 'test') throw new CliError('--mode must be live or test');
      const mode = opts.mode;
      await withRuntime(
        io,
        async ({ ctx }) => {
          const s = await refused(() =>
            ctx.console.statement({
              profileId: opts.profile,
              mode,
              from: opts.from,
              to: opts.to,
              types: opts.kind ? [opts.kind] : [],
              limit: STATEMENT_EXPORT_MAX,
            }),
          );
          if (s.next !== null) io.err(`more than ${STATEMENT_EXPORT_MAX} lines: only the first are shown; narrow --from/--to`);
          if (opts.csv) return void io.write(linesCsv(s));
          const g = (p: number) => p / 100;
          if (opts.json) {
            return io.json({
              profileId: s.profileId,
              mode: s.mode,
              from: s.from,
              to: s.to,
              types: s.types,
              opening: { availableBalance: g(s.opening.available), heldBalance: g(s.opening.held) },
              closing: { availableBalance: g(s.closing.available), heldBalance: g(s.closing.held) },
              totals: {
                credits: g(s.totals.credits),
                debits: g(-s.totals.debits),
                otherLines: s.totals.others === null ? null : g(s.totals.others),
              },
              lines: s.lines.map(toTransactionView),
            });
          }
          io.out(`statement ${s.profileId} ${s.mode}  ${s.from ?? 'first entry'} to ${s.to ?? 'now'}${s.types.length ? `  ${s.types.join(',')} only` : ''}`);
          io.out(`opening ${formatGhs(s.opening.available)} (held ${formatGhs(s.opening.held)})`);
          for (const l of s.lines) {
            const sign = l.amount >= 0 ? '+' : '-';
            io.out(
              `${new Date(l.at).toISOString()}  ${l.type}  ${sign}${formatGhs(Math.abs(l.amount))}  balance ${formatGhs(l.balanceAfter)}  ${l.description}`,
            );
          }
          const others = s.totals.others === null ? '' : `  other lines (not shown) ${s.totals.others >= 0 ? '+' : '-'}${formatGhs(Math.abs(s.totals.others))}`;
          io.out(`credits ${formatGhs(s.totals.credits)}  debits ${formatGhs(-s.totals.debits)}${others}`);
          io.out(`closing ${formatGhs(s.closing.available)} (held ${formatGhs(s.closing.held)})`);
        },
        { logLevel: 'warn' },
      );
    });
}
