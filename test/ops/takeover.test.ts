import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TEST_DIALECT } from '../support/app.js';
import { cliEnv, spawnCli, type CliProcess } from '../support/cli.js';
import { PROCESS_BUDGET_MS, waitFor } from '../support/wait.js';
import { deliveryInvariants, freePort, loadMsisdn, loadTestApp, openOrders, purchaseLoad, suiteProcesses } from '../support/ops.js';

const workerIdOf = (p: CliProcess) =>
  (
    JSON.parse(
      p
        .output()
        .split('\n')
        .find((l) => l.includes('outbox worker started')) ?? '{}',
    ) as { worker?: string }
  ).worker;

/**
 * kill -9 of a `cli worker` under purchase load. Leases last 10 minutes here, longer than the test
 * may run: every acknowledged order can only become final in time if the restarted worker takes the
 * dead one's claims over when its heartbeat goes silent (WORKER_HEARTBEAT_TIMEOUT_MS).
 */
describe(`kill -9 of a worker: its claims are taken over (${TEST_DIALECT})`, () => {
  const { apps, children } = suiteProcesses();

  for (const peer of ['restarted', 'live'] as const) {
    const title =
      peer === 'restarted'
        ? "a restarted worker takes the dead worker's leased rows over within seconds, and nothing is delivered twice"
        : "a live worker beside it takes the dead worker's leased rows over when its heartbeat stops, and nothing is delivered twice";
    test(title, async (ctx) => {
      const t = await loadTestApp();
      apps.push(t);
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = cliEnv(t, {
        SANDBOX_SETTLE_MS: '300',
        WORKER_IDLE_MS: '20',
        WORKER_LEASE_MS: '600000',
        // Submissions to numbers ending 0003 hang (the sandbox's "times out twice"): the worker holds their rows meanwhile.
        PROVIDER_TIMEOUT_MS: '3000',
        WORKER_HEARTBEAT_TIMEOUT_MS: '2000',
      });
      const api = spawnCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1', WORKER: 'off' });
      children.push(api);
      const first = spawnCli(['worker'], env);
      children.push(first);
      await Promise.all([api.waitForOutput('partner-api listening'), first.waitForOutput('outbox worker started')]);
      let second: CliProcess | null = null;
      let restartedAt = 0;
      if (peer === 'live') {
        second = spawnCli(['worker'], env);
        children.push(second);
        await second.waitForOutput('outbox worker started');
      }
      const deadId = workerIdOf(first);
      assert.ok(deadId);

      let n = 0;
      const load = purchaseLoad([url], {
        concurrency: 6,
        msisdn: () => (++n % 25 === 0 ? `024${100 + ((n / 25) % 900)}0003` : loadMsisdn()),
      });
      // A failed assertion must not leave the load running: it would keep the file's process alive.
      ctx.after(() => load.stop());
      // Killed while it holds the row of a hanging submission (a number ending 0003, held for
      // PROVIDER_TIMEOUT_MS): an ordinary row can finish between this read and the kill (with a live
      // peer taking most rows, CI once saw none left).
      const leased = await waitFor('the first worker to hold a hanging submission in flight', async () => {
        if (load.acknowledged.length < 50) return false;
        const rows = await t.database.db
          .selectFrom('outbox')
          .innerJoin('order_items', 'order_items.id', 'outbox.order_item_id')
          .select(['outbox.id', 'order_items.beneficiary_msisdn as msisdn'])
          .where('outbox.locked_by', '=', deadId)
          .where('outbox.locked_until', '>', Date.now())
          .execute();
        return rows.some((r) => r.msisdn.endsWith('0003')) ? rows.length : undefined;
      });
      first.child.kill('SIGKILL');
      const killedAt = Date.now();
      await first.exited();
      const stillLeased = await t.database.db
        .selectFrom('outbox')
        .select('id')
        .where('locked_by', '=', deadId)
        .where('locked_until', '>', Date.now())
        .execute();
      assert.ok(stillLeased.length > 0, 'the dead worker left claims behind');

      if (!second) {
        second = spawnCli(['worker'], env);
        children.push(second);
        await second.waitForOutput('outbox worker started');
        restartedAt = Date.now();
      }
      await second.waitForOutput('took over the claims of silent workers');
      const tookOverAt = Date.now();
      const line = JSON.parse(
        second
          .output()
          .split('\n')
          .find((l) => l.includes('took over the claims')) ?? '{}',
      ) as {
        deadWorkers: string[];
        outboxRows: number;
      };
      assert.deepEqual(line.deadWorkers, [deadId]);
      assert.ok(line.outboxRows >= 1);

      await new Promise((resolve) => setTimeout(resolve, 500));
      await load.stop();
      await waitFor(
        'every acknowledged order to be final',
        async () => (await openOrders(t, load.acknowledged)).length === 0,
        PROCESS_BUDGET_MS,
      );
      const finalAt = Date.now();
      // Ordinary deliveries (the 0003 ones wait out their designed provider time-outs).
      const lastOrdinary = await t.database.db
        .selectFrom('order_items')
        .select((eb) => eb.fn.max('updated_at').as('at'))
        .where('beneficiary_msisdn', 'not like', '%0003')
        .executeTakeFirst();
      assert.deepEqual(await deliveryInvariants(t), []);
      const remaining = await t.database.db.selectFrom('outbox').select('id').execute();
      assert.deepEqual(remaining, []);

      second.child.kill('SIGTERM');
      api.child.kill('SIGTERM');
      assert.equal(await second.exited(), 0, second.output());
      assert.equal(await api.exited(), 0, api.output());
      const heartbeats = await t.database.db.selectFrom('worker_heartbeats').selectAll().execute();
      assert.deepEqual(heartbeats, [], 'the dead worker was forgotten and the stopped one removed its heartbeat');
      ctx.diagnostic(
        `${load.acknowledged.length} acknowledged; ${leased} rows leased at the kill; takeover ${tookOverAt - killedAt} ms after kill -9 ` +
          `${restartedAt ? `(${tookOverAt - restartedAt} ms after the restart)` : 'by the live peer'}; ordinary deliveries all final ${Number(lastOrdinary?.at ?? 0) - killedAt} ms after the kill, the hanging ones ${finalAt - killedAt} ms`,
      );
    });
  }
});
