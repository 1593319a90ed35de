import type { OrderRow, TopUpRow } from '../../db/schema.js';
import { invalid } from '../../domain/errors.js';
import { csvDocument, csvText } from '../../lib/csv.js';
import { toGhs } from '../../lib/money.js';
import { FIRST_PAGE, pageRequest, type Page, type PageRequest } from '../../lib/staff-page.js';
import type { ConsoleOperations } from './operations.js';

/**
 * The orders and top-ups lists as CSV (docs/console.md, "Exports"): every row the list's filters
 * match, not only the page shown, read a page at a time in the list's own keyset order (newest
 * first). An export holds at most EXPORT_MAX_ROWS rows: one that would hold more is refused, so a
 * file never ends silently short; a shorter period or another filter exports the rest.
 */
export const EXPORT_MAX_ROWS = 20_000;
/** Rows read per query. */
const READ_ROWS = 1_000;

/** The most rows an export holds, and how many it reads a query (both have defaults; tests make them small). */
export interface ExportLimits {
  max?: number;
  readRows?: number;
}

type Found<T> = Page<T> & { names: ReadonlyMap<string, string> };

/** Every row a list's filters match, newest first, with the partners' names (at most `max` rows). */
async function everyRow<T>(read: (page: PageRequest) => Promise<Found<T>>, limits: ExportLimits, what: string, each?: (rows: T[]) => Promise<void>) {
  const { max = EXPORT_MAX_ROWS, readRows = READ_ROWS } = limits;
  const rows: T[] = [];
  const names = new Map<string, string>();
  let page: PageRequest | null = FIRST_PAGE(Math.min(readRows, max + 1));
  while (page !== null) {
    const found = await read(page);
    rows.push(...found.rows);
    if (rows.length > max) throw invalid('INVALID_REQUEST', `more than ${max} ${what} match: export a shorter period or narrow the filters`);
    for (const [id, name] of found.names) names.set(id, name);
    if (each) await each(found.rows);
    page = found.older === null ? null : pageRequest({ older: found.older }, Math.min(readRows, max + 1 - rows.length));
  }
  return { rows, names };
}

const iso = (ms: number | string | null) => (ms === null ? '' : new Date(Number(ms)).toISOString());
const ghs = (pesewas: number | string) => toGhs(Number(pesewas)).toFixed(2);

export const ORDERS_CSV_HEADER = [
  'id',
  'short_reference',
  'created_at',
  'partner_id',
  'partner_name',
  'mode',
  'type',
  'bulk',
  'operator',
  'package',
  'number',
  'recipients',
  'amount_ghs',
  'state',
  'completed_at',
  'refunded_ghs',
] as const;

type OrderFilter = Parameters<ConsoleOperations['searchOrders']>[0];

/** The orders a filter matches as CSV (ORDERS_CSV_HEADER): a bulk order's number is empty, its recipients counted. */
export async function ordersCsv(ops: ConsoleOperations, filter: OrderFilter, limits: ExportLimits = {}): Promise<string> {
  const facts = new Map<string, { recipients: number; refunded: number }>();
  const { rows, names } = await everyRow<OrderRow>((page) => ops.searchOrders(filter, page), limits, 'orders', async (page) => {
    for (const [id, f] of await ops.orderExportFacts(page.map((o) => o.id))) facts.set(id, f);
  });
  return csvDocument(
    ORDERS_CSV_HEADER,
    rows.map((o) => {
      const f = facts.get(o.id) ?? { recipients: 0, refunded: 0 };
      const bulk = Number(o.is_bulk) === 1;
      return [
        o.id,
        o.short_reference,
        iso(o.created_at),
        o.profile_id,
        csvText(names.get(o.profile_id) ?? ''),
        o.mode,
        o.order_type,
        bulk ? 'yes' : 'no',
        csvText(o.operator_name),
        csvText(o.package_label),
        bulk ? '' : csvText(o.beneficiary_msisdn),
        f.recipients,
        ghs(o.amount),
        o.state,
        iso(o.completed_at),
        f.refunded > 0 ? ghs(f.refunded) : '',
      ];
    }),
  );
}

export const TOP_UPS_CSV_HEADER = [
  'id',
  'created_at',
  'partner_id',
  'partner_name',
  'mode',
  'method',
  'amount_ghs',
  'reference',
  'status',
  'decided_at',
  'decided_by',
  'first_approved_by',
  'rejection_reason',
] as const;

type TopUpFilter = Parameters<ConsoleOperations['topUps']>[0];

/** The top-ups a filter matches as CSV (TOP_UPS_CSV_HEADER); the gateway's own answers are not in it. */
export async function topUpsCsv(ops: ConsoleOperations, filter: TopUpFilter, limits: ExportLimits = {}): Promise<string> {
  const { rows, names } = await everyRow<TopUpRow>((page) => ops.topUps(filter, page), limits, 'top-ups');
  return csvDocument(
    TOP_UPS_CSV_HEADER,
    rows.map((t) => [
      t.id,
      iso(t.created_at),
      t.profile_id,
      csvText(names.get(t.profile_id) ?? ''),
      t.mode,
      t.method,
      ghs(t.amount),
      csvText(t.reference),
      t.status,
      iso(t.decided_at),
      csvText(t.decided_by ?? ''),
      csvText(t.first_approved_by ?? ''),
      csvText(t.rejection_reason ?? ''),
    ]),
  );
}
