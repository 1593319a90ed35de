import { formatGhs as ghs } from '../../lib/money.js';
import { walletNetsAgainstRecordsProblems, type LedgerCheck } from '../wallet/ledger-verify.js';
import type { TopUpRepository } from './repository.js';

/**
 * Top-ups, recomputed (docs/cli.md, topups approve): every approved top-up credited exactly once, on its
 * owner's wallet of its mode; nothing else credited as a top-up.
 */
export function topUpLedgerCheck(repo: TopUpRepository): LedgerCheck {
  return async (tx) => {
    const wallets = await repo.walletTopUpTotals(tx);
    const problems = walletNetsAgainstRecordsProblems(wallets, { module: 'top-ups', net: 'top-up credits', records: 'approved top-ups total', sign: 1 });
    for (const t of await repo.topUpLedgerEntries(tx)) {
      const entries = Number(t.entries);
      const net = Number(t.net);
      if (t.status === 'approved') {
        if (entries !== 1) problems.push(`top-ups: approved top-up ${t.id} has ${entries} ledger entries, expected exactly 1`);
        else if (net !== Number(t.amount))
          problems.push(`top-ups: top-up ${t.id} credited ${ghs(net)}, expected ${ghs(Number(t.amount))}`);
      } else if (entries !== 0) {
        problems.push(`top-ups: ${t.status} top-up ${t.id} has ${entries} ledger entries, expected none`);
      }
      if (Number(t.held_net) !== 0) problems.push(`top-ups: top-up ${t.id} moved held funds`);
      if (Number(t.misdirected) !== 0)
        problems.push(`top-ups: top-up ${t.id} was credited to a wallet that is not its owner's wallet of its mode`);
    }
    for (const e of await repo.orphanTopUpEntries(tx)) {
      problems.push(`top-ups: ledger entry ${e.id} is a top_up credit for ${e.top_up_id ?? 'no top-up'}, which does not exist`);
    }
    return problems;
  };
}
