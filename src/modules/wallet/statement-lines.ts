import type { LedgerKind } from '../../db/schema.js';
import { ADJUSTMENT_KEY_PREFIX, RC_BULK_DEBIT_PREFIX } from './postings.js';
import type { StatementRange, StatementRepository } from './statement-repository.js';

/**
 * A statement as a partner reads it (docs/api.md, "Wallet transactions"; docs/console.md,
 * "Statements"): one line per purchase, refund, top-up or adjustment, each with the available
 * balance after it, instead of the ledger's entries. A line is the entries one unit of work booked
 * for one record with one meaning (a bulk order's holds are one charge); a delivered order's
 * settle moves only held money and makes no line.
 */
export const LINE_TYPES = ['order', 'refund', 'topup', 'adjustment', 'opening'] as const;
export type LineType = (typeof LINE_TYPES)[number];

/** The line type of each ledger kind (null: the entry moves no available money). */
const LINE_OF: Record<LedgerKind, LineType | null> = {
  opening_balance: 'opening',
  top_up: 'topup',
  data_hold: 'order',
  data_settle: null,
  data_release: 'refund',
  data_reversal: 'refund',
  data_recipient_reversal: 'refund',
  rc_debit: 'order',
  rc_refund: 'refund',
  rc_reversal: 'refund',
  adjustment: 'adjustment',
};

/** The ledger kinds whose entries make lines of these types. */
export function kindsOfTypes(types: readonly LineType[]): LedgerKind[] {
  return (Object.entries(LINE_OF) as [LedgerKind, LineType | null][]).filter(([, t]) => t !== null && types.includes(t)).map(([k]) => k);
}

export function isLineType(value: string): value is LineType {
  return (LINE_TYPES as readonly string[]).includes(value);
}

/** One line; amounts in pesewas (negative: a debit of available). */
export interface ReadableLine {
  /** The line's first (lowest) ledger entry: its stable id. */
  firstEntry: number;
  /** Its last entry: where the next page in ledger order starts. */
  lastEntry: number;
  at: number;
  type: LineType;
  description: string;
  amount: number;
  /** Available after the line. */
  balanceAfter: number;
  heldAfter: number;
  orderId: string | null;
  shortReference: string | null;
  /** The number served (null for several recipients or a top-up). */
  beneficiaryMsisdn: string | null;
  packageName: string | null;
  topUpId: string | null;
  adjustmentId: string | null;
}

type Movement = Awaited<ReturnType<StatementRepository['movements']>>[number];

interface Group {
  key: string;
  type: LineType;
  kinds: Set<LedgerKind>;
  first: number;
  last: number;
  at: number;
  amount: number;
  balanceAfter: number;
  heldAfter: number;
  orderId: string | null;
  items: Set<string>;
  topUpId: string | null;
  adjustmentId: string | null;
  rcBulkId: string | null;
}

function sourceKey(e: Movement): { orderId: string | null; topUpId: string | null; adjustmentId: string | null; rcBulkId: string | null } {
  const key = e.idempotency_key ?? '';
  return {
    orderId: e.order_id,
    topUpId: e.top_up_id,
    adjustmentId: key.startsWith(ADJUSTMENT_KEY_PREFIX) ? key.slice(ADJUSTMENT_KEY_PREFIX.length) : null,
    rcBulkId: key.startsWith(RC_BULK_DEBIT_PREFIX) ? key.slice(RC_BULK_DEBIT_PREFIX.length) : null,
  };
}

/** Entries fetched per query while lines are put together (a bulk order's line may span many). */
const BATCH = 500;

/**
 * Up to `limit` lines of the range from entry `from` on (exclusive; null: the start), in ledger
 * order or newest first. A line is never split across pages: the page ends after a whole line.
 */
export async function readLines(
  repo: StatementRepository,
  range: StatementRange,
  direction: 'asc' | 'desc',
  from: number | null,
  limit: number,
): Promise<{ lines: ReadableLine[]; more: boolean }> {
  const groups: Group[] = [];
  let current = null as Group | null;
  let cursor = from;
  let more = false;
  read: for (;;) {
    const batch = await repo.movements(range, direction, cursor, BATCH);
    for (const e of batch) {
      const type = LINE_OF[e.kind];
      if (type === null) continue;
      const source = sourceKey(e);
      const at = Number(e.created_at);
      const key = [type, at, source.orderId, source.topUpId, source.adjustmentId, source.rcBulkId].join('|');
      const id = Number(e.id);
      if (current?.key === key) {
        current.kinds.add(e.kind);
        current.first = Math.min(current.first, id);
        current.amount += Number(e.available_delta);
        if (id > current.last) {
          current.last = id;
          current.balanceAfter = Number(e.available_after);
          current.heldAfter = Number(e.held_after);
        }
        if (e.order_item_id !== null) current.items.add(e.order_item_id);
        continue;
      }
      if (current) {
        groups.push(current);
        if (groups.length === limit) {
          more = true;
          current = null;
          break read;
        }
      }
      current = {
        key,
        type,
        kinds: new Set([e.kind]),
        first: id,
        last: id,
        at,
        amount: Number(e.available_delta),
        balanceAfter: Number(e.available_after),
        heldAfter: Number(e.held_after),
        items: new Set(e.order_item_id === null ? [] : [e.order_item_id]),
        ...source,
      };
    }
    if (batch.length < BATCH) break;
    cursor = Number(batch[batch.length - 1]?.id);
  }
  if (current) groups.push(current);
  return { lines: await describe(repo, groups), more };
}

const byId = <T extends { id: string }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
const distinct = (values: string[]) => [...new Set(values.filter((v) => v !== ''))];

/** Each group as a line in the partner's words: never a memo (staff reasons) nor an upstream's name. */
async function describe(repo: StatementRepository, groups: Group[]): Promise<ReadableLine[]> {
  const ids = (pick: (g: Group) => string | null) => distinct(groups.map(pick).filter((v): v is string => v !== null));
  const [orders, items, topUps, adjustments, bulks] = await Promise.all([
    repo.orders(ids((g) => g.orderId)).then(byId),
    repo.orderItems(distinct(groups.flatMap((g) => [...g.items]))).then(byId),
    repo.topUps(ids((g) => g.topUpId)).then(byId),
    repo.adjustments(ids((g) => g.adjustmentId)).then(byId),
    repo.rcBulks(ids((g) => g.rcBulkId)),
  ]);
  return groups.map((g) => {
    const line: ReadableLine = {
      firstEntry: g.first,
      lastEntry: g.last,
      at: g.at,
      type: g.type,
      description: '',
      amount: g.amount,
      balanceAfter: g.balanceAfter,
      heldAfter: g.heldAfter,
      orderId: g.orderId,
      shortReference: null,
      beneficiaryMsisdn: null,
      packageName: null,
      topUpId: g.topUpId,
      adjustmentId: g.adjustmentId,
    };
    const order = g.orderId === null ? undefined : orders.get(g.orderId);
    if (order) {
      const recipients = [...g.items].map((i) => items.get(i)).filter((i) => i !== undefined);
      const numbers = distinct(recipients.length > 0 ? recipients.map((r) => r.beneficiary_msisdn) : [order.beneficiary_msisdn]);
      const labels = distinct(recipients.length > 0 ? recipients.map((r) => r.package_label) : [order.package_label]);
      line.shortReference = order.short_reference;
      line.beneficiaryMsisdn = numbers.length === 1 ? (numbers[0] ?? null) : null;
      line.packageName = labels.length === 1 ? (labels[0] ?? null) : null;
      line.description = orderDescription(g, order.order_type === 'result_checker', line, Math.max(recipients.length, 1));
    } else if (g.rcBulkId !== null) {
      const sold = bulks.filter((b) => b.bulk_id === g.rcBulkId);
      const names = distinct(sold.map((b) => b.package_name));
      line.packageName = names.length === 1 ? (names[0] ?? null) : null;
      line.description = `Result checker bulk purchase: ${sold.length} ${sold.length === 1 ? 'item' : 'items'}${line.packageName ? ` (${line.packageName})` : ''}`;
    } else if (g.topUpId !== null) {
      const topUp = topUps.get(g.topUpId);
      line.description = topUp ? `Top-up by ${topUp.method === 'momo' ? 'Mobile Money' : 'bank transfer'}, reference ${topUp.reference}` : 'Top-up';
    } else if (g.adjustmentId !== null) {
      const reason = adjustments.get(g.adjustmentId)?.reason;
      line.description = `Adjustment by our staff${reason ? `: ${reason}` : ''}`;
    } else {
      line.description = g.type === 'opening' ? 'Opening balance' : 'Balance change';
    }
    return line;
  });
}

function orderDescription(g: Group, resultChecker: boolean, l: ReadableLine, recipients: number): string {
  const goods = resultChecker ? 'Result checker' : 'Data bundle';
  const what = `${goods}${l.packageName ? ` ${l.packageName}` : ''}`;
  const to = l.beneficiaryMsisdn ? ` for ${l.beneficiaryMsisdn}` : recipients > 1 ? ` for ${recipients} recipients` : '';
  const ref = l.shortReference ? ` (order ${l.shortReference})` : '';
  if (g.type === 'order') return `${what}${to}${ref}`;
  if (g.kinds.has('data_release')) return `Refund: ${what}${to} not delivered${ref}`;
  if (g.kinds.has('rc_refund')) return `Refund: ${what} out of stock${ref}`;
  return `Refund: ${what}${to} reversed${ref}`;
}
