import { Command, CommanderError } from 'commander';
import { createRequire } from 'node:module';
import * as adjustments from './commands/adjustments.js';
import * as audit from './commands/audit.js';
import * as backupCommands from './commands/backup.js';
import * as demo from './commands/demo.js';
import * as importCommand from './commands/import.js';
import * as keys from './commands/keys.js';
import * as ledger from './commands/ledger.js';
import * as migrate from './commands/migrate.js';
import * as operators from './commands/operators.js';
import * as orders from './commands/orders.js';
import * as packages from './commands/packages.js';
import * as profiles from './commands/profiles.js';
import * as providerCommands from './commands/providers.js';
import * as reportCommands from './commands/report.js';
import * as rc from './commands/rc.js';
import * as routes from './commands/routes.js';
import * as serve from './commands/serve.js';
import * as simulate from './commands/simulate.js';
import * as staff from './commands/staff.js';
import * as topups from './commands/topups.js';
import * as webhooks from './commands/webhooks.js';
import * as worker from './commands/worker.js';
import type { CliIo } from './io.js';
import { CliError } from './runtime.js';

/** package.json sits two levels up from src/cli and from dist/cli alike. */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** Every command group, in the order `--help` lists them (docs/cli.md names each). */
export const COMMAND_GROUPS = [
  serve,
  migrate,
  importCommand,
  keys,
  worker,
  demo,
  topups,
  rc,
  routes,
  orders,
  ledger,
  adjustments,
  webhooks,
  profiles,
  staff,
  audit,
  backupCommands,
  simulate,
  providerCommands,
  reportCommands,
  operators,
  packages,
] as const;

/** The partner-api command line, writing through `io`. */
export function createProgram(io: CliIo): Command {
  const program = new Command('partner-api')
    .description('Partner Wallet, Catalog and Ordering API — service and operator commands')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.write(text), writeErr: (text) => io.writeErr(text) });
  for (const group of COMMAND_GROUPS) group.register(program, io);
  // Subcommands copy the settings above only when created after them: give each its own.
  for (const command of allCommands(program)) {
    command.exitOverride().configureOutput({ writeOut: (text) => io.write(text), writeErr: (text) => io.writeErr(text) });
  }
  return program;
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((sub) => [sub, ...allCommands(sub)]);
}

/** How a run ended: its exit code, and whether the process should exit at once (an error, --help). */
export interface ProgramOutcome {
  exitCode: number;
  /** The command failed or only printed (help, version): nothing of it may go on running. */
  exitNow: boolean;
}

/**
 * Runs the command line `args` (without node and the script) to its end. A failure is one line on
 * standard error, never a stack trace.
 */
export async function runProgram(args: readonly string[], io: CliIo): Promise<ProgramOutcome> {
  try {
    await createProgram(io).parseAsync([...args], { from: 'user' });
    return { exitCode: io.exitCode, exitNow: false };
  } catch (error) {
    if (error instanceof CommanderError) return { exitCode: error.exitCode, exitNow: true };
    if (error instanceof CliError) {
      if (error.message) io.err(error.message);
      return { exitCode: error.exitCode, exitNow: true };
    }
    io.err(`error: ${error instanceof Error ? error.message : String(error)}`);
    return { exitCode: 1, exitNow: true };
  }
}
