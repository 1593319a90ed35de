import { formatGhs as ghs } from '../../lib/money.js';
import type { LedgerKind, OrderType } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { LedgerCheck } from '../wallet/ledger-verify.js';
import { heldOrderLedgers, ORDER_LEDGER, orderLedgerKinds, type OrderLedgerTable } from '../wallet/postings.js';
import type { WalletRepository } from '../wallet/repository.js';
import type { OrderRepository } from './repository.js';

/**
 * `ledger verify` checks for the orders of every type whose money is held until delivery (the
 * `held` types of ORDER_LEDGER, src/modules/wallet/postings.ts; docs/order-lifecycle.md, "The
 * money at each step"): held money is exactly the open deliveries, every delivery's ledger entries
 * net to what its status says, order states agree with their items, and a reversal is booked once,
 * for what was spent. And for every order with ledger entries: its type is in the table and books
 * only its own kinds, so a product nobody taught the verifier about is reported, not skipped.
 */

/** What the checks read of the table: the held types and their kinds, and every type's kinds. */
interface Kinds {
  heldTypes: OrderType[];
  delivery: LedgerKind[];
  reversal: LedgerKind[];
  allowed: [OrderType, LedgerKind[]][];
}

function kindsOf(table: OrderLedgerTable): Kinds {
  const held = heldOrderLedgers(table);
  return {
    heldTypes: held.map(([type]) => type),
    delivery: held.flatMap(([, l]) => [l.hold, l.settle, l.release]),
    reversal: held.map(([, l]) => l.reversal),
    allowed: orderLedgerKinds(table),
  };
}

type OrderCheck = (tx: Tx, repo: OrderRepository, wallets: WalletRepository, kinds: Kinds) => Promise<string[]>;

/** Each wallet's held balance is Σ amount of its open (pending/processing) deliveries. */
const heldMatchesOpenDeliveries: OrderCheck = async (tx, repo, wallets) => {
  const [totals, open] = await Promise.all([wallets.ledgerTotals(tx), repo.openAmountsByOwner(tx)]);
  const openBy = new Map(open.map((o) => [`${o.profile_id}/${o.mode}`, Number(o.open_amount)]));
  const problems: string[] = [];
  for (const w of totals) {
    const expected = openBy.get(`${w.profile_id}/${w.mode}`) ?? 0;
    openBy.delete(`${w.profile_id}/${w.mode}`);
    if (Number(w.held) !== expected) {
      problems.push(
        `wallet ${w.id} (${w.profile_id}/${w.mode}): held ${ghs(Number(w.held))} but open deliveries total ${ghs(expected)}`,
      );
    }
  }
  for (const [owner, amount] of openBy) problems.push(`open deliveries of ${owner} (${ghs(amount)}) have no wallet`);
  return problems;
};

/** Open: available −a, held +a. Completed: available −a, held 0. Failed: nothing (every attempt returned). */
const deliveryNetsMatchStatus: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const [items, orphans] = await Promise.all([
    repo.itemLedgerNets(tx, kinds.heldTypes),
    repo.orphanItemEntries(tx, kinds.delivery),
  ]);
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
};

/** A single order mirrors its one item; a bulk parent follows its recipients (docs/order-lifecycle.md). */
const orderStatesMatchItems: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const problems: string[] = [];
  for (const o of await repo.ordersWithItems(tx, kinds.heldTypes)) {
    const items = Number(o.items);
    const open = Number(o.open ?? 0);
    const completed = Number(o.completed ?? 0);
    const failed = Number(o.failed ?? 0);
    const expected = open > 0 ? 'processing' : completed > 0 ? 'completed' : 'failed';
    const stateOk = o.state === expected || (o.state === 'reversed' && expected === 'completed');
    if (items === 0) {
      problems.push(`order ${o.id}: ${o.order_type} order without items`);
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
};

/** A reversed order has exactly one reversal entry, refunding what was delivered; no other order has one. */
const reversalsBookedOnce: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const [orders, entries] = await Promise.all([
    repo.ordersWithItems(tx, kinds.heldTypes),
    repo.reversalEntries(tx, kinds.reversal),
  ]);
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
  for (const orderId of byOrder.keys()) {
    problems.push(`reversal entries for ${orderId}, which is not an order whose money is held until delivery`);
  }
  return problems;
};

/** Every ledger entry that names an order names one that exists, of a type in the table that books that kind. */
const entriesFitTheirOrderType: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const problems: string[] = [];
  const allowed = new Map(kinds.allowed);
  for (const e of await repo.entriesOutsideTheirOrderType(tx, kinds.allowed)) {
    const one = Number(e.entries) === 1;
    const count = `${Number(e.entries)} ${e.kind} ledger ${one ? 'entry' : 'entries'}`;
    const type = e.order_type;
    const own = type === null ? undefined : allowed.get(type);
    if (type === null) problems.push(`${count} ${one ? 'names' : 'name'} order ${e.order_id}, which does not exist`);
    else if (!own) {
      problems.push(
        `order ${e.order_id} (${type}) has ${count}, but ${type} orders are not verified: give ${type} its ledger kinds in ORDER_LEDGER (src/modules/wallet/postings.ts)`,
      );
    } else problems.push(`order ${e.order_id} (${type}) has ${count}; ${type} orders book only ${own.join(', ')}`);
  }
  return problems;
};

/**
 * The order checks of `ledger verify`, for every order type of `table` (ORDER_LEDGER unless a test
 * gives another).
 */
export function orderLedgerChecks(
  repo: OrderRepository,
  wallets: WalletRepository,
  table: OrderLedgerTable = ORDER_LEDGER,
): LedgerCheck[] {
  const kinds = kindsOf(table);
  const checks = [heldMatchesOpenDeliveries, deliveryNetsMatchStatus, orderStatesMatchItems, reversalsBookedOnce, entriesFitTheirOrderType];
  return checks.map((check) => (tx: Tx) => check(tx, repo, wallets, kinds));
}
