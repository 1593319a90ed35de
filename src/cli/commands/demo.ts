import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { RunningSimulator } from '../../providers/simulator-kit.js';
import { SIMULATORS } from '../../providers/simulators.js';
import { startPaystackSimulator, type RunningPaystackSimulator } from '../../providers/paystack/simulator.js';
import { UPSTREAM_NAMES } from '../../providers/types.js';
import { cliActor } from '../actor.js';
import { removeDemoEnv, writeDemoEnv } from '../demo-env.js';
import { CliError, openRuntime, type Runtime } from '../runtime.js';
import { formatSummary, importSeedFile } from './import.js';
import { serve } from './serve.js';
import type { CliIo } from '../io.js';

const DEMO_SEED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-seed.json');
const DEMO_KEY = 'service_test_demoAmaMensahTest0001';
const DEMO_LIVE_KEY = 'service_live_demoAmaMensahLive0001';

/** The demo's keys are published in the repository: unless HOST says otherwise, only this machine may call it. */
export const DEMO_DEFAULT_HOST = '127.0.0.1';

/** The console login the demo creates (a new password each run). */
export const DEMO_STAFF_EMAIL = 'demo-admin@example.com';

/**
 * The environment the demo runs with: HOST defaults to DEMO_DEFAULT_HOST (serve's default stays
 * 0.0.0.0), and the console is on unless CONSOLE_ENABLED says otherwise.
 */
export function demoEnvironment(env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; localOnly: boolean } {
  const withConsole = env.CONSOLE_ENABLED?.trim() ? env : { ...env, CONSOLE_ENABLED: 'true' };
  if (env.HOST?.trim()) return { env: withConsole, localOnly: false };
  return { env: { ...withConsole, HOST: DEMO_DEFAULT_HOST }, localOnly: true };
}

/** A live order to this number shows failover: Hubtel refuses it for float, the next route delivers. */
export const DEMO_FAILOVER_NUMBER = '0244000777';

/**
 * The demo's upstreams: a simulator of Hubtel, Reloadly and DT One each (docs/live-delivery.md,
 * "Simulators"), on loopback, calling back to the demo; the demo seed routes its MTN packages
 * through them. Returns the environment that enables them, and the simulators to stop.
 */
async function startDemoUpstreams(
  env: NodeJS.ProcessEnv,
  firstPort: number | null,
): Promise<{ env: NodeJS.ProcessEnv; upstreamVars: Record<string, string>; simulators: RunningSimulator[]; paystack: RunningPaystackSimulator }> {
  const port = env.PORT?.trim() || '8080';
  const base = `http://127.0.0.1:${port}`;
  const webhookSecret = randomBytes(24).toString('hex');
  const simulators: RunningSimulator[] = [];
  let upstreamEnv: NodeJS.ProcessEnv = {
    PUBLIC_BASE_URL: base,
    PROVIDER_CALLBACK_TOKEN: randomBytes(24).toString('hex'),
  };
  // Fixed ports (--simulator-ports): Hubtel, Reloadly, DT One, then Paystack from the first on.
  let nextPort = firstPort;
  /** Starts one simulator (on the next fixed port, if any); a busy port stops the demo with a clear line. */
  async function started<T>(name: string, start: (port: { port?: number }) => Promise<T>): Promise<T> {
    const port = nextPort === null ? {} : { port: nextPort++ };
    try {
      return await start(port);
    } catch (error) {
      for (const sim of simulators) await sim.close();
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
      throw new CliError(`port ${port.port ?? '?'} for the ${name} simulator is already in use: choose other ports with --simulator-ports <first> (it and the next three)`);
    }
  }
  for (const name of UPSTREAM_NAMES) {
    const start = SIMULATORS[name];
    if (!start) continue;
    const sim = await started(name, (port) =>
      start({
        ...port,
        behaviour: {
          settleMs: 3000,
          numbers: name === 'hubtel' ? { [`233${DEMO_FAILOVER_NUMBER.slice(1)}`]: 'refuse-float' } : {},
        },
        ...(name === 'reloadly' ? { callbackUrl: `${base}/callbacks/reloadly`, webhookSecret } : {}),
      }),
    );
    simulators.push(sim);
    upstreamEnv = { ...upstreamEnv, ...sim.env };
  }
  // Mobile Money top-ups (docs/mobile-money.md) through the Paystack simulator, its webhooks to the demo.
  const paystack = await started('paystack', (port) =>
    startPaystackSimulator({ ...port, behaviour: { settleMs: 3000 }, webhookUrl: `${base}/callbacks/paystack` }),
  );
  upstreamEnv = { ...upstreamEnv, ...paystack.env };
  // The demo's own choices (an operator's environment) win over the simulators'.
  const merged = { ...upstreamEnv, ...env };
  const upstreamVars = Object.fromEntries(Object.keys(upstreamEnv).map((name) => [name, merged[name] ?? '']));
  return { env: merged, upstreamVars, simulators, paystack };
}

/**
 * Imports the demo seed into an empty database only (no profile and no data package yet): a
 * database someone has worked on keeps what they did. Returns what to print.
 */
export async function importDemoSeed(rt: Runtime): Promise<string> {
  if (!(await rt.ctx.seeds.isEmpty())) {
    return 'import skipped: the database already has profiles or packages (the demo imports examples/demo-seed.json into an empty database only)';
  }
  return formatSummary(await importSeedFile(rt, DEMO_SEED));
}

/** `--simulator-ports <first>`: the first of four free ports in a row, or null for any free ports. */
function firstSimulatorPort(value: string | undefined): number | null {
  if (value === undefined) return null;
  const first = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(first >= 1 && first + 3 <= 65535)) throw new CliError(`--simulator-ports must be a port from 1 to 65532 (got "${value}"): the simulators take it and the next three`);
  return first;
}

/** The demo's admin login: created on the first run, a fresh one-time password on every run. */
async function demoStaffLogin(ctx: Runtime['ctx']): Promise<string> {
  const existing = await ctx.staff.findByEmail(DEMO_STAFF_EMAIL);
  const { password } = existing
    ? await ctx.staff.resetPassword(cliActor(), DEMO_STAFF_EMAIL)
    : await ctx.staff.create(cliActor(), DEMO_STAFF_EMAIL, 'admin');
  return password;
}

export function register(program: Command, io: CliIo): void {
  program
    .command('demo')
    .description(
      'import examples/demo-seed.json into the configured database when it is empty, and serve it (on 127.0.0.1 unless HOST is set) with upstream simulators',
    )
    .option('--simulator-ports <first>', 'fixed ports for the simulators: Hubtel at <first>, Reloadly, DT One and Paystack at the next three (default: any free ports)')
    .action(async (opts: { simulatorPorts?: string }) => {
      const firstPort = firstSimulatorPort(opts.simulatorPorts);
      const demo = demoEnvironment(io.env);
      const { localOnly } = demo;
      const upstreams = await startDemoUpstreams(demo.env, firstPort);
      const env = upstreams.env;
      let opened: Runtime;
      try {
        opened = await openRuntime(io, { longRunning: true, env });
      } catch (error) {
        for (const sim of upstreams.simulators) await sim.close();
        await upstreams.paystack.close();
        throw error;
      }
      // The CLI beside the demo (same database) reads these while the demo runs (src/cli/demo-env.ts).
      const settingsFile = writeDemoEnv(env.DATABASE_URL, upstreams.upstreamVars);
      const rt: Runtime = {
        ...opened,
        async close() {
          removeDemoEnv(env.DATABASE_URL);
          await opened.close();
          for (const sim of upstreams.simulators) await sim.close();
          await upstreams.paystack.close();
        },
      };
      io.out(await importDemoSeed(rt));
      const consoleOn = rt.ctx.config.console.enabled;
      const staffPassword = consoleOn ? await demoStaffLogin(rt.ctx) : null;
      const { url } = await serve(rt, undefined, { docsApiKey: DEMO_KEY });
      io.out(
        [
          '',
          `partner-api demo is running at ${url}`,
          `demo key (Ama Mensah, SuperAgent, test mode): ${DEMO_KEY}`,
          'try:',
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/profile`,
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/data-packages?operatorId=op_mtn`,
          `live orders of the MTN 1, 2, 5 and 10 GB packages go to upstream simulators (Hubtel first, then Reloadly or DT One): ${upstreams.simulators.map((s) => `${s.name} ${s.url}`).join(', ')}`,
          `  curl -s -H 'X-API-KEY: ${DEMO_LIVE_KEY}' -H 'Content-Type: application/json' -d '{"operatorId":"op_mtn","productId":"prd_mtn_data","packageId":"pkg_mtn_1gb","beneficiaryMsisdn":"${DEMO_FAILOVER_NUMBER}"}' ${url}/api/v1/data-bundles/buy-single`,
          `  (Hubtel refuses ${DEMO_FAILOVER_NUMBER} for float: Reloadly delivers it; the console's order page shows both attempts)`,
          ...(settingsFile
            ? [`the CLI on this database (npm run cli -- …) uses these simulators too: it reads ${settingsFile} while the demo runs`]
            : [
                'for the CLI to use these simulators, give it these variables (the demo writes no file beside a PostgreSQL database):',
                ...Object.entries(upstreams.upstreamVars).map(([name, value]) => `  ${name}=${value}`),
              ]),
          `Mobile Money top-ups go to a Paystack simulator (${upstreams.paystack.url}; approved 3 s after the charge):`,
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' -H 'Content-Type: application/json' -d '{"amount":50,"phone":"0551234000"}' ${url}/api/v1/top-ups/mobile-money`,
          ...(staffPassword
            ? [
                `staff console: ${url}/console  sign in as ${DEMO_STAFF_EMAIL} with ${staffPassword} (admin; a new password each run)`,
              ]
            : []),
          'more keys are in examples/demo-seed.json; API reference at /docs (OpenAPI at /openapi.json); Ctrl-C stops.',
          ...(localOnly
            ? [`listening on ${DEMO_DEFAULT_HOST} only, as the demo keys are public; to expose it: HOST=0.0.0.0 npm run demo`]
            : []),
          '',
        ].join('\n'),
      );
    });
}
