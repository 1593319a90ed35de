import type { Command } from 'commander';
import type { TopUpRow, TopUpStatus } from '../../db/schema.js';
import type { Mode } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import { cliActor } from '../actor.js';
import { topUpJson } from '../json-views.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

const STATUSES: readonly TopUpStatus[] = ['pending', 'approved', 'rejected'];

function parseStatus(value: string | undefined): TopUpStatus | undefined {
  if (value === undefined) return undefined;
  const found = STATUSES.find((s) => s === value);
  if (!found) throw new CliError(`--status must be one of ${STATUSES.join(', ')}`);
  return found;
}

function parseMode(value: string | undefined): Mode | undefined {
  if (value === undefined) return undefined;
  if (value !== 'live' && value !== 'test') throw new CliError('--mode must be live or test');
  return value;
}

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new CliError('--limit must be an integer from 1 to 1000');
  return Number(value);
}

function line(t: TopUpRow): string {
  const decided = t.decided_at ? `  ${t.status} ${new Date(t.decided_at).toISOString()} by ${t.decided_by ?? '?'}` : '';
  const reason = t.rejection_reason ? `  reason: ${t.rejection_reason}` : '';
  return `${t.id}  ${t.mode}  ${t.profile_id}  ${t.status}  ${formatGhs(t.amount)}  ${t.method}  ref ${t.reference}  requested ${new Date(t.created_at).toISOString()}${decided}${reason}`;
}

export function register(program: Command, io: CliIo): void {
  const topups = program.command('topups').description('review wallet top-up requests');

  topups
    .command('list')
    .option('--status <status>', 'pending, approved or rejected')
    .option('--mode <mode>', 'live or test')
    .option('--limit <n>', 'how many, newest first', '50')
    .option('--json', "print as JSON: the API's top-ups, with profileId, mode and decidedBy")
    .description('list top-up requests, newest first')
    .action(async (opts: { status?: string; mode?: string; limit: string; json?: boolean }) => {
      const filter = { status: parseStatus(opts.status), mode: parseMode(opts.mode), limit: parseLimit(opts.limit) };
      await withRuntime(
        io,
        async ({ ctx }) => {
          const rows = await ctx.topUps.listForStaff(filter);
          if (opts.json) return io.json(rows.map(topUpJson));
          if (rows.length === 0) io.out('no top-ups');
          for (const row of rows) io.out(line(row));
        },
        { logLevel: 'warn' },
      );
    });

  topups
    .command('approve')
    .argument('<id...>', 'one or more top-up ids')
    .description(
      'approve pending top-ups: each credits its wallet once, in its own unit of work (recorded as cli:<your user> in the audit trail); ' +
        'one already decided or refused is reported and the others go on; exits 1 when any was not approved',
    )
    .action(async (ids: string[]) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          if (ids.length === 1) {
            const row = await refused(() => ctx.console.approveTopUp(cliActor(), ids[0] ?? ''), 'refused: ');
            io.out(`approved ${row.id}: credited ${formatGhs(row.amount)} to ${row.profile_id} (${row.mode})`);
            return;
          }
          const outcomes = await ctx.console.approveTopUps(cliActor(), ids);
          for (const o of outcomes) {
            io.out(
              o.approved
                ? `approved ${o.id}: credited ${formatGhs(o.amount ?? 0)} to ${o.profileId ?? '?'} (${o.mode ?? '?'})`
                : `NOT approved ${o.id}: ${o.why ?? ''}`,
            );
          }
          const notApproved = outcomes.filter((o) => !o.approved).length;
          io.out(`${outcomes.length - notApproved} approved, ${notApproved} not approved`);
          if (notApproved > 0) io.exitCode = 1;
        },
        { logLevel: 'warn' },
      );
    });

  topups
    .command('reject')
    .argument('<id>', 'top-up id')
    .requiredOption('--reason <text>', 'why (shown to the partner)')
    .description('reject a pending top-up with a reason (recorded as cli:<your user> in the audit trail)')
    .action(async (id: string, opts: { reason: string }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const row = await refused(() => ctx.console.rejectTopUp(cliActor(), id, opts.reason), 'refused: ');
          io.out(`rejected ${row.id}: ${row.rejection_reason ?? ''}`);
        },
        { logLevel: 'warn' },
      );
    });

  topups
    .command('recheck')
    .argument('<id>', 'Mobile Money top-up id')
    .description('ask Paystack about a Mobile Money top-up now: credits it if it is paid and not yet credited (recorded as cli:<your user> in the audit trail)')
    .action(async (id: string) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const outcome = await refused(() => ctx.console.recheckTopUp(cliActor(), id), 'refused: ');
          const { topUp, events } = await ctx.console.topUpHistory(id);
          io.out(`${id}: ${outcome}; now ${topUp.status}${topUp.rejection_reason ? ` (${topUp.rejection_reason})` : ''}`);
          const last = events.at(-1);
          if (last) io.out(`gateway: ${last.payment_status ?? '-'}: ${last.message}`);
        },
        { logLevel: 'warn' },
      );
    });

  topups
    .command('reconcile')
    .requiredOption('--from <date>', 'start of the period (ISO date or time, UTC)')
    .requiredOption('--to <date>', 'end of the period, exclusive (ISO date or time, UTC)')
    .option('--mode <mode>', 'live or test', 'live')
    .description("Paystack's successful Mobile Money transactions of the period against our top-ups: paid there but not credited here, credited here but not successful there, amounts that differ (exit 1 when any)")
    .action(async (opts: { from: string; to: string; mode: string }) => {
      const from = parseDate('--from', opts.from);
      const to = parseDate('--to', opts.to);
      if (to.getTime() <= from.getTime()) throw new CliError('--to must be after --from');
      const mode = parseMode(opts.mode) ?? 'live';
      await withRuntime(
        io,
        async ({ ctx }) => {
          const report = await refused(() => ctx.momo.reconcile(mode, from, to));
          for (const problem of report.problems) io.out(problem);
          io.out(
            `${report.problems.length === 0 ? 'reconciled' : 'NOT reconciled'}: ${report.checked} transactions and top-ups from ${from.toISOString()} to ${to.toISOString()} (${mode}), ${report.problems.length} problem${report.problems.length === 1 ? '' : 's'}`,
          );
          if (report.problems.length > 0) io.exitCode = 1;
        },
        { logLevel: 'warn' },
      );
    });
}

function parseDate(flag: string, value: string): Date {
  const date = /^\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?$/.test(value) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new CliError(`${flag} must be an ISO date (2026-11-01) or time (2026-11-01T08:00:00Z), got "${value}"`);
  return date;
}
