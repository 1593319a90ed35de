import type { Command } from 'commander';
import { SIMULATED_OUTCOMES, type SimulatedOutcome } from '../../providers/simulator-kit.js';
import { SIMULATORS } from '../../providers/simulators.js';
import { PAYSTACK_OUTCOMES, startPaystackSimulator, type PaystackOutcome } from '../../providers/paystack/simulator.js';
import { UPSTREAM_NAMES, type UpstreamName } from '../../providers/types.js';
import { CliError } from '../runtime.js';
import type { CliIo } from '../io.js';

function wholeMs(flag: string, value: string): number {
  if (!/^\d+$/.test(value)) throw new CliError(`${flag} must be a whole number of milliseconds (got "${value}")`);
  return Number(value);
}

export function register(program: Command, io: CliIo): void {
  program
    .command('simulate')
    .argument('<upstream>', [...UPSTREAM_NAMES, 'paystack'].join(' | '))
    .option('--port <n>', 'port to listen on (default: any free port)', '0')
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option('--outcome <outcome>', `what submissions get: ${SIMULATED_OUTCOMES.join(', ')} (paystack: ${PAYSTACK_OUTCOMES.join(', ')}; default pay_offline)`)
    .option('--settle-ms <ms>', 'from taking an order to its final state', '2000')
    .option('--latency-ms <ms>', 'added before every answer', '0')
    .option('--callback-url <url>', "Reloadly: where its signed callbacks go (<PUBLIC_BASE_URL>/callbacks/reloadly); Paystack: its webhook URL (<PUBLIC_BASE_URL>/callbacks/paystack)")
    .option('--webhook-secret <secret>', "Reloadly: the secret its callbacks are signed with (RELOADLY_WEBHOOK_SECRET)")
    .description('run an upstream simulator (Hubtel, Reloadly or DT One) or the Paystack simulator for staging or the demo; prints the variables that point partner-api at it')
    .action(
      async (
        upstream: string,
        opts: { port: string; host: string; outcome?: string; settleMs: string; latencyMs: string; callbackUrl?: string; webhookSecret?: string },
      ) => {
        if (upstream === 'paystack') return runPaystack(io, opts);
        if (!(UPSTREAM_NAMES as readonly string[]).includes(upstream)) throw new CliError(`upstream must be one of ${UPSTREAM_NAMES.join(', ')}, paystack (got "${upstream}")`);
        opts.outcome ??= 'complete';
        if (!(SIMULATED_OUTCOMES as readonly string[]).includes(opts.outcome)) {
          throw new CliError(`--outcome must be one of ${SIMULATED_OUTCOMES.join(', ')} (got "${opts.outcome}")`);
        }
        const port = wholeMs('--port', opts.port);
        if (port > 65535) throw new CliError(`--port must be at most 65535 (got ${port})`);
        const start = SIMULATORS[upstream as UpstreamName];
        if (!start) throw new CliError(`no simulator for ${upstream} in this build`);
        const sim = await start({
          port,
          host: opts.host,
          behaviour: {
            outcome: opts.outcome as SimulatedOutcome,
            settleMs: wholeMs('--settle-ms', opts.settleMs),
            latencyMs: wholeMs('--latency-ms', opts.latencyMs),
          },
          ...(opts.callbackUrl ? { callbackUrl: opts.callbackUrl } : {}),
          ...(opts.webhookSecret ? { webhookSecret: opts.webhookSecret } : {}),
        });
        io.out(`${upstream} simulator listening at ${sim.url} (state: GET ${sim.url}/_sim/state, switches: POST ${sim.url}/_sim/behaviour)`);
        io.out('point partner-api at it with:');
        for (const [name, value] of Object.entries(sim.env)) io.out(`${name}=${value}`);
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await sim.close();
      },
    );
}

/** `simulate paystack`: the Paystack simulator (docs/paystack-api.md), switched under /_sim/ like the others. */
async function runPaystack(io: CliIo, opts: { port: string; host: string; outcome?: string; settleMs: string; latencyMs: string; callbackUrl?: string }): Promise<void> {
  const outcome = opts.outcome ?? 'pay_offline';
  if (!(PAYSTACK_OUTCOMES as readonly string[]).includes(outcome)) throw new CliError(`--outcome must be one of ${PAYSTACK_OUTCOMES.join(', ')} for paystack (got "${outcome}")`);
  const port = wholeMs('--port', opts.port);
  if (port > 65535) throw new CliError(`--port must be at most 65535 (got ${port})`);
  const sim = await startPaystackSimulator({
    port,
    host: opts.host,
    behaviour: { outcome: outcome as PaystackOutcome, settleMs: wholeMs('--settle-ms', opts.settleMs), latencyMs: wholeMs('--latency-ms', opts.latencyMs) },
    ...(opts.callbackUrl ? { webhookUrl: opts.callbackUrl } : {}),
  });
  io.out(`paystack simulator listening at ${sim.url} (state: GET ${sim.url}/_sim/state, switches: POST ${sim.url}/_sim/behaviour, /_sim/settle, /_sim/webhook)`);
  io.out('point partner-api at it with:');
  for (const [name, value] of Object.entries(sim.env)) io.out(`${name}=${value}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await sim.close();
}
