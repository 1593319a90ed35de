import type { AliasedExpression } from 'kysely';
import type { LedgerKind } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Mode } from '../../domain/types.js';

/**
 * The two queries the modules' `ledger verify` checks are made of (src/modules/wallet/ledger-verify.ts).
 * A module passes its records as a table `t` of its own making: their owner, and what its check reads.
 */

/** The column by which a ledger entry names the record that caused it. */
export type LedgerRecordKey = 'order_item_id' | 'rc_transaction_id' | 'top_up_id';

/** Records of an owner in a mode, each of an amount. */
interface OwnedAmounts {
  profile_id: string;
  mode: Mode;
  amount: number;
}

/** A record and its owner (null: no entry of it counts as misdirected). */
interface OwnedRecord {
  id: string;
  profile_id: string | null;
  mode: Mode | null;
}

/**
 * Per wallet: the net change to available of its entries of `kinds` (ledger_net), beside the total
 * amount of the `records` its owner has in its mode (records_total), which those entries should net to.
 */
export function walletNetsAgainstRecords(tx: Tx, kinds: readonly LedgerKind[], records: AliasedExpression<OwnedAmounts, 't'>) {
  return tx.db
    .selectFrom('wallets as w')
    .select((eb) => [
      'w.id',
      'w.profile_id',
      'w.mode',
      eb
        .selectFrom('ledger_entries as l')
        .select((s) => s.fn.coalesce(s.fn.sum<number>('l.available_delta'), s.lit(0)).as('n'))
        .whereRef('l.wallet_id', '=', 'w.id')
        .where('l.kind', 'in', kinds)
        .as('ledger_net'),
      eb
        .selectFrom(records)
        .select((s) => s.fn.coalesce(s.fn.sum<number>('t.amount'), s.lit(0)).as('n'))
        .whereRef('t.profile_id', '=', 'w.profile_id')
        .whereRef('t.mode', '=', 'w.mode')
        .as('records_total'),
    ])
    .orderBy('w.id')
    .execute();
}

/**
 * Per record of `records`, in id order: the ledger entries that name it by `key` (`l`, on wallet
 * `w`): how many, their net to available and to held, and how many are on a wallet that is not its
 * owner's of its mode. The caller selects, and groups by, the columns of `t` its check reads.
 */
export function recordLedgerEntries<O extends OwnedRecord>(tx: Tx, records: AliasedExpression<O, 't'>, key: LedgerRecordKey) {
  return tx.db
    .selectFrom(records)
    .leftJoin('ledger_entries as l', `l.${key}`, 't.id')
    .leftJoin('wallets as w', 'w.id', 'l.wallet_id')
    .select((eb) => [
      eb.fn.count<number>('l.id').as('entries'),
      eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('net'),
      eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('held_net'),
      eb.fn
        .count<number>('l.id')
        .filterWhere((f) => f.or([f('w.profile_id', '!=', f.ref('t.profile_id')), f('w.mode', '!=', f.ref('t.mode'))]))
        .as('misdirected'),
    ])
    .groupBy('t.id')
    .orderBy('t.id');
}
