import { formatGhs as ghs } from '../../lib/money.js';
import { RC_BULK_DEBIT_PREFIX as BULK_DEBIT } from '../wallet/postings.js';
import { walletNetsAgainstRecordsProblems, type LedgerCheck } from '../wallet/ledger-verify.js';
import type { ResultCheckerRepository } from './repository.js';

/**
 * Result-checker money and inventory, recomputed (docs/order-lifecycle.md, "Result checkers"). Returns one message per
 * mismatch. Single purchases carry their own rc_debit (and rc_refund when out of stock); a
 * bulk purchase has one rc_debit for the total of its items (idempotency key
 * rc_bulk_debit:<bulkId>) and an rc_refund per failed item. A sale refunded by staff has exactly
 * one rc_reversal of what it charged, its order is `reversed`, and its credential (live) is void.
 */
export function resultCheckerLedgerCheck(repo: ResultCheckerRepository): LedgerCheck {
  return async (tx) => {
    const problems: string[] = [];

    const wallets = await repo.walletRcTotals(tx);
    problems.push(
      ...walletNetsAgainstRecordsProblems(wallets, { module: 'rc', net: 'rc ledger net', records: 'completed result-checker purchases total', sign: -1 }),
    );

    for (const t of await repo.transactionLedgerNets(tx)) {
      const net = Number(t.net);
      const held = Number(t.held_net);
      const amount = Number(t.amount);
      const refunded = t.refunded_at !== null;
      // Charged and kept: not failed (refunded at once) and not refunded by staff since.
      const charged = t.state !== 'failed' && !refunded;
      // A bulk item's debit is part of the bulk entry; only its refunds name it.
      const expected = t.bulk_id === null ? (charged ? -amount : 0) : charged ? 0 : amount;
      if (net !== expected) {
        problems.push(
          `rc: transaction ${t.id} (${t.state}${t.bulk_id ? `, bulk ${t.bulk_id}` : ''}) ledger net ${ghs(net)}, expected ${ghs(expected)}`,
        );
      }
      if (held !== 0)
        problems.push(`rc: transaction ${t.id} moved held funds (${ghs(held)}); result-checker purchases never hold`);
      const reversals = Number(t.reversals ?? 0);
      if (refunded) {
        if (t.state !== 'completed') problems.push(`rc: transaction ${t.id} is ${t.state} but marked refunded by staff`);
        if (reversals !== 1) problems.push(`rc: refunded transaction ${t.id} has ${reversals} staff refund entries (expected 1)`);
        else if (Number(t.reversal_net) !== amount) {
          problems.push(`rc: refunded transaction ${t.id} was refunded ${ghs(Number(t.reversal_net))} but charged ${ghs(amount)}`);
        }
        if (t.order_state !== 'reversed') problems.push(`rc: refunded transaction ${t.id} has its order ${t.order_state ?? 'missing'}, not reversed`);
        if (t.credential_id !== null && t.voided_at === null) {
          problems.push(`rc: refunded transaction ${t.id} left its credential ${t.credential_id} not void`);
        }
      } else {
        if (reversals > 0) problems.push(`rc: transaction ${t.id} has ${reversals} staff refund entries but was not refunded`);
        if (t.order_state === 'reversed') problems.push(`rc: transaction ${t.id} has its order reversed but was not refunded`);
      }
    }
    for (const c of await repo.voidsWithoutRefund(tx)) {
      problems.push(`rc: credential ${c.id} is void but its sale ${c.assigned_transaction_id ?? '(none)'} was not refunded`);
    }

    const bulkDebits = new Map<string, number[]>();
    for (const e of await repo.unattachedRcEntries(tx)) {
      const key = e.idempotency_key ?? '';
      if (e.kind !== 'rc_debit' || !key.startsWith(BULK_DEBIT)) {
        problems.push(`rc: ledger entry ${e.id} (${e.kind}) names no result-checker transaction`);
        continue;
      }
      const bulkId = key.slice(BULK_DEBIT.length);
      bulkDebits.set(bulkId, [...(bulkDebits.get(bulkId) ?? []), Number(e.available_delta)]);
    }
    for (const b of await repo.bulkTotals(tx)) {
      const bulkId = b.bulk_id ?? '';
      const debits = bulkDebits.get(bulkId) ?? [];
      bulkDebits.delete(bulkId);
      const total = Number(b.total ?? 0);
      if (debits.length !== 1) problems.push(`rc: bulk ${bulkId} has ${debits.length} debit entries, expected 1`);
      else if (debits[0] !== -total) {
        problems.push(`rc: bulk ${bulkId} debit ${ghs(debits[0] ?? 0)} but its ${Number(b.items)} items total ${ghs(total)}`);
      }
    }
    for (const bulkId of bulkDebits.keys()) problems.push(`rc: bulk debit ${bulkId} has no result-checker transactions`);

    for (const e of await repo.misdirectedRcEntries(tx)) {
      problems.push(
        `rc: ledger entry ${e.id} for transaction ${e.transaction_id} is on a wallet that is not the buyer's wallet of that mode`,
      );
    }

    const { credentialSide, transactionSide } = await repo.inventoryMismatches(tx);
    for (const c of credentialSide) {
      problems.push(`rc: credential ${c.credential_id} is assigned to ${c.assigned_transaction_id}, which does not hold it`);
    }
    for (const t of transactionSide) {
      problems.push(
        `rc: transaction ${t.id} (${t.mode}, ${t.state}) and its credential${t.credential_id ? ` ${t.credential_id}` : ''} disagree`,
      );
    }
    return problems;
  };
}
