import fs from 'node:fs/promises';
import type { Command } from 'commander';
import { formatGhs } from '../../lib/money.js';
import { InventoryImportError } from '../../modules/result-checker/csv.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  const rc = program.command('rc').description('result-checker credential inventory');

  rc.command('stock')
    .option('--json', 'print as JSON')
    .description('credentials in stock per package (unassigned), low stock marked')
    .action(async (opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const lines = await ctx.resultChecker.stockReport();
          if (opts.json) return io.json(lines);
          if (lines.length === 0) io.out('no result-checker packages');
          for (const l of lines)
            io.out(`${l.packageId}  ${l.code}  ${l.name}  ${l.status}  in stock ${l.stock}${l.low ? '  LOW' : ''}${l.voided > 0 ? `  voided ${l.voided}` : ''}`);
        },
        { logLevel: 'warn' },
      );
    });

  rc.command('refund')
    .argument('<sale>', 'a sold credential: its transaction id (the same as its order id) or short reference')
    .requiredOption('--reason <text>', 'why it is refunded (kept on the order, the credential and in the ledger)')
    .option('--json', 'print the order after it as the API shows it')
    .description('refund one result-checker sale once: the wallet is credited what it paid, the credential is voided (admin)')
    .action(async (sale: string, opts: { reason: string; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          await refused(async () => {
            const r = await ctx.console.refundResultChecker(cliActor(), sale, opts.reason);
            if (opts.json) return io.json(r.order);
            const voided = r.voidedCredentialId === null ? 'no credential to void (test mode)' : `credential ${r.voidedCredentialId} voided`;
            io.out(
              `refunded ${r.transactionId} (${r.shortReference}): ${formatGhs(r.refunded)} back; ${voided}; wallet available now ${formatGhs(r.availableAfter)}`,
            );
          }, 'cannot refund: ');
        },
        { logLevel: 'warn' },
      );
    });

  rc.command('import')
    .argument('<packageId>', 'result-checker package id')
    .argument('<file>', 'CSV with the header username,password and one credential a line')
    .description('add credentials to a package: encrypted at rest; duplicates skipped; a bad line rejects the whole file')
    .action(async (packageId: string, file: string) => {
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      await withRuntime(
        io,
        async ({ ctx }) => {
          try {
            const { added, skipped, stock } = await ctx.console.importCredentials(cliActor(), packageId, text, file);
            io.out(
              `imported ${file} into ${packageId}: added ${added}, skipped ${skipped} (duplicates); in stock now ${stock}`,
            );
          } catch (error) {
            if (error instanceof InventoryImportError)
              throw new CliError(`rc import rejected, nothing written: ${error.message}`);
            throw error;
          }
        },
        { logLevel: 'warn' },
      );
    });
}
