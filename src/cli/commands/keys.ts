import type { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { cliActor } from '../actor.js';
import { printJson } from '../duration.js';
import { apiKeyJson } from '../json-views.js';
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
          const { id, key } = await refusedAsCliError(() => ctx.console.createKey(cliActor(), opts.profile, mode));
          console.log(`key id: ${id}\nAPI key (shown once, store it now): ${key}`);
        },
        { logLevel: 'warn' },
      );
    });

  keys
    .command('list')
    .option('--profile <id>', 'only this profile’s keys (default: every profile)')
    .option('--json', 'print as JSON')
    .description('list keys (ids, prefixes, mode, state); never a whole key')
    .action(async (opts: { profile?: string; json?: boolean }) => {
      await withRuntime(
        async ({ ctx }) => {
          const rows = opts.profile
            ? (await ctx.profiles.listKeys(opts.profile)).map((k) => ({ ...k, profile_id: opts.profile ?? '' }))
            : await ctx.profiles.listAllKeys();
          if (opts.json) return printJson(rows.map(apiKeyJson));
          if (!rows.length) console.log(opts.profile ? `no keys for ${opts.profile}` : 'no keys');
          for (const k of rows) {
            const used = k.last_used_at ? new Date(Number(k.last_used_at)).toISOString() : 'never';
            const owner = opts.profile ? '' : `${k.profile_id}  `;
            console.log(`${owner}${k.id}  ${k.mode}  ${k.prefix}  ${k.revoked ? 'revoked' : 'active'}  last used ${used}`);
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
          const key = await refusedAsCliError(() => ctx.console.revokeKey(cliActor(), keyId));
          console.log(`revoked ${keyId} (${key.prefix})`);
        },
        { logLevel: 'warn' },
      );
    });
}
