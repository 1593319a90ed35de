import type { Command } from 'commander';
import { parseStaffRole } from '../../modules/console/service.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

function role(value: string) {
  const found = parseStaffRole(value);
  if (!found) throw new CliError('--role must be admin, operator or viewer');
  return found;
}

export function register(program: Command, io: CliIo): void {
  const staff = program.command('staff').description('console staff accounts (docs/console.md)');

  staff
    .command('create')
    .requiredOption('--email <email>', 'the staff member’s e-mail (their sign-in name)')
    .requiredOption('--role <role>', 'admin, operator or viewer')
    .description('create a console account; prints a one-time password (only its scrypt hash is stored); a new admin waits for another admin (four eyes) unless none exists')
    .action(async (opts: { email: string; role: string }) => {
      const wanted = role(opts.role);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const { account, request, password } = await refused(() => ctx.console.createStaff(cliActor(), opts.email, wanted));
          if (request)
            io.out(
              `request ${request.id}: ${request.email} (${request.role}) waits for an admin to approve it in the console (/console/staff)\n` +
                `one-time password (shown once; it works once approved): ${password}`,
            );
          else if (account) io.out(`staff ${account.id} ${account.email} (${account.role})\none-time password (shown once): ${password}`);
        },
        { logLevel: 'warn' },
      );
    });

  staff
    .command('reset-password')
    .argument('<email>', 'the account’s e-mail')
    .description('give an account a new one-time password (printed once); its sessions end')
    .action(async (email: string) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const { account, password } = await refused(() => ctx.console.resetStaffPassword(cliActor(), email));
          io.out(`staff ${account.email}: one-time password (shown once): ${password}`);
        },
        { logLevel: 'warn' },
      );
    });

  staff
    .command('2fa-reset')
    .argument('<email>', 'the account’s e-mail')
    .description('remove an account’s two-factor sign-in (a lost device); its sessions end, audited as staff.totp_reset')
    .action(async (email: string) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const account = await refused(() => ctx.console.resetStaffTwoFactor(cliActor(), email));
          io.out(`staff ${account.email}: two-factor sign-in removed; it signs in with its password until it sets it up again`);
        },
        { logLevel: 'warn' },
      );
    });

  staff
    .command('list')
    .option('--json', 'print as JSON')
    .description('list console accounts')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const accounts = await ctx.staff.list();
          if (opts.json) return io.json(accounts);
          if (accounts.length === 0) io.out('no staff accounts (create one: staff create --email … --role admin)');
          for (const a of accounts) {
            const last = a.lastLoginAt === null ? 'never' : new Date(a.lastLoginAt).toISOString();
            io.out(`${a.id}  ${a.email}  ${a.role}  ${a.status}  2fa ${a.twoFactor ? 'on' : 'off'}  last sign-in ${last}`);
          }
        },
        { logLevel: 'warn' },
      );
    });

  staff
    .command('requests')
    .option('--all', 'decided ones too (the latest 200)')
    .option('--json', 'print as JSON')
    .description('new admins and roles raised to admin waiting for a second admin (approve or reject them in the console)')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const requests = await ctx.console.staffRequests(opts.all ? undefined : 'pending');
          if (opts.json) return io.json(requests);
          if (requests.length === 0) io.out(opts.all ? 'no staff requests' : 'no staff request waits for approval');
          for (const r of requests) {
            const decided = r.decidedBy === null ? '' : `  ${r.status} by ${r.decidedBy}${r.decisionReason ? `: ${r.decisionReason}` : ''}`;
            io.out(`${r.id}  ${r.kind}  ${r.email}  ${r.role}  requested by ${r.requestedBy}  ${new Date(r.createdAt).toISOString()}  ${r.status}${decided}`);
          }
        },
        { logLevel: 'warn' },
      );
    });

  staff
    .command('update')
    .argument('<email>', 'the account’s e-mail')
    .option('--role <role>', 'admin, operator or viewer')
    .option('--status <status>', 'active or disabled')
    .description('change an account’s role or status; its sessions end; raising a role to admin waits for another admin (four eyes)')
    .action(async (email: string, opts: { role?: string; status?: string }) => {
      const change: { role?: ReturnType<typeof role>; status?: 'active' | 'disabled' } = {};
      if (opts.role !== undefined) change.role = role(opts.role);
      if (opts.status !== undefined) {
        if (opts.status !== 'active' && opts.status !== 'disabled') throw new CliError('--status must be active or disabled');
        change.status = opts.status;
      }
      if (change.role === undefined && change.status === undefined) throw new CliError('give --role or --status');
      await withRuntime(
        io,
        async ({ ctx }) => {
          const account = await ctx.staff.findByEmail(email);
          if (!account) throw new CliError(`no staff account ${email}`);
          const { account: updated, request } = await refused(() => ctx.console.updateStaff(cliActor(), account.id, change));
          if (request) io.out(`request ${request.id}: ${request.email} as ${request.role} waits for an admin to approve it in the console (/console/staff)`);
          else io.out(`staff ${updated.email}: ${updated.role}, ${updated.status}`);
        },
        { logLevel: 'warn' },
      );
    });
}
