import type { Owner } from '../../domain/caller.js';
import { invalid, notFound } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { toGhs } from '../../lib/money.js';
import { csvField as field, csvText as text } from '../../lib/csv.js';
import type { WalletRepository } from './repository.js';
import {
  TRANSACTIONS_PAGE_DEFAULT,
  TRANSACTIONS_PAGE_MAX,
  type WalletTransaction,
  type WalletTransactionPage,
  type WalletTransactionsQuery,
} from './schemas.js';
import { isLineType, kindsOfTypes, LINE_TYPES, readLines, type LineType, type ReadableLine } from './statement-lines.js';
import type { StatementRange, StatementRepository } from './statement-repository.js';

export const STATEMENT_PAGE = 100;
/** The most lines one export holds (CSV, printable page); a longer history is exported by period. */
export const STATEMENT_EXPORT_MAX = 50_000;

/** A statement in lines (statement-lines.ts): what the console shows and exports. */
export interface StatementQuery {
  profileId: string;
  mode: Mode;
  /** YYYY-MM-DD (UTC), inclusive. */
  from?: string | undefined;
  to?: string | undefined;
  /** Line types shown (empty: every line). */
  types?: readonly string[] | undefined;
  /** The last entry of the page before (a line's lastEntry). */
  after?: number | undefined;
  limit?: number | undefined;
}

export interface Statement {
  profileId: string;
  mode: Mode;
  from: string | null;
  to: string | null;
  types: LineType[];
  /** Available and held before the period and at its end (the wallet's, whatever lines are shown), pesewas. */
  opening: { available: number; held: number };
  closing: { available: number; held: number };
  /**
   * Credits and debits (negative) of the lines shown in the period; `others` is the net of the lines
   * a type filter leaves out (null without one), so opening + credits + debits + others = closing.
   */
  totals: { credits: number; debits: number; others: number | null };
  lines: ReadableLine[];
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

/**
 * A partner's statement (docs/console.md, "Statements"; docs/api.md, "Wallet transactions"): one
 * wallet's lines (statement-lines.ts) with the balance after each, for a period and line types. The
 * closing balance of a statement without an end date is the wallet's balance as `ledger verify`
 * derives it: the sum of its entries.
 */
export class StatementService {
  constructor(
    private readonly wallets: WalletRepository,
    private readonly statements: StatementRepository,
  ) {}

  /** The statement in lines (console page, print and CSV): period (UTC days), line types, paged by line. */
  async statement(q: StatementQuery): Promise<Statement> {
    const wallet = await this.wallets.find({ profileId: q.profileId, mode: q.mode });
    if (!wallet) throw notFound('PROFILE_NOT_FOUND', `profile ${q.profileId} has no ${q.mode} wallet`);
    const from = q.from ? dayStart('from', q.from) : null;
    const to = q.to ? dayStart('to', q.to) + DAY : null;
    if (from !== null && to !== null && to <= from) throw invalid('INVALID_REQUEST', 'from must not be after to');
    const wanted = [...new Set((q.types ?? []).map((t) => t.trim()).filter((t) => t !== ''))];
    const unknown = wanted.filter((t) => !isLineType(t));
    if (unknown.length > 0) throw invalid('INVALID_REQUEST', `unknown line type ${unknown.join(', ')}; one of ${LINE_TYPES.join(', ')}`);
    const types = wanted.filter(isLineType);
    const all: StatementRange = { walletId: wallet.id, from, to, kinds: [] };
    const range: StatementRange = { ...all, kinds: types.length > 0 ? kindsOfTypes(types) : [] };
    const limit = Math.min(Math.max(q.limit ?? STATEMENT_PAGE, 1), STATEMENT_EXPORT_MAX);
    const [page, shown, every, opening, closing] = await Promise.all([
      readLines(this.statements, range, 'asc', q.after ?? null, limit),
      this.statements.totals(range),
      types.length > 0 ? this.statements.totals(all) : null,
      from === null ? { available: 0, held: 0 } : this.statements.balancesBefore(wallet.id, from),
      this.statements.balancesBefore(wallet.id, to),
    ]);
    return {
      profileId: q.profileId,
      mode: q.mode,
      from: q.from?.trim() || null,
      to: q.to?.trim() || null,
      types,
      opening,
      closing,
      totals: {
        credits: shown.credits,
        debits: shown.debits,
        others: every === null ? null : every.credits + every.debits - (shown.credits + shown.debits),
      },
      lines: page.lines,
      next: page.more ? (page.lines[page.lines.length - 1]?.lastEntry ?? null) : null,
    };
  }

  /** GET /api/v1/wallet/transactions: the lines of the key's own wallet, newest first. */
  async transactions(owner: Owner, query: WalletTransactionsQuery): Promise<WalletTransactionPage> {
    const q = parseTransactionsQuery(query);
    const wallet = await this.wallets.find(owner);
    if (!wallet) return { transactions: [], isDone: true, continueCursor: '' };
    const range: StatementRange = { walletId: wallet.id, from: q.from, to: q.to, kinds: [] };
    const page = await readLines(this.statements, range, 'desc', q.before, q.limit);
    const last = page.lines[page.lines.length - 1];
    return {
      transactions: page.lines.map(toTransactionView),
      isDone: !page.more,
      continueCursor: last ? encodeCursor({ createdAt: last.at, id: String(last.firstEntry) }) : (query.cursor ?? ''),
    };
  }
}

/** GET /api/v1/wallet/transactions: unix ms from (inclusive) and to (exclusive), limit, cursor. */
interface TransactionsRequest {
  from: number | null;
  to: number | null;
  limit: number;
  /** Lines before this entry (newest first). */
  before: number | null;
}

function unixMs(name: string, value: string | undefined): number | null {
  if (value === undefined || value.trim() === '') return null;
  const raw = value.trim();
  const ms = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(ms)) throw invalid('INVALID_REQUEST', `${name} must be a time in unix milliseconds (got ${JSON.stringify(value)})`);
  return ms;
}

/** Each bad value is a 400 INVALID_REQUEST; a limit above the most is capped (docs/api.md, "Wallet transactions"). */
export function parseTransactionsQuery(query: WalletTransactionsQuery): TransactionsRequest {
  const from = unixMs('from', query.from);
  const to = unixMs('to', query.to);
  if (from !== null && to !== null && to <= from) throw invalid('INVALID_REQUEST', 'from must be before to');
  let limit = TRANSACTIONS_PAGE_DEFAULT;
  if (query.limit !== undefined && query.limit !== '') {
    const raw = query.limit.trim();
    const value = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw invalid('INVALID_REQUEST', `limit must be an integer from 1 to ${TRANSACTIONS_PAGE_MAX}`);
    }
    limit = Math.min(value, TRANSACTIONS_PAGE_MAX);
  }
  let before: number | null = null;
  if (query.cursor !== undefined && query.cursor !== '') {
    const position = decodeCursor(query.cursor);
    if (!position || !/^\d{1,15}$/.test(position.id)) {
      throw invalid('INVALID_REQUEST', 'cursor is not a continueCursor returned by this endpoint');
    }
    before = Number(position.id);
  }
  return { from, to, limit, before };
}

/** A line at the wire edge: GHS, the partner's words. */
export function toTransactionView(l: ReadableLine): WalletTransaction {
  return {
    id: `txn_${l.firstEntry}`,
    type: l.type,
    createdAt: l.at,
    description: l.description,
    direction: l.amount < 0 ? 'debit' : 'credit',
    amount: toGhs(l.amount),
    balanceAfter: toGhs(l.balanceAfter),
    orderId: l.orderId,
    shortReference: l.shortReference,
    beneficiaryMsisdn: l.beneficiaryMsisdn,
    packageName: l.packageName,
    topUpId: l.topUpId,
    adjustmentId: l.adjustmentId,
  };
}

const money = (pesewas: number) => toGhs(pesewas).toFixed(2);

export const LINES_CSV_HEADER = [
  'date',
  'type',
  'reference',
  'order_id',
  'number',
  'package',
  'description',
  'charge_ghs',
  'refund_or_credit_ghs',
  'balance_ghs',
  'line',
] as const;

/** A statement in lines as CSV, as the console shows it (GHS with two decimals, dates ISO 8601 UTC). */
export function linesCsv(s: Statement): string {
  const rows = [LINES_CSV_HEADER.join(',')];
  for (const l of s.lines) {
    rows.push(
      [
        new Date(l.at).toISOString(),
        l.type,
        l.shortReference ?? l.topUpId ?? l.adjustmentId ?? '',
        l.orderId ?? '',
        l.beneficiaryMsisdn ?? '',
        text(l.packageName ?? ''),
        text(l.description),
        l.amount < 0 ? money(-l.amount) : '',
        l.amount >= 0 ? money(l.amount) : '',
        money(l.balanceAfter),
        `txn_${l.firstEntry}`,
      ]
        .map(field)
        .join(','),
    );
  }
  return `${rows.join('\r\n')}\r\n`;
}
