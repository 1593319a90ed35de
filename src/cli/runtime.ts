import type { Logger } from 'pino';
import { ConfigError, DEFAULT_DATABASE_URL, loadConfig, type Config } from '../config.js';
import { createContext, credentialsCipher, type AppContext } from '../context.js';
import { connect, DatabaseUnavailableError, type ConnectOptions, type Database } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { DomainError } from '../domain/errors.js';
import { createLogger } from '../logging.js';
import { withDemoEnv } from './demo-env.js';
import type { CliIo } from './io.js';

export interface Runtime {
  ctx: AppContext;
  logger: Logger;
  close(): Promise<void>;
}

/** A failure the CLI reports as one line (no stack) with a non-zero exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * `work`, with a refusal of the service (a DomainError: a rule said no) reported as the command's
 * one line, `prefix` then the refusal's own words.
 */
export async function refused<T>(work: () => Promise<T>, prefix = ''): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) throw new CliError(`${prefix}${error.message}`);
    throw error;
  }
}

/** The configuration of `env`, with a running demo's upstream settings where `env` leaves them unset (demo-env.ts). */
export function loadConfigOrExit(env: NodeJS.ProcessEnv): Config {
  try {
    return loadConfig(withDemoEnv(env));
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`config error: ${error.message}`);
    throw error;
  }
}

/** connect(), with a database that cannot be reached or opened reported as one line naming DATABASE_URL. */
async function connectOrExit(config: Config, options: ConnectOptions = {}): Promise<Database> {
  try {
    return await connect(config.databaseUrl, {
      sqliteSynchronous: config.sqliteSynchronous,
      poolSize: config.databasePoolSize,
      createDirectory: config.databaseUrl === DEFAULT_DATABASE_URL,
      ...options,
    });
  } catch (error) {
    if (!(error instanceof DatabaseUnavailableError)) throw error;
    const verb = error.engine === 'postgres' ? 'reach' : 'open';
    throw new CliError(`database error: cannot ${verb} the database named by DATABASE_URL (${error.shownUrl}): ${error.reason}`);
  }
}

export interface RuntimeOptions {
  logLevel?: string;
  longRunning?: boolean;
  /** The environment the config is read from (default: the command's). */
  env?: NodeJS.ProcessEnv;
  /** Started before the migrations run, stopped (the function it resolves to) once they are done: serve's boot listener. */
  whileMigrating?: (config: Config, logger: Logger) => Promise<() => Promise<void>>;
}

/** Config, database (migrated), credentials key and services: what every command starts from. */
export async function openRuntime(io: CliIo, options: RuntimeOptions = {}): Promise<Runtime> {
  const config = loadConfigOrExit(options.env ?? io.env);
  const logger = createLogger(options.logLevel ?? config.logLevel, io.logDestination);
  const database = await connectOrExit(config, {
    // A command that ends soon leaves checkpoints to SQLite (and to its close); a server does them aside.
    ...(options.longRunning
      ? { backgroundCheckpoint: { onError: (message: string) => logger.warn({ message }, 'WAL checkpoint failed') } }
      : {}),
  });
  try {
    const stopBoot = options.whileMigrating ? await options.whileMigrating(config, logger) : null;
    let applied: string[];
    try {
      applied = await migrateToLatest(database, {
        onNewerSchema: (names) =>
          logger.warn({ migrations: names }, 'the database has migrations of a newer release; running on it without them (rolled back?)'),
      });
    } finally {
      await stopBoot?.();
    }
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    const cipher = credentialsCipher(config, database, (message) => logger.warn(message));
    const ctx = createContext(config, database, logger, cipher);
    return { ctx, logger, close: () => database.close() };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Runs `work` with a runtime and always closes it. */
export async function withRuntime<T>(io: CliIo, work: (rt: Runtime) => Promise<T>, options: { logLevel?: string } = {}): Promise<T> {
  const rt = await openRuntime(io, options);
  try {
    return await work(rt);
  } finally {
    await rt.close();
  }
}
