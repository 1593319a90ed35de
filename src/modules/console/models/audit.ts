import type { AuditEntry } from '../../audit/service.js';
import { at } from './frame.js';
import { partnerRef, type PartnerRef } from './listing.js';

export interface AuditLine {
  id: number;
  at: string;
  actor: string;
  address: string;
  action: string;
  /** `<type> <id>`. */
  record: string;
  /** The partner the action concerns (its profile, or the one its details name), if any. */
  partner: PartnerRef | null;
  outcome: 'ok' | 'refused';
  /** The details as JSON, amounts in GHS. */
  detail: string;
}

export interface AuditView {
  lines: AuditLine[];
  filter: { action: string };
  /** The next page's address, when there may be one. */
  older: string | null;
}

/**
 * The detail fields that are amounts, per action: the services record them as GHS numbers (like the
 * API's wire), shown here as "GHS 40.00" like every amount of the console.
 */
const AMOUNTS_IN_DETAIL: Record<string, readonly string[]> = {
  'topup.approve': ['amount'],
  'topup.approve.first': ['amount'],
  'topup.reject': ['amount'],
  'order.reverse': ['refunded'],
  'order.reverse_recipient': ['refunded'],
  'rc.refund': ['refunded'],
};

/** Amounts at any depth of the detail (before/after of a package or its routes): by key, every value of the key when it holds an object. */
const NESTED_AMOUNTS_IN_DETAIL: Record<string, readonly string[]> = {
  'package.update': ['price', 'rolePrices'],
  'package.routes.set': ['amount', 'cost'],
  // An import's changes (src/seed/changes.ts): prices, role prices and routes, a new wallet's opening balance.
  'import.package': ['price', 'rolePrices.Agent', 'rolePrices.SuperAgent', 'rolePrices.Customer', 'rolePrices.Staff', 'amount', 'cost'],
  'import.rc_package': ['price', 'rolePrices.Agent', 'rolePrices.SuperAgent', 'rolePrices.Customer', 'rolePrices.Staff'],
  'import.profile': ['wallet.live', 'wallet.test'],
};

const asGhs = (value: number) => `GHS ${value.toFixed(2)}`;

/** `value` with every number under an amount key shown as GHS. */
function nestedAmounts(value: unknown, keys: readonly string[], isAmount = false): unknown {
  if (typeof value === 'number') return isAmount ? asGhs(value) : value;
  if (Array.isArray(value)) return value.map((v) => nestedAmounts(v, keys, isAmount));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nestedAmounts(v, keys, isAmount || keys.includes(k))]));
  }
  return value;
}

function detailText(e: AuditEntry): string {
  if (!e.detail) return '';
  const nested = NESTED_AMOUNTS_IN_DETAIL[e.action];
  if (nested) return JSON.stringify(nestedAmounts(e.detail, nested));
  const money = AMOUNTS_IN_DETAIL[e.action] ?? [];
  const shown = Object.fromEntries(
    Object.entries(e.detail).map(([key, value]) => [key, money.includes(key) && typeof value === 'number' ? asGhs(value) : value]),
  );
  return JSON.stringify(shown);
}

/** The profile an entry concerns: its record when that is a profile, else the profileId of its details. */
export function partnerOfEntry(e: AuditEntry): string | null {
  if (e.recordType === 'profile' && e.recordId) return e.recordId;
  const named = e.detail?.profileId;
  return typeof named === 'string' && named !== '' ? named : null;
}

export function auditView(entries: AuditEntry[], action: string, pageSize: number, names: ReadonlyMap<string, string> = new Map()): AuditView {
  const last = entries.at(-1);
  const older =
    entries.length === pageSize && last
      ? `/console/audit?before=${last.id}${action ? `&action=${encodeURIComponent(action)}` : ''}`
      : null;
  return {
    lines: entries.map((e) => ({
      id: e.id,
      at: at(e.at),
      actor: e.actor,
      address: e.address ?? '',
      action: e.action,
      record: `${e.recordType ?? ''} ${e.recordId ?? ''}`,
      partner: ((id) => (id === null ? null : partnerRef(id, names)))(partnerOfEntry(e)),
      outcome: e.outcome,
      detail: detailText(e),
    })),
    filter: { action },
    older,
  };
}
