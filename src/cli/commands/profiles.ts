import type { Command } from 'commander';
import { formatGhs } from '../../lib/money.js';
import { DomainError } from '../../domain/errors.js';
import { cliActor } from '../actor.js';
import { printJson } from '../duration.js';
import { CliError, withRuntime } from '../runtime.js';

export function register(program: Command): void {
  const profiles = program.command('profiles').description('partner profiles');

  profiles
    .command('list')
    .option('--json', 'print as JSON (balances in pesewas)')
    .description('list profiles with role, status and wallet balances per mode')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        async ({ ctx }) => {
          const rows = await ctx.profiles.listForStaff();
          if (opts.json) return printJson(rows);
          if (rows.length === 0) console.log('no profiles (import a seed: import <file>)');
          for (const p of rows) {
            const wallets =
              p.wallets.map((w) => `${w.mode} ${formatGhs(w.available)} (held ${formatGhs(w.held)})`).join(', ') || 'no wallet';
            console.log(`${p.id}  ${p.name}  ${p.role}  ${p.status}  ${wallets}`);
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
          async ({ ctx }) => {
            try {
              await ctx.console.setProfileStatus(cliActor(), profileId, status);
            } catch (error) {
              if (error instanceof DomainError) throw new CliError(`refused: ${error.message}`);
              throw error;
            }
            console.log(`${profileId} ${done}`);
          },
          { logLevel: 'warn' },
        );
      });
  }
}
