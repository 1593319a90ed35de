import type { Kysely } from 'kysely';
import type { Database } from '../db/connection.js';
import type { DB } from '../db/schema.js';
import { toGhs } from '../lib/money.js';
import { countLedgerEntries } from '../orders/ledger-repository.js';
import { dataOrderChecks } from '../orders/ledger-checks.js';
import { checkResultCheckerLedger } from '../result-checker/ledger-checks.js';
import { checkTopUpLedger } from '../top-ups/ledger-checks.js';
import * as repo from './repository.js';

/**
 * `cli ledger verify` (decisions §3): balances are derivable from the ledger, and the ledger agrees
 * with the records that caused it. Each check returns one message per mismatch (empty = fine).
 * Other modules add their own checks with registerLedgerCheck (or push onto ledgerChecks).
 */
export type LedgerCheck = (db: Kysely<DB>) => Promise<string[]>;

const ghs = (pesewas: number) => `GHS ${toGhs(pesewas).toFixed(2)}`;

/** Every wallet's balances equal the sums of its ledger entries. */
export async function walletsMatchLedger(db: Kysely<DB>): Promise<string[]> {
  const problems: string[] = [];
  for (const w of await repo.ledgerTotals(db)) {
    const available = Number(w.available);
    const held = Number(w.held);
    const ledgerAvailable = Number(w.ledger_available);
    const ledgerHeld = Number(w.ledger_held);
    if (available !== ledgerAvailable) {
      problems.push(`wallet ${w.id} (${w.profile_id}/${w.mode}): available ${ghs(available)} but its ledger sums to ${ghs(ledgerAvailable)}`);
    }
    if (held !== ledgerHeld) {
      problems.push(`wallet ${w.id} (${w.profile_id}/${w.mode}): held ${ghs(held)} but its ledger sums to ${ghs(ledgerHeld)}`);
    }
  }
  return problems;
}

export const ledgerChecks: LedgerCheck[] = [walletsMatchLedger, ...dataOrderChecks, checkResultCheckerLedger, checkTopUpLedger];

export function registerLedgerCheck(check: LedgerCheck): void {
  if (!ledgerChecks.includes(check)) ledgerChecks.push(check);
}

export interface LedgerReport {
  ok: boolean;
  wallets: number;
  entries: number;
  mismatches: string[];
}

/** Runs every check on one consistent snapshot (PostgreSQL: REPEATABLE READ; SQLite: one read transaction). */
export async function verifyLedger(database: Database): Promise<LedgerReport> {
  return database.read
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const wallets = (await repo.ledgerTotals(trx)).length;
      const entries = await countLedgerEntries(trx);
      const mismatches: string[] = [];
      for (const check of ledgerChecks) mismatches.push(...(await check(trx)));
      return { ok: mismatches.length === 0, wallets, entries, mismatches };
    });
}
