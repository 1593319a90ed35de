import type { Command } from 'commander';
import { CliError, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  const audit = program.command('audit').description('the console’s audit trail');

  audit
    .command('list')
    .option('--action <action>', 'only this action (e.g. topup.approve, order.reverse, staff.login)')
    .option('--record <id>', 'only actions on this record')
    .option('--limit <n>', 'how many, newest first', '50')
    .option('--json', 'print as JSON')
    .description('list audit entries, newest first: who, what, when, from where, on which record, and the outcome')
    .action(async (opts: { action?: string; record?: string; limit: string; json?: boolean }) => {
      if (!/^\d+$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > 1000)
        throw new CliError('--limit must be an integer from 1 to 1000');
      await withRuntime(
        io,
        async ({ ctx }) => {
          const entries = await ctx.audit.list({ action: opts.action, recordId: opts.record, limit: Number(opts.limit) });
          if (opts.json) return io.json(entries);
          if (entries.length === 0) io.out('no audit entries');
          for (const e of entries) {
            const record = e.recordId ? ` ${e.recordType ?? ''} ${e.recordId}` : '';
            const detail = e.detail ? ` ${JSON.stringify(e.detail)}` : '';
            io.out(
              `${e.id}  ${new Date(e.at).toISOString()}  ${e.actor}  ${e.address ?? '-'}  ${e.action}${record}  ${e.outcome}${detail}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });
}
