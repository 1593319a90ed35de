import type { Command } from 'commander';
import type { Mode } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { generateApiKey, parseApiKey } from '../../profiles/api-keys.js';
import * as repo from '../../profiles/repository.js';
import { ensureWallet } from '../../wallet/service.js';
import { CliError, withRuntime } from '../runtime.js';

function parseMode(value: string): Mode {
  if (value !== 'live' && value !== 'test') throw new CliError('--mode must be live or test');
  return value;
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
      await withRuntime(async ({ ctx }) => {
        const key = generateApiKey(mode);
        const parsed = parseApiKey(key);
        if (!parsed) throw new Error('generated key does not parse');
        const id = newId('key');
        await ctx.database.transaction(async (trx) => {
          const profile = await repo.findProfile(trx, opts.profile);
          if (!profile) throw new CliError(`no profile ${opts.profile}`);
          const now = Date.now();
          await ensureWallet(trx, profile.id, mode, 0, now);
          await repo.insertKey(trx, { id, profileId: profile.id, mode, hash: parsed.hash, prefix: parsed.prefix, revoked: false, now });
        });
        console.log(`key id: ${id}\nAPI key (shown once, store it now): ${key}`);
      }, { logLevel: 'warn' });
    });

  keys
    .command('list')
    .requiredOption('--profile <id>', 'profile whose keys to list')
    .description('list a profile’s keys (ids, prefixes, mode, state)')
    .action(async (opts: { profile: string }) => {
      await withRuntime(async ({ ctx }) => {
        const rows = await repo.listKeys(ctx.database.read, opts.profile);
        if (!rows.length) console.log(`no keys for ${opts.profile}`);
        for (const k of rows) {
          const used = k.last_used_at ? new Date(k.last_used_at).toISOString() : 'never';
          console.log(`${k.id}  ${k.mode}  ${k.prefix}  ${k.revoked ? 'revoked' : 'active'}  last used ${used}`);
        }
      }, { logLevel: 'warn' });
    });

  keys
    .command('revoke')
    .argument('<keyId>', 'key id, as printed by keys create / keys list')
    .description('revoke a key: it is refused from the next request on')
    .action(async (keyId: string) => {
      await withRuntime(async ({ ctx }) => {
        const key = await repo.findKey(ctx.database.db, keyId);
        if (!key) throw new CliError(`no key ${keyId}`);
        if (key.revoked) throw new CliError(`key ${keyId} is already revoked`);
        await repo.revokeKey(ctx.database.db, keyId, Date.now());
        console.log(`revoked ${keyId} (${key.prefix})`);
      }, { logLevel: 'warn' });
    });
}
