import type { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import { formatGhs } from '../../lib/money.js';
import { STATEMENT_EXPORT_MAX, statementCsv } from '../../modules/wallet/statement.js';
import { cliActor } from '../actor.js';
import { printJson } from '../duration.js';
import { CliError, withRuntime } from '../runtime.js';

export function register(program: Command): void {
  const ledger = program.command('ledger').description('check the books');

  ledger
    .command('verify')
    .description('recompute every wallet from the ledger and the orders; exits 1 naming each mismatch')
    .action(async () => {
      const report = await withRuntime(({ ctx }) => ctx.console.verifyLedger(cliActor()), { logLevel: 'warn' });
      if (report.ok) {
        console.log(`ledger verify: OK (${report.wallets} wallets, ${report.entries} entries)`);
        return;
      }
      for (const mismatch of report.mismatches) console.log(`MISMATCH ${mismatch}`);
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
    .option('--kind <kind>', 'only entries of this ledger kind')
    .option('--csv', 'print the entries as CSV (as the console exports them)')
    .option('--json', 'print the statement as JSON (amounts in GHS)')
    .description("a partner's wallet statement: the entries with running balances, opening and closing balances")
    .action(async (opts: { profile: string; mode: string; from?: string; to?: string; kind?: string; csv?: boolean; json?: boolean }) => {
      if (opts.mode !== 'live' && opts.mode !== 'test') throw new CliError('--mode must be live or test');
      const mode = opts.mode;
      await withRuntime(
        async ({ ctx }) => {
          let s;
          try {
            s = await ctx.console.statement({
              profileId: opts.profile,
              mode,
              from: opts.from,
              to: opts.to,
              kinds: opts.kind ? [opts.kind] : [],
              limit: STATEMENT_EXPORT_MAX,
            });
          } catch (error) {
            if (error instanceof DomainError) throw new CliError(error.message);
            throw error;
          }
          if (s.next !== null) console.error(`more than ${STATEMENT_EXPORT_MAX} entries: only the first are shown; narrow --from/--to`);
          if (opts.csv) return void process.stdout.write(statementCsv(s));
          const g = (p: number) => p / 100;
          if (opts.json) {
            return printJson({
              profileId: s.profileId,
              mode: s.mode,
              from: s.from,
              to: s.to,
              kinds: s.kinds,
              opening: { availableBalance: g(s.opening.available), heldBalance: g(s.opening.held) },
              closing: { availableBalance: g(s.closing.available), heldBalance: g(s.closing.held) },
              totals: { entries: s.totals.entries, credits: g(s.totals.credits), debits: g(-s.totals.debits), held: g(s.totals.held) },
              entries: s.lines.map((l) => ({
                entry: l.id,
                createdAt: l.at,
                kind: l.kind,
                memo: l.memo,
                source: l.source,
                availableChange: g(l.availableDelta),
                heldChange: g(l.heldDelta),
                availableAfter: g(l.availableAfter),
                heldAfter: g(l.heldAfter),
              })),
            });
          }
          console.log(`statement ${s.profileId} ${s.mode}  ${s.from ?? 'first entry'} to ${s.to ?? 'now'}${s.kinds.length ? `  ${s.kinds.join(',')}` : ''}`);
          console.log(`opening ${formatGhs(s.opening.available)} (held ${formatGhs(s.opening.held)})`);
          for (const l of s.lines) {
            const sign = l.availableDelta >= 0 ? '+' : '-';
            console.log(
              `${l.id}  ${new Date(l.at).toISOString()}  ${l.kind}  ${sign}${formatGhs(Math.abs(l.availableDelta))}  after ${formatGhs(l.availableAfter)} (held ${formatGhs(l.heldAfter)})  ${l.source.type}${l.source.id ? ` ${l.source.id}` : ''}  ${l.memo}`,
            );
          }
          console.log(`credits ${formatGhs(s.totals.credits)}  debits ${formatGhs(-s.totals.debits)}  entries ${s.totals.entries}`);
          console.log(`closing ${formatGhs(s.closing.available)} (held ${formatGhs(s.closing.held)})`);
        },
        { logLevel: 'warn' },
      );
    });
}
