import type { Command } from 'commander';
import type { TopUpRow, TopUpStatus } from '../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import { cliActor } from '../actor.js';
import { CliError, withRuntime } from '../runtime.js';

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

async function decide(work: () => Promise<TopUpRow>): Promise<TopUpRow> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(`refused: ${error.message}`);
    throw error;
  }
}

export function register(program: Command): void {
  const topups = program.command('topups').description('review wallet top-up requests');

  topups
    .command('list')
    .option('--status <status>', 'pending, approved or rejected')
    .option('--mode <mode>', 'live or test')
    .option('--limit <n>', 'how many, newest first', '50')
    .description('list top-up requests, newest first')
    .action(async (opts: { status?: string; mode?: string; limit: string }) => {
      const filter = { status: parseStatus(opts.status), mode: parseMode(opts.mode), limit: parseLimit(opts.limit) };
      await withRuntime(
        async ({ ctx }) => {
          const rows = await ctx.topUps.listForStaff(filter);
          if (rows.length === 0) console.log('no top-ups');
          for (const row of rows) console.log(line(row));
        },
        { logLevel: 'warn' },
      );
    });

  topups
    .command('approve')
    .argument('<id>', 'top-up id')
    .description('approve a pending top-up: credits the wallet once (recorded as cli:<your user> in the audit trail)')
    .action(async (id: string) => {
      await withRuntime(
        async ({ ctx }) => {
          const row = await decide(() => ctx.console.approveTopUp(cliActor(), id));
          console.log(`approved ${row.id}: credited ${formatGhs(row.amount)} to ${row.profile_id} (${row.mode})`);
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
        async ({ ctx }) => {
          const row = await decide(() => ctx.console.rejectTopUp(cliActor(), id, opts.reason));
          console.log(`rejected ${row.id}: ${row.rejection_reason ?? ''}`);
        },
        { logLevel: 'warn' },
      );
    });
}
