import type { LedgerKind, OrderType } from '../../db/schema.js';
import type { Pesewas } from '../../lib/money.js';

/**
 * Every way money moves through a wallet, by name. Each constructor takes the business facts and
 * returns the complete posting: its ledger kind, the sign of each delta, the records it names, its
 * idempotency key and its memo. Services book one with `wallets.post(tx, postings.hold({…}), now)`,
 * the seed import books its history with `wallets.postMany`; nothing else builds a posting (the
 * brand below makes a hand-built one a type error). docs/order-lifecycle.md shows the same moves
 * from a partner's side.
 */

declare const named: unique symbol;

/** One balance change and the reason for it, as a constructor below made it. Amounts are pesewas. */
export type Posting = Readonly<PostingFields> & { readonly [named]: true };

interface PostingFields {
  walletId: string;
  kind: LedgerKind;
  availableDelta: number;
  heldDelta: number;
  orderId?: string;
  orderItemId?: string;
  rcTransactionId?: string;
  topUpId?: string;
  /** Unique per business event: a second booking of the same event fails its unit of work. */
  idempotencyKey: string;
  memo: string;
}

function posting(fields: PostingFields): Posting {
  return fields as Posting;
}

// ---- which ledger kinds each order type books ----

/**
 * Money held at purchase (available → held), then per delivery attempt spent (settle) or returned
 * (release); a staff reversal refunds a completed order to available, and a recipient reversal one
 * completed recipient of a bulk order.
 */
export interface HeldOrderLedger {
  money: 'held';
  /** The goods, as the memos name them. */
  goods: string;
  hold: LedgerKind;
  settle: LedgerKind;
  release: LedgerKind;
  reversal: LedgerKind;
  recipientReversal: LedgerKind;
}

/**
 * Debited at once and refunded when it cannot be supplied (refund), or by staff after the sale
 * (reversal); its module has ledger checks of its own.
 */
export interface DebitedOrderLedger {
  money: 'debited';
  debit: LedgerKind;
  refund: LedgerKind;
  reversal: LedgerKind;
}

export type OrderLedger = HeldOrderLedger | DebitedOrderLedger;
export type OrderLedgerTable = { readonly [T in OrderType]?: OrderLedger };

/**
 * The ledger kinds of each order type that moves money: `ledger verify` checks the orders of every
 * `held` type here against their entries (src/modules/orders/ledger-checks.ts), and reports the
 * entries of an order whose type is missing here. A new product is one line here (and its kinds in
 * LedgerKind, src/db/schema.ts).
 */
export const ORDER_LEDGER = {
  data: {
    money: 'held',
    goods: 'Data bundle',
    hold: 'data_hold',
    settle: 'data_settle',
    release: 'data_release',
    reversal: 'data_reversal',
    recipientReversal: 'data_recipient_reversal',
  },
  // Its sales are checked by src/modules/result-checker/ledger-checks.ts.
  result_checker: { money: 'debited', debit: 'rc_debit', refund: 'rc_refund', reversal: 'rc_reversal' },
} as const satisfies OrderLedgerTable;

/** The order types whose money is held until delivery. */
export type HeldOrderType = {
  [T in keyof typeof ORDER_LEDGER]: (typeof ORDER_LEDGER)[T] extends { money: 'held' } ? T : never;
}[keyof typeof ORDER_LEDGER];

/** `type` as an order type whose money is held; a programming error for any other. */
export function heldOrderType(type: OrderType): HeldOrderType {
  const ledger: OrderLedger | undefined = (ORDER_LEDGER as OrderLedgerTable)[type];
  if (ledger?.money !== 'held') throw new Error(`${type} orders do not hold money (ORDER_LEDGER has no held kinds for them)`);
  return type as HeldOrderType;
}

/** The entries of a table whose money is held until delivery. */
export function heldOrderLedgers(table: OrderLedgerTable): [OrderType, HeldOrderLedger][] {
  const held: [OrderType, HeldOrderLedger][] = [];
  for (const [type, ledger] of Object.entries(table) as [OrderType, OrderLedger][]) {
    if (ledger.money === 'held') held.push([type, ledger]);
  }
  return held;
}

/** The ledger kinds an order of each type in the table may book. */
export function orderLedgerKinds(table: OrderLedgerTable): [OrderType, LedgerKind[]][] {
  return (Object.entries(table) as [OrderType, OrderLedger][]).map(([type, ledger]) => [
    type,
    ledger.money === 'held'
      ? [ledger.hold, ledger.settle, ledger.release, ledger.reversal, ledger.recipientReversal]
      : [ledger.debit, ledger.refund, ledger.reversal],
  ]);
}

/** Every ledger kind (the record makes the compiler ask for a new one). */
const KINDS: Record<LedgerKind, true> = {
  opening_balance: true,
  top_up: true,
  data_hold: true,
  data_settle: true,
  data_release: true,
  data_reversal: true,
  data_recipient_reversal: true,
  rc_debit: true,
  rc_refund: true,
  rc_reversal: true,
  adjustment: true,
};
export const LEDGER_KINDS = Object.keys(KINDS) as readonly LedgerKind[];

// ---- keys and memos that `ledger verify` reads back ----

/** The prefix of a result-checker bulk debit's key; the rest is the bulk purchase's id. */
export const RC_BULK_DEBIT_PREFIX = 'rc_bulk_debit:';
/** The prefix of a staff adjustment's key; the rest is the adjustment's id. */
export const ADJUSTMENT_KEY_PREFIX = 'adjustment:';
/** The prefix of a staff adjustment's memo; the rest is its reason. */
export const ADJUSTMENT_MEMO_PREFIX = 'Staff adjustment: ';

// ---- amounts ----

/**
 * A price-driven amount: whole pesewas, zero allowed (a catalog price may be 0: src/seed/schema.ts),
 * and a free item still books its entries like any other.
 */
function priced(amount: Pesewas, what: string): Pesewas {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`${what}: amount must be whole pesewas, not negative (got ${amount})`);
  return amount;
}

/** A credit or debit that exists only to move money: whole pesewas above zero. */
function positive(amount: Pesewas, what: string): Pesewas {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error(`${what}: amount must be whole pesewas above 0 (got ${amount})`);
  return amount;
}

function reasonOf(reason: string, what: string): string {
  const trimmed = reason.trim();
  if (trimmed === '') throw new Error(`${what}: a reason is required`);
  return trimmed;
}

// ---- the postings ----

interface DeliveryFacts {
  walletId: string;
  orderType: HeldOrderType;
  orderId: string;
  itemId: string;
  /** The delivery attempt (1 for the first; a retried recipient's next attempt holds again). */
  attempt: number;
  amount: Pesewas;
  /** Booked by the seed import for an order of the file's history. */
  imported?: boolean;
}

const HISTORY = ' (imported history)';

export const postings = {
  /** A purchase: the price moves from available to held until the delivery's outcome. */
  hold(f: DeliveryFacts): Posting {
    const amount = priced(f.amount, 'hold');
    const ledger = ORDER_LEDGER[f.orderType];
    return posting({
      walletId: f.walletId,
      kind: ledger.hold,
      availableDelta: -amount,
      heldDelta: amount,
      orderId: f.orderId,
      orderItemId: f.itemId,
      idempotencyKey: `hold:${f.itemId}:${f.attempt}`,
      memo: `${ledger.goods} purchase: held until delivery${f.imported ? HISTORY : ''}`,
    });
  },

  /** Delivered: the attempt's hold is spent (held falls; available was already taken). */
  settle(f: DeliveryFacts): Posting {
    const amount = priced(f.amount, 'settle');
    const ledger = ORDER_LEDGER[f.orderType];
    return posting({
      walletId: f.walletId,
      kind: ledger.settle,
      availableDelta: 0,
      heldDelta: -amount,
      orderId: f.orderId,
      orderItemId: f.itemId,
      idempotencyKey: `settle:${f.itemId}:${f.attempt}`,
      memo: `${ledger.goods} delivered${f.imported ? HISTORY : ''}`,
    });
  },

  /** Not delivered: the attempt's hold returns from held to available. */
  release(f: DeliveryFacts): Posting {
    const amount = priced(f.amount, 'release');
    const ledger = ORDER_LEDGER[f.orderType];
    return posting({
      walletId: f.walletId,
      kind: ledger.release,
      availableDelta: amount,
      heldDelta: -amount,
      orderId: f.orderId,
      orderItemId: f.itemId,
      idempotencyKey: `release:${f.itemId}:${f.attempt}`,
      memo: `${ledger.goods} not delivered: hold returned${f.imported ? HISTORY : ''}`,
    });
  },

  /** A completed order refunded by staff: what was spent comes back to available, once per order. */
  reversal(f: { walletId: string; orderType: HeldOrderType; orderId: string; amount: Pesewas; reason: string }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER[f.orderType].reversal,
      availableDelta: priced(f.amount, 'reversal'),
      heldDelta: 0,
      orderId: f.orderId,
      idempotencyKey: `reversal:${f.orderId}`,
      memo: `Reversed by staff: ${reasonOf(f.reason, 'reversal')}`,
    });
  },

  /**
   * One completed recipient of a bulk order refunded by staff: what it was charged comes back to
   * available, once per recipient (its order's whole reversal then refunds only the others).
   */
  recipientReversal(f: { walletId: string; orderType: HeldOrderType; orderId: string; itemId: string; amount: Pesewas; reason: string }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER[f.orderType].recipientReversal,
      availableDelta: priced(f.amount, 'recipientReversal'),
      heldDelta: 0,
      orderId: f.orderId,
      orderItemId: f.itemId,
      idempotencyKey: `reversal:${f.orderId}:${f.itemId}`,
      memo: `Recipient reversed by staff: ${reasonOf(f.reason, 'recipientReversal')}`,
    });
  },

  /** A result-checker purchase: its price leaves available at once (no hold). */
  rcDebit(f: { walletId: string; transactionId: string; amount: Pesewas; packageName: string }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER.result_checker.debit,
      availableDelta: -priced(f.amount, 'rcDebit'),
      heldDelta: 0,
      orderId: f.transactionId,
      rcTransactionId: f.transactionId,
      idempotencyKey: `rc_debit:${f.transactionId}`,
      memo: `Result checker ${f.packageName}`,
    });
  },

  /** A result-checker bulk purchase: one debit for the total of its payable items. */
  rcBulkDebit(f: { walletId: string; bulkId: string; amount: Pesewas; items: number }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER.result_checker.debit,
      availableDelta: -priced(f.amount, 'rcBulkDebit'),
      heldDelta: 0,
      idempotencyKey: `${RC_BULK_DEBIT_PREFIX}${f.bulkId}`,
      memo: `Result checker bulk purchase ${f.bulkId} (${f.items} items)`,
    });
  },

  /** A result-checker item that could not be supplied: its price comes back to available. */
  rcRefund(f: { walletId: string; transactionId: string; amount: Pesewas }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER.result_checker.refund,
      availableDelta: priced(f.amount, 'rcRefund'),
      heldDelta: 0,
      orderId: f.transactionId,
      rcTransactionId: f.transactionId,
      idempotencyKey: `rc_refund:${f.transactionId}`,
      memo: 'Result checker out of stock: refund',
    });
  },

  /**
   * A sold result-checker credential refunded by staff (the credential is voided): what the sale
   * charged comes back to available, once per sale.
   */
  rcReversal(f: { walletId: string; transactionId: string; amount: Pesewas; reason: string }): Posting {
    return posting({
      walletId: f.walletId,
      kind: ORDER_LEDGER.result_checker.reversal,
      availableDelta: priced(f.amount, 'rcReversal'),
      heldDelta: 0,
      orderId: f.transactionId,
      rcTransactionId: f.transactionId,
      idempotencyKey: `rc_reversal:${f.transactionId}`,
      memo: `Result checker refunded by staff: ${reasonOf(f.reason, 'rcReversal')}`,
    });
  },

  /** An approved top-up: its amount is credited to available, once per top-up. */
  topUpCredit(f: { walletId: string; topUpId: string; amount: Pesewas; method: string; reference: string }): Posting {
    return posting({
      walletId: f.walletId,
      kind: 'top_up',
      availableDelta: positive(f.amount, 'topUpCredit'),
      heldDelta: 0,
      topUpId: f.topUpId,
      idempotencyKey: `topup:${f.topUpId}`,
      memo: `Top-up ${f.method} ${f.reference}`,
    });
  },

  /** A wallet's opening balance from the seed import, credited once, when the wallet is created. */
  openingBalance(f: { walletId: string; amount: Pesewas }): Posting {
    return posting({
      walletId: f.walletId,
      kind: 'opening_balance',
      availableDelta: positive(f.amount, 'openingBalance'),
      heldDelta: 0,
      idempotencyKey: `opening:${f.walletId}`,
      memo: 'Opening balance from seed import',
    });
  },

  /** A staff adjustment that credits available, with its reason, once per adjustment. */
  adjustmentCredit(f: { walletId: string; adjustmentId: string; amount: Pesewas; reason: string }): Posting {
    return adjustment(f, positive(f.amount, 'adjustmentCredit'));
  },

  /** A staff adjustment that debits available (never below zero: the wallet refuses it), with its reason. */
  adjustmentDebit(f: { walletId: string; adjustmentId: string; amount: Pesewas; reason: string }): Posting {
    return adjustment(f, -positive(f.amount, 'adjustmentDebit'));
  },
} as const;

function adjustment(f: { walletId: string; adjustmentId: string; reason: string }, availableDelta: number): Posting {
  if (f.adjustmentId.trim() === '') throw new Error('adjustment: an adjustment id is required');
  return posting({
    walletId: f.walletId,
    kind: 'adjustment',
    availableDelta,
    heldDelta: 0,
    idempotencyKey: `${ADJUSTMENT_KEY_PREFIX}${f.adjustmentId}`,
    memo: `${ADJUSTMENT_MEMO_PREFIX}${reasonOf(f.reason, 'adjustment')}`,
  });
}
