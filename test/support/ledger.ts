import type { TestApp } from './app.js';
import { resultCheckerLedgerCheck } from '../../src/modules/result-checker/ledger-checks.js';
import { topUpLedgerCheck } from '../../src/modules/top-ups/ledger-checks.js';

/** The result-checker and top-up checks of `ledger verify`, called directly on one snapshot. */
export async function rcAndTopUpProblems(t: TestApp): Promise<string[]> {
  const { resultChecker, topUps } = t.ctx.repositories;
  return t.database.snapshot(async (tx) => [
    ...(await resultCheckerLedgerCheck(resultChecker)(tx)),
    ...(await topUpLedgerCheck(topUps)(tx)),
  ]);
}

/**
 * `ledger verify` as the CLI runs it (every check of the composition root, wallets against their
 * ledger included), plus the result-checker and top-up checks called directly so a check left out
 * is noticed too. [] means clean.
 */
export async function ledgerProblems(t: TestApp): Promise<string[]> {
  const report = await t.ctx.ledger.verify();
  return [...report.mismatches, ...(await rcAndTopUpProblems(t))];
}

export async function ledgerEntries(t: TestApp, profileId: string, mode: 'live' | 'test') {
  return t.database.db
    .selectFrom('ledger_entries as l')
    .innerJoin('wallets as w', 'w.id', 'l.wallet_id')
    .select(['l.kind', 'l.available_delta', 'l.held_delta', 'l.order_id', 'l.rc_transaction_id', 'l.top_up_id', 'l.idempotency_key'])
    .where('w.profile_id', '=', profileId)
    .where('w.mode', '=', mode)
    .where('l.kind', '!=', 'opening_balance')
    .orderBy('l.id')
    .execute();
}
