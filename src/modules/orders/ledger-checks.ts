import { formatGhs as ghs } from '../../lib/money.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { LedgerCheck } from '../wallet/ledger-verify.js';
import type { WalletRepository } from '../wallet/repository.js';
import type { OrderRepository } from './repository.js';

/**
 * `ledger verify` checks for data orders (decisions §3): held money is exactly the open
 * deliveries, every delivery's ledger entries net to what its status says, order states agree with
 * their items, and a reversal is booked once, for what was spent.
 */

/** Each wallet's held balance is Σ amount of its open (pending/processing) deliveries. */
async function heldMatchesOpenDeliveries(tx: Tx, repo: OrderRepository, wallets: WalletRepository): Promise<string[]> {
  const [totals, open] = await Promise.all([wallets.ledgerTotals(tx), repo.openAmountsByOwner(tx)]);
  const openBy = new Map(open.map((o) => [`${o.profile_id}/${o.mode}`, Number(o.open_amount)]));
  const problems: string[] = [];
  for (const w of totals) {
    const expected = openBy.get(`${w.profile_id}/${w.mode}`) ?? 0;
    openBy.delete(`${w.profile_id}/${w.mode}`);
    if (Number(w.held) !== expected) {
      problems.push(
        `wallet ${w.id} (${w.profile_id}/${w.mode}): held ${ghs(Number(w.held))} but open data deliveries total ${ghs(expected)}`,
      );
    }
  }
  for (const [owner, amount] of openBy) problems.push(`open data deliveries of ${owner} (${ghs(amount)}) have no wallet`);
  return problems;
}

/** Open: available −a, held +a. Completed: available −a, held 0. Failed: nothing (every attempt returned). */
async function deliveryNetsMatchStatus(tx: Tx, repo: OrderRepository, _wallets: WalletRepository): Promise<string[]> {
  const [items, orphans] = await Promise.all([repo.itemLedgerNets(tx), repo.orphanItemEntries(tx)]);
  const problems: string[] = [];
  for (const i of items) {
    const amount = Number(i.amount);
    const [available, held] = i.status === 'completed' ? [-amount, 0] : i.status === 'failed' ? [0, 0] : [-amount, amount];
    const gotAvailable = Number(i.available_net);
    const gotHeld = Number(i.held_net);
    if (gotAvailable !== available || gotHeld !== held) {
      problems.push(
        `order ${i.order_id} item ${i.id} (${i.status}, ${ghs(amount)}): ledger nets available ${ghs(gotAvailable)}, held ${ghs(gotHeld)}; expected ${ghs(available)}, ${ghs(held)}`,
      );
    }
    if (Number(i.foreign_entries ?? 0) > 0) {
      problems.push(
        `order ${i.order_id} item ${i.id}: ${Number(i.foreign_entries)} ledger entries are on another wallet than the order owner's`,
      );
    }
  }
  for (const o of orphans)
    problems.push(`ledger entry ${o.id} (${o.kind}) points at unknown order item ${o.order_item_id ?? '(none)'}`);
  return problems;
}

/** A single order mirrors its one item; a bulk parent follows its recipients (decisions §6). */
async function orderStatesMatchItems(tx: Tx, repo: OrderRepository, _wallets: WalletRepository): Promise<string[]> {
  const problems: string[] = [];
  for (const o of await repo.dataOrdersWithItems(tx)) {
    const items = Number(o.items);
    const open = Number(o.open ?? 0);
    const completed = Number(o.completed ?? 0);
    const failed = Number(o.failed ?? 0);
    const expected = open > 0 ? 'processing' : completed > 0 ? 'completed' : 'failed';
    const stateOk = o.state === expected || (o.state === 'reversed' && expected === 'completed');
    if (items === 0) {
      problems.push(`order ${o.id}: data order without items`);
      continue;
    }
    if (!stateOk) problems.push(`order ${o.id}: state ${o.state} but its items say ${expected}`);
    if (o.is_bulk === 1) {
      if (Number(o.bulk_completed_count) !== completed || Number(o.bulk_failed_count) !== failed) {
        problems.push(
          `order ${o.id}: counts completed ${o.bulk_completed_count}/failed ${o.bulk_failed_count} but items are ${completed}/${failed}`,
        );
      }
    } else {
      if (items !== 1) problems.push(`order ${o.id}: single order with ${items} items`);
      if (Number(o.amount) !== Number(o.item_amount)) {
        problems.push(`order ${o.id}: amount ${ghs(Number(o.amount))} but its item is ${ghs(Number(o.item_amount))}`);
      }
    }
  }
  return problems;
}

/** A reversed order has exactly one reversal entry, refunding what was delivered; no other order has one. */
async function reversalsBookedOnce(tx: Tx, repo: OrderRepository, _wallets: WalletRepository): Promise<string[]> {
  const [orders, entries] = await Promise.all([repo.dataOrdersWithItems(tx), repo.reversalEntries(tx)]);
  const byOrder = new Map<string, typeof entries>();
  const problems: string[] = [];
  for (const e of entries) {
    if (e.order_id === null) {
      problems.push(`reversal entry ${e.id} names no order`);
      continue;
    }
    byOrder.set(e.order_id, [...(byOrder.get(e.order_id) ?? []), e]);
  }
  for (const o of orders) {
    const found = byOrder.get(o.id) ?? [];
    byOrder.delete(o.id);
    if (o.state !== 'reversed') {
      if (found.length > 0) problems.push(`order ${o.id} is ${o.state} but has ${found.length} reversal entries`);
      continue;
    }
    const [entry] = found;
    if (found.length !== 1 || !entry) {
      problems.push(`reversed order ${o.id} has ${found.length} reversal entries (expected 1)`);
      continue;
    }
    const spent = Number(o.completed_amount ?? 0);
    if (Number(entry.available_delta) !== spent || Number(entry.held_delta) !== 0) {
      problems.push(`reversed order ${o.id}: refunded ${ghs(Number(entry.available_delta))} but delivered ${ghs(spent)}`);
    }
    if (entry.wallet_id !== entry.owner_wallet_id)
      problems.push(`reversed order ${o.id}: refund booked on another wallet than the owner's`);
  }
  for (const orderId of byOrder.keys()) problems.push(`reversal entries for ${orderId}, which is not a data order`);
  return problems;
}

/** The data-order checks of `ledger verify`. */
export function dataOrderChecks(repo: OrderRepository, wallets: WalletRepository): LedgerCheck[] {
  return [heldMatchesOpenDeliveries, deliveryNetsMatchStatus, orderStatesMatchItems, reversalsBookedOnce].map(
    (check) => (tx: Tx) => check(tx, repo, wallets),
  );
}
