import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { changeLine, NO_PERMISSIONS, type ImportPermissions } from '../../seed/changes.js';
import { parseSeed, SeedError, type ImportSummary } from '../../seed/import.js';
import { cliActor } from '../actor.js';
import { CliError, withRuntime, type Runtime } from '../runtime.js';
import type { CliIo } from '../io.js';

export interface ImportFileOptions {
  dryRun?: boolean;
  permissions?: ImportPermissions;
}

/** Imports `file` as `cli:<os user>` (the audit trail's actor of every change it makes). */
export async function importSeedFile(rt: Runtime, file: string, options: ImportFileOptions = {}): Promise<ImportSummary> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return await rt.ctx.seeds.import(parseSeed(text), {
      actor: cliActor(),
      dryRun: options.dryRun === true,
      permissions: options.permissions ?? NO_PERMISSIONS,
    });
  } catch (error) {
    if (error instanceof SeedError) throw new CliError(`import rejected, nothing written: ${error.message}`);
    throw error;
  }
}

export function formatSummary(s: ImportSummary): string {
  return [
    `operators ${s.operators}, products ${s.products}, data packages ${s.dataPackages} (routes set for ${s.routesSet})`,
    `result-checker packages ${s.resultCheckerPackages} (credentials added ${s.credentialsAdded}, already known ${s.credentialsSkipped})`,
    `profiles ${s.profiles} (wallets created ${s.walletsCreated}, API keys added ${s.apiKeysAdded})`,
    `orders ${s.orders} (imported ${s.ordersImported}, already known ${s.ordersSkipped})`,
  ].join('\n');
}

/** One line per record created, per field changed and per change skipped; `no changes` when there are none. */
export function formatChanges(s: ImportSummary): string {
  return s.changes.length === 0 ? 'no changes to existing records, nothing created' : s.changes.map(changeLine).join('\n');
}

export function register(program: Command, io: CliIo): void {
  program
    .command('import')
    .argument('<file>', 'seed file (JSON; the format is in docs/seed-import.md)')
    .option('--dry-run', 'print what the import would create, change and skip, and write nothing')
    .option('--reactivate <profileId...>', 'let the file set these profiles (suspended or otherwise not active) to Active')
    .option('--allow-role-change', "let the file change existing profiles' roles")
    .option('--add-keys', 'let the file add API keys to existing profiles')
    .description('import a seed file: idempotent upsert by id, all-or-nothing; prints every change, audited as cli:<os user>')
    .action(async (file: string, opts: { dryRun?: boolean; reactivate?: string[]; allowRoleChange?: boolean; addKeys?: boolean }) => {
      const permissions: ImportPermissions = {
        reactivate: opts.reactivate ?? [],
        allowRoleChange: opts.allowRoleChange === true,
        addKeys: opts.addKeys === true,
      };
      await withRuntime(
        io,
        async (rt) => {
          const summary = await importSeedFile(rt, file, { dryRun: opts.dryRun === true, permissions });
          io.out(summary.dryRun ? `dry run of ${file}: nothing written; the import would make these changes` : `imported ${file}`);
          io.out(formatChanges(summary));
          io.out(formatSummary(summary));
        },
        { logLevel: 'warn' },
      );
    });
}
