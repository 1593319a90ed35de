import type { Database } from '../../db/connection.js';
import type { StaffRole } from '../../db/schema.js';
import type { PageRequest } from '../../lib/staff-page.js';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import type { Route } from '../../providers/types.js';
import type { Network } from '../../domain/networks.js';
import type { PackageEditor, PackagePricing } from '../catalog/editor.js';
import type { DeliveryService, StaffResolutionRequest } from '../deliveries/service.js';
import type { OrderService } from '../orders/service.js';
import { routeToWire } from '../package-routes/schemas.js';
import type { PackageRouteService, RouteSaveOptions } from '../package-routes/service.js';
import { toGhs } from '../../lib/money.js';
import type { ProfileService } from '../profiles/service.js';
import { InventoryImportError } from '../result-checker/csv.js';
import type { ResultCheckerService } from '../result-checker/service.js';
import type { MomoTopUpService } from '../top-ups/momo.js';
import type { TopUpService } from '../top-ups/service.js';
import type { WebhookEndpointService } from '../webhooks/service.js';
import type { WebhookStaffService } from '../webhooks/staff.js';
import type { LedgerVerifier } from '../wallet/ledger-verify.js';
import type { AdjustmentRequest, AdjustmentService } from '../wallet/adjustments.js';
import type { StatementQuery, StatementService } from '../wallet/statement.js';
import type { ProfileInput } from '../profiles/service.js';
import type { ProfileStatus } from '../profiles/repository.js';
import type { AdjustmentStatus } from '../../db/schema.js';
import type { Actor, AuditAction, AuditEntry, AuditTarget, AuditTrail } from '../audit/service.js';
import type { StaffService } from './service.js';
import type { FloatService } from '../float/service.js';
import type { ReconciliationService } from '../reconciliation/service.js';
import type { MarginGroup, MarginService } from '../margins/service.js';

export type { Actor } from '../audit/service.js';

/** The services the console works through: the same the API and the CLI call. */
export interface ConsoleServices {
  database: Database;
  topUps: TopUpService;
  /** Mobile Money top-ups: their gateway history and re-checks. */
  momo: MomoTopUpService;
  orders: OrderService;
  deliveries: DeliveryService;
  resultChecker: ResultCheckerService;
  profiles: ProfileService;
  ledger: LedgerVerifier;
  staff: StaffService;
  webhooks: WebhookEndpointService;
  webhookStaff: WebhookStaffService;
  packages: PackageEditor;
  packageRoutes: PackageRouteService;
  audit: AuditTrail;
  adjustments: AdjustmentService;
  statements: StatementService;
  /** ORDER_STUCK_AFTER_MS. */
  orderStuckAfterMs: number;
  floats: FloatService;
  reconciliation: ReconciliationService;
  margins: MarginService;
}

/** What became of one top-up of a bulk approval. */
export interface BulkApproval {
  id: string;
  /** approved: credited; first: the first of its two approvals recorded (nothing moved yet); refused: see why. */
  outcome: 'approved' | 'first' | 'refused';
  /** Pesewas credited (or to be credited at the second approval); null when refused. */
  amount: number | null;
  profileId: string | null;
  mode: Mode | null;
  /** Why it was refused; null when approved. */
  why: string | null;
}

/** A refusal the console shows as a message (the action was not done). */
export function isRefusal(error: unknown): error is DomainError | InventoryImportError {
  return error instanceof DomainError || error instanceof InventoryImportError;
}

const HOUR = 3_600_000;

/**
 * What staff do, from the console and from the CLI alike: each action through the same service as
 * the API, and each recorded in the audit trail (done: by the service, in the unit of the change;
 * refused: here; by whom, from where, on which record). No business rule lives here: a refusal is
 * the service's.
 */
export class ConsoleOperations {
  constructor(private readonly s: ConsoleServices) {}

  // ---- reads ----

  /** The dashboard's figures of one mode (live and test are never summed together). */
  async dashboard(mode: Mode) {
    const [attention, floats, unresolved, activity, stuck, pendingTopUps, stock, lastVerify] = await Promise.all([
      this.s.deliveries.needingAttention(),
      this.s.floats.lines(),
      this.s.reconciliation.unresolvedCounts(),
      this.s.orders.activity(HOUR, mode),
      this.s.orders.stuck(this.s.orderStuckAfterMs),
      this.s.topUps.countPending(mode),
      this.s.resultChecker.stockReport(),
      this.lastVerify(),
    ]);
    const ofMode = {
      attention: attention.filter((a) => a.mode === mode),
      stuck: stuck.filter((s) => s.mode === mode),
    };
    const names = await this.partnerNames([...ofMode.attention.map((a) => a.profile_id), ...ofMode.stuck.map((s) => s.profileId)]);
    return { mode, ...ofMode, names, floats, unresolved, activity, stuckAfterMs: this.s.orderStuckAfterMs, pendingTopUps, stock, lastVerify };
  }

  /** What the dashboard flags on data packages: active ones sold below a route's cost, routes refused on their last orders. */
  async packageFlags() {
    const [belowCost, refused] = await Promise.all([this.s.packageRoutes.belowCostPackages(), this.s.packageRoutes.refusedRoutes()]);
    return { belowCost, refused };
  }

  async lastVerify(): Promise<AuditEntry | null> {
    const [last] = await this.s.audit.list({ action: 'ledger.verify', limit: 1 });
    return last ?? null;
  }

  /** A page of top-ups, newest first, with their partners' names. */
  async topUps(filter: Parameters<TopUpService['searchForStaff']>[0], page: PageRequest) {
    const found = await this.s.topUps.searchForStaff(filter, page);
    return { ...found, names: await this.partnerNames(found.rows.map((t) => t.profile_id)) };
  }

  /** A top-up with its gateway history (Mobile Money). */
  topUpHistory(id: string) {
    return this.s.momo.history(id);
  }

  /** A page of orders, newest first, with their partners' names. */
  async searchOrders(filter: Parameters<OrderService['searchForStaff']>[0], page: PageRequest) {
    const found = await this.s.orders.searchForStaff(filter, page);
    return { ...found, names: await this.partnerNames(found.rows.map((o) => o.profile_id)) };
  }

  /** Each order's recipients and refunded pesewas, for the orders export (./exports.ts). */
  orderExportFacts(orderIds: readonly string[]) {
    return this.s.orders.exportFacts(orderIds);
  }

  /** Partners' names by profile id, for the pages that show a partner. */
  partnerNames(profileIds: readonly string[]): Promise<Map<string, string>> {
    return this.s.profiles.namesOf(profileIds);
  }

  /**
   * What `orders stuck` lists and `orders retry` (without an order) retries: deliveries an upstream
   * may have delivered without saying so (only staff can settle them), and deliveries open longer
   * than `olderThanMs` without moving, less those (newest last).
   */
  async stuckDeliveries(olderThanMs = this.s.orderStuckAfterMs) {
    const attention = await this.s.deliveries.needingAttention();
    const flagged = new Set(attention.map((a) => a.order_item_id));
    const stuck = (await this.s.orders.stuck(olderThanMs)).filter((s) => !flagged.has(s.itemId));
    return { attention, stuck };
  }

  async order(idOrReference: string) {
    const detail = await this.s.orders.detailForStaff(idOrReference);
    const [attempts, names, sale] = await Promise.all([
      this.s.deliveries.attemptsOf(detail.order.id),
      this.partnerNames([detail.order.profile_id]),
      detail.order.order_type === 'result_checker' ? this.s.resultChecker.saleForStaff(detail.order.id) : undefined,
    ]);
    return { ...detail, attempts, names, sale: sale ?? null };
  }

  stock() {
    return this.s.resultChecker.stockReport();
  }

  /** Credentials voided by refunds, newest first. */
  voidedCredentials() {
    return this.s.resultChecker.voided();
  }

  /** A page of partners, newest first. */
  partners(filter: Parameters<ProfileService['searchForStaff']>[0], page: PageRequest) {
    return this.s.profiles.searchForStaff(filter, page);
  }

  async partner(profileId: string) {
    const partners = await this.s.profiles.listForStaff();
    const profile = partners.find((p) => p.id === profileId);
    if (!profile) return null;
    return { profile, keys: await this.s.profiles.listKeys(profileId) };
  }

  /** Every data package with its routes, and which upstreams this configuration enables. */
  async packages() {
    const packages = await this.s.packages.list();
    const routes = await this.s.packageRoutes.routesOfMany(packages.map((p) => p.id));
    return { packages: packages.map((p) => ({ ...p, routes: routes.get(p.id) ?? [] })), policy: this.s.packageRoutes.policy };
  }

  async package(packageId: string) {
    const found = await this.s.packages.find(packageId);
    if (!found) return null;
    const [routes, refused] = await Promise.all([this.s.packageRoutes.routesOf(packageId), this.s.packageRoutes.refusedRoutes([packageId])]);
    return { ...found, routes, refused, policy: this.s.packageRoutes.policy };
  }

  /** A profile's details as the edit form shows them. */
  profileDetails(profileId: string) {
    return this.s.profiles.details(profileId);
  }

  /** The statement in lines (one per order, refund, top-up or adjustment), as partners read it. */
  statement(query: StatementQuery) {
    return this.s.statements.statement(query);
  }

  adjustments(filter: { status?: AdjustmentStatus | undefined; profileId?: string | undefined; mode?: Mode | undefined; limit?: number }) {
    return this.s.adjustments.list(filter);
  }

  /** GHS: an adjustment above it waits for a second admin. */
  get adjustmentApprovalAbove(): number {
    return this.s.adjustments.approvalAbove;
  }

  /** A partner's webhook endpoints of one mode, with their recent deliveries. */
  webhookEndpoints(profileId: string, mode: Mode) {
    return this.s.webhookStaff.endpointsOf(profileId, mode);
  }

  failingWebhooks(mode: Mode, before: number | null) {
    return this.s.webhookStaff.failing(mode, before);
  }

  webhookDelivery(deliveryId: number) {
    return this.s.webhookStaff.delivery(deliveryId);
  }

  staffAccounts() {
    return this.s.staff.list();
  }

  margins(from: number, to: number, by: MarginGroup) {
    return this.s.margins.report(from, to, by);
  }

  /** Live sales of the period whose cost is not known (the margins page's list). */
  unknownCostSales(from: number, to: number) {
    return this.s.margins.unknownCost(from, to);
  }

  /** The latest run of each upstream, the findings (unresolved first), and which upstreams may be reconciled here. */
  async reconciliation() {
    const [runs, findings] = await Promise.all([this.s.reconciliation.latestRuns(), this.s.reconciliation.findings({ limit: 300 })]);
    return { runs, findings, enabled: this.s.reconciliation.upstreams() };
  }

  audit(filter: Parameters<AuditTrail['list']>[0]) {
    return this.s.audit.list(filter);
  }

  // ---- actions ----
  // Each service records its own audit row in the unit of work that makes the change; a refusal
  // (nothing changed) is recorded here, with why. The CLI's staff commands call these same methods.

  /**
   * An approval of a top-up; `role` is the approver's staff role (null: the CLI's own user). Above
   * TOPUP_APPROVAL_ABOVE the first approval leaves the top-up pending (the row returned says so).
   */
  approveTopUp(actor: Actor, id: string, role: StaffRole | null) {
    return this.refusalRecorded(actor, 'topup.approve', { type: 'top_up', id }, {}, () => this.s.topUps.approve(actor, id, role));
  }

  /** Pesewas (TOPUP_APPROVAL_ABOVE): a top-up request above it needs two approvals. */
  get topUpApprovalAbove(): number {
    return this.s.topUps.approvalAbove;
  }

  /**
   * Several top-ups approved in one action, each exactly as one approval (its own unit of work,
   * posting, ledger entry, event and audit row, or the first of two approvals); one refused (decided
   * by someone else meanwhile, a Mobile Money top-up, unknown, a second approval this approver may
   * not give) is reported with why and the others go on.
   */
  async approveTopUps(actor: Actor, ids: readonly string[], role: StaffRole | null): Promise<BulkApproval[]> {
    const outcomes: BulkApproval[] = [];
    for (const id of new Set(ids)) {
      try {
        const row = await this.approveTopUp(actor, id, role);
        const outcome = row.status === 'approved' ? 'approved' : 'first';
        outcomes.push({ id, outcome, amount: Number(row.amount), profileId: row.profile_id, mode: row.mode, why: null });
      } catch (error) {
        if (!isRefusal(error)) throw error;
        outcomes.push({ id, outcome: 'refused', amount: null, profileId: null, mode: null, why: error.message });
      }
    }
    return outcomes;
  }

  rejectTopUp(actor: Actor, id: string, reason: string) {
    return this.refusalRecorded(actor, 'topup.reject', { type: 'top_up', id }, { reason }, () =>
      this.s.topUps.reject(actor, id, reason),
    );
  }

  /** Asks the gateway about a Mobile Money top-up again (credits it if it is paid and not yet credited). */
  recheckTopUp(actor: Actor, id: string) {
    return this.refusalRecorded(actor, 'topup.recheck', { type: 'top_up', id }, {}, () => this.s.momo.recheck(actor, id));
  }

  reverseOrder(actor: Actor, orderId: string, reason: string) {
    return this.refusalRecorded(actor, 'order.reverse', { type: 'order', id: orderId }, { reason }, () =>
      this.s.orders.reverse(actor, orderId, reason),
    );
  }

  /** One completed recipient of a bulk order refunded (`msisdn`: its number, in any written form). */
  reverseRecipient(actor: Actor, orderId: string, msisdn: string, reason: string) {
    return this.refusalRecorded(actor, 'order.reverse_recipient', { type: 'order', id: orderId }, { recipient: msisdn, reason }, () =>
      this.s.orders.reverseRecipient(actor, orderId, msisdn, reason),
    );
  }

  /** A sold result-checker credential refunded and voided: by its sale's id (the order's) or short reference. */
  refundResultChecker(actor: Actor, idOrReference: string, reason: string) {
    return this.refusalRecorded(actor, 'rc.refund', { type: 'rc_transaction', id: idOrReference }, { reason }, () =>
      this.s.resultChecker.refundSale(actor, idOrReference, reason),
    );
  }

  /** Deliveries of the order open longer than ORDER_STUCK_AFTER_MS (or `olderThanMs`) are made due now. */
  retryOrder(actor: Actor, orderId: string, olderThanMs = this.s.orderStuckAfterMs) {
    return this.refusalRecorded(actor, 'order.retry', { type: 'order', id: orderId }, {}, () =>
      this.s.deliveries.retryStuck(actor, orderId, olderThanMs),
    );
  }

  /**
   * An admin settles an open delivery by hand after checking with the upstream (docs/live-delivery.md, "One delivery, many attempts"): the same settlement and events as the worker's.
   */
  resolveDelivery(actor: Actor, r: StaffResolutionRequest) {
    const detail = { outcome: r.outcome, note: r.note, ...(r.partnerMessage === undefined ? {} : { partnerMessage: r.partnerMessage }) };
    return this.refusalRecorded(actor, 'order.resolve', { type: 'order', id: r.order }, detail, () =>
      this.s.deliveries.resolveByStaff(actor, r),
    );
  }

  /** An admin asks for a reconciliation: queued for a worker (never run on the request path). */
  requestReconciliation(actor: Actor, provider: string, window: { from: number; to: number }) {
    const input = { provider, from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() };
    return this.refusalRecorded(actor, 'reconciliation.run', { type: 'reconciliation', id: null }, input, async () =>
      this.s.reconciliation.request(actor, provider, this.s.reconciliation.window(window.from, window.to)),
    );
  }

  /** An admin marks a finding resolved with a note; money is settled with the order's reversal or resolve. */
  resolveFinding(actor: Actor, findingId: string, note: string) {
    return this.refusalRecorded(actor, 'reconciliation.resolve', { type: 'reconciliation_finding', id: findingId }, { note }, () =>
      this.s.reconciliation.resolve(actor, findingId, note),
    );
  }

  /** The CSV is never recorded (it holds the PINs): only its name and the counts. */
  importCredentials(actor: Actor, packageId: string, csv: string, fileName: string) {
    return this.refusalRecorded(actor, 'rc.import', { type: 'rc_package', id: packageId }, { file: fileName }, async () => {
      const result = await this.s.resultChecker.importCredentials(actor, packageId, csv, fileName);
      return { ...result, stock: await this.s.resultChecker.stock(packageId) };
    });
  }

  /** The key itself is returned once and never recorded. */
  createKey(actor: Actor, profileId: string, mode: Mode) {
    return this.refusalRecorded(actor, 'key.create', { type: 'profile', id: profileId }, { mode }, () =>
      this.s.profiles.createKey(actor, profileId, mode),
    );
  }

  revokeKey(actor: Actor, keyId: string) {
    return this.refusalRecorded(actor, 'key.revoke', { type: 'api_key', id: keyId }, {}, () => this.s.profiles.revokeKey(actor, keyId));
  }

  setProfileStatus(actor: Actor, profileId: string, status: 'Active' | 'Suspended') {
    const action = status === 'Active' ? 'profile.reactivate' : 'profile.suspend';
    return this.refusalRecorded(actor, action, { type: 'profile', id: profileId }, {}, () =>
      this.s.profiles.setStatus(actor, profileId, status),
    );
  }

  /** The keys are returned once and never recorded (their prefixes are). */
  createProfile(actor: Actor, input: ProfileInput & { status: ProfileStatus }) {
    return this.refusalRecorded(actor, 'profile.create', { type: 'profile', id: null }, { ...input }, () =>
      this.s.profiles.createProfile(actor, input),
    );
  }

  updateProfile(actor: Actor, profileId: string, input: ProfileInput) {
    return this.refusalRecorded(actor, 'profile.update', { type: 'profile', id: profileId }, { ...input }, () =>
      this.s.profiles.updateProfile(actor, profileId, input),
    );
  }

  requestAdjustment(actor: Actor, request: AdjustmentRequest) {
    return this.refusalRecorded(actor, 'wallet.adjust', { type: 'profile', id: request.profileId }, { ...request }, () =>
      this.s.adjustments.request(actor, request),
    );
  }

  approveAdjustment(actor: Actor, id: string) {
    return this.refusalRecorded(actor, 'wallet.adjust.approve', { type: 'adjustment', id }, {}, () => this.s.adjustments.approve(actor, id));
  }

  rejectAdjustment(actor: Actor, id: string, reason: string) {
    return this.refusalRecorded(actor, 'wallet.adjust.reject', { type: 'adjustment', id }, { reason }, () =>
      this.s.adjustments.reject(actor, id, reason),
    );
  }

  /**
   * The one-time password is returned once and never recorded. A new admin is a request for a second
   * admin (docs/console.md, "Four eyes"). A refusal names the e-mail (there is no account id).
   */
  createStaff(actor: Actor, email: string, role: StaffRole) {
    const target = { type: 'staff', id: email.trim().toLowerCase().slice(0, 254) };
    return this.refusalRecorded(actor, 'staff.create', target, { email, role }, () =>
      this.s.staff.createOrRequest(actor, email, role),
    );
  }

  staffRequests(status?: 'pending') {
    return this.s.staff.requests({ status });
  }

  approveStaffRequest(actor: Actor, id: string) {
    return this.refusalRecorded(actor, 'staff.request.approve', { type: 'staff_request', id }, {}, () => this.s.staff.approveRequest(actor, id));
  }

  rejectStaffRequest(actor: Actor, id: string, reason: string) {
    return this.refusalRecorded(actor, 'staff.request.reject', { type: 'staff_request', id }, { reason }, () =>
      this.s.staff.rejectRequest(actor, id, reason),
    );
  }

  /** Raising a role to admin is a request for a second admin. */
  updateStaff(actor: Actor, staffId: string, change: { role?: StaffRole; status?: 'active' | 'disabled' }) {
    return this.refusalRecorded(actor, 'staff.update', { type: 'staff', id: staffId }, change, () =>
      this.s.staff.updateOrRequest(actor, staffId, change),
    );
  }

  /** The new one-time password is returned once and never recorded. */
  resetStaffPassword(actor: Actor, email: string) {
    return this.refusalRecorded(actor, 'staff.reset_password', { type: 'staff', id: null }, { email }, () =>
      this.s.staff.resetPassword(actor, email),
    );
  }

  /** Another account's two-factor sign-in removed (a lost device): by id (console) or e-mail (CLI). */
  resetStaffTwoFactor(actor: Actor, idOrEmail: string) {
    const target = { type: 'staff', id: idOrEmail.trim().toLowerCase().slice(0, 254) };
    return this.refusalRecorded(actor, 'staff.totp_reset', target, {}, () => this.s.staff.resetTwoFactor(actor, idOrEmail));
  }

  disableWebhookEndpoint(actor: Actor, endpointId: string, reason: string) {
    return this.refusalRecorded(actor, 'webhook.disable', { type: 'webhook_endpoint', id: endpointId }, { reason }, () =>
      this.s.webhooks.disableForStaff(actor, endpointId, reason),
    );
  }

  enableWebhookEndpoint(actor: Actor, endpointId: string) {
    return this.refusalRecorded(actor, 'webhook.enable', { type: 'webhook_endpoint', id: endpointId }, {}, () =>
      this.s.webhookStaff.enable(actor, endpointId),
    );
  }

  /** Queued for the worker, which sends it (never from the request). */
  redeliverWebhook(actor: Actor, deliveryId: number) {
    return this.refusalRecorded(actor, 'webhook.redeliver', { type: 'webhook_delivery', id: String(deliveryId) }, {}, () =>
      this.s.webhookStaff.redeliver(actor, deliveryId),
    );
  }

  /** `change` in pesewas; the audit row carries GHS. */
  /** `options.belowCost`: the staff member confirmed a price below a route's cost. */
  updatePackage(actor: Actor, packageId: string, change: PackagePricing, options: { belowCost?: boolean } = {}) {
    const input = { price: toGhs(change.price), status: change.status, ...(options.belowCost ? { belowCost: true } : {}) };
    return this.refusalRecorded(actor, 'package.update', { type: 'data_package', id: packageId }, input, () =>
      this.s.packages.update(actor, packageId, change, options),
    );
  }

  operators() {
    return this.s.packages.operators();
  }

  /** null clears the operator's network (its recipients' numbers are then not checked). */
  setOperatorNetwork(actor: Actor, operatorId: string, network: Network | null) {
    return this.refusalRecorded(actor, 'operator.network', { type: 'operator', id: operatorId }, { network }, () =>
      this.s.packages.setOperatorNetwork(actor, operatorId, network),
    );
  }

  /** Routes already read (readRouteList); the console refuses to leave an active package without a usable route. */
  setPackageRoutes(actor: Actor, packageId: string, routes: readonly Route[], options: RouteSaveOptions = {}) {
    return this.refusalRecorded(actor, 'package.routes.set', { type: 'data_package', id: packageId }, { routes: routes.map(routeToWire) }, () =>
      this.s.packageRoutes.replace(actor, packageId, routes, options),
    );
  }

  /** Changes nothing, so its row is a unit of its own; the dashboard shows the latest. */
  async verifyLedger(actor: Actor) {
    const report = await this.s.ledger.verify();
    await this.s.database.unit((tx) =>
      this.s.audit.record(tx, actor, 'ledger.verify', { type: 'ledger', id: null }, {
        ok: report.ok,
        wallets: report.wallets,
        entries: report.entries,
        mismatches: report.mismatches.slice(0, 20),
        mismatchCount: report.mismatches.length,
      }),
    );
    return report;
  }

  /** A request refused before it reached a service (role, CSRF): recorded with why. */
  recordRefusal(actor: Actor, action: string, recordId: string | null, why: string) {
    return this.s.audit.refused(actor, action, { type: null, id: recordId }, { reason: why });
  }

  /** Runs a service's action; when the service refuses it, records the refusal (with the input) and rethrows. */
  private async refusalRecorded<T>(actor: Actor, action: AuditAction, target: AuditTarget, input: object, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isRefusal(error)) await this.s.audit.refused(actor, action, target, { ...input, reason: error.message });
      throw error;
    }
  }
}
