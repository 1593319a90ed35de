import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { parseSeed, SeedError, type ImportSummary } from '../../seed/import.js';
import { CliError, withRuntime, type Runtime } from '../runtime.js';
import type { CliIo } from '../io.js';

export async function importSeedFile(rt: Runtime, file: string): Promise<ImportSummary> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    return await rt.ctx.seeds.import(parseSeed(text));
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

export function register(program: Command, io: CliIo): void {
  program
    .command('import')
    .argument('<file>', 'seed file (JSON; the format is in docs/seed-import.md)')
    .description('import a seed file: idempotent upsert by id, all-or-nothing')
    .action(async (file: string) => {
      await withRuntime(
        io,
        async (rt) => {
          io.out(`imported ${file}\n${formatSummary(await importSeedFile(rt, file))}`);
        },
        { logLevel: 'warn' },
      );
    });
}
