import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, signIn, type StaffClient } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { approvedTopUp, createEndpoint, verified } from '../support/webhooks.js';

/**
 * Partners' webhooks in the console and the CLI (docs/console.md, "Webhooks"), over HTTP against a
 * real receiver on loopback that fails, then succeeds: the failing delivery on the failing page, the
 * partner's webhooks page and in the CLI; redeliver by an operator (a viewer may not), queued for
 * the worker and sent once more with a valid signature; a disabled endpoint's delivery and an event
 * past retention refused; enable and disable audited; no secret on any page or in any output.
 * Deliveries are sent the way the worker's webhook lane sends them (claim, then attempt), so that
 * nothing is sent but what the test asks for.
 */
describe(`console and CLI: partners' webhooks (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let receiver: Receiver;
  let healthy = false;
  let viewer: StaffClient;
  let operator: StaffClient;
  let admin: StaffClient;
  let a: { id: string; secret: string };
  let b: { id: string; secret: string };
  let eventId: string;
  let deliveryA: number;
  let deliveryB: number;

  /** Sends every due delivery once, as the worker's webhook lane does. */
  async function sendDue(): Promise<number> {
    const work = await t.ctx.webhookDeliveries.claim({ workerId: 'console-test', limit: 20, perEndpoint: 20, leaseMs: 30_000 });
    for (const w of work) await t.ctx.webhookDeliveries.attempt(w, 'console-test');
    return work.length;
  }

  const deliveryRow = (id: number) =>
    t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  const lastAudit = () => t.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();

  /** Neither secret, nor its key material, appears in `text`. */
  function noSecret(text: string, where: string) {
    for (const secret of [a.secret, b.secret]) {
      assert.ok(!text.includes(secret), `${where} shows a secret`);
      assert.ok(!text.includes(secret.slice('whsec_'.length)), `${where} shows a secret's key`);
    }
    assert.ok(!text.includes('whsec_'), `${where} shows a secret`);
  }

  before(async () => {
    // A retry scale of 100: the next retry after a failure is 500 s away, so only a redelivery sends again here.
    t = await createTestApp({ env: { ...CONSOLE_ENV, WEBHOOK_RETRY_SCALE: '100', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' } });
    receiver = await startReceiver(() => ({ status: healthy ? 200 : 500 }));
    a = await createEndpoint(t, KEYS.superLive, `${receiver.url}/a`, ['topup.approved']);
    b = await createEndpoint(t, KEYS.superLive, `${receiver.url}/b`, ['topup.approved']);
    await approvedTopUp(t, KEYS.superLive, 'WEBHOOK-CONSOLE-1');
    const deliveries = await t.database.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'endpoint_id'])
      .orderBy('id')
      .execute();
    assert.equal(deliveries.length, 2);
    eventId = deliveries[0]?.event_id ?? '';
    deliveryA = Number(deliveries.find((d) => d.endpoint_id === a.id)?.id);
    deliveryB = Number(deliveries.find((d) => d.endpoint_id === b.id)?.id);
    assert.equal(await sendDue(), 2, 'both deliveries attempted');
    assert.equal(receiver.withId(eventId).length, 2);
    viewer = await signIn(t, 'viewer');
    operator = await signIn(t, 'operator');
    admin = await signIn(t, 'admin');
  });
  after(async () => {
    await receiver.close();
    await t.close();
  });

  test('a failing delivery: on the failing page (live, partner name), the partner’s page, its own page, and in the CLI', async () => {
    const failing = await viewer.get('/console/webhooks?mode=live');
    assert.equal(failing.status, 200);
    const row = new RegExp(`<tr id="failing-${deliveryA}">(.*?)</tr>`).exec(failing.body)?.[1] ?? '';
    assert.match(row, /Ama Serwaa Mensah/);
    assert.match(row, /topup\.approved/);
    assert.ok(row.includes(eventId));
    assert.match(row, /HTTP 500/);
    assert.match(row, /retrying/);
    assert.ok(!row.includes('Redeliver'), 'a viewer is offered no redeliver button');
    noSecret(failing.body, 'the failing page');
    const testMode = await viewer.get('/console/webhooks?mode=test');
    assert.ok(!testMode.body.includes(`failing-${deliveryA}`), 'a live delivery is not on the test page');
    assert.match(testMode.body, /No failing webhook delivery in test mode/);

    const partner = await viewer.get('/console/partners/usr_super/webhooks?mode=live');
    assert.equal(partner.status, 200);
    const section = new RegExp(`<section id="endpoint-${a.id}">(.*?)</section>`, 's').exec(partner.body)?.[1] ?? '';
    assert.ok(section.includes(`${receiver.url}/a`));
    assert.match(section, /0 delivered · 1 failing/);
    assert.match(section, /<dd class="last">[^<]*HTTP 500<\/dd>/);
    assert.match(section, new RegExp(`<tr id="delivery-${deliveryA}">.*retrying`));
    noSecret(partner.body, 'the partner’s webhooks page');

    const detail = await viewer.get(`/console/webhooks/deliveries/${deliveryA}`);
    assert.equal(detail.status, 200);
    assert.match(detail.body, /<tr><td>[^<]+<\/td><td>500<\/td><td><\/td><td>\d+ ms<\/td><\/tr>/);
    noSecret(detail.body, 'the delivery page');

    const cli = await runCli(['webhooks', 'deliveries', a.id, '--json'], cliEnv(t));
    assert.equal(cli.code, 0, cli.stderr);
    const listed = JSON.parse(cli.stdout) as Record<string, unknown>[];
    assert.equal(listed.length, 1);
    const [shown] = listed;
    assert.deepEqual(
      {
        deliveryId: shown?.deliveryId,
        eventId: shown?.eventId,
        endpointId: shown?.endpointId,
        state: shown?.state,
        attempts: shown?.attempts,
        lastStatusCode: shown?.lastStatusCode,
      },
      { deliveryId: deliveryA, eventId, endpointId: a.id, state: 'retrying', attempts: 1, lastStatusCode: 500 },
    );
    const failures = await runCli(['webhooks', 'failures', '--profile', 'usr_super'], cliEnv(t));
    assert.equal(failures.code, 0, failures.stderr);
    assert.match(failures.stdout, new RegExp(`^${deliveryA}\\s+${eventId}\\s+topup.approved\\s+live\\s+retrying`, 'm'));
    noSecret(cli.stdout + failures.stdout, 'the CLI');
  });

  test('roles: a viewer may not redeliver, an operator may not disable; nothing changes', async () => {
    const unchanged = await deliveryRow(deliveryA);
    const refused = await viewer.post(`/console/webhooks/deliveries/${deliveryA}/redeliver`);
    assert.equal(refused.status, 403);
    assert.match(refused.body, /needs the operator role/);
    assert.deepEqual(await deliveryRow(deliveryA), unchanged);
    const disable = await operator.post(`/console/webhooks/endpoints/${b.id}/disable`, { reason: 'answers 500' });
    assert.equal(disable.status, 403);
    const endpoint = await t.database.db.selectFrom('webhook_endpoints').select('status').where('id', '=', b.id).executeTakeFirstOrThrow();
    assert.equal(endpoint.status, 'enabled');
  });

  test('an admin disables an endpoint (audited); its delivery is then refused redelivery with a clear message', async () => {
    const done = await admin.post(`/console/webhooks/endpoints/${b.id}/disable`, { reason: 'answers 500 to everything' });
    assert.equal(done.status, 303, done.body);
    assert.equal(done.location, '/console/partners/usr_super/webhooks?mode=live&notice=webhook-disabled');
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.actor, audit.record_id, audit.outcome], ['webhook.disable', admin.email, b.id, 'ok']);
    const page = await admin.get(done.location);
    assert.match(page.body, /Endpoint disabled/);
    assert.match(page.body, /disabled: answers 500 to everything/);

    const unchanged = await deliveryRow(deliveryB);
    assert.equal(unchanged.status, 'failed', 'its pending delivery stopped');
    const refused = await operator.post(`/console/webhooks/deliveries/${deliveryB}/redeliver`);
    assert.equal(refused.status, 409, refused.body);
    assert.match(refused.body, new RegExp(`webhook endpoint ${b.id} is disabled: enable it first`));
    assert.deepEqual(await deliveryRow(deliveryB), unchanged);
    const recorded = await lastAudit();
    assert.deepEqual([recorded.action, recorded.outcome], ['webhook.redeliver', 'refused']);
    const detail = await operator.get(`/console/webhooks/deliveries/${deliveryB}`);
    assert.match(detail.body, /id="redeliver-blocked"/);
  });

  test('an operator redelivers: queued (audited), then the worker sends it once more with a valid Standard Webhooks signature', async () => {
    healthy = true;
    const sentBefore = receiver.withId(eventId).filter((r) => r.path === '/a').length;
    const done = await operator.post(`/console/webhooks/deliveries/${deliveryA}/redeliver`);
    assert.equal(done.status, 303, done.body);
    assert.equal(done.location, `/console/webhooks/deliveries/${deliveryA}?notice=redelivered`);
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.actor, audit.record_type, audit.record_id, audit.outcome], [
      'webhook.redeliver',
      operator.email,
      'webhook_delivery',
      String(deliveryA),
      'ok',
    ]);
    assert.equal(receiver.withId(eventId).length, 2, 'nothing is sent from the request itself');
    const queued = await deliveryRow(deliveryA);
    assert.equal(queued.status, 'pending');
    assert.equal(Number(queued.schedule_step), 0);

    assert.equal(await sendDue(), 1, 'the redelivery is due at once');
    const toA = receiver.withId(eventId).filter((r) => r.path === '/a');
    assert.equal(toA.length, sentBefore + 1, 'the event arrived once more');
    const last = toA.at(-1);
    assert.ok(last);
    assert.equal(verified(a.secret, last)._id, eventId);
    assert.equal((await deliveryRow(deliveryA)).status, 'succeeded');

    const page = await viewer.get('/console/partners/usr_super/webhooks?mode=live');
    const section = new RegExp(`<section id="endpoint-${a.id}">(.*?)</section>`, 's').exec(page.body)?.[1] ?? '';
    assert.match(section, /1 delivered · 0 failing/);
    assert.match(section, /<dd class="last">[^<]*HTTP 200<\/dd>/);
    const failing = await viewer.get('/console/webhooks?mode=live');
    assert.ok(!failing.body.includes(`failing-${deliveryA}`), 'no longer failing');
  });

  test('CLI: enable an endpoint and redeliver to it (audited), --json in the API’s shapes; refusals exit 1', async () => {
    const enabled = await runCli(['webhooks', 'enable', b.id], cliEnv(t));
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.equal(enabled.stdout.trim(), `enabled ${b.id} (usr_super, live)`);
    assert.equal((await lastAudit()).action, 'webhook.enable');

    const redelivered = await runCli(['webhooks', 'redeliver', String(deliveryB), '--json'], cliEnv(t));
    assert.equal(redelivered.code, 0, redelivered.stderr);
    assert.deepEqual(JSON.parse(redelivered.stdout), { deliveryId: deliveryB, eventId, endpointId: b.id, status: 'pending' });
    const audit = await lastAudit();
    assert.deepEqual([audit.action, audit.record_id, audit.outcome], ['webhook.redeliver', String(deliveryB), 'ok']);
    assert.equal(await sendDue(), 1);
    const toB = receiver.withId(eventId).filter((r) => r.path === '/b');
    assert.equal(toB.length, 2);
    const last = toB.at(-1);
    assert.ok(last);
    assert.equal(verified(b.secret, last)._id, eventId);

    const bad = await runCli(['webhooks', 'redeliver', 'abc'], cliEnv(t));
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /<deliveryId> must be a delivery number/);
  });

  test('an event past retention is refused redelivery, in the console and the CLI; nothing changes', async () => {
    await t.database.db
      .updateTable('events')
      .set({ created_at: Date.now() - 31 * 86_400_000 })
      .where('id', '=', eventId)
      .execute();
    const unchanged = await deliveryRow(deliveryA);
    const refused = await operator.post(`/console/webhooks/deliveries/${deliveryA}/redeliver`);
    assert.equal(refused.status, 409);
    assert.match(refused.body, new RegExp(`event ${eventId} is older than the 30 days events are kept`));
    const cli = await runCli(['webhooks', 'redeliver', String(deliveryA)], cliEnv(t));
    assert.equal(cli.code, 1);
    assert.match(cli.stderr, /refused: event \S+ is older than the 30 days events are kept/);
    assert.deepEqual(await deliveryRow(deliveryA), unchanged);
    const detail = await operator.get(`/console/webhooks/deliveries/${deliveryA}`);
    assert.match(detail.body, /The event is past its retention/);
    const unknown = await viewer.get('/console/webhooks/deliveries/999999');
    assert.equal(unknown.status, 404);
  });

  test('the failing page is paged (keyset, newest first): every failing delivery once, across pages', async () => {
    // Deliveries that gave up, in test mode, as the worker leaves them after its last retry.
    const c = await createEndpoint(t, KEYS.superTest, `${receiver.url}/c`, ['topup.approved']);
    const now = Date.now();
    const events = Array.from({ length: 55 }, (_, i) => ({
      id: `evt_paging${String(i).padStart(3, '0')}`,
      profile_id: 'usr_super',
      mode: 'test' as const,
      type: 'topup.approved' as const,
      payload: '{}',
      created_at: now,
    }));
    await t.database.db.insertInto('events').values(events).execute();
    await t.database.db
      .insertInto('webhook_deliveries')
      .values(
        events.map((e) => ({
          event_id: e.id,
          endpoint_id: c.id,
          status: 'failed' as const,
          attempts: 10,
          last_attempt_at: now,
          last_status_code: 503,
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
    const first = await viewer.get('/console/webhooks?mode=test');
    const ids = (body: string) => [...body.matchAll(/<tr id="failing-(\d+)">/g)].map((m) => Number(m[1]));
    const page1 = ids(first.body);
    assert.equal(page1.length, 50);
    const older = /<a href="([^"]+)">Older<\/a>/.exec(first.body)?.[1]?.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
    assert.ok(older, 'a link to the next page');
    const second = await viewer.get(older);
    assert.equal(second.status, 200, `${older}: ${second.body.slice(0, 500)}`);
    const page2 = ids(second.body);
    assert.equal(page2.length, 5);
    assert.ok(!/>Older</.test(second.body), 'the last page');
    const all = [...page1, ...page2];
    assert.deepEqual(all, [...all].sort((x, y) => y - x), 'newest first');
    assert.equal(new Set(all).size, 55);
    assert.ok(!all.includes(deliveryA) && !all.includes(deliveryB), 'live deliveries are not on the test page');
  });
});
