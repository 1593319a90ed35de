import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../support/app.js';
import { KEYS } from '../support/keys.js';
import { buySingle, newWorker } from '../support/orders.js';
import { ledgerProblems } from '../support/ledger.js';
import { cliEnv, runCli, type CliResult } from '../support/cli.js';
import { waitFor } from '../support/wait.js';
import { staffActor } from '../support/actor.js';

/**
 * The staff commands as real processes. Independent runs go in parallel (two rounds) to keep the
 * file fast; what is not about the process itself (exit codes, output) is checked on the service.
 */
describe('cli orders reverse | stuck, cli ledger verify', () => {
  let t: TestApp;
  let completedId: string;
  let processingId: string;
  let stuckId: string;
  let tamperedWallet: string;
  let round1: { reversed: CliResult; clean: CliResult };
  let round2: { again: CliResult; stuck: CliResult; bad: CliResult };
  const STUCK_ENV = { ORDER_STUCK_AFTER_MS: '600000' };

  before(async () => {
    t = await createTestApp({ env: { SANDBOX_SETTLE_MS: '10' } });
    completedId = (await buySingle(t, KEYS.agentLive, '0244800051')).body.data.orderId;
    const worker = newWorker(t);
    await waitFor('the order to complete', async () => {
      await worker.drain();
      return (
        (await t.call('GET', `/api/v1/orders/${completedId}/status`, { key: KEYS.agentLive })).body.data.state === 'Completed'
      );
    });
    processingId = (await buySingle(t, KEYS.agentLive, '0244800052')).body.data.orderId;

    const [reversed, clean] = await Promise.all([
      runCli(['orders', 'reverse', completedId, '--reason', 'customer never received the bundle'], cliEnv(t)),
      runCli(['ledger', 'verify'], cliEnv(t)),
    ]);
    round1 = { reversed, clean };

    // Round 2: a delivery open for an hour, and a wallet its ledger does not explain.
    stuckId = (await buySingle(t, KEYS.customerLive, '0244820051')).body.data.orderId;
    await t.database.db
      .updateTable('order_items')
      .set({ updated_at: Date.now() - 3_600_000 })
      .where('order_id', '=', stuckId)
      .execute();
    await t.database.db
      .updateTable('outbox')
      .set({ tries: 7, last_error: 'provider answered 503' })
      .where('order_item_id', 'in', (eb) =>
        eb.selectFrom('order_items').select('order_items.id').where('order_items.order_id', '=', stuckId),
      )
      .execute();
    const wallet = await t.database.db
      .selectFrom('wallets')
      .select(['id', 'available'])
      .where('profile_id', '=', 'usr_staff')
      .where('mode', '=', 'live')
      .executeTakeFirstOrThrow();
    tamperedWallet = wallet.id;
    await t.database.db
      .updateTable('wallets')
      .set({ available: wallet.available + 1 })
      .where('id', '=', wallet.id)
      .execute();
    const [again, stuck, bad] = await Promise.all([
      runCli(['orders', 'reverse', completedId, '--reason', 'twice'], cliEnv(t)),
      runCli(['orders', 'stuck'], cliEnv(t, STUCK_ENV)),
      runCli(['ledger', 'verify'], cliEnv(t)),
    ]);
    round2 = { again, stuck, bad };
    await t.database.db.updateTable('wallets').set({ available: wallet.available }).where('id', '=', wallet.id).execute();
  });
  after(() => t.close());

  test('orders reverse refunds a completed order once and marks it reversed', async () => {
    const { reversed } = round1;
    assert.equal(reversed.code, 0, reversed.stderr);
    assert.match(
      reversed.stdout,
      new RegExp(`reversed ${completedId} \\(DB[2-9A-HJKMNP-Z]{8}\\): refunded GHS 9\\.00; wallet available now GHS 91\\.00`),
    );
    // 100 - 9 (completed, refunded) - 9 (still processing).
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });
    const status = (await t.call('GET', `/api/v1/orders/${completedId}/status`, { key: KEYS.agentLive })).body.data;
    assert.equal(status.state, 'Reversed');
    assert.equal((await t.call('GET', `/api/v1/orders/${completedId}`, { key: KEYS.agentLive })).body.data.state, 'reversed');
    const listed = await t.call('GET', '/api/v1/orders?state=reversed', { key: KEYS.agentLive });
    assert.deepEqual(
      listed.body.data.orders.map((o: { _id: string }) => o._id),
      [completedId],
    );
  });

  test('a second reversal is refused with one line and a non-zero exit; nothing more is refunded', async () => {
    const { again } = round2;
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), `cannot reverse: order ${completedId} was already reversed; nothing refunded`);
    const reversals = await t.database.db
      .selectFrom('ledger_entries')
      .select(['available_delta', 'idempotency_key'])
      .where('order_id', '=', completedId)
      .where('kind', '=', 'data_reversal')
      .execute();
    assert.deepEqual(
      reversals.map((r) => [Number(r.available_delta), r.idempotency_key]),
      [[900, `reversal:${completedId}`]],
    );
  });

  test('only a completed data order can be reversed, with a reason', async () => {
    await assert.rejects(
      t.ctx.orders.reverse(staffActor(), processingId, 'too early'),
      /is processing; only a completed order can be reversed/,
    );
    await assert.rejects(t.ctx.orders.reverse(staffActor(), 'ord_nope', 'x'), /no order ord_nope/);
    await assert.rejects(t.ctx.orders.reverse(staffActor(), completedId, '   '), /a reason is required/);
    assert.deepEqual(await t.wallet('usr_agent', 'live'), { available: 9100, held: 900 });
  });

  test('orders stuck lists deliveries open past the deadline and exits 2 for alerting', async () => {
    const { stuck } = round2;
    assert.equal(stuck.code, 2, stuck.stderr);
    assert.match(stuck.stdout, /^orders stuck: 1 deliveries open longer than 10m0s$/m);
    assert.match(
      stuck.stdout,
      new RegExp(
        `${stuckId} DB[2-9A-HJKMNP-Z]{8} live recipient 0 233244820051 pending attempt 1 for 1h0m \\(usr_customer\\); next submit .*tries 7, last error: provider answered 503`,
      ),
    );
    assert.equal(stuck.stdout.match(/orders stuck: /g)?.length, 1, 'the summary is printed once');
    assert.equal(stuck.stderr, '', 'exit 2 says it all: nothing repeated on stderr');
    assert.deepEqual(
      (await t.ctx.orders.stuck(600_000)).map((s) => s.orderId),
      [stuckId],
    );
    assert.deepEqual(await t.ctx.orders.stuck(7_200_000), []);
  });

  test('ledger verify prints OK on clean books, and exits 1 naming each mismatch', async () => {
    const { clean } = round1;
    const { bad } = round2;
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /^ledger verify: OK \(\d+ wallets, \d+ entries\)$/m);
    assert.equal(bad.code, 1);
    assert.match(
      bad.stdout,
      new RegExp(
        `^MISMATCH wallet ${tamperedWallet} \\(usr_staff/live\\): available GHS 10\\.01 but its ledger sums to GHS 10\\.00$`,
        'm',
      ),
    );
    assert.match(bad.stderr, /^ledger verify: 1 mismatches/m);
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('ledger verify ties deliveries and orders to the ledger', async () => {
    const open = await t.database.db
      .selectFrom('order_items')
      .select(['id', 'order_id'])
      .where('order_id', '=', stuckId)
      .executeTakeFirstOrThrow();
    await t.database.db.updateTable('order_items').set({ status: 'completed' }).where('id', '=', open.id).execute();
    const report = await t.ctx.ledger.verify();
    await t.database.db.updateTable('order_items').set({ status: 'pending' }).where('id', '=', open.id).execute();
    assert.equal(report.ok, false);
    const text = report.mismatches.join('\n');
    assert.match(
      text,
      new RegExp(
        `order ${stuckId} item ${open.id} \\(completed, GHS 10\\.00\\): ledger nets available GHS -10\\.00, held GHS 10\\.00`,
      ),
    );
    assert.match(text, /held GHS \d+\.\d{2} but open deliveries total/);
    assert.match(text, new RegExp(`order ${stuckId}: state processing but its items say completed`));
    assert.deepEqual(await ledgerProblems(t), []);
  });

  test('a reversed bulk order refunds only its delivered recipients; its recipients can no longer be retried', async () => {
    const worker = newWorker(t);
    const start = await t.wallet('usr_super', 'live');
    const orderId = (
      await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
        key: KEYS.superLive,
        body: {
          operatorId: 'op_a',
          productId: 'prd_a',
          items: [
            { packageId: 'pkg_a_1gb', beneficiaryMsisdn: '0244810051' },
            { packageId: 'pkg_a_2gb', beneficiaryMsisdn: '0244810000' },
          ],
        },
      })
    ).body.data.orderId;
    await waitFor('the bulk order to settle', async () => {
      await worker.drain();
      return (await t.call('GET', `/api/v1/orders/${orderId}`, { key: KEYS.superLive })).body.data.state === 'completed';
    });
    assert.deepEqual(await t.wallet('usr_super', 'live'), { available: start.available - 850, held: start.held });
    const r = await t.ctx.orders.reverse(staffActor(), orderId, 'duplicate order');
    assert.equal(r.refunded, 850);
    assert.deepEqual(await t.wallet('usr_super', 'live'), start);
    const retry = await t.call('POST', '/api/v1/data-bundles/retry-recipient', {
      key: KEYS.superLive,
      body: { orderId, beneficiaryMsisdn: '0244810000' },
    });
    assert.equal(retry.status, 409);
    assert.deepEqual(await t.wallet('usr_super', 'live'), start);
    assert.deepEqual(await ledgerProblems(t), []);
  });
});
