import type { Database } from '../../db/connection.js';
import type { AuditRow } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';

export interface NewAuditRow {
  staffId: string | null;
  actor: string;
  action: string;
  recordType: string | null;
  recordId: string | null;
  address: string | null;
  outcome: 'ok' | 'refused';
  detail: object | null;
  now: number;
}

export interface AuditFilter {
  action?: string | undefined;
  actor?: string | undefined;
  recordId?: string | undefined;
  /** Rows with a smaller id (the next page). */
  beforeId?: number | undefined;
  limit: number;
}

/** The audit trail's table: append-only (the database refuses updates and deletes, migration 0010). */
export class AuditRepository {
  constructor(private readonly database: Database) {}

  async append(tx: Tx, e: NewAuditRow): Promise<void> {
    await tx.execute(
      tx.qb.insertInto('audit_log').values({
        staff_id: e.staffId,
        actor: e.actor,
        action: e.action,
        record_type: e.recordType,
        record_id: e.recordId,
        address: e.address,
        outcome: e.outcome,
        detail: e.detail === null ? null : JSON.stringify(e.detail),
        created_at: e.now,
      }),
    );
  }

  async list(f: AuditFilter): Promise<AuditRow[]> {
    let query = this.database.read.selectFrom('audit_log').selectAll();
    if (f.action !== undefined) query = query.where('action', '=', f.action);
    if (f.actor !== undefined) query = query.where('actor', '=', f.actor);
    if (f.recordId !== undefined) query = query.where('record_id', '=', f.recordId);
    if (f.beforeId !== undefined) query = query.where('id', '<', f.beforeId);
    const rows = await query.orderBy('id', 'desc').limit(f.limit).execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), created_at: Number(r.created_at) }));
  }
}
