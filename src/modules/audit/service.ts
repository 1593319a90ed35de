import type { Database } from '../../db/connection.js';
import type { AuditRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Clock } from '../../domain/types.js';
import type { AuditFilter, AuditRepository } from './repository.js';

/**
 * Who does a staff action, as the audit trail records it: a console session (the staff e-mail and
 * the client's address) or the CLI (`cli:<os user>`, no address).
 */
export interface Actor {
  staffId: string | null;
  /** The staff e-mail, or `cli:<os user>`. */
  name: string;
  address: string | null;
}

/** Every action the trail records (docs/console.md, "The audit trail"). */
export const AUDIT_ACTIONS = [
  'topup.approve',
  'topup.approve.first',
  'topup.reject',
  'topup.recheck',
  'order.reverse',
  'order.reverse_recipient',
  'order.retry',
  'order.resolve',
  'key.create',
  'key.revoke',
  'rc.import',
  'rc.refund',
  'profile.suspend',
  'profile.reactivate',
  'staff.create',
  'staff.update',
  'staff.reset_password',
  'staff.change_password',
  'staff.login',
  'staff.logout',
  'staff.totp_enable',
  'staff.totp_disable',
  'staff.totp_reset',
  'staff.recovery_code_used',
  'staff.recovery_codes_regenerate',
  'staff.request',
  'staff.request.approve',
  'staff.request.reject',
  'ledger.verify',
  'webhook.disable',
  'webhook.enable',
  'webhook.redeliver',
  'package.update',
  'package.routes.set',
  'reconciliation.run',
  'reconciliation.resolve',
  'profile.create',
  'profile.update',
  'wallet.adjust',
  'wallet.adjust.approve',
  'wallet.adjust.reject',
  'operator.network',
  'import.operator',
  'import.product',
  'import.package',
  'import.rc_package',
  'import.profile',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The record an action is about. */
export interface AuditTarget {
  type: string | null;
  id: string | null;
}

export interface AuditEntry {
  id: number;
  at: number;
  actor: string;
  action: string;
  recordType: string | null;
  recordId: string | null;
  address: string | null;
  outcome: 'ok' | 'refused';
  detail: Record<string, unknown> | null;
}

/**
 * The audit trail of staff actions. A done action is recorded by the service that does it, inside
 * the unit of work that makes the change (`record`): the row commits with the change or neither
 * does. A refused action changed nothing, so its row is a unit of its own (`refused`). Details
 * carry amounts in GHS, never a secret.
 */
export class AuditTrail {
  constructor(
    private readonly database: Database,
    private readonly rows: AuditRepository,
    private readonly clock: Clock,
  ) {}

  /** Records a done action in the unit `tx` that makes it. */
  async record(tx: Tx, actor: Actor, action: AuditAction, target: AuditTarget, detail: object | null = null): Promise<void> {
    await this.rows.append(tx, this.row(actor, action, target, 'ok', detail));
  }

  /** Records an action that was refused (nothing changed), with why. */
  async refused(actor: Actor, action: string, target: AuditTarget, detail: object | null): Promise<void> {
    await this.database.unit((tx) => this.rows.append(tx, this.row(actor, action, target, 'refused', detail)));
  }

  async list(filter: AuditFilter): Promise<AuditEntry[]> {
    return (await this.rows.list(filter)).map(toAuditEntry);
  }

  private row(actor: Actor, action: string, target: AuditTarget, outcome: 'ok' | 'refused', detail: object | null) {
    return {
      staffId: actor.staffId,
      actor: actor.name,
      action,
      recordType: target.type,
      recordId: target.id,
      address: actor.address,
      outcome,
      detail,
      now: this.clock(),
    };
  }
}

function toAuditEntry(row: AuditRow): AuditEntry {
  let detail: Record<string, unknown> | null = null;
  try {
    detail = row.detail === null ? null : (JSON.parse(row.detail) as Record<string, unknown>);
  } catch {
    detail = { text: row.detail };
  }
  return {
    id: Number(row.id),
    at: Number(row.created_at),
    actor: row.actor,
    action: row.action,
    recordType: row.record_type,
    recordId: row.record_id,
    address: row.address,
    outcome: row.outcome,
    detail,
  };
}
