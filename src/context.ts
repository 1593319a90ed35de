import path from 'node:path';
import type { Config } from './config.js';
import type { Database } from './db/connection.js';
import { CatalogService } from './catalog/service.js';
import { OrderService } from './orders/service.js';
import { ProfileService } from './profiles/service.js';
import { CredentialCipher, resolveCredentialsKey } from './result-checker/credential-crypto.js';
import { ResultCheckerService } from './result-checker/service.js';
import { TopUpService } from './top-ups/service.js';
import { WalletService } from './wallet/service.js';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The composition root: every service, built once per process over one database. */
export interface AppContext {
  config: Config;
  database: Database;
  cipher: CredentialCipher;
  log: Logger;
  wallets: WalletService;
  profiles: ProfileService;
  catalog: CatalogService;
  orders: OrderService;
  resultChecker: ResultCheckerService;
  topUps: TopUpService;
}

export function credentialsCipher(config: Config, database: Database, say: (message: string) => void): CredentialCipher {
  const keyDir = database.sqlitePath ? path.dirname(database.sqlitePath) : path.resolve('data');
  return new CredentialCipher(resolveCredentialsKey(config.credentialsKey, keyDir, say));
}

export function createContext(config: Config, database: Database, log: Logger, cipher: CredentialCipher): AppContext {
  const wallets = new WalletService(database);
  const catalog = new CatalogService(database);
  return {
    config,
    database,
    cipher,
    log,
    wallets,
    profiles: new ProfileService(database, log),
    catalog,
    orders: new OrderService(database, config, catalog),
    resultChecker: new ResultCheckerService(database, cipher),
    topUps: new TopUpService(database),
  };
}
