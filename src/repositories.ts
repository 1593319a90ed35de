import type { Database } from './db/connection.js';
import { AuditRepository } from './modules/audit/repository.js';
import { CatalogRepository } from './modules/catalog/repository.js';
import { StaffRepository } from './modules/console/repository.js';
import { EventRepository } from './modules/events/repository.js';
import { EventRecorder } from './modules/events/service.js';
import { IdempotencyRepository } from './modules/idempotency/repository.js';
import { AttemptRepository } from './modules/deliveries/attempts-repository.js';
import { OutboxRepository } from './modules/deliveries/outbox-repository.js';
import { OrderRepository } from './modules/orders/repository.js';
import { PackageRouteRepository } from './modules/package-routes/repository.js';
import { ProfileRepository } from './modules/profiles/repository.js';
import { FloatRepository } from './modules/float/repository.js';
import { ReconciliationRepository } from './modules/reconciliation/repository.js';
import { MarginRepository } from './modules/margins/repository.js';
import { ResultCheckerRepository } from './modules/result-checker/repository.js';
import { TopUpRepository } from './modules/top-ups/repository.js';
import { lowBalanceEvents } from './modules/wallet/alerts.js';
import { AdjustmentRepository } from './modules/wallet/adjustment-repository.js';
import { StatementRepository } from './modules/wallet/statement-repository.js';
import { WalletRepository } from './modules/wallet/repository.js';
import { WebhookRepository } from './modules/webhooks/repository.js';
import { WebhookStaffRepository } from './modules/webhooks/staff-repository.js';

/** Every repository of one database, built once: each owns its statements and caches. */
export interface Repositories {
  wallets: WalletRepository;
  catalog: CatalogRepository;
  /** The routes of data packages to the upstreams (docs/live-delivery.md, "Routes"). */
  packageRoutes: PackageRouteRepository;
  profiles: ProfileRepository;
  orders: OrderRepository;
  outbox: OutboxRepository;
  /** Provider attempts and the routes of data packages. */
  attempts: AttemptRepository;
  resultChecker: ResultCheckerRepository;
  topUps: TopUpRepository;
  idempotency: IdempotencyRepository;
  events: EventRepository;
  webhooks: WebhookRepository;
  /** Webhook deliveries across partners, for staff. */
  webhookStaff: WebhookStaffRepository;
  /** Staff accounts and sessions (the console). */
  staff: StaffRepository;
  /** The audit trail of staff actions. */
  audit: AuditRepository;
  /** Records events with the changes they report (the wallets' low-balance alert uses it too). */
  eventRecorder: EventRecorder;
  /** The upstreams' float readings and refusals. */
  floats: FloatRepository;
  /** Reconciliation runs and findings. */
  reconciliation: ReconciliationRepository;
  /** The margin report's figures and closed days' sums. */
  margins: MarginRepository;
  /** Staff adjustments of wallets. */
  adjustments: AdjustmentRepository;
  /** Wallet statements (ledger entries by period). */
  statements: StatementRepository;
}

export function createRepositories(database: Database): Repositories {
  const events = new EventRepository(database);
  const webhooks = new WebhookRepository(database);
  const eventRecorder = new EventRecorder(events, webhooks);
  return {
    wallets: new WalletRepository(database, lowBalanceEvents(eventRecorder)),
    catalog: new CatalogRepository(database),
    packageRoutes: new PackageRouteRepository(database),
    profiles: new ProfileRepository(database),
    orders: new OrderRepository(database),
    outbox: new OutboxRepository(database),
    attempts: new AttemptRepository(database),
    resultChecker: new ResultCheckerRepository(database),
    topUps: new TopUpRepository(database),
    idempotency: new IdempotencyRepository(database),
    events,
    webhooks,
    webhookStaff: new WebhookStaffRepository(database),
    staff: new StaffRepository(database),
    floats: new FloatRepository(database),
    reconciliation: new ReconciliationRepository(database),
    margins: new MarginRepository(database),
    audit: new AuditRepository(database),
    eventRecorder,
    adjustments: new AdjustmentRepository(database),
    statements: new StatementRepository(database),
  };
}
