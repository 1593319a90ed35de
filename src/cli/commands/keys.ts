import type { Command } from 'commander';
import type { Mode } from '../../domain/types.js';
import { cliActor } from '../actor.js';
import { apiKeyJson } from '../json-views.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

function parseMode(value: string): Mode {
  if (value !== 'live' && value !== 'test') throw new CliError('--mode must be live or test');
  return value;
}

export function register(program: Command, io: CliIo): void {
  const keys = program.command('keys').description('manage API keys');

  keys
    .command('create')
    .requiredOption('--profile <id>', 'profile that owns the key')
    .requiredOption('--mode <mode>', 'live or test')
    .description('create a key; it is printed once and only its hash is stored')
    .action(async (opts: { profile: string; mode: string }) => {
      const mode = parseMode(opts.mode);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const { id, key } = await refused(() => ctx.console.createKey(cliActor(), opts.profile, mode));
          io.out(`key id: ${id}\nAPI key (shown once, store it now): ${key}`);
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
        io,
        async ({ ctx }) => {
          const rows = opts.profile
            ? (await ctx.profiles.listKeys(opts.profile)).map((k) => ({ ...k, profile_id: opts.profile ?? '' }))
            : await ctx.profiles.listAllKeys();
          if (opts.json) return io.json(rows.map(apiKeyJson));
          if (!rows.length) io.out(opts.profile ? `no keys for ${opts.profile}` : 'no keys');
          for (const k of rows) {
            const used = k.last_used_at ? new Date(Number(k.last_used_at)).toISOString() : 'never';
            const owner = opts.profile ? '' : `${k.profile_id}  `;
            io.out(`${owner}${k.id}  ${k.mode}  ${k.prefix}  ${k.revoked ? 'revoked' : 'active'}  last used ${used}`);
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
        io,
        async ({ ctx }) => {
          const key = await refused(() => ctx.console.revokeKey(cliActor(), keyId));
          io.out(`revoked ${keyId} (${key.prefix})`);
        },
        { logLevel: 'warn' },
      );
    });
}
