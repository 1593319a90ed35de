import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readRouteList } from '../../src/modules/package-routes/schemas.js';
import { staffActor } from '../support/actor.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCliProcess, spawnCli, type CliProcess } from '../support/cli.js';

/**
 * docs/live-delivery.md, "Routes": with NODE_ENV=production and not LIVE_SANDBOX, `serve` and `worker` refuse
 * to start while an active data package has no usable route, in one line naming the packages; with
 * LIVE_SANDBOX=true, or once every active package has a route to an enabled upstream, they start,
 * and the start-up log says which routes are skipped and which packages go to the sandbox.
 */
describe(`the production start check of routes (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let production: Record<string, string>;
  const children: CliProcess[] = [];
  before(async () => {
    t = await createTestApp();
    production = cliEnv(t, { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', WORKER_IDLE_MS: '50' });
  });
  after(async () => {
    for (const child of children) child.kill();
    await t.close();
  });

  /** Starts `command`, waits for `ready` in its output, then stops it with SIGTERM: its whole output. */
  async function startsAndStops(command: 'serve' | 'worker', env: Record<string, string>, ready: string): Promise<string> {
    const child = spawnCli([command], env);
    children.push(child);
    await child.waitForOutput(ready);
    child.child.kill('SIGTERM');
    assert.equal(await child.exited(), 0, child.output());
    return child.output();
  }

  const REFUSAL = 'no usable route for live packages pkg_a_1gb, pkg_a_2gb, pkg_a_legacy, pkg_b_1gb, pkg_off_1gb: set routes (cli routes set) or LIVE_SANDBOX=true';

  test('serve and worker refuse to start in production, naming the active packages without a usable route', async () => {
    const [serve, worker] = await Promise.all([runCliProcess(['serve'], production), runCliProcess(['worker'], production)]);
    for (const [name, result] of [['serve', serve], ['worker', worker]] as const) {
      assert.equal(result.code, 1, `${name}: ${result.stdout}${result.stderr}`);
      assert.equal(result.stderr.trim().split('\n').at(-1), REFUSAL, `${name}: ${result.stderr}`);
      assert.doesNotMatch(result.stdout + result.stderr, /partner-api listening|outbox worker started/);
    }
  });

  test('with LIVE_SANDBOX=true both start, and the log names the packages whose live orders go to the sandbox', async () => {
    const env = { ...production, LIVE_SANDBOX: 'true' };
    const [serve, worker] = await Promise.all([
      startsAndStops('serve', env, 'partner-api listening'),
      startsAndStops('worker', env, 'outbox worker started'),
    ]);
    for (const output of [serve, worker]) {
      assert.match(output, /live orders of packages without a usable route go to the sandbox: pkg_a_1gb, pkg_a_2gb, pkg_a_legacy, pkg_b_1gb, pkg_off_1gb/);
    }
  });

  test('once every active package has a route to an enabled upstream, production starts without LIVE_SANDBOX; skipped routes are logged', async () => {
    const actor = staffActor();
    const dtone = { DTONE_API_KEY: 'key', DTONE_API_SECRET: 'secret', DTONE_API_URL: 'http://127.0.0.1:9/v1' };
    for (const [index, id] of ['pkg_a_1gb', 'pkg_a_2gb', 'pkg_a_legacy', 'pkg_b_1gb'].entries()) {
      await t.ctx.packageRoutes.replace(actor, id, readRouteList([{ provider: 'reloadly', operatorId: 643, amount: 5 }, { provider: 'dtone', productId: 100 + index }]));
    }
    // One package left: still refused, naming it alone.
    const one = await runCliProcess(['worker'], { ...production, ...dtone });
    assert.equal(one.code, 1, one.stdout + one.stderr);
    assert.equal(one.stderr.trim().split('\n').at(-1), 'no usable route for live packages pkg_off_1gb: set routes (cli routes set) or LIVE_SANDBOX=true');

    await t.ctx.packageRoutes.replace(actor, 'pkg_off_1gb', readRouteList([{ provider: 'dtone', productId: 200 }]));
    const output = await startsAndStops('serve', { ...production, ...dtone }, 'partner-api listening');
    assert.match(output, /every active data package has a usable route/);
    assert.match(
      output,
      /routes skipped, their upstream is not enabled: pkg_a_1gb #0 reloadly, pkg_a_2gb #0 reloadly, pkg_a_legacy #0 reloadly, pkg_b_1gb #0 reloadly \(reloadly: its variables are not set\)/,
    );
  });

  test('outside production it starts whatever the routes, and says which are skipped and which packages go to the sandbox', async () => {
    await t.ctx.packageRoutes.replace(staffActor(), 'pkg_b_1gb', []);
    const output = await startsAndStops('worker', cliEnv(t, { LOG_LEVEL: 'info', WORKER_IDLE_MS: '50' }), 'outbox worker started');
    assert.match(output, /routes skipped, their upstream is not enabled: pkg_a_1gb #0 reloadly, pkg_a_1gb #1 dtone, /);
    assert.match(output, /\(reloadly: its variables are not set; dtone: its variables are not set\)/);
    assert.match(output, /live orders of packages without a usable route go to the sandbox: pkg_a_1gb, pkg_a_2gb, pkg_a_legacy, pkg_b_1gb, pkg_off_1gb/);
  });
});
