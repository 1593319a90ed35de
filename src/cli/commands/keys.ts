import type { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { CliError, withRuntime } from '../runtime.js';

function parseMode(value: string): Mode {
  if (value !== 'live' && value !== 'test') throw new CliError('--mode must be live or test');
  return value;
}

/** A refusal of the service as one line. */
async function refusedAsCliError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(error.message);
    throw error;
  }
}

export function register(program: Command): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .requiredOption('--profile <id>', 'profile that owns the key')
    .requiredOption('--mode <mode>', 'live or test')
    .description('create a key; it is printed once and only its hash is stored')
    .action(async (opts: { profile: string; mode: string }) => {
      const mode = parseMode(opts.mode);
      await withRuntime(
        async ({ ctx }) => {
          const { id, key } = await refusedAsCliError(() => ctx.profiles.createKey(opts.profile, mode));
          console.log(`key id: ${id}\nAPI key (shown once, store it now): ${key}`);
        },
        { logLevel: 'warn' },
      );
    });

  keys
    .command('list')
    .requiredOption('--profile <id>', 'profile whose keys to list')
    .description('list a profile’s keys (ids, prefixes, mode, state)')
    .action(async (opts: { profile: string }) => {
      await withRuntime(
        async ({ ctx }) => {
          const rows = await ctx.profiles.listKeys(opts.profile);
          if (!rows.length) console.log(`no keys for ${opts.profile}`);
          for (const k of rows) {
            const used = k.last_used_at ? new Date(k.last_used_at).toISOString() : 'never';
            console.log(`${k.id}  ${k.mode}  ${k.prefix}  ${k.revoked ? 'revoked' : 'active'}  last used ${used}`);
          }
        },
        { logLevel: 'warn' },
      );
    });

  keys
    .command('revoke')
    .argument('<keyId>', 'key id, as printed by keys create / keys list')
    .description('revoke a key: it is refused from the next request on')
    .action(async (keyId: string) => {
      await withRuntime(
        async ({ ctx }) => {
          const key = await refusedAsCliError(() => ctx.profiles.revokeKey(keyId));
          console.log(`revoked ${keyId} (${key.prefix})`);
        },
        { logLevel: 'warn' },
      );
    });
}
