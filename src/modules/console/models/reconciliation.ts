import type { ReconciliationRunRow, StaffRole } from '../../../db/schema.js';
import { KIND_WORDS } from '../../reconciliation/compare.js';
import type { Finding } from '../../reconciliation/service.js';
import { mayAct } from '../service.js';
import { at } from './frame.js';

export interface RunLine {
  id: string;
  provider: string;
  window: string;
  trigger: string;
  status: string;
  /** `120 attempts, 121 upstream records, 2 findings`. */
  counts: string;
  finished: string;
  error: string;
}

/** One side of a finding as `key: value` pairs, in the order stored. */
export type Side = [string, string][];

export interface FindingLine {
  id: string;
  provider: string;
  kind: string;
  orderId: string | null;
  shortReference: string;
  reference: string;
  transactionId: string;
  ours: Side;
  theirs: Side;
  found: string;
  resolved: boolean;
  /** `<when> by <who>: <note>`, or empty. */
  resolution: string;
}

export interface ReconciliationView {
  runs: RunLine[];
  findings: FindingLine[];
  unresolved: number;
  /** Upstreams an admin may ask a run of (enabled here). */
  upstreams: string[];
  canRun: boolean;
  canResolve: boolean;
  /** The default window of the run form: the day before (UTC). */
  defaultFrom: string;
  defaultTo: string;
}

function side(value: Record<string, unknown> | null): Side {
  if (value === null) return [];
  return Object.entries(value).map(([key, v]) => [key, v === null || v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v)]);
}

function runLine(run: ReconciliationRunRow): RunLine {
  return {
    id: run.id,
    provider: run.provider,
    window: `${at(run.window_from)} → ${at(run.window_to)}`,
    trigger: run.requested_by ? `${run.trigger} (${run.requested_by})` : run.trigger,
    status: run.status,
    counts: `${run.attempts_checked} attempts, ${run.upstream_records} upstream records, ${run.findings} findings`,
    finished: at(run.finished_at),
    error: run.error ?? '',
  };
}

export function findingLine(f: Finding): FindingLine {
  return {
    id: f.id,
    provider: f.provider,
    kind: KIND_WORDS[f.kind],
    orderId: f.orderId,
    shortReference: f.shortReference ?? f.orderId ?? '—',
    reference: f.reference ?? '—',
    transactionId: f.transactionId ?? '—',
    ours: side(f.ours),
    theirs: side(f.theirs),
    found: at(f.foundAt),
    resolved: f.resolvedAt !== null,
    resolution: f.resolvedAt === null ? '' : `${at(f.resolvedAt)} by ${f.resolvedBy ?? '?'}: ${f.note ?? ''}`,
  };
}

const DAY_MS = 86_400_000;

export function reconciliationView(
  data: { runs: ReconciliationRunRow[]; findings: Finding[]; enabled: string[] },
  role: StaffRole,
  now: number,
): ReconciliationView {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return {
    runs: data.runs.map(runLine),
    findings: data.findings.map(findingLine),
    unresolved: data.findings.filter((f) => f.resolvedAt === null).length,
    upstreams: data.enabled,
    canRun: mayAct(role, 'admin'),
    canResolve: mayAct(role, 'admin'),
    defaultFrom: new Date(today - DAY_MS).toISOString().slice(0, 19) + 'Z',
    defaultTo: new Date(today).toISOString().slice(0, 19) + 'Z',
  };
}
