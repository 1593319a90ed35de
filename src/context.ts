import path from 'node:path';
import type { Config } from './config.js';
import type { Database } from './db/connection.js';
import type { Clock } from './domain/types.js';
import { shortReference, type ReferenceSource } from './lib/ids.js';
import { AuditTrail } from './modules/audit/service.js';
import { PackageEditor } from './modules/catalog/editor.js';
import { CatalogService } from './modules/catalog/service.js';
import { ConsoleOperations } from './modules/console/operations.js';
import { StaffService } from './modules/console/service.js';
import { EventService } from './modules/events/service.js';
import { IdempotencyService } from './modules/idempotency/service.js';
import { DeliveryService } from './modules/deliveries/service.js';
import { orderLedgerChecks } from './modules/orders/ledger-checks.js';
import { PurchaseService } from './modules/data-bundles/service.js';
import { OrderService } from './modules/orders/service.js';
import { PackageRouteService, routingPolicy } from './modules/package-routes/service.js';
import { ProfileService } from './modules/profiles/service.js';
import { CredentialCipher, resolveCredentialsKey } from './modules/result-checker/credential-crypto.js';
import { resultCheckerLedgerCheck } from './modules/result-checker/ledger-checks.js';
import { ResultCheckerService } from './modules/result-checker/service.js';
import { topUpLedgerCheck } from './modules/top-ups/ledger-checks.js';
import { TopUpService } from './modules/top-ups/service.js';
import { MomoTopUpService } from './modules/top-ups/momo.js';
import { paymentGateways } from './providers/paystack/index.js';
import { AdjustmentService } from './modules/wallet/adjustments.js';
import { StatementService } from './modules/wallet/statement.js';
import { adjustmentsWellFormed, LedgerVerifier, ledgerKindsKnown, walletsMatchLedger } from './modules/wallet/ledger-verify.js';
import { WalletService } from './modules/wallet/service.js';
import { WebhookDeliveryService } from './modules/webhooks/deliveries.js';
import { WebhookEndpointService } from './modules/webhooks/service.js';
import { WebhookStaffService } from './modules/webhooks/staff.js';
import { FloatService } from './modules/float/service.js';
import { ReconciliationService } from './modules/reconciliation/service.js';
import { mobileMoneyFees } from './modules/margins/mobile-money-fees.js';
import { MarginService } from './modules/margins/service.js';
import { createProviders, enabledProviders, upstreamCatalogs } from './providers/index.js';
import { createRepositories, type Repositories } from './repositories.js';
import { SeedImporter } from './seed/import.js';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** The composition root: every repository and service, built once per process over one database. */
export interface AppContext {
  config: Config;
  database: Database;
  cipher: CredentialCipher;
  log: Logger;
  clock: Clock;
  repositories: Repositories;
  wallets: WalletService;
  profiles: ProfileService;
  catalog: CatalogService;
  /** Data packages' routes to the upstreams, and which upstreams this configuration enables. */
  packageRoutes: PackageRouteService;
  /** Staff changes to a data package's price, role prices and status. */
  packages: PackageEditor;
  purchases: PurchaseService;
  orders: OrderService;
  deliveries: DeliveryService;
  resultChecker: ResultCheckerService;
  topUps: TopUpService;
  /** Mobile Money top-ups through Paystack (docs/mobile-money.md). */
  momo: MomoTopUpService;
  idempotency: IdempotencyService;
  events: EventService;
  webhookEndpoints: WebhookEndpointService;
  webhookDeliveries: WebhookDeliveryService;
  /** Partners' webhooks as staff see and correct them (the console, `cli webhooks`). */
  webhookStaff: WebhookStaffService;
  ledger: LedgerVerifier;
  /** Staff adjustments of wallets (four eyes above ADJUSTMENT_APPROVAL_ABOVE). */
  adjustments: AdjustmentService;
  /** Partners' statements. */
  statements: StatementService;
  seeds: SeedImporter;
  /** Staff accounts and sessions. */
  staff: StaffService;
  /** The audit trail of staff actions (console and CLI). */
  audit: AuditTrail;
  /** What staff do in the console (and the CLI's staff reads), audited, through the services above. */
  console: ConsoleOperations;
  /** The upstreams' float balances (docs/live-delivery.md, "Float balances"). */
  floats: FloatService;
  /** Reconciliation of the upstreams' records with our attempts (docs/live-delivery.md, "Reconciliation"). */
  reconciliation: ReconciliationService;
  /** The margin report (docs/live-delivery.md, "Margins"). */
  margins: MarginService;
  /**
   * Calls `listener` each time a purchase or a retry has committed deliveries to the outbox, so a
   * worker in this process can start on them at once instead of after its idle sleep. Returns the
   * function that unsubscribes.
   */
  onDeliveriesQueued(listener: () => void): () => void;
}

export function credentialsCipher(config: Config, database: Database, say: (message: string) => void): CredentialCipher {
  const keyDir = database.sqlitePath ? path.dirname(database.sqlitePath) : path.resolve('data');
  return new CredentialCipher(resolveCredentialsKey(config.credentialsKey, keyDir, say));
}

export interface ContextOptions {
  /** The time source of every service (tests move it). */
  clock?: Clock;
  /** Draws short references (tests force collisions with it). */
  references?: ReferenceSource;
  /** How long a first request holds its Idempotency-Key (tests shorten it). */
  idempotencyLockMs?: number;
}

export function createContext(
  config: Config,
  database: Database,
  log: Logger,
  cipher: CredentialCipher,
  options: ContextOptions = {},
): AppContext {
  const clock = options.clock ?? Date.now;
  const references = options.references ?? shortReference;
  const repositories = createRepositories(database);
  const listeners = new Set<() => void>();
  const deliveriesQueued = () => {
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // The purchase has committed: a listener (a wake-up) failing must not turn it into an error.
      }
    }
  };
  const { wallets, catalog, profiles, orders, outbox, resultChecker, topUps, events, webhooks, eventRecorder } = repositories;
  const idempotency = new IdempotencyService(
    repositories.idempotency,
    cipher.sealer('idempotency-responses'),
    clock,
    options.idempotencyLockMs,
  );
  const audit = new AuditTrail(database, repositories.audit, clock);
  const walletService = new WalletService(database, wallets, clock);
  const webhookSecrets = cipher.sealer('webhook-secrets');
  const webhookSettings = config.webhooks;
  const catalogService = new CatalogService(catalog);
  const policy = routingPolicy(config);
  // Saving a route reads its product at the upstream (docs/live-delivery.md, "Routes"); no call is made before.
  const packageRouteService = new PackageRouteService(database, repositories.packageRoutes, audit, policy, upstreamCatalogs(createProviders(config, database, clock)));
  const packageEditor = new PackageEditor(database, catalog, repositories.packageRoutes, audit, policy, clock);
  const profileService = new ProfileService(database, profiles, walletService, log, audit, clock);
  const orderService = new OrderService(database, orders, wallets, eventRecorder, audit, clock, config.orderStuckAfterMs);
  const deliveryService = new DeliveryService(
    database,
    orders,
    outbox,
    repositories.attempts,
    repositories.packageRoutes,
    wallets,
    eventRecorder,
    audit,
    config.upstreams.attentionAfterMs,
    clock,
  );
  const resultCheckerService = new ResultCheckerService(database, resultChecker, wallets, idempotency, cipher, audit, clock, references, eventRecorder);
  const topUpService = new TopUpService(
    database,
    topUps,
    wallets,
    walletService,
    idempotency,
    eventRecorder,
    audit,
    clock,
    config.topUpApprovalAbove,
  );
  const momoService = new MomoTopUpService(
    database,
    topUps,
    topUpService,
    repositories.profiles,
    paymentGateways(config.momo, { sandboxSettleMs: config.sandboxSettleMs, timeoutMs: config.workerTuning.providerTimeoutMs, clock }),
    idempotency,
    audit,
    config.momo,
    log,
    clock,
  );
  const webhookEndpointService = new WebhookEndpointService(
    database,
    webhooks,
    webhookSecrets,
    { production: config.nodeEnv === 'production', allowPrivate: webhookSettings.allowPrivateUrls },
    idempotency,
    audit,
    clock,
  );
  const webhookStaff = new WebhookStaffService(
    database,
    repositories.webhookStaff,
    webhooks,
    audit,
    clock,
    webhookSettings.eventRetentionMs,
  );
  const ledger = new LedgerVerifier(database, wallets, [
    walletsMatchLedger(wallets),
    ledgerKindsKnown(wallets),
    adjustmentsWellFormed(wallets),
    ...orderLedgerChecks(orders, wallets),
    resultCheckerLedgerCheck(resultChecker),
    topUpLedgerCheck(topUps),
  ]);
  const adjustmentService = new AdjustmentService(
    database,
    repositories.adjustments,
    wallets,
    eventRecorder,
    audit,
    clock,
    config.adjustmentApprovalAbove,
  );
  const statementService = new StatementService(wallets, repositories.statements);
  const enabled = enabledProviders(config);
  const floats = new FloatService(repositories.floats, enabled, config.upstreams.lowBalance, clock);
  const reconciliation = new ReconciliationService(database, repositories.reconciliation, audit, enabled, clock);
  const margins = new MarginService(repositories.margins, clock, [mobileMoneyFees(repositories.topUps)]);
  const staffService = new StaffService(database, repositories.staff, audit, clock, config.console.sessionTtlMs, {
    sealer: cipher.sealer('staff-totp'),
    requiredForAdmins: config.console.require2fa,
  });
  return {
    config,
    database,
    cipher,
    log,
    clock,
    repositories,
    wallets: walletService,
    profiles: profileService,
    catalog: catalogService,
    packageRoutes: packageRouteService,
    packages: packageEditor,
    purchases: new PurchaseService(
      database,
      catalogService,
      orders,
      outbox,
      wallets,
      idempotency,
      clock,
      references,
      deliveriesQueued,
    ),
    orders: orderService,
    deliveries: deliveryService,
    resultChecker: resultCheckerService,
    topUps: topUpService,
    momo: momoService,
    idempotency,
    events: new EventService(database, events, webhooks, clock),
    webhookEndpoints: webhookEndpointService,
    webhookDeliveries: new WebhookDeliveryService(database, webhooks, webhookSecrets, webhookSettings, clock),
    webhookStaff,
    ledger,
    adjustments: adjustmentService,
    statements: statementService,
    seeds: new SeedImporter(database, repositories, walletService, cipher, audit, clock),
    staff: staffService,
    audit,
    console: new ConsoleOperations({
      database,
      topUps: topUpService,
      momo: momoService,
      orders: orderService,
      deliveries: deliveryService,
      resultChecker: resultCheckerService,
      profiles: profileService,
      ledger,
      staff: staffService,
      webhooks: webhookEndpointService,
      webhookStaff,
      packages: packageEditor,
      packageRoutes: packageRouteService,
      audit,
      adjustments: adjustmentService,
      statements: statementService,
      orderStuckAfterMs: config.orderStuckAfterMs,
      floats,
      reconciliation,
      margins,
    }),
    floats,
    reconciliation,
    margins,
    onDeliveriesQueued(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
