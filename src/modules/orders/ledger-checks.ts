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
  /** The kinds that name an order item: its holds, settlements and releases, and its own reversal. */
  delivery: LedgerKind[];
  reversal: LedgerKind[];
  recipientReversal: LedgerKind[];
  allowed: [OrderType, LedgerKind[]][];
}

function kindsOf(table: OrderLedgerTable): Kinds {
  const held = heldOrderLedgers(table);
  return {
    heldTypes: held.map(([type]) => type),
    delivery: held.flatMap(([, l]) => [l.hold, l.settle, l.release, l.recipientReversal]),
    reversal: held.map(([, l]) => l.reversal),
    recipientReversal: held.map(([, l]) => l.recipientReversal),
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

/**
 * Open: available −a, held +a. Completed: available −a, held 0. Failed: nothing (every attempt
 * returned). A completed recipient reversed on its own: nothing (its reversal returned it).
 */
const deliveryNetsMatchStatus: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const [items, orphans] = await Promise.all([
    repo.itemLedgerNets(tx, kinds.heldTypes),
    repo.orphanItemEntries(tx, kinds.delivery),
  ]);
  const problems: string[] = [];
  for (const i of items) {
    const amount = Number(i.amount);
    const reversed = i.reversed_at !== null;
    const [available, held] =
      i.status === 'completed' ? [reversed ? 0 : -amount, 0] : i.status === 'failed' ? [0, 0] : [-amount, amount];
    const gotAvailable = Number(i.net);
    const gotHeld = Number(i.held_net);
    if (gotAvailable !== available || gotHeld !== held) {
      problems.push(
        `order ${i.order_id} item ${i.id} (${i.status}${reversed ? ', reversed' : ''}, ${ghs(amount)}): ledger nets available ${ghs(gotAvailable)}, held ${ghs(gotHeld)}; expected ${ghs(available)}, ${ghs(held)}`,
      );
    }
    if (Number(i.misdirected) > 0) {
      problems.push(
        `order ${i.order_id} item ${i.id}: ${Number(i.misdirected)} ledger entries are on another wallet than the order owner's`,
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
    const reversedRecipients = Number(o.reversed_recipients ?? 0);
    if (completed > 0 && reversedRecipients === completed && open === 0 && o.state !== 'reversed') {
      problems.push(`order ${o.id}: every completed recipient was reversed but the order is ${o.state}, not reversed`);
    }
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

/**
 * A reversed order has exactly one reversal entry, refunding what was delivered and not already
 * refunded recipient by recipient; no other order has one. An order that became reversed because
 * its last completed recipient was reversed on its own has none (its recipients' entries refunded it).
 */
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
    const rest = Number(o.completed ?? 0) - Number(o.reversed_recipients ?? 0);
    if (rest === 0 && Number(o.completed ?? 0) > 0) {
      if (found.length > 0) problems.push(`order ${o.id} was reversed recipient by recipient but also has ${found.length} reversal entries`);
      continue;
    }
    const [entry] = found;
    if (found.length !== 1 || !entry) {
      problems.push(`reversed order ${o.id} has ${found.length} reversal entries (expected 1)`);
      continue;
    }
    const spent = Number(o.completed_amount ?? 0) - Number(o.reversed_amount ?? 0);
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

/**
 * A recipient reversed on its own has exactly one recipient reversal entry, of what it was charged,
 * on its order owner's wallet; it is a completed recipient of a bulk order; no other item has one.
 */
const recipientReversalsBookedOnce: OrderCheck = async (tx, repo, _wallets, kinds) => {
  const [reversed, entries] = await Promise.all([
    repo.reversedRecipients(tx, kinds.heldTypes),
    repo.recipientReversalEntries(tx, kinds.recipientReversal),
  ]);
  const problems: string[] = [];
  const byItem = new Map<string, typeof entries>();
  for (const e of entries) {
    if (e.item_id === null) {
      problems.push(`recipient reversal entry ${e.id} names no recipient (order item ${e.order_item_id ?? '(none)'})`);
      continue;
    }
    byItem.set(e.item_id, [...(byItem.get(e.item_id) ?? []), e]);
  }
  for (const i of reversed) {
    const found = byItem.get(i.id) ?? [];
    byItem.delete(i.id);
    const recipient = `reversed recipient ${i.id} of order ${i.order_id}`;
    if (Number(i.is_bulk) !== 1) problems.push(`${recipient}: its order is not a bulk order`);
    if (i.status !== 'completed') problems.push(`${recipient} is ${i.status}; only a completed recipient is reversed`);
    const [entry] = found;
    if (found.length !== 1 || !entry) {
      problems.push(`${recipient} has ${found.length} recipient reversal entries (expected 1)`);
      continue;
    }
    if (Number(entry.available_delta) !== Number(i.amount) || Number(entry.held_delta) !== 0) {
      problems.push(`${recipient}: refunded ${ghs(Number(entry.available_delta))} but it was charged ${ghs(Number(i.amount))}`);
    }
    if (entry.order_id !== i.order_id) problems.push(`${recipient}: its reversal entry names order ${entry.order_id ?? '(none)'}`);
    if (entry.wallet_id !== entry.owner_wallet_id) problems.push(`${recipient}: refund booked on another wallet than the owner's`);
  }
  for (const [itemId, found] of byItem) {
    problems.push(`recipient ${itemId} has ${found.length} recipient reversal entries but was not reversed`);
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
  const checks = [
    heldMatchesOpenDeliveries,
    deliveryNetsMatchStatus,
    orderStatesMatchItems,
    reversalsBookedOnce,
    recipientReversalsBookedOnce,
    entriesFitTheirOrderType,
  ];
  return checks.map((check) => (tx: Tx) => check(tx, repo, wallets, kinds));
}
