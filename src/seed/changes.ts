import type { Tx } from '../db/unit-of-work.js';
import type { Actor, AuditAction, AuditTrail } from '../modules/audit/service.js';
import type { WireRoute } from '../modules/package-routes/schemas.js';

/**
 * What an import does to the records a seed file names (docs/seed-import.md, "What an import
 * changes"): `--dry-run` prints these lines and writes nothing; a real import prints them, applies
 * the created and changed ones and records each changed record in the audit trail.
 */

export type ImportRecord = 'operator' | 'product' | 'data package' | 'result-checker package' | 'profile';

/** One field of a record: its value before and after, as people read them (amounts in GHS). */
export interface FieldChange {
  field: string;
  before: FieldValue;
  after: FieldValue;
}

/** A field's value: text, a number, a flag, nothing, a GHS amount or a list of routes. */
export type FieldValue = string | number | boolean | null | { ghs: number } | { routes: WireRoute[] };

export type ImportChange =
  | { kind: 'created'; record: ImportRecord; id: string }
  | { kind: 'changed'; record: ImportRecord; id: string; change: FieldChange }
  /** Left as it is: the import may not make this change without `option`. */
  | { kind: 'skipped'; record: ImportRecord; id: string; change: FieldChange; option: string };

/** The staff-controlled changes an import makes only when the command names them. */
export interface ImportPermissions {
  /** Profiles whose status may go from not active to Active. */
  reactivate: readonly string[];
  /** A profile's role may change. */
  allowRoleChange: boolean;
  /** An existing profile may get API keys it does not have. */
  addKeys: boolean;
}

export const NO_PERMISSIONS: ImportPermissions = { reactivate: [], allowRoleChange: false, addKeys: false };

function same(a: FieldValue, b: FieldValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of `before` and `after` that differ, in `after`'s order; a field `after` leaves undefined keeps its value. */
export function fieldChanges(before: Record<string, FieldValue>, after: Record<string, FieldValue | undefined>): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const was = before[field] ?? null;
    if (!same(was, value)) changes.push({ field, before: was, after: value });
  }
  return changes;
}

function routeText(r: WireRoute): string {
  const cost = r.cost === undefined ? '' : ` (cost GHS ${r.cost.toFixed(2)})`;
  switch (r.provider) {
    case 'hubtel':
      return `hubtel ${r.bundle} GHS ${r.amount.toFixed(2)}${cost}`;
    case 'reloadly':
      return `reloadly operator ${r.operatorId} GHS ${r.amount.toFixed(2)}${cost}`;
    case 'dtone':
      return `dtone product ${r.productId}${cost}`;
    case 'sandbox':
      return `sandbox${cost}`;
  }
}

export function valueText(value: FieldValue): string {
  if (value === null) return 'none';
  if (typeof value === 'object') {
    if ('ghs' in value) return `GHS ${value.ghs.toFixed(2)}`;
    return value.routes.length === 0 ? 'no routes' : value.routes.map(routeText).join(', ');
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** One line per change: `change data package pkg_a price: GHS 6.00 → GHS 0.01`. */
export function changeLine(c: ImportChange): string {
  if (c.kind === 'created') return `create ${c.record} ${c.id}`;
  const what = `${c.record} ${c.id} ${c.change.field}: ${valueText(c.change.before)} → ${valueText(c.change.after)}`;
  return c.kind === 'changed' ? `change ${what}` : `skip ${what} (not applied without ${c.option})`;
}

/** A value as the audit trail records it: amounts as GHS numbers, routes in their wire form. */
function auditValue(value: FieldValue): unknown {
  if (value !== null && typeof value === 'object') return 'ghs' in value ? value.ghs : value.routes;
  return value;
}

/** The audit detail of one record's changes: `{ source, before: {field…}, after: {field…}, skipped? }`. */
export function auditDetail(changed: FieldChange[], skipped: FieldChange[]): object {
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const c of changed) {
    before[c.field] = auditValue(c.before);
    after[c.field] = auditValue(c.after);
  }
  return { source: 'import', before, after, ...(skipped.length ? { skipped: skipped.map((c) => c.field) } : {}) };
}

/** The audit action and record type of each kind of record an import changes. */
const AUDITED: Record<ImportRecord, { action: AuditAction; type: string }> = {
  operator: { action: 'import.operator', type: 'operator' },
  product: { action: 'import.product', type: 'product' },
  'data package': { action: 'import.package', type: 'data_package' },
  'result-checker package': { action: 'import.rc_package', type: 'rc_package' },
  profile: { action: 'import.profile', type: 'profile' },
};

/**
 * The changes of one import, in the order they are made. A changed record's audit row (by the
 * importing actor, before and after) is written in the import's unit of work, with the change.
 */
export class ChangeLog {
  readonly changes: ImportChange[] = [];

  constructor(
    private readonly audit: AuditTrail,
    private readonly actor: Actor,
  ) {}

  created(record: ImportRecord, id: string): void {
    this.changes.push({ kind: 'created', record, id });
  }

  async changed(tx: Tx, record: ImportRecord, id: string, changed: FieldChange[], skipped: { change: FieldChange; option: string }[] = []): Promise<void> {
    for (const change of changed) this.changes.push({ kind: 'changed', record, id, change });
    for (const s of skipped) this.changes.push({ kind: 'skipped', record, id, change: s.change, option: s.option });
    if (changed.length === 0) return;
    const { action, type } = AUDITED[record];
    await this.audit.record(tx, this.actor, action, { type, id }, auditDetail(changed, skipped.map((s) => s.change)));
  }
}
