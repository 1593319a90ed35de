import type { Database } from './db/connection.js';
import { CatalogRepository } from './modules/catalog/repository.js';
import { IdempotencyRepository } from './modules/idempotency/repository.js';
import { OutboxRepository } from './modules/orders/outbox-repository.js';
import { OrderRepository } from './modules/orders/repository.js';
import { ProfileRepository } from './modules/profiles/repository.js';
import { ResultCheckerRepository } from './modules/result-checker/repository.js';
import { TopUpRepository } from './modules/top-ups/repository.js';
import { WalletRepository } from './modules/wallet/repository.js';

/** Every repository of one database, built once: each owns its statements and caches. */
export interface Repositories {
  wallets: WalletRepository;
  catalog: CatalogRepository;
  profiles: ProfileRepository;
  orders: OrderRepository;
  outbox: OutboxRepository;
  resultChecker: ResultCheckerRepository;
  topUps: TopUpRepository;
  idempotency: IdempotencyRepository;
}

export function createRepositories(database: Database): Repositories {
  return {
    wallets: new WalletRepository(database),
    catalog: new CatalogRepository(database),
    profiles: new ProfileRepository(database),
    orders: new OrderRepository(database),
    outbox: new OutboxRepository(database),
    resultChecker: new ResultCheckerRepository(database),
    topUps: new TopUpRepository(database),
    idempotency: new IdempotencyRepository(database),
  };
}
