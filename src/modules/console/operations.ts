import type { StaffRole, TopUpRow, TopUpStatus } from '../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import type { DeliveryService } from '../orders/deliveries.js';
import type { OrderService } from '../orders/service.js';
import type { ProfileService } from '../profiles/service.js';
import { InventoryImportError } from '../result-checker/csv.js';
import type { ResultCheckerService } from '../result-checker/service.js';
import type { TopUpService } from '../top-ups/service.js';
import type { LedgerVerifier } from '../wallet/ledger-verify.js';
import type { Actor, AuditAction, AuditEntry, AuditTrail } from '../audit/service.js';
import type { Database } from '../../db/connection.js';
import type { StaffService } from './service.js';

export type { Actor } from '../audit/service.js';

/** The services the console works through: the same the API and the CLI call. */
export interface ConsoleServices {
  database: Database;
  topUps: TopUpService;
  orders: OrderService;
  deliveries: DeliveryService;
  resultChecker: ResultCheckerService;
  profiles: ProfileService;
  ledger: LedgerVerifier;
  staff: StaffService;
  audit: AuditTrail;
  /** ORDER_STUCK_AFTER_MS. */
  orderStuckAfterMs: number;
}

/** A refusal the console shows as a message (the action was not done). */
export function isRefusal(error: unknown): error is DomainError | InventoryImportError {
  return error instanceof DomainError || error instanceof InventoryImportError;
}

const HOUR = 3_600_000;

/**
 * What staff do in the console, each action through the same service as the API and the CLI and
 * each recorded in the audit trail (done or refused, by whom, from where, on which record). No
 * business rule lives here: a refusal is the service's.
 */
export class ConsoleOperations {
  constructor(private readonly s: ConsoleServices) {}

  // ---- reads ----

  async dashboard() {
    const [activity, stuck, pending, stock, lastVerify] = await Promise.all([
      this.s.orders.activity(HOUR),
      this.s.orders.stuck(this.s.orderStuckAfterMs),
      this.s.topUps.listForStaff({ status: 'pending', limit: 1000 }),
      this.s.resultChecker.stockReport(),
      this.lastVerify(),
    ]);
    return { activity, stuck, stuckAfterMs: this.s.orderStuckAfterMs, pending, stock, lastVerify };
  }

  async lastVerify(): Promise<AuditEntry | null> {
    const [last] = await this.s.audit.list({ action: 'ledger.verify', limit: 1 });
    return last ?? null;
  }

  /** Pending requests first (oldest first: the queue), then the latest decisions. */
  async topUps(status?: TopUpStatus): Promise<{ pending: TopUpRow[]; decided: TopUpRow[] }> {
    const pending =
      status === undefined || status === 'pending' ? await this.s.topUps.listForStaff({ status: 'pending', limit: 500 }) : [];
    const decided =
      status === 'pending'
        ? []
        : (await this.s.topUps.listForStaff({ status, limit: 200 })).filter((t) => t.status !== 'pending');
    return { pending: [...pending].sort((a, b) => Number(a.created_at) - Number(b.created_at)), decided };
  }

  searchOrders(filter: Parameters<OrderService['searchForStaff']>[0]) {
    return this.s.orders.searchForStaff(filter);
  }

  order(idOrReference: string) {
    return this.s.orders.detailForStaff(idOrReference);
  }

  stock() {
    return this.s.resultChecker.stockReport();
  }

  partners() {
    return this.s.profiles.listForStaff();
  }

  async partner(profileId: string) {
    const partners = await this.s.profiles.listForStaff();
    const profile = partners.find((p) => p.id === profileId);
    if (!profile) return null;
    return { profile, keys: await this.s.profiles.listKeys(profileId) };
  }

  staffAccounts() {
    return this.s.staff.list();
  }

  audit(filter: Parameters<AuditTrail['list']>[0]) {
    return this.s.audit.list(filter);
  }

  // ---- actions (each audited) ----

  approveTopUp(actor: Actor, id: string) {
    return this.audited(
      actor,
      'topup.approve',
      'top_up',
      id,
      {},
      () => this.s.topUps.approve(id, actor.name),
      (t) => ({
        amount: Number(t.amount),
        profileId: t.profile_id,
        mode: t.mode,
      }),
    );
  }

  rejectTopUp(actor: Actor, id: string, reason: string) {
    return this.audited(actor, 'topup.reject', 'top_up', id, { reason }, () => this.s.topUps.reject(id, reason, actor.name));
  }

  reverseOrder(actor: Actor, orderId: string, reason: string) {
    return this.audited(
      actor,
      'order.reverse',
      'order',
      orderId,
      { reason },
      () => this.s.orders.reverse(orderId, reason),
      (r) => ({
        refunded: r.refunded,
        shortReference: r.shortReference,
      }),
    );
  }

  retryOrder(actor: Actor, orderId: string) {
    return this.audited(
      actor,
      'order.retry',
      'order',
      orderId,
      {},
      () => this.s.deliveries.retryStuck(orderId, this.s.orderStuckAfterMs),
      (r) => ({
        stuck: r.stuck,
        requeued: r.requeued,
        hurried: r.hurried,
      }),
    );
  }

  /** The CSV is never recorded (it holds the PINs): only its name and the counts. */
  importCredentials(actor: Actor, packageId: string, csv: string, fileName: string) {
    return this.audited(
      actor,
      'rc.import',
      'rc_package',
      packageId,
      { file: fileName },
      async () => {
        const result = await this.s.resultChecker.importCredentials(packageId, csv);
        return { ...result, stock: await this.s.resultChecker.stock(packageId) };
      },
      (r) => r,
    );
  }

  /** The key itself is returned once and never recorded. */
  createKey(actor: Actor, profileId: string, mode: Mode) {
    return this.audited(
      actor,
      'key.create',
      'profile',
      profileId,
      { mode },
      () => this.s.profiles.createKey(profileId, mode),
      (k) => ({
        keyId: k.id,
      }),
    );
  }

  revokeKey(actor: Actor, keyId: string) {
    return this.audited(
      actor,
      'key.revoke',
      'api_key',
      keyId,
      {},
      () => this.s.profiles.revokeKey(keyId),
      (k) => ({ prefix: k.prefix }),
    );
  }

  setProfileStatus(actor: Actor, profileId: string, status: 'Active' | 'Suspended') {
    const action = status === 'Active' ? 'profile.reactivate' : 'profile.suspend';
    return this.audited(
      actor,
      action,
      'profile',
      profileId,
      {},
      () => this.s.profiles.setStatus(profileId, status),
      (r) => r,
    );
  }

  /** The one-time password is returned once and never recorded. */
  createStaff(actor: Actor, email: string, role: StaffRole) {
    return this.audited(
      actor,
      'staff.create',
      'staff',
      email.trim().toLowerCase(),
      { role },
      () => this.s.staff.create(email, role),
      (r) => ({
        staffId: r.account.id,
      }),
    );
  }

  updateStaff(actor: Actor, staffId: string, change: { role?: StaffRole; status?: 'active' | 'disabled' }) {
    return this.audited(actor, 'staff.update', 'staff', staffId, change, () => this.s.staff.update(staffId, change));
  }

  verifyLedger(actor: Actor) {
    return this.audited(
      actor,
      'ledger.verify',
      'ledger',
      null,
      {},
      () => this.s.ledger.verify(),
      (r) => ({
        ok: r.ok,
        wallets: r.wallets,
        entries: r.entries,
        mismatches: r.mismatches.slice(0, 20),
        mismatchCount: r.mismatches.length,
      }),
    );
  }

  /** Sign-ins and sign-outs are recorded like actions. */
  async recordSession(actor: Actor, action: 'staff.login' | 'staff.logout', outcome: 'ok' | 'refused', detail: object | null) {
    const target = { type: 'staff', id: actor.staffId };
    if (outcome === 'refused') return this.s.audit.refused(actor, action, target, detail);
    await this.s.database.unit((tx) => this.s.audit.record(tx, actor, action, target, detail));
  }

  /** A request refused before it reached a service (role, CSRF): recorded with why. */
  recordRefusal(actor: Actor, action: string, recordId: string | null, why: string) {
    return this.s.audit.refused(actor, action, { type: null, id: recordId }, { reason: why });
  }

  private async audited<T>(
    actor: Actor,
    action: AuditAction,
    recordType: string,
    recordId: string | null,
    input: object,
    work: () => Promise<T>,
    result: (value: T) => object = () => ({}),
  ): Promise<T> {
    const target = { type: recordType, id: recordId };
    let value: T;
    try {
      value = await work();
    } catch (error) {
      if (isRefusal(error)) await this.s.audit.refused(actor, action, target, { ...input, reason: error.message });
      throw error;
    }
    await this.s.database.unit((tx) => this.s.audit.record(tx, actor, action, target, { ...input, ...result(value) }));
    return value;
  }
}
