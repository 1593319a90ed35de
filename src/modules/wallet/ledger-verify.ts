import type { Database } from '../../db/connection.js';
import type { Tx } from '../../db/unit-of-work.js';
import { formatGhs } from '../../lib/money.js';
import type { WalletRepository } from './repository.js';

/**
 * `cli ledger verify` (decisions §3): balances are derivable from the ledger, and the ledger agrees
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
