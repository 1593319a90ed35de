import type { AuditEntry } from '../../audit/service.js';
import { at } from './frame.js';

export interface AuditLine {
  id: number;
  at: string;
  actor: string;
  address: string;
  action: string;
  /** `<type> <id>`. */
  record: string;
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
  'topup.reject': ['amount'],
  'order.reverse': ['refunded'],
};

function detailText(e: AuditEntry): string {
  if (!e.detail) return '';
  const money = AMOUNTS_IN_DETAIL[e.action] ?? [];
  const shown = Object.fromEntries(
    Object.entries(e.detail).map(([key, value]) => [key, money.includes(key) && typeof value === 'number' ? `GHS ${value.toFixed(2)}` : value]),
  );
  return JSON.stringify(shown);
}

export function auditView(entries: AuditEntry[], action: string, pageSize: number): AuditView {
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
      outcome: e.outcome,
      detail: detailText(e),
    })),
    filter: { action },
    older,
  };
}
