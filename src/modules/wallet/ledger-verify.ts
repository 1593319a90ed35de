import type { Database } from '../../db/connection.js';
import type { Tx } from '../../db/unit-of-work.js';
import { formatGhs } from '../../lib/money.js';
import { ADJUSTMENT_KEY_PREFIX, ADJUSTMENT_MEMO_PREFIX, LEDGER_KINDS } from './postings.js';
import type { WalletRepository } from './repository.js';

/**
 * `cli ledger verify` (docs/cli.md, ledger verify): balances are derivable from the ledger, and the ledger agrees
 * with the records that caused it. Each module contributes its own checks (the composition root
 * lists them); each returns one message per mismatch (empty = fine).
 */
export type LedgerCheck = (tx: Tx) => Promise<string[]>;

export interface LedgerReport {
  ok: boolean;
  wallets: number;
  entries: number;
  mismatches: string[];
}

/** Every wallet's balances equal the sums of its ledger entries, and its entries in order replay its history. */
export function walletsMatchLedger(wallets: WalletRepository): LedgerCheck {
  return async (tx) => {
    const problems: string[] = [];
    for (const w of await wallets.ledgerTotals(tx)) {
      const owner = `wallet ${w.id} (${w.profile_id}/${w.mode})`;
      if (Number(w.available) !== Number(w.ledger_available)) {
        problems.push(
          `${owner}: available ${formatGhs(Number(w.available))} but its ledger sums to ${formatGhs(Number(w.ledger_available))}`,
        );
      }
      if (Number(w.held) !== Number(w.ledger_held)) {
        problems.push(`${owner}: held ${formatGhs(Number(w.held))} but its ledger sums to ${formatGhs(Number(w.ledger_held))}`);
      }
    }
    for (const e of await wallets.brokenRunningBalances(tx)) {
      problems.push(
        `wallet ${e.wallet_id}: ledger entry ${e.id} says available ${formatGhs(Number(e.available_after))}, held ${formatGhs(Number(e.held_after))} after it, ` +
          `but the entry before it left ${formatGhs(Number(e.previous_available))}, ${formatGhs(Number(e.previous_held))} and it moved ${formatGhs(Number(e.available_delta))}, ${formatGhs(Number(e.held_delta))}`,
      );
    }
    return problems;
  };
}

/** Every entry is of a kind some check here knows: an entry of an unknown kind is money nobody verifies. */
export function ledgerKindsKnown(wallets: WalletRepository): LedgerCheck {
  return async (tx) => {
    const known = new Set<string>(LEDGER_KINDS);
    return (await wallets.entriesByKind(tx))
      .filter((k) => !known.has(k.kind))
      .map((k) => {
        const entries = Number(k.entries) === 1 ? '1 ledger entry is' : `${Number(k.entries)} ledger entries are`;
        return `${entries} of kind ${k.kind}, which ledger verify does not know`;
      });
  };
}

/**
 * A staff adjustment is a source of money of its own (the wallet totals above include it): each
 * moves available only, names no order, sale or top-up, and carries a reason and an adjustment key,
 * as postings.adjustmentCredit/adjustmentDebit make it (src/modules/wallet/postings.ts). The key is
 * unique because every ledger key is (ledger_entries.idempotency_key, src/db/migrations/0001_initial.ts).
 */
export function adjustmentsWellFormed(wallets: WalletRepository): LedgerCheck {
  return async (tx) => {
    const problems: string[] = [];
    for (const e of await wallets.adjustmentEntries(tx)) {
      const entry = `adjustment: ledger entry ${e.id} on wallet ${e.wallet_id}`;
      if (Number(e.held_delta) !== 0) {
        problems.push(`${entry} moves held funds (${formatGhs(Number(e.held_delta))}); an adjustment moves available only`);
      }
      if (Number(e.available_delta) === 0) problems.push(`${entry} moves nothing`);
      const reason = e.memo?.startsWith(ADJUSTMENT_MEMO_PREFIX) ? e.memo.slice(ADJUSTMENT_MEMO_PREFIX.length).trim() : '';
      if (reason === '') problems.push(`${entry} has no reason (memo ${JSON.stringify(e.memo)})`);
      const key = e.idempotency_key ?? '';
      if (!key.startsWith(ADJUSTMENT_KEY_PREFIX) || key.length === ADJUSTMENT_KEY_PREFIX.length) {
        problems.push(`${entry} has key ${JSON.stringify(e.idempotency_key)}, not ${ADJUSTMENT_KEY_PREFIX}<adjustment id>`);
      }
      const names = [
        ['order', e.order_id],
        ['order item', e.order_item_id],
        ['result-checker transaction', e.rc_transaction_id],
        ['top-up', e.top_up_id],
      ].filter(([, id]) => id !== null);
      if (names.length > 0) {
        problems.push(`${entry} names ${names.map(([what, id]) => `${what} ${id}`).join(', ')}; an adjustment stands on its own`);
      }
    }
    return problems;
  };
}

/**
 * A module's per-wallet check (rows from walletNetsAgainstRecords): its ledger net on each wallet is
 * `sign` times the total of its records there (-1 when they are debits). One message per wallet that
 * is not: `<module>: wallet <id> (<owner>/<mode>) <net words> GHS … but <records words> GHS …`.
 */
export function walletNetsAgainstRecordsProblems(
  rows: readonly { id: string; profile_id: string; mode: string; ledger_net: number | null; records_total: number | null }[],
  check: { module: string; net: string; records: string; sign: 1 | -1 },
): string[] {
  return rows.flatMap((w) => {
    const net = Number(w.ledger_net ?? 0);
    const total = Number(w.records_total ?? 0);
    if (net === check.sign * total) return [];
    return [`${check.module}: wallet ${w.id} (${w.profile_id}/${w.mode}) ${check.net} ${formatGhs(net)} but ${check.records} ${formatGhs(total)}`];
  });
}

export class LedgerVerifier {
  constructor(
    private readonly database: Database,
    private readonly wallets: WalletRepository,
    private readonly checks: readonly LedgerCheck[],
  ) {}

  /** Runs every check on one consistent snapshot (PostgreSQL: REPEATABLE READ; SQLite: one read transaction). */
  async verify(): Promise<LedgerReport> {
    return this.database.snapshot(async (tx) => {
      const wallets = (await this.wallets.ledgerTotals(tx)).length;
      const entries = await this.wallets.countLedgerEntries(tx);
      const mismatches: string[] = [];
      for (const check of this.checks) mismatches.push(...(await check(tx)));
      return { ok: mismatches.length === 0, wallets, entries, mismatches };
    });
  }
}
