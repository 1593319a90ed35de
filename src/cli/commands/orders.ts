import type { Command } from 'commander';
import { DomainError } from '../../domain/errors.js';
import { formatGhs as ghs } from '../../lib/money.js';
import { CliError, withRuntime } from '../runtime.js';

function duration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}h${minutes % 60}m`;
  if (minutes >= 1) return `${minutes}m${Math.floor((ms % 60_000) / 1000)}s`;
  return `${Math.floor(ms / 1000)}s`;
}

export function register(program: Command): void {
  const orders = program.command('orders').description('inspect and correct data orders (staff)');

  orders
    .command('stuck')
    .option('--older-than <ms>', 'report deliveries open this long (default: ORDER_STUCK_AFTER_MS)')
    .description('list deliveries still pending/processing after the deadline; exits 2 when there are any (for alerting)')
    .action(async (opts: { olderThan?: string }) => {
      let olderThan: number | undefined;
      if (opts.olderThan !== undefined) {
        olderThan = /^\d+$/.test(opts.olderThan) ? Number(opts.olderThan) : NaN;
        if (!Number.isSafeInteger(olderThan)) throw new CliError('--older-than must be a number of milliseconds');
      }
      const found = await withRuntime(
        async ({ ctx }) => {
          const threshold = olderThan ?? ctx.config.orderStuckAfterMs;
          const stuck = await ctx.orders.stuck(threshold);
          const now = Date.now();
          if (stuck.length === 0) {
            console.log(`orders stuck: none (no delivery open longer than ${duration(threshold)})`);
            return 0;
          }
          console.log(`orders stuck: ${stuck.length} deliveries open longer than ${duration(threshold)}`);
          for (const s of stuck) {
            const next = s.outbox
              ? `next ${s.outbox.kind} ${new Date(s.outbox.runAt).toISOString()}, tries ${s.outbox.tries}${s.outbox.lastError ? `, last error: ${s.outbox.lastError}` : ''}`
              : 'NO OUTBOX ROW';
            console.log(
              `${s.orderId} ${s.shortReference} ${s.mode} recipient ${s.recipient} ${s.msisdn} ${s.status} attempt ${s.attempt} ` +
                `for ${duration(now - s.since)} (${s.profileId}); ${next}`,
            );
          }
          return stuck.length;
        },
        { logLevel: 'warn' },
      );
      if (found > 0) throw new CliError(`orders stuck: ${found} deliveries need attention`, 2);
    });

  orders
    .command('reverse')
    .argument('<orderId>', 'a completed data order')
    .requiredOption('--reason <text>', 'why it is reversed (kept on the order and in the ledger)')
    .description('refund a completed data order once; its state becomes reversed')
    .action(async (orderId: string, opts: { reason: string }) => {
      await withRuntime(
        async ({ ctx }) => {
          try {
            const r = await ctx.orders.reverse(orderId, opts.reason);
            console.log(
              `reversed ${r.orderId} (${r.shortReference}): refunded ${ghs(r.refunded)}; wallet available now ${ghs(r.availableAfter)}`,
            );
          } catch (error) {
            if (error instanceof DomainError) throw new CliError(`cannot reverse: ${error.message}`);
            throw error;
          }
        },
        { logLevel: 'warn' },
      );
    });
}
