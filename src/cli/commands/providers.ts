import type { Command } from 'commander';
import { KIND_WORDS, sidesInWords } from '../../modules/reconciliation/compare.js';
import type { Finding } from '../../modules/reconciliation/service.js';
import { createProviders } from '../../providers/index.js';
import { UPSTREAM_NAMES, type UpstreamName } from '../../providers/types.js';
import { floatJson } from '../json-views.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import { parseWindow } from '../times.js';
import { cliActor } from '../actor.js';
import type { CliIo } from '../io.js';

/** Exit code of a run that found differences (as `orders stuck`: for alerting); 1 is a run that could not finish. */
export const FINDINGS_EXIT_CODE = 2;

/** One finding as the CLI prints it: its kind in words, the order, our reference, the upstream's transaction, and both sides (amounts or states). */
export function findingLine(f: Finding): string {
  const order = f.orderId === null ? 'order -' : `order ${f.shortReference ?? '?'} (${f.orderId})`;
  return [KIND_WORDS[f.kind], order, `reference ${f.reference ?? '-'}`, `${f.provider} transaction ${f.transactionId ?? '-'}`, sidesInWords(f)].join('  ');
}

export function register(program: Command, io: CliIo): void {
  const providers = program.command('providers').description('the upstreams: float balances and reconciliation (docs/live-delivery.md)');

  providers
    .command('reconcile <provider>')
    .requiredOption('--from <time>', 'start of the window, ISO 8601 (2026-11-25T00:00:00Z)')
    .requiredOption('--to <time>', 'end of the window (not included), ISO 8601')
    .option('--json', 'print the run and its findings as JSON')
    .description(
      "compare the upstream's records with our attempts of the window: one line per finding; exits 0 when nothing is found, 2 when something is, 1 when the run could not finish",
    )
    .action(async (provider: string, opts: { from: string; to: string; json?: boolean }) => {
      if (!(UPSTREAM_NAMES as readonly string[]).includes(provider)) throw new CliError(`no upstream named ${provider} (one of ${UPSTREAM_NAMES.join(', ')})`);
      const window = parseWindow(opts);
      const result = await withRuntime(
        io,
        async ({ ctx }) => {
          return await refused(() => ctx.reconciliation.reconcileNow(createProviders(ctx.config, ctx.database, ctx.clock), provider as UpstreamName, window, cliActor().name));
        },
        { logLevel: 'warn' },
      );
      const { run, findings } = result;
      if (opts.json) {
        io.json({
          run: {
            id: run.id,
            provider: run.provider,
            from: new Date(Number(run.window_from)).toISOString(),
            to: new Date(Number(run.window_to)).toISOString(),
            status: run.status,
            attemptsChecked: run.attempts_checked,
            upstreamRecords: run.upstream_records,
            findings: run.findings,
            error: run.error,
          },
          findings: findings.map((f) => ({ ...f, kindWords: KIND_WORDS[f.kind] })),
        });
      } else {
        for (const finding of findings) io.out(findingLine(finding));
        io.err(
          `providers reconcile ${provider} ${opts.from} .. ${opts.to}: ${run.attempts_checked} attempts, ${run.upstream_records} upstream records, ${findings.length} findings (run ${run.id})`,
        );
      }
      if (run.status !== 'done') throw new CliError(`providers reconcile: the run did not finish: ${run.error ?? 'no reason recorded'}`, 1);
      if (findings.length > 0) throw new CliError('', FINDINGS_EXIT_CODE);
    });

  providers
    .command('findings')
    .option('--all', 'resolved findings too (default: unresolved only)')
    .option('--json', 'print as JSON')
    .description("reconciliation findings, as the console's reconciliation page lists them; exits 2 when an unresolved one is listed")
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const findings = await withRuntime(io, ({ ctx }) => ctx.reconciliation.findings({ unresolvedOnly: !opts.all, limit: 300 }), {
        logLevel: 'warn',
      });
      if (opts.json) io.json(findings.map((f) => ({ ...f, kindWords: KIND_WORDS[f.kind] })));
      else {
        if (findings.length === 0) io.out(opts.all ? 'no findings' : 'no unresolved findings');
        for (const f of findings) {
          const resolved = f.resolvedAt === null ? 'unresolved' : `resolved by ${f.resolvedBy ?? '?'}: ${f.note ?? ''}`;
          io.out(`${f.id}  ${findingLine(f)}  ${resolved}`);
        }
      }
      if (findings.some((f) => f.resolvedAt === null)) throw new CliError('', FINDINGS_EXIT_CODE);
    });

  providers
    .command('resolve-finding')
    .argument('<findingId>', 'a finding, as providers findings lists it')
    .requiredOption('--note <text>', 'how it was settled (the money is settled by orders reverse or orders resolve)')
    .description('mark a reconciliation finding resolved with a note (recorded as cli:<your user> in the audit trail)')
    .action(async (findingId: string, opts: { note: string }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          await refused(() => ctx.console.resolveFinding(cliActor(), findingId, opts.note), 'refused: ');
          io.out(`resolved ${findingId}: ${opts.note.trim()}`);
        },
        { logLevel: 'warn' },
      );
    });

  providers
    .command('balances')
    .option('--json', "print as JSON (amounts in the upstream's currency)")
    .description("each enabled upstream's float as last read by the worker, its age, and LOW marks")
    .action(async (opts: { json?: boolean }) => {
      const lines = await withRuntime(io, ({ ctx }) => ctx.floats.lines(), { logLevel: 'warn' });
      if (opts.json) {
        io.json(lines.map(floatJson));
        return;
      }
      if (lines.length === 0) io.out('no upstream is enabled');
      for (const l of lines) {
        const amount = l.available === null || l.currency === null ? (l.readable ? 'not read yet' : 'unknown until a refusal') : `${l.currency} ${(l.available / 100).toFixed(2)}`;
        const age = l.readAt === null ? '' : `  read ${new Date(l.readAt).toISOString()}`;
        const refused = l.refusedAt === null ? '' : `  refused for float ${new Date(l.refusedAt).toISOString()}`;
        io.out(`${l.provider}  ${amount}${age}${refused}${l.low ? `  LOW (${l.lowBecause ?? ''})` : ''}`);
      }
    });
}
