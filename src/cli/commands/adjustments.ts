import type { Command } from 'commander';
import type { Mode } from '../../domain/types.js';
import { formatGhs } from '../../lib/money.js';
import { cliActor, cliApprover, withApproverOptions, type ApproverOptions } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

function parseAmount(value: string): number {
  const amount = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(amount)) throw new CliError(`amount must be GHS, e.g. 25 or 12.50 (got ${value})`);
  return amount;
}

/** Who decided, as `adjustments list` prints it: the approver, not the requester. */
function decision(a: { status: string; requestedBy: string; decidedBy: string | null }): string {
  if (a.status === 'approved') return `approved by ${a.decidedBy ?? '?'}${a.decidedBy === a.requestedBy ? ' (its requester: within the threshold)' : `, requested by ${a.requestedBy}`}`;
  if (a.status === 'rejected') return `rejected by ${a.decidedBy ?? '?'}, requested by ${a.requestedBy}`;
  return `requested by ${a.requestedBy}, waits for another admin`;
}

/** `cli adjustments …`: the console's wallet adjustments (docs/cli.md, adjustments). */
export function register(program: Command, io: CliIo): void {
  const adjustments = program.command('adjustments').description('wallet adjustments (four eyes above ADJUSTMENT_APPROVAL_ABOVE)');

  adjustments
    .command('request')
    .requiredOption('--profile <id>', 'the partner profile')
    .requiredOption('--mode <mode>', 'live or test')
    .option('--credit <ghs>', 'credit available by this amount')
    .option('--debit <ghs>', 'debit available by this amount (never below zero)')
    .requiredOption('--reason <text>', 'why (the partner sees it)')
    .option('--json', 'print the outcome as JSON')
    .description('credit or debit a wallet (recorded as cli:<your user>); above ADJUSTMENT_APPROVAL_ABOVE it waits for an admin to approve it')
    .action(async (opts: { profile: string; mode: string; credit?: string; debit?: string; reason: string; json?: boolean }) => {
      if (opts.mode !== 'live' && opts.mode !== 'test') throw new CliError('--mode must be live or test');
      const mode: Mode = opts.mode;
      if ((opts.credit === undefined) === (opts.debit === undefined)) throw new CliError('give one of --credit <ghs> or --debit <ghs>');
      const direction = opts.credit !== undefined ? 'credit' : 'debit';
      const amount = parseAmount(opts.credit ?? opts.debit ?? '');
      await withRuntime(
        io,
        async (rt) => {
          const done = await refused(
            () => rt.ctx.console.requestAdjustment(cliActor(), { profileId: opts.profile, mode, direction, amount, reason: opts.reason }),
            'refused: ',
          );
          const out = {
            id: done.id,
            status: done.status,
            amount: done.amount / 100,
            availableBalance: done.balances ? done.balances.available / 100 : null,
          };
          if (opts.json) return io.json(out);
          io.out(
            done.status === 'pending'
              ? `${done.id} pending: ${direction} of ${formatGhs(done.amount)} waits for an admin's approval (in the console, or adjustments approve ${done.id} --approver <e-mail> --password-stdin)`
              : `${done.id} applied: ${direction} of ${formatGhs(done.amount)}; available now ${formatGhs(done.balances?.available ?? 0)}`,
          );
        },
        { logLevel: 'warn' },
      );
    });

  withApproverOptions(
    adjustments
      .command('approve')
      .argument('<id>', 'the pending adjustment')
      .description("approve a pending adjustment as an admin (not its requester), proven by the admin's console password: the money moves now"),
  ).action(async (id: string, opts: ApproverOptions) => {
    await withRuntime(
      io,
      async (rt) => {
        const { actor, role } = await cliApprover(rt, io, opts);
        if (role === null) {
          throw new CliError(
            `refused: approving adjustment ${id} needs an admin's four eyes: approve it in the console, or give --approver <admin e-mail> --password-stdin (and --code with two-factor sign-in)`,
          );
        }
        if (role !== 'admin') throw new CliError(`refused: ${opts.approver ?? ''} is ${role}; approving an adjustment needs an admin`);
        const done = await refused(() => rt.ctx.console.approveAdjustment(actor, id), 'refused: ');
        io.out(`${id} approved: ${formatGhs(done.amount)} moved; available now ${formatGhs(done.balances?.available ?? 0)}`);
      },
      { logLevel: 'warn' },
    );
  });

  adjustments
    .command('reject')
    .argument('<id>', 'the pending adjustment')
    .requiredOption('--reason <text>', 'why not')
    .description('reject a pending adjustment (recorded as cli:<your user>): nothing moves')
    .action(async (id: string, opts: { reason: string }) => {
      await withRuntime(
        io,
        async (rt) => {
          await refused(() => rt.ctx.console.rejectAdjustment(cliActor(), id, opts.reason), 'refused: ');
          io.out(`${id} rejected: nothing moved`);
        },
        { logLevel: 'warn' },
      );
    });

  adjustments
    .command('list')
    .option('--pending', 'only those waiting for approval')
    .option('--profile <id>', 'only this profile')
    .option('--json', 'print as JSON (amounts in GHS)')
    .description('list adjustments, newest first')
    .action(async (opts: { pending?: boolean; profile?: string; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const rows = await ctx.console.adjustments({ status: opts.pending ? 'pending' : undefined, profileId: opts.profile });
          const shaped = rows.map((a) => ({
            id: a.id,
            profileId: a.profile_id,
            mode: a.mode,
            direction: a.direction,
            amount: Number(a.amount) / 100,
            reason: a.reason,
            status: a.status,
            requestedBy: a.requested_by,
            createdAt: Number(a.created_at),
            decidedBy: a.decided_by,
            approvedBy: a.status === 'approved' ? a.decided_by : null,
            decidedAt: a.decided_at === null ? null : Number(a.decided_at),
            decisionReason: a.decision_reason,
          }));
          if (opts.json) return io.json(shaped);
          if (shaped.length === 0) io.out('no adjustments');
          for (const a of shaped) {
            io.out(
              `${a.id}  ${a.profileId}  ${a.mode}  ${a.direction} ${formatGhs(Math.round(a.amount * 100))}  ${a.status}  ${decision(a)}  ${a.reason}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });
}
