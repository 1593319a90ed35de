import type { Command } from 'commander';
import { formatGhs } from '../../lib/money.js';
import { cliActor } from '../actor.js';
import { staffProfileJson } from '../json-views.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  const profiles = program.command('profiles').description('partner profiles');

  profiles
    .command('list')
    .option('--json', 'print as JSON (balances in GHS, as the API gives them)')
    .description('list profiles with role, status and wallet balances per mode')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const rows = await ctx.profiles.listForStaff();
          if (opts.json) return io.json(rows.map(staffProfileJson));
          if (rows.length === 0) io.out('no profiles (import a seed: import <file>)');
          for (const p of rows) {
            const wallets =
              p.wallets.map((w) => `${w.mode} ${formatGhs(w.available)} (held ${formatGhs(w.held)})`).join(', ') || 'no wallet';
            io.out(`${p.id}  ${p.name}  ${p.role}  ${p.status}  ${wallets}`);
          }
        },
        { logLevel: 'warn' },
      );
    });

  for (const [name, status, done] of [
    ['suspend', 'Suspended', 'suspended: its keys are refused from now on'],
    ['reactivate', 'Active', 'reactivated'],
  ] as const) {
    profiles
      .command(name)
      .argument('<profileId>', 'the partner profile')
      .description(`${name} a profile (as the console's partner page does; recorded in the audit trail)`)
      .action(async (profileId: string) => {
        await withRuntime(
          io,
          async ({ ctx }) => {
            await refused(() => ctx.console.setProfileStatus(cliActor(), profileId, status), 'refused: ');
            io.out(`${profileId} ${done}`);
          },
          { logLevel: 'warn' },
        );
      });
  }

  profiles
    .command('create')
    .requiredOption('--first-name <name>', 'first name')
    .option('--middle-name <name>', 'middle name')
    .requiredOption('--last-name <name>', 'last name')
    .requiredOption('--phone <number>', 'Ghana mobile number')
    .requiredOption('--email <email>', 'e-mail (unique among profiles)')
    .requiredOption('--role <role>', 'Agent, SuperAgent, Customer or Staff')
    .option('--status <status>', 'Active or Suspended', 'Active')
    .option('--json', 'print the profile id and keys as JSON')
    .description('onboard a partner: the profile, its live and test wallets and a first key per mode (printed once)')
    .action(
      async (opts: { firstName: string; middleName?: string; lastName: string; phone: string; email: string; role: string; status: string; json?: boolean }) => {
        if (opts.status !== 'Active' && opts.status !== 'Suspended') throw new CliError('--status must be Active or Suspended');
        const status = opts.status;
        await withRuntime(
          io,
          async ({ ctx }) => {
            const created = await refused(() => ctx.console.createProfile(cliActor(), {
              firstName: opts.firstName,
              middleName: opts.middleName,
              lastName: opts.lastName,
              phoneNumber: opts.phone,
              email: opts.email,
              role: opts.role,
              status,
            }), 'refused: ');
            if (opts.json) return io.json(created);
            io.out(`profile ${created.id} created with live and test wallets`);
            for (const k of created.keys) io.out(`${k.mode} key ${k.id} (shown once, store it now): ${k.key}`);
          },
          { logLevel: 'warn' },
        );
      },
    );

  profiles
    .command('update')
    .argument('<profileId>', 'the partner profile')
    .option('--first-name <name>', 'first name')
    .option('--middle-name <name>', 'middle name')
    .option('--last-name <name>', 'last name')
    .option('--phone <number>', 'Ghana mobile number')
    .option('--email <email>', 'e-mail')
    .option('--role <role>', 'Agent, SuperAgent, Customer or Staff')
    .description("change a profile's names, phone, e-mail or role (recorded with before and after)")
    .action(
      async (
        profileId: string,
        opts: { firstName?: string; middleName?: string; lastName?: string; phone?: string; email?: string; role?: string },
      ) => {
        await withRuntime(
          io,
          async ({ ctx }) => {
            const current = await ctx.console.profileDetails(profileId);
            if (!current) throw new CliError(`no profile ${profileId}`);
            const done = await refused(() => ctx.console.updateProfile(cliActor(), profileId, {
              firstName: opts.firstName ?? current.firstName,
              middleName: opts.middleName ?? current.middleName,
              lastName: opts.lastName ?? current.lastName,
              phoneNumber: opts.phone ?? current.phoneNumber,
              email: opts.email ?? current.email,
              role: opts.role ?? current.role,
            }), 'refused: ');
            io.out(`${profileId} updated: ${done.changed.join(', ')}`);
          },
          { logLevel: 'warn' },
        );
      },
    );
}
