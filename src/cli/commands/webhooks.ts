import type { Command } from 'commander';
import { parseDeliveryId, type StaffDelivery } from '../../modules/webhooks/staff.js';
import { cliActor } from '../actor.js';
import { CliError, refused, withRuntime } from '../runtime.js';
import type { CliIo } from '../io.js';

const iso = (ms: number | null) => (ms === null ? '-' : new Date(ms).toISOString());

function parseLimit(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000)
    throw new CliError('--limit must be an integer from 1 to 1000');
  return Number(value);
}

const outcomeOf = (d: StaffDelivery) => (d.attempts === 0 ? 'not attempted' : d.lastStatusCode === null ? (d.lastError ?? 'no answer') : `HTTP ${d.lastStatusCode}`);

export function register(program: Command, io: CliIo): void {
  const webhooks = program.command('webhooks').description("partners' webhook endpoints and their failing deliveries");

  webhooks
    .command('list')
    .requiredOption('--profile <id>', 'the partner profile')
    .option('--json', "print as JSON: the API's endpoints, with mode and failingSince")
    .description("a profile's webhook endpoints in both modes, newest first (secrets are never shown)")
    .action(async (opts: { profile: string; json?: boolean }) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const endpoints = await ctx.webhookEndpoints.listForStaff(opts.profile);
          if (opts.json) return io.json(endpoints);
          if (endpoints.length === 0) io.out(`no webhook endpoints for ${opts.profile}`);
          for (const e of endpoints) {
            const state = e.status === 'enabled' ? 'enabled' : `disabled (${e.disabledReason ?? 'no reason'})`;
            const failing = e.failingSince === null ? '' : `  failing since ${iso(e.failingSince)}`;
            io.out(
              `${e._id}  ${e.mode}  ${state}  ${e.url}  events ${e.events.join(',')}  created ${iso(e.createdAt)}${failing}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });

  webhooks
    .command('failures')
    .requiredOption('--profile <id>', 'the partner profile')
    .option('--limit <n>', 'how many, latest first', '50')
    .option('--json', 'print as JSON')
    .description("a profile's deliveries whose last attempt failed: failed for good, or still being retried")
    .action(async (opts: { profile: string; limit: string; json?: boolean }) => {
      const limit = parseLimit(opts.limit);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const failures = await ctx.webhookEndpoints.recentFailures(opts.profile, limit);
          if (opts.json) return io.json(failures);
          if (failures.length === 0) io.out(`no failing webhook deliveries for ${opts.profile}`);
          for (const d of failures) {
            const outcome = d.lastStatusCode === null ? (d.lastError ?? 'no answer') : `HTTP ${d.lastStatusCode}`;
            const state = d.status === 'failed' ? 'failed' : 'retrying';
            io.out(
              `${d.deliveryId}  ${d.eventId}  ${d.eventType}  ${d.mode}  ${state}  ${d.attempts} attempt(s)  last ${iso(d.lastAttemptAt)} ${outcome}  → ${d.endpointId} ${d.url}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });

  webhooks
    .command('disable')
    .argument('<endpointId>', 'the endpoint (we_…)')
    .requiredOption('--reason <text>', 'why (shown to the partner on the endpoint)')
    .description('disable a webhook endpoint: its pending deliveries stop; the partner can create a new one')
    .action(async (endpointId: string, opts: { reason: string }) => {
      const reason = opts.reason.trim();
      if (reason === '') throw new CliError('--reason must not be empty');
      await withRuntime(
        io,
        async ({ ctx }) => {
          await refused(() => ctx.console.disableWebhookEndpoint(cliActor(), endpointId, reason), 'refused: ');
          io.out(`disabled ${endpointId}: ${reason}`);
        },
        { logLevel: 'warn' },
      );
    });

  webhooks
    .command('enable')
    .argument('<endpointId>', 'the endpoint (we_…)')
    .description('enable a disabled webhook endpoint again (not one the partner deleted); its failed deliveries stay failed: redeliver them')
    .action(async (endpointId: string) => {
      await withRuntime(
        io,
        async ({ ctx }) => {
          const owner = await refused(() => ctx.console.enableWebhookEndpoint(cliActor(), endpointId), 'refused: ');
          io.out(`enabled ${endpointId} (${owner.profileId}, ${owner.mode})`);
        },
        { logLevel: 'warn' },
      );
    });

  webhooks
    .command('deliveries')
    .argument('<endpointId>', 'the endpoint (we_…)')
    .option('--limit <n>', 'how many, latest first', '50')
    .option('--json', 'print the deliveries as JSON')
    .description("an endpoint's latest deliveries: event, attempts, last answer, next attempt, state")
    .action(async (endpointId: string, opts: { limit: string; json?: boolean }) => {
      const limit = parseLimit(opts.limit);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const deliveries = await refused(() => ctx.webhookStaff.deliveriesOf(endpointId, limit), 'refused: ');
          if (opts.json) return io.json(deliveries);
          if (deliveries.length === 0) io.out(`no deliveries to ${endpointId}`);
          for (const d of deliveries) {
            const next = d.nextAttemptAt === null ? '' : `  next ${iso(d.nextAttemptAt)}`;
            io.out(
              `${d.deliveryId}  ${d.eventId}  ${d.eventType}  ${d.state}  ${d.attempts} attempt(s)  last ${iso(d.lastAttemptAt)} ${outcomeOf(d)}${next}`,
            );
          }
        },
        { logLevel: 'warn' },
      );
    });

  webhooks
    .command('redeliver')
    .argument('<deliveryId>', 'the delivery (a number, as `webhooks deliveries` and `webhooks failures --json` show it)')
    .option('--json', 'print the queued delivery as JSON')
    .description('queue the delivery again from the start of the retry schedule: the worker sends the event to that endpoint once more')
    .action(async (given: string, opts: { json?: boolean }) => {
      const deliveryId = parseDeliveryId(given);
      if (deliveryId === null) throw new CliError(`<deliveryId> must be a delivery number, not ${JSON.stringify(given)}`);
      await withRuntime(
        io,
        async ({ ctx }) => {
          const queued = await refused(() => ctx.console.redeliverWebhook(cliActor(), deliveryId), 'refused: ');
          if (opts.json) return io.json({ ...queued, status: 'pending' });
          io.out(`queued delivery ${queued.deliveryId} of ${queued.eventId} to ${queued.endpointId}: the worker sends it shortly`);
        },
        { logLevel: 'warn' },
      );
    });
}
