import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { cliActor } from '../actor.js';
import { openRuntime, type Runtime } from '../runtime.js';
import { formatSummary, importSeedFile } from './import.js';
import { serve } from './serve.js';

const DEMO_SEED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-seed.json');
const DEMO_KEY = 'service_test_demoAmaMensahTest0001';

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

/** The demo's admin login: created on the first run, a fresh one-time password on every run. */
async function demoStaffLogin(ctx: Runtime['ctx']): Promise<string> {
  const existing = await ctx.staff.findByEmail(DEMO_STAFF_EMAIL);
  const { password } = existing
    ? await ctx.staff.resetPassword(cliActor(), DEMO_STAFF_EMAIL)
    : await ctx.staff.create(cliActor(), DEMO_STAFF_EMAIL, 'admin');
  return password;
}

export function register(program: Command): void {
  program
    .command('demo')
    .description('import examples/demo-seed.json into the configured database and serve it (on 127.0.0.1 unless HOST is set)')
    .action(async () => {
      const { env, localOnly } = demoEnvironment(process.env);
      const rt = await openRuntime({ longRunning: true, env });
      console.log(formatSummary(await importSeedFile(rt, DEMO_SEED)));
      const consoleOn = rt.ctx.config.console.enabled;
      const staffPassword = consoleOn ? await demoStaffLogin(rt.ctx) : null;
      const { url } = await serve(rt);
      console.log(
        [
          '',
          `partner-api demo is running at ${url}`,
          `demo key (Ama Mensah, SuperAgent, test mode): ${DEMO_KEY}`,
          'try:',
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/profile`,
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/data-packages?operatorId=op_mtn`,
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
