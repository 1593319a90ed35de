import type { Command } from 'commander';
import type { AppContext } from '../../context.js';
import { ORDER_STATES } from '../../db/schema.js';
import { DomainError } from '../../domain/errors.js';
import type { Mode } from '../../domain/types.js';
import { pageRequest } from '../../lib/staff-page.js';
import { toOrderView } from '../../modules/orders/views.js';
import { PARTNER_MESSAGES } from '../../modules/deliveries/partner-messages.js';
import { formatGhs as ghs } from '../../lib/money.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import { EXPORT_MAX_ROWS, ordersCsv } from '../../modules/console/exports.js';
import { formatDuration as duration, parseDuration } from '../duration.js';
import { cliActor } from '../actor.js';
import { staffOrderJson, stuckJson } from '../json-views.js';
import { orderNamedBy } from '../order-identifier.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

/** What names an order on the command line (docs/cli.md, "Naming an order"). */
const ORDER_ARGUMENT = 'order id, short reference, paymentReference or recipient number (any form)';
const DAY_MS = 86_400_000;

/** A UTC day (2026-11-01) as the time it starts; undefined when not given. */
function utcDay(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  if (!Number.isFinite(ms) || !new Date(ms).toISOString().startsWith(value)) throw new CliError(`${flag} must be a day such as 2026-11-01, got "${value}"`);
  return ms;
}

const withoutRecipients = (order: object) => Object.fromEntries(Object.entries(order).filter(([key]) => key !== 'bulkRecipients'));

export function register(program: Command, io: CliIo): void {
  const orders = program.command('orders').description('inspect and correct data orders (staff)');

  orders
    .command('stuck')
    .option('--older-than <duration>', 'report deliveries open this long: 1s, 10s, 5m, 1h (default: ORDER_STUCK_AFTER_MS)')
    .option('--json', 'print the deliveries as JSON')
    .description('list deliveries still pending/processing after the deadline; exits 2 when there are any (for alerting)')
    .action(async (opts: { olderThan?: string; json?: boolean }) => {
      const olderThan = opts.olderThan === undefined ? undefined : parseDuration('--older-than', opts.olderThan);
      const found = await withRuntime(
        io,
        async ({ ctx }) => {
          const threshold = olderThan ?? ctx.config.orderStuckAfterMs;
          const { attention, stuck } = await ctx.console.stuckDeliveries(threshold);
          const now = Date.now();
          if (opts.json) {
            io.json(stuckJson(threshold, attention, stuck));
            return stuck.length + attention.length;
          }
          // First what only staff can settle: an upstream that may have delivered and will not say.
          for (const a of attention) {
            io.out(
              `${a.order_id} ${a.short_reference} ${a.mode} ${a.beneficiary_msisdn} needs attention: ${a.provider} attempt ${a.reference} ` +
                `${a.status} for ${duration(a.unknownForMs)} (${a.profile_id})${a.message ? `; last answer: ${a.message}` : ''}`,
            );
          }
          if (stuck.length === 0 && attention.length > 0) return attention.length;
          if (stuck.length === 0) {
            io.out(`orders stuck: none (no delivery open longer than ${duration(threshold)})`);
            return 0;
          }
          io.out(`orders stuck: ${stuck.length} deliveries open longer than ${duration(threshold)}`);
          for (const s of stuck) {
            const next = s.outbox
              ? `next ${s.outbox.kind} ${new Date(s.outbox.runAt).toISOString()}, tries ${s.outbox.tries}${s.outbox.lastError ? `, last error: ${s.outbox.lastError}` : ''}`
              : 'NO OUTBOX ROW';
            io.out(
              `${s.orderId} ${s.shortReference} ${s.mode} recipient ${s.recipient} ${s.msisdn} ${s.status} attempt ${s.attempt} ` +
                `for ${duration(now - s.since)} (${s.profileId}); ${next}`,
            );
          }
          return stuck.length + attention.length;
        },
        { logLevel: 'warn' },
      );
      // The summary was printed once above: exit 2 (for alerting) without repeating it.
      if (found > 0) throw new CliError('', 2);
    });

  orders
    .command('search')
    .option('--q <text>', 'an order id, a short reference, a paymentReference, part of a partner name, or a number in any form')
    .option('--mode <mode>', 'live or test', 'live')
    .option('--state <state>', `one of ${ORDER_STATES.join(', ')}`)
    .option('--profile <profileId>', "only this partner's orders")
    .option('--limit <n>', 'orders per page, newest first (1 to 500)', '50')
    .option('--cursor <cursor>', 'the next page: the continueCursor (or the "older" line) of the page before')
    .option('--type <type>', 'data or result_checker')
    .option('--from <day>', 'orders created on or after this UTC day (2026-11-01)')
    .option('--to <day>', 'orders created up to this UTC day, included (2026-11-30)')
    .option('--json', "print the page as JSON: the API's order shape (GHS) with the partner, mode and paymentReference")
    .option('--csv', `print every matching order (not a page: --limit and --cursor do not apply), up to ${EXPORT_MAX_ROWS}, as CSV: the console's orders export`)
    .description('find orders, newest first, a page at a time (the console\'s order search)')
    .action(async (opts: { q?: string; mode: string; state?: string; profile?: string; limit: string; cursor?: string; type?: string; from?: string; to?: string; json?: boolean; csv?: boolean }) => {
      if (opts.mode !== 'live' && opts.mode !== 'test') throw new CliError('--mode must be live or test');
      const mode: Mode = opts.mode;
      const state = opts.state === undefined ? undefined : ORDER_STATES.find((s) => s === opts.state);
      if (opts.state !== undefined && state === undefined) throw new CliError(`--state must be one of ${ORDER_STATES.join(', ')}`);
      if (opts.type !== undefined && opts.type !== 'data' && opts.type !== 'result_checker') throw new CliError('--type must be data or result_checker');
      const type: 'data' | 'result_checker' | undefined = opts.type;
      if (opts.json && opts.csv) throw new CliError('--json and --csv: choose one');
      const from = utcDay('--from', opts.from);
      const to = utcDay('--to', opts.to);
      const filter = { mode, text: opts.q, state, type, profileId: opts.profile, from, to: to === undefined ? undefined : to + DAY_MS };
      if (opts.csv) {
        await withRuntime(io, async ({ ctx }) => io.write(await refused(() => ordersCsv(ctx.console, filter))), { logLevel: 'warn' });
        return;
      }
      if (!/^\d+$/.test(opts.limit) || Number(opts.limit) < 1 || Number(opts.limit) > 500) throw new CliError('--limit must be an integer from 1 to 500');
      const page = pageRequest({ older: opts.cursor }, Number(opts.limit));
      if (!page) throw new CliError('--cursor is not a cursor this command printed');
      await withRuntime(
        io,
        async ({ ctx }) => {
          const found = await ctx.console.searchOrders(filter, page);
          if (opts.json) {
            return io.json({
              // A list reads no recipients: a bulk order's are in `orders show --json`.
              orders: found.rows.map((o) => ({
                ...withoutRecipients(toOrderView(o, [])),
                profileId: o.profile_id,
                partnerName: found.names.get(o.profile_id) ?? null,
                mode: o.mode,
                paymentReference: o.payment_reference,
              })),
              isDone: found.older === null,
              continueCursor: found.older ?? '',
            });
          }
          if (found.rows.length === 0) io.out('no order matches');
          for (const o of found.rows) {
            io.out(
              `${o.id} ${o.short_reference}  ${new Date(Number(o.created_at)).toISOString()}  ${o.mode}  ${o.state}  ${o.order_type}${o.is_bulk ? ' (bulk)' : ''}  ` +
                `${ghs(Number(o.amount))}  ${o.beneficiary_msisdn}  ${found.names.get(o.profile_id) ?? o.profile_id} (${o.profile_id})${o.payment_reference ? `  ref ${o.payment_reference}` : ''}`,
            );
          }
          if (found.older) io.out(`older: --cursor ${found.older}`);
        },
        { logLevel: 'warn' },
      );
    });

  orders
    .command('show')
    .argument('<order>', ORDER_ARGUMENT)
    .option('--json', "print the order as JSON: the API's order, then its deliveries, provider attempts and ledger entries")
    .description('show an order: its recipients (with their outbox step) and its ledger entries')
    .action(async (order: string, opts: { json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const named = await orderNamedBy(ctx, order);
          const d = await ctx.orders.detailForStaff(named.order.id);
          const attempts = await ctx.deliveries.attemptsOf(d.order.id);
          if (opts.json) return io.json(staffOrderJson(d, attempts));
          const o = d.order;
          const at = (ms: number | string | null) => (ms === null ? '-' : new Date(Number(ms)).toISOString());
          io.out(
            `order ${o.id} ${o.short_reference}  ${o.state}  ${o.mode}  ${o.order_type}${o.is_bulk ? ' (bulk)' : ''}  profile ${o.profile_id}`,
          );
          io.out(
            `  ${o.operator_name} ${o.package_label}  ${ghs(Number(o.amount))}  created ${at(o.created_at)}  completed ${at(o.completed_at)}`,
          );
          // What the partner reads; the upstreams' own answers are on the attempts below.
          if (o.error_message) io.out(`  error (as the partner reads it): ${o.error_message}`);
          if (o.reversal_reason) io.out(`  reversed ${at(o.reversed_at)}: ${o.reversal_reason}`);
          io.out('recipients:');
          for (const i of d.items) {
            const step = i.outbox_kind ? `; next ${i.outbox_kind} ${at(i.outbox_run_at)}, tries ${String(i.outbox_tries)}` : '';
            // A reversed recipient stays `completed` (it was delivered); the mark says its money went back.
            const reversed = i.reversed_at === null ? '' : `  REVERSED ${at(i.reversed_at)}: refunded ${ghs(Number(i.amount))}${i.reversal_reason ? ` (${i.reversal_reason})` : ''}`;
            io.out(
              `  #${i.idx} ${i.beneficiary_msisdn} ${i.status} attempt ${i.attempt} ${ghs(Number(i.amount))}${i.error_message ? ` (${i.error_message})` : ''}${step}${reversed}`,
            );
          }
          if (attempts.length > 0) io.out('provider attempts:');
          for (const a of attempts) {
            const cost = a.cost === null ? '' : ` cost ${ghs(a.cost)}`;
            const absences = a.absences > 0 ? ` proved absent ${String(a.absences)}x` : '';
            io.out(
              `  ${a.reference} ${a.provider} ${a.status}${a.provider_transaction_id ? ` tx ${a.provider_transaction_id}` : ''}${cost}${absences} created ${at(a.created_at)}` +
                `${a.message ? ` (${a.message})` : ''}${a.resolved_by ? ` resolved by ${a.resolved_by}` : ''}`,
            );
          }
          io.out('ledger:');
          if (d.ledger.length === 0) io.out('  none');
          for (const e of d.ledger) {
            io.out(
              `  ${String(e.id)} ${at(e.created_at)} ${e.kind} available ${ghs(Number(e.available_delta))} held ${ghs(Number(e.held_delta))}${e.memo ? `  ${e.memo}` : ''}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });

  orders
    .command('resolve')
    .argument('<order>', `${ORDER_ARGUMENT} of a delivery that needs attention`)
    .option('--delivered', 'the upstream delivered it: the order completes, the hold is spent')
    .option('--failed', 'the upstream did not deliver it: the delivery fails, the hold is returned')
    .option('--note <text>', "internal note, for staff only: what the upstream said, a ticket (kept on the attempt and in the audit trail; never shown to the partner)")
    .option('--partner-message <text>', `with --failed: what the partner reads as the order's errorMessage (default "${PARTNER_MESSAGES.resolvedFailed}")`)
    .option('--reason <text>', 'the same as --note (older scripts)')
    .option('--recipient <msisdn>', "a bulk order's recipient, by number (any form; default: the number the order was named by)")
    .description('settle an open delivery by hand after checking with its upstream (admin)')
    .action(async (order: string, opts: { delivered?: boolean; failed?: boolean; note?: string; reason?: string; partnerMessage?: string; recipient?: string }) => {
      if (Boolean(opts.delivered) === Boolean(opts.failed)) throw new CliError('give exactly one of --delivered or --failed');
      const note = opts.note ?? opts.reason;
      if (note === undefined) throw new CliError('give --note <text>: the internal note (what the upstream said, a ticket)');
      if (opts.note !== undefined && opts.reason !== undefined) throw new CliError('give --note or --reason (the same thing), not both');
      if (opts.partnerMessage !== undefined && opts.delivered) throw new CliError('--partner-message goes with --failed: a delivered order has no error message');
      const recipient = opts.recipient === undefined ? undefined : (normaliseGhanaMsisdn(opts.recipient) ?? opts.recipient.trim());
      await withRuntime(
        io,
        async ({ ctx }) => {
          const named = await orderNamedBy(ctx, order, { preferOpen: true });
          const msisdn = recipient ?? named.msisdn ?? undefined;
          await refused(async () => {
            const r = await ctx.console.resolveDelivery(cliActor(), {
              order: named.order.id,
              outcome: opts.delivered ? 'completed' : 'failed',
              note,
              ...(opts.partnerMessage === undefined ? {} : { partnerMessage: opts.partnerMessage }),
              ...(msisdn === undefined ? {} : { msisdn }),
            });
            io.out(`order ${r.orderId} ${r.shortReference}: delivery to ${r.msisdn} ${r.outcome === 'completed' ? 'delivered' : 'failed'} (resolved by hand)`);
          });
        },
        { logLevel: 'warn' },
      );
    });

  orders
    .command('retry')
    .argument('[order]', `${ORDER_ARGUMENT}; none: every order that orders stuck lists`)
    .option('--older-than <duration>', 'deliveries open this long count as stuck (default: ORDER_STUCK_AFTER_MS)')
    .description('make the stuck deliveries of an order (or of every stuck order) due now (the worker picks them up); exits 1 when a retry failed')
    .action(async (order: string | undefined, opts: { olderThan?: string }) => {
      const olderThan = opts.olderThan === undefined ? undefined : parseDuration('--older-than', opts.olderThan);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const threshold = olderThan ?? ctx.config.orderStuckAfterMs;
          if (order !== undefined) {
            const named = await orderNamedBy(ctx, order, { preferOpen: true });
            await refused(async () => {
              const r = await ctx.console.retryOrder(cliActor(), named.order.id, threshold);
              io.out(
                `retried ${r.orderId} (${r.shortReference}): ${r.stuck} stuck deliveries, ${r.hurried} made due now, ${r.requeued} requeued`,
              );
            }, 'cannot retry: ');
            return;
          }
          await retryEveryStuckOrder(io, ctx, threshold);
        },
        { logLevel: 'warn' },
      );
    });

  orders
    .command('reverse')
    .argument('<order>', `${ORDER_ARGUMENT} of a completed data order`)
    .requiredOption('--reason <text>', 'why it is reversed (kept on the order and in the ledger)')
    .option('--recipient <msisdn>', 'reverse only this completed recipient of a bulk order (its number, any written form)')
    .option('--json', 'print the order after it as the API shows it')
    .description('refund a completed data order once (or one completed recipient of a bulk order); its state becomes reversed')
    .action(async (order: string, opts: { reason: string; recipient?: string; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const named = await orderNamedBy(ctx, order);
          await refused(async () => {
            if (opts.recipient !== undefined) {
              const r = await ctx.console.reverseRecipient(cliActor(), named.order.id, opts.recipient, opts.reason);
              if (opts.json) return io.json(r.order);
              io.out(
                `reversed recipient ${r.recipient} of ${r.orderId} (${r.shortReference}): refunded ${ghs(r.refunded)}; wallet available now ${ghs(r.availableAfter)}` +
                  (r.orderReversed ? '; it was the last completed recipient: the order is reversed' : ''),
              );
              return;
            }
            const r = await ctx.console.reverseOrder(cliActor(), named.order.id, opts.reason);
            if (opts.json) return io.json(r.order);
            io.out(
              `reversed ${r.orderId} (${r.shortReference}): refunded ${ghs(r.refunded)}; wallet available now ${ghs(r.availableAfter)}`,
            );
          }, 'cannot reverse: ');
        },
        { logLevel: 'warn' },
      );
    });
}

/**
 * `orders retry` without an order: each order with a delivery that `orders stuck` lists as stuck
 * (same query, same threshold), once, in the order listed; a delivery that needs attention is left
 * to `orders resolve` (an upstream may have delivered it). Exits 1 when any retry failed.
 */
async function retryEveryStuckOrder(io: CliIo, ctx: AppContext, threshold: number): Promise<void> {
  const { attention, stuck } = await ctx.console.stuckDeliveries(threshold);
  for (const a of attention) {
    io.out(`${a.order_id} ${a.short_reference} skipped: needs attention (${a.provider} attempt ${a.reference} ${a.status}); settle it with orders resolve`);
  }
  const orders = [...new Map(stuck.map((s) => [s.orderId, s.shortReference])).entries()];
  if (orders.length === 0) {
    io.out(`orders retry: nothing stuck (no delivery open longer than ${duration(threshold)})`);
    return;
  }
  let failed = 0;
  for (const [orderId, shortReference] of orders) {
    try {
      const r = await ctx.console.retryOrder(cliActor(), orderId, threshold);
      io.out(`${r.orderId} ${r.shortReference} retried: ${r.stuck} stuck deliveries, ${r.hurried} made due now, ${r.requeued} requeued`);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failed++;
      io.out(`${orderId} ${shortReference} FAILED: ${error.message}`);
    }
  }
  io.out(`orders retry: ${orders.length - failed} of ${orders.length} orders retried${failed > 0 ? `, ${failed} failed` : ''}`);
  if (failed > 0) throw new CliError('', 1);
}
