import type { Command } from 'commander';
import { withRuntime } from '../runtime.js';

export function register(program: Command): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      await withRuntime(async () => {
        console.log('database is up to date');
      });
    });
}
