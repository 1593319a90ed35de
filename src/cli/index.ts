#!/usr/bin/env node
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
import { CliError } from './runtime.js';

/** package.json sits two levels up from src/cli and from dist/cli alike. */
const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

const program = new Command('partner-api')
  .description('Partner Wallet, Catalog and Ordering API — service and operator commands')
  .version(VERSION, '-V, --version', 'print the version')
  .showHelpAfterError()
  .exitOverride();

for (const group of [serve, migrate, importCommand, keys, worker, demo, topups, rc, routes, orders, ledger, adjustments, webhooks, profiles, staff, audit, backupCommands, simulate, providerCommands, reportCommands, operators, packages]) {
  group.register(program);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode);
  if (error instanceof CliError) {
    if (error.message) console.error(error.message);
    process.exit(error.exitCode);
  }
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
