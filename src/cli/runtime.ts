import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from '../config.js';
import { createContext, credentialsCipher, type AppContext } from '../context.js';
import { connect } from '../db/connection.js';
import { migrateToLatest } from '../db/migrate.js';
import { createLogger } from '../logging.js';

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

export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`config error: ${error.message}`);
    throw error;
  }
}

/** Config, database (migrated), credentials key and services: what every command starts from. */
export async function openRuntime(options: { logLevel?: string; longRunning?: boolean } = {}): Promise<Runtime> {
  const config = loadConfigOrExit();
  const logger = createLogger(options.logLevel ?? config.logLevel);
  const database = await connect(config.databaseUrl, {
    sqliteSynchronous: config.sqliteSynchronous,
    poolSize: config.databasePoolSize,
    // A command that ends soon leaves checkpoints to SQLite (and to its close); a server does them aside.
    ...(options.longRunning ? { backgroundCheckpoint: { onError: (message: string) => logger.warn({ message }, 'WAL checkpoint failed') } } : {}),
  });
  try {
    const applied = await migrateToLatest(database);
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
export async function withRuntime<T>(work: (rt: Runtime) => Promise<T>, options: { logLevel?: string } = {}): Promise<T> {
  const rt = await openRuntime(options);
  try {
    return await work(rt);
  } finally {
    await rt.close();
  }
}
