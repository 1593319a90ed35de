import type { LedgerKind } from '../../db/schema.js';
import { invalid, notFound } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { toGhs } from '../../lib/money.js';
import { ADJUSTMENT_KEY_PREFIX, LEDGER_KINDS, RC_BULK_DEBIT_PREFIX } from './postings.js';
import type { WalletRepository } from './repository.js';
import type { StatementRange, StatementRepository } from './statement-repository.js';

export const STATEMENT_PAGE = 100;
/** The most entries one export holds (CSV, printable page); a longer history is exported by period. */
export const STATEMENT_EXPORT_MAX = 50_000;

export interface StatementQuery {
  profileId: string;
  mode: Mode;
  /** YYYY-MM-DD (UTC), inclusive. */
  from?: string | undefined;
  /** YYYY-MM-DD (UTC), inclusive. */
  to?: string | undefined;
  kinds?: readonly string[] | undefined;
  /** The last entry id of the page before. */
  after?: number | undefined;
  limit?: number | undefined;
}

/** What a statement line is about: the record that caused it. */
export type StatementSource =
  | { type: 'order'; id: string }
  | { type: 'rc_sale'; id: string }
  | { type: 'rc_bulk'; id: string }
  | { type: 'top_up'; id: string }
  | { type: 'adjustment'; id: string }
  | { type: 'opening'; id: null };

export interface StatementLine {
  id: number;
  at: number;
  kind: LedgerKind;
  memo: string;
  source: StatementSource;
  /** Pesewas. */
  availableDelta: number;
  heldDelta: number;
  availableAfter: number;
  heldAfter: number;
}

export interface Statement {
  profileId: string;
  mode: Mode;
  from: string | null;
  to: string | null;
  kinds: LedgerKind[];
  /** Balances before the period and at its end (every kind: they are the wallet's), pesewas. */
  opening: { available: number; held: number };
  closing: { available: number; held: number };
  /** Of the period's entries of the chosen kinds. */
  totals: { entries: number; credits: number; debits: number; held: number };
  lines: StatementLine[];
  /** The `after` of the next page, or null on the last. */
  next: number | null;
}

const DAY = 86_400_000;

/** A day as YYYY-MM-DD, UTC: its first millisecond. */
function dayStart(name: string, value: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  const ms = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : Number.NaN;
  if (!match || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value.trim()) {
    throw invalid('INVALID_REQUEST', `${name} must be a date as YYYY-MM-DD (got ${JSON.stringify(value)})`);
  }
  return ms;
}

function sourceOf(e: { order_id: string | null; rc_transaction_id: string | null; top_up_id: string | null; idempotency_key: string | null }): StatementSource {
  const key = e.idempotency_key ?? '';
  if (e.rc_transaction_id !== null) return { type: 'rc_sale', id: e.rc_transaction_id };
  if (e.order_id !== null) return { type: 'order', id: e.order_id };
  if (e.top_up_id !== null) return { type: 'top_up', id: e.top_up_id };
  if (key.startsWith(ADJUSTMENT_KEY_PREFIX)) return { type: 'adjustment', id: key.slice(ADJUSTMENT_KEY_PREFIX.length) };
  if (key.startsWith(RC_BULK_DEBIT_PREFIX)) return { type: 'rc_bulk', id: key.slice(RC_BULK_DEBIT_PREFIX.length) };
  return { type: 'opening', id: null };
}

/**
 * A partner's statement (docs/console.md, "Statements"): one wallet's ledger entries in order with
 * the balances after each, for a period (UTC days) and kinds, paged by entry. The closing balance
 * of a statement without an end date is the wallet's balance as `ledger verify` derives it: the sum
 * of its entries.
 */
export class StatementService {
  constructor(
    private readonly wallets: WalletRepository,
    private readonly statements: StatementRepository,
  ) {}

  async statement(q: StatementQuery): Promise<Statement> {
    const wallet = await this.wallets.find({ profileId: q.profileId, mode: q.mode });
    if (!wallet) throw notFound('PROFILE_NOT_FOUND', `profile ${q.profileId} has no ${q.mode} wallet`);
    const from = q.from ? dayStart('from', q.from) : null;
    const to = q.to ? dayStart('to', q.to) + DAY : null;
    if (from !== null && to !== null && to <= from) throw invalid('INVALID_REQUEST', 'from must not be after to');
    const known = new Set<string>(LEDGER_KINDS);
    const kinds = [...new Set((q.kinds ?? []).map((k) => k.trim()).filter((k) => k !== ''))];
    const unknown = kinds.filter((k) => !known.has(k));
    if (unknown.length > 0) throw invalid('INVALID_REQUEST', `unknown kind ${unknown.join(', ')}; one of ${LEDGER_KINDS.join(', ')}`);
    const range: StatementRange = { walletId: wallet.id, from, to, kinds: kinds as LedgerKind[] };
    const limit = Math.min(Math.max(q.limit ?? STATEMENT_PAGE, 1), STATEMENT_EXPORT_MAX);
    const [rows, totals, opening, closing] = await Promise.all([
      this.statements.entries(range, q.after ?? 0, limit + 1),
      this.statements.totals(range),
      from === null ? { available: 0, held: 0 } : this.statements.balancesBefore(wallet.id, from),
      this.statements.balancesBefore(wallet.id, to),
    ]);
    const page = rows.slice(0, limit);
    return {
      profileId: q.profileId,
      mode: q.mode,
      from: q.from?.trim() || null,
      to: q.to?.trim() || null,
      kinds: range.kinds.slice(),
      opening,
      closing,
      totals,
      lines: page.map((e) => ({
        id: Number(e.id),
        at: Number(e.created_at),
        kind: e.kind,
        memo: e.memo ?? '',
        source: sourceOf(e),
        availableDelta: Number(e.available_delta),
        heldDelta: Number(e.held_delta),
        availableAfter: Number(e.available_after),
        heldAfter: Number(e.held_after),
      })),
      next: rows.length > limit ? Number(page[page.length - 1]?.id) : null,
    };
  }
}

/** One CSV field (RFC 4180). */
function field(value: string | number): string {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const STATEMENT_CSV_HEADER = [
  'entry',
  'date',
  'kind',
  'description',
  'source',
  'source_id',
  'available_change_ghs',
  'held_change_ghs',
  'available_after_ghs',
  'held_after_ghs',
] as const;

const money = (pesewas: number) => toGhs(pesewas).toFixed(2);

/** The statement's lines as CSV (GHS with two decimals, dates ISO 8601 UTC), a header first. */
export function statementCsv(s: Statement): string {
  const lines = [STATEMENT_CSV_HEADER.join(',')];
  for (const l of s.lines) {
    lines.push(
      [
        l.id,
        new Date(l.at).toISOString(),
        l.kind,
        // Free text a spreadsheet would run as a formula is shown with a leading '.
        /^[=+\-@\t\r]/.test(l.memo) ? `'${l.memo}` : l.memo,
        l.source.type,
        l.source.id ?? '',
        money(l.availableDelta),
        money(l.heldDelta),
        money(l.availableAfter),
        money(l.heldAfter),
      ]
        .map(field)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}
