import type { Command } from 'commander';
import type { TopUpRow, TopUpStatus } from '../../db/schema.js';
import type { Mode } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import { cliActor, cliApprover, withApproverOptions, type ApproverOptions } from '../actor.js';
import { topUpJson } from '../json-views.js';
import { EXPORT_MAX_ROWS, topUpsCsv } from '../../modules/console/exports.js';
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

const firstApprovalLine = (id: string, amount: number) =>
  `first approval of ${id} recorded (1 of 2): ${formatGhs(amount)} waits for a second approval by another admin; nothing moved yet`;

function line(t: TopUpRow): string {
  const decided = t.decided_at ? `  ${t.status} ${new Date(t.decided_at).toISOString()} by ${t.decided_by ?? '?'}` : '';
  const first = t.first_approved_by === null ? '' : `  ${t.status === 'pending' ? '1 of 2 approvals, ' : 'first approval '}by ${t.first_approved_by}`;
  const reason = t.rejection_reason ? `  reason: ${t.rejection_reason}` : '';
  return `${t.id}  ${t.mode}  ${t.profile_id}  ${t.status}  ${formatGhs(t.amount)}  ${t.method}  ref ${t.reference}  requested ${new Date(t.created_at).toISOString()}${first}${decided}${reason}`;
}

export function register(program: Command, io: CliIo): void {
  const topups = program.command('topups').description('review wallet top-up requests');

  topups
    .command('list')
    .option('--status <status>', 'pending, approved or rejected')
    .option('--mode <mode>', 'live or test')
    .option('--limit <n>', 'how many, newest first', '50')
    .option('--json', "print as JSON: the API's top-ups, with profileId, mode, decidedBy and firstApprovedBy/firstApprovedAt")
    .option('--csv', `print every top-up of one mode (--mode, default live) and --status as CSV, up to ${EXPORT_MAX_ROWS} (--limit does not apply): the console's top-ups export`)
    .description('list top-up requests, newest first')
    .action(async (opts: { status?: string; mode?: string; limit: string; json?: boolean; csv?: boolean }) => {
      const filter = { status: parseStatus(opts.status), mode: parseMode(opts.mode), limit: parseLimit(opts.limit) };
      if (opts.json && opts.csv) throw new CliError('--json and --csv: choose one');
      if (opts.csv) {
        const exported = { mode: filter.mode ?? 'live', status: filter.status };
        await withRuntime(io, async ({ ctx }) => io.write(await refused(() => topUpsCsv(ctx.console, exported))), { logLevel: 'warn' });
        return;
      }
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

  withApproverOptions(
    topups
      .command('approve')
      .argument('<id...>', 'one or more top-up ids')
      .description(
        'approve pending top-ups: each credits its wallet once, in its own unit of work (recorded as cli:<your user> in the audit trail); ' +
          'one above TOPUP_APPROVAL_ABOVE needs two approvals by named staff (--approver with the password, or the console); ' +
          'one already decided or refused is reported and the others go on; exits 1 when any was not approved',
      ),
  ).action(async (ids: string[], opts: ApproverOptions) => {
    await withRuntime(
      io,
      async (rt) => {
        const { actor, role } = await cliApprover(rt, io, opts);
        if (ids.length === 1) {
          const row = await refused(() => rt.ctx.console.approveTopUp(actor, ids[0] ?? '', role), 'refused: ');
          io.out(
            row.status === 'approved'
              ? `approved ${row.id}: credited ${formatGhs(row.amount)} to ${row.profile_id} (${row.mode})`
              : firstApprovalLine(row.id, row.amount),
          );
          return;
        }
        const outcomes = await rt.ctx.console.approveTopUps(actor, ids, role);
        for (const o of outcomes) {
          io.out(
            {
              approved: `approved ${o.id}: credited ${formatGhs(o.amount ?? 0)} to ${o.profileId ?? '?'} (${o.mode ?? '?'})`,
              first: firstApprovalLine(o.id, o.amount ?? 0),
              refused: `NOT approved ${o.id}: ${o.why ?? ''}`,
            }[o.outcome],
          );
        }
        const count = (outcome: string) => outcomes.filter((o) => o.outcome === outcome).length;
        const firsts = count('first') > 0 ? `, ${count('first')} waiting for a second approval` : '';
        io.out(`${count('approved')} approved${firsts}, ${count('refused')} not approved`);
        if (count('refused') > 0) io.exitCode = 1;
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
