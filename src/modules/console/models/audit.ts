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
  /** The details as JSON. */
  detail: string;
}

export interface AuditView {
  lines: AuditLine[];
  filter: { action: string };
  /** The next page's address, when there may be one. */
  older: string | null;
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
      detail: e.detail ? JSON.stringify(e.detail) : '',
    })),
    filter: { action },
    older,
  };
}
