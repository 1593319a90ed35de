import type { AppContext } from '../context.js';
import type { OrderRow } from '../db/schema.js';
import type { OrderCandidate } from '../modules/orders/service.js';
import { CliError } from './runtime.js';

/** Exit code of an identifier that names several orders (docs/cli.md, "Naming an order"). */
export const AMBIGUOUS_EXIT_CODE = 3;

export interface NamedOrder {
  order: OrderRow;
  /** The recipient's number (international form) when the order was named by it, else null. */
  msisdn: string | null;
}

function candidateLine(c: OrderCandidate): string {
  const partner = c.partnerName === null ? c.profileId : `${c.profileId} (${c.partnerName})`;
  const reference = c.paymentReference === null ? '' : `  paymentReference ${c.paymentReference}`;
  return `  ${c.id}  ${c.shortReference}  ${partner}  ${c.mode}  ${c.orderType}  ${c.state}  created ${new Date(c.createdAt).toISOString()}${reference}`;
}

/**
 * The order an argument names: an order id, a short reference, a partner's paymentReference or a
 * recipient's number in any written form (the orders module resolves it). None: exit 1. Several:
 * the candidates are printed and the command exits 3 asking for one, unless `preferOpen` (retry,
 * resolve) and exactly one of them is still open.
 */
export async function orderNamedBy(ctx: AppContext, identifier: string, options: { preferOpen?: boolean } = {}): Promise<NamedOrder> {
  const match = await ctx.orders.resolveForStaff(identifier, options);
  if (match.kind === 'one') return { order: match.order, msisdn: match.by === 'number' ? match.msisdn : null };
  if (match.kind === 'none') {
    throw new CliError(`no order ${identifier.trim()}: give an order id, a short reference, a paymentReference or a recipient's number`);
  }
  const open = match.candidates.filter((c) => c.state === 'pending' || c.state === 'processing').length;
  const why = options.preferOpen && open > 1 ? ` (${open} of them open)` : '';
  const lines = [
    `"${identifier.trim()}" names ${match.candidates.length}${match.more ? '+' : ''} orders${why}; name one by its id or short reference:`,
    ...match.candidates.map(candidateLine),
    ...(match.more ? ['  … and older ones not listed'] : []),
  ];
  throw new CliError(lines.join('\n'), AMBIGUOUS_EXIT_CODE);
}
