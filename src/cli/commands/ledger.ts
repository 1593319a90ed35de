import type { Command } from 'commander';
import { cliActor } from '../actor.js';
import { CliError, withRuntime } from '../runtime.js';

export function register(program: Command): void {
  const ledger = program.command('ledger').description('check the books');

  ledger
    .command('verify')
    .description('recompute every wallet from the ledger and the orders; exits 1 naming each mismatch')
    .action(async () => {
      const report = await withRuntime(({ ctx }) => ctx.console.verifyLedger(cliActor()), { logLevel: 'warn' });
      if (report.ok) {
        console.log(`ledger verify: OK (${report.wallets} wallets, ${report.entries} entries)`);
        return;
      }
      for (const mismatch of report.mismatches) console.log(`MISMATCH ${mismatch}`);
      throw new CliError(
        `ledger verify: ${report.mismatches.length} mismatches (${report.wallets} wallets, ${report.entries} entries)`,
      );
    });
}
