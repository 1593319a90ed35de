import type { Command } from 'commander';
import { withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

export function register(program: Command, io: CliIo): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      await withRuntime(io, async () => {
        io.out('database is up to date');
      });
    });
}
