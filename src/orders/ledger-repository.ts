import { isOpenItem } from './repository.js';
import type { Executor } from '../db/connection.js';

/** Read-only queries behind `ledger verify` for data orders (src/wallet/ledger-verify.ts). */

export async function countLedgerEntries(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('ledger_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Σ amount of open (pending/processing) deliveries per owner and mode. */
export async function openAmountsByOwner(db: Executor) {
  return db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .select((eb) => ['o.profile_id', 'o.mode', eb.fn.sum<number>('i.amount').as('open_amount')])
    .where(isOpenItem('i.status'))
    .groupBy(['o.profile_id', 'o.mode'])
    .execute();
}

/** Per data order item: its status and amount, and the net of its ledger entries. */
export async function itemLedgerNets(db: Executor) {
  return db
    .selectFrom('order_items as i')
    .innerJoin('orders as o', 'o.id', 'i.order_id')
    .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
    .leftJoin('ledger_entries as l', 'l.order_item_id', 'i.id')
    .select((eb) => [
      'i.id',
      'i.order_id',
      'i.status',
      'i.amount',
      eb.fn.coalesce(eb.fn.sum<number>('l.available_delta'), eb.lit(0)).as('available_net'),
      eb.fn.coalesce(eb.fn.sum<number>('l.held_delta'), eb.lit(0)).as('held_net'),
      eb.fn
        .sum<number>(
          eb
            .case()
            .when(eb.and([eb('l.id', 'is not', null), eb('l.wallet_id', '!=', eb.ref('w.id'))]))
            .then(1)
            .else(0)
            .end(),
        )
        .as('foreign_entries'),
    ])
    .where('o.order_type', '=', 'data')
    .groupBy(['i.id', 'i.order_id', 'i.status', 'i.amount'])
    .orderBy('i.id')
    .execute();
}

/** Data ledger entries that point at no order item. */
export async function orphanItemEntries(db: Executor) {
  return db
    .selectFrom('ledger_entries as l')
    .leftJoin('order_items as i', 'i.id', 'l.order_item_id')
    .select(['l.id', 'l.kind', 'l.order_item_id'])
    .where('l.kind', 'in', ['data_hold', 'data_settle', 'data_release'])
    .where('i.id', 'is', null)
    .orderBy('l.id')
    .execute();
}

/** Per data order: its state and bulk counts beside the statuses and amounts of its items. */
export async function dataOrdersWithItems(db: Executor) {
  return db
    .selectFrom('orders as o')
    .leftJoin('order_items as i', 'i.order_id', 'o.id')
    .select((eb) => [
      'o.id',
      'o.state',
      'o.is_bulk',
      'o.amount',
      'o.bulk_completed_count',
      'o.bulk_failed_count',
      eb.fn.count<number>('i.id').as('items'),
      eb.fn.sum<number>(eb.case().when('i.status', 'in', ['pending', 'processing']).then(1).else(0).end()).as('open'),
      eb.fn.sum<number>(eb.case().when('i.status', '=', 'completed').then(1).else(0).end()).as('completed'),
      eb.fn.sum<number>(eb.case().when('i.status', '=', 'failed').then(1).else(0).end()).as('failed'),
      eb.fn.sum<number>(eb.case().when('i.status', '=', 'completed').then(eb.ref('i.amount')).else(0).end()).as('completed_amount'),
      eb.fn.sum<number>('i.amount').as('item_amount'),
    ])
    .where('o.order_type', '=', 'data')
    .groupBy(['o.id', 'o.state', 'o.is_bulk', 'o.amount', 'o.bulk_completed_count', 'o.bulk_failed_count'])
    .orderBy('o.id')
    .execute();
}

/** Every reversal entry with the wallet its order's owner has in the order's mode. */
export async function reversalEntries(db: Executor) {
  return db
    .selectFrom('ledger_entries as l')
    .leftJoin('orders as o', 'o.id', 'l.order_id')
    .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'o.profile_id').onRef('w.mode', '=', 'o.mode'))
    .select(['l.id', 'l.order_id', 'l.wallet_id', 'l.available_delta', 'l.held_delta', 'w.id as owner_wallet_id'])
    .where('l.kind', '=', 'data_reversal')
    .orderBy('l.id')
    .execute();
}
