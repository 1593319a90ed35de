import type { FindingKind } from '../../db/schema.js';
import { formatGhs } from '../../lib/money.js';
import type { Route, UpstreamRecord } from '../../providers/types.js';
import type { OurAttempt } from './repository.js';

/**
 * What reconciliation compares (docs/live-delivery.md, "Reconciliation"): one of our attempts with
 * the upstream's record of it. Pure: the service reads both sides and stores what this finds.
 */

/** Our side as a finding shows it (JSON in the finding row). */
export interface OurSide {
  status: string;
  transactionId: string | null;
  /** GHS, as the route asked (Hubtel, Reloadly), or null. */
  amount: string | null;
  cost: string | null;
  createdAt: string;
}

/** The upstream's side as a finding shows it. */
export interface TheirSide {
  status: string;
  state: UpstreamRecord['state'] | 'absent';
  transactionId: string | null;
  amount: string | null;
  cost: string | null;
  at: string | null;
}

/** Statuses of ours that mean the upstream took the attempt: it must know it. */
const TAKEN = new Set(['accepted', 'completed']);

export function routeOfAttempt(attempt: Pick<OurAttempt, 'route'>): Route {
  return JSON.parse(attempt.route) as Route;
}

/** What the route asked the upstream for (pesewas), when the route names an amount. */
export function askedAmount(attempt: Pick<OurAttempt, 'route'>): number | null {
  const route = routeOfAttempt(attempt);
  return route.provider === 'hubtel' || route.provider === 'reloadly' ? route.amount : null;
}

export function ourSide(attempt: OurAttempt): OurSide {
  const amount = askedAmount(attempt);
  return {
    status: attempt.status,
    transactionId: attempt.provider_transaction_id,
    amount: amount === null ? null : formatGhs(amount),
    cost: attempt.cost === null ? null : formatGhs(attempt.cost),
    createdAt: new Date(attempt.created_at).toISOString(),
  };
}

export function theirSide(record: UpstreamRecord | null): TheirSide {
  if (record === null) return { status: 'no record', state: 'absent', transactionId: null, amount: null, cost: null, at: null };
  return {
    status: record.status,
    state: record.state,
    transactionId: record.transactionId,
    amount: record.amount === null ? null : formatGhs(record.amount),
    cost: record.cost === null ? null : formatGhs(record.cost),
    at: record.at === null ? null : new Date(record.at).toISOString(),
  };
}

/** Whether the upstream must have a record of this attempt (it took it, by our records). */
export function expectedThere(attempt: Pick<OurAttempt, 'status' | 'provider_transaction_id'>): boolean {
  return TAKEN.has(attempt.status) || (attempt.status === 'failed' && attempt.provider_transaction_id !== null);
}

/**
 * The difference between our attempt and the upstream's record of it, or null when they agree (or
 * one side is still in flight: the worker follows it). `record` null: the upstream has none.
 */
export function differenceOf(attempt: OurAttempt, record: UpstreamRecord | null): FindingKind | null {
  if (record === null) return expectedThere(attempt) ? 'missing-there' : null;
  // An attempt a lookup proved absent was given up on (or submitted again, which moves its status):
  // the upstream delivering it after all is a bundle the delivery did not count.
  const given = attempt.status === 'failed' || attempt.status === 'refused' || attempt.status === 'absent';
  const ours = attempt.status === 'completed' ? 'completed' : given ? 'failed' : 'open';
  if (record.state === 'delivered' && ours === 'failed') return 'delivered-there-failed-here';
  if (record.state === 'failed' && ours === 'completed') return 'failed-there-completed-here';
  if (record.state === 'delivered' && ours === 'completed') {
    const asked = askedAmount(attempt);
    if (record.amount !== null && asked !== null && record.amount !== asked) return 'amount-differs';
    if (record.cost !== null && attempt.cost !== null && record.cost !== attempt.cost) return 'amount-differs';
  }
  return null;
}

/** The words the CLI and the console print for each kind. */
export const KIND_WORDS: Record<FindingKind, string> = {
  'delivered-there-failed-here': 'delivered there, failed here',
  'failed-there-completed-here': 'failed there, completed here',
  'unknown-here': 'unknown here',
  'missing-there': 'missing there',
  'amount-differs': 'amount differs',
};

/** A finding's two sides as stored (OurSide, TheirSide: null when that side has no record). */
interface Sides {
  kind: FindingKind;
  provider: string;
  ours: Record<string, unknown> | null;
  theirs: Record<string, unknown> | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * Both sides of a finding in words, ours first: the amounts that differ (`ours GHS 10.00, reloadly
 * GHS 12.34`), or for every other kind the two states (`ours completed, hubtel failed (Refunded)`:
 * the upstream's state, and its own word for it when that is another).
 */
export function sidesInWords(f: Sides): string {
  if (f.kind === 'amount-differs') {
    const differing = (['amount', 'cost'] as const).flatMap((field) => {
      const [ours, theirs] = [text(f.ours?.[field]), text(f.theirs?.[field])];
      if (ours === null || theirs === null || ours === theirs) return [];
      const label = field === 'cost' ? 'cost ' : '';
      return [`ours ${label}${ours}, ${f.provider} ${label}${theirs}`];
    });
    if (differing.length > 0) return differing.join('; ');
  }
  const ours = f.ours === null ? 'no record' : (text(f.ours.status) ?? '-');
  return `ours ${ours}, ${f.provider} ${theirState(f.theirs)}`;
}

function theirState(theirs: Record<string, unknown> | null): string {
  const state = text(theirs?.state);
  const status = text(theirs?.status);
  if (theirs === null || state === 'absent') return 'no record';
  if (state === null) return status ?? '-';
  return status === null || status.toLowerCase() === state ? state : `${state} (${status})`;
}
