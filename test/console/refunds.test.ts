import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openBrowser, screenshot } from '../support/browser.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';
import { cliEnv, runCli } from '../support/cli.js';
import { CONSOLE_ENV, ensureStaff, PASSWORD, signIn, type StaffClient } from '../support/console.js';
import { KEYS } from '../support/keys.js';
import { A_1GB, deliverOrder } from '../support/orders.js';

/**
 * Issue 29, item 4: staff refunds. One recipient of a bulk data order reversed, and a sold
 * result-checker credential refunded (voided), through the console (forms, and Chromium with
 * screenshots) and the CLI: the money after each (wallet balances, `ledger verify` clean), the
 * audit row, the partner's event, the roles, a second refund refused, two at once crediting once, a
 * failed recipient refused, a whole-order reversal after a recipient's refunding only the rest, and
 * a voided credential never sold again. One app for the file.
 */

interface Recipient {
  beneficiaryMsisdn: string;
  amount: number;
  status: string;
  reversedAt: number | null;
  reversalReason: string | null;
}
interface OrderBody {
  _id: string;
  state: string;
  bulkRecipients: Recipient[] | null;
}

describe(`refunds: a bulk recipient reversed, a result-checker sale refunded (${TEST_DIALECT})`, () => {
  let t: TestApp;
  let origin: string;
  let admin: StaffClient;
  let operator: StaffClient;
  let adminActor: { staffId: string; name: string; address: null };
  let env: Record<string, string>;

  before(async () => {
    t = await createTestApp({ env: CONSOLE_ENV });
    admin = await signIn(t, 'admin');
    operator = await signIn(t, 'operator');
    adminActor = { staffId: await ensureStaff(t, 'admin@staff.example', 'admin'), name: 'admin@staff.example', address: null };
    env = cliEnv(t, { LOG_LEVEL: 'warn' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    assert.ok(address && typeof address === 'object');
    origin = `http://127.0.0.1:${address.port}`;
  });
  after(() => t.close());

  const available = async (key: string) => {
    const res = await t.call('GET', '/api/v1/wallet-balance', { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.availableBalance as number;
  };
  const orderOf = async (key: string, id: string) => {
    const res = await t.call('GET', `/api/v1/orders/${id}`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data as OrderBody;
  };
  const eventsOf = async (key: string, type: string) => {
    const res = await t.call('GET', `/api/v1/events?type=${type}&limit=100`, { key });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data as { events: { data: { object: OrderBody; recipient?: Recipient } }[] }).events.map((e) => e.data);
  };
  const auditOf = async (action: string, recordId: string) =>
    (await t.ctx.audit.list({ action, limit: 100 })).filter((a) => a.recordId === recordId);
  const verified = async () => assert.deepEqual((await t.ctx.ledger.verify()).mismatches, []);
  const ledgerKinds = async (orderId: string) =>
    (await t.database.db.selectFrom('ledger_entries').select(['kind', 'available_delta']).where('order_id', '=', orderId).orderBy('id').execute()).map(
      (e) => `${e.kind} ${Number(e.available_delta)}`,
    );

  /** A bulk order of SuperAgent live (8.50 a recipient), delivered; numbers ending 0000 fail. */
  async function deliveredBulk(numbers: string[]): Promise<string> {
    const res = await t.call('POST', '/api/v1/data-bundles/buy-bulk', {
      key: KEYS.superLive,
      body: { operatorId: A_1GB.operatorId, productId: A_1GB.productId, items: numbers.map((n) => ({ packageId: A_1GB.packageId, beneficiaryMsisdn: n })) },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const orderId = res.body.data.orderId as string;
    await deliverOrder(t, KEYS.superLive, orderId);
    return orderId;
  }

  /** One credential loaded into BECE (15.00), sold live to SuperAgent: the package's only stock. */
  async function soldCredential(username: string): Promise<string> {
    await t.ctx.console.importCredentials(adminActor, 'rcp_bece', `username,password\n${username},PIN-${username}\n`, 'test.csv');
    assert.equal(await t.ctx.resultChecker.stock('rcp_bece'), 1);
    const res = await t.call('POST', '/api/v1/result-checker/buy-single', {
      key: KEYS.superLive,
      body: { packageId: 'rcp_bece', recipientPhone: '0244555001' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.credential.username, username);
    return res.body.data.transactionId as string;
  }

  test('a bulk recipient reversed by the CLI: its amount back once, the event, the audit row; a failed one and a second reversal refused; the whole order then refunds only the rest', async () => {
    const orderId = await deliveredBulk(['0244910011', '0244910012', '0244910000']);
    const before = await available(KEYS.superLive);

    const failed = await runCli(['orders', 'reverse', orderId, '--recipient', '0244910000', '--reason', 'asked for it'], env);
    assert.equal(failed.code, 1, failed.stdout);
    assert.match(failed.stderr, /recipient 233244910000 failed and was refunded then; only a completed recipient can be reversed/);

    const done = await runCli(['orders', 'reverse', orderId, '--recipient', '+233 24 491 0011', '--reason', 'Bundle never arrived', '--json'], env);
    assert.equal(done.code, 0, done.stderr);
    const printed = JSON.parse(done.stdout) as OrderBody;
    assert.deepEqual(printed, await orderOf(KEYS.superLive, orderId), '--json prints the order as the API shows it');
    assert.equal(printed.state, 'completed', 'another recipient is still delivered');
    const first = printed.bulkRecipients?.find((r) => r.beneficiaryMsisdn === '233244910011');
    assert.equal(first?.status, 'completed', 'the contract’s recipient status is kept');
    assert.equal(first?.reversalReason, 'Bundle never arrived');
    assert.equal(typeof first?.reversedAt, 'number');
    assert.equal(printed.bulkRecipients?.find((r) => r.beneficiaryMsisdn === '233244910012')?.reversedAt, null);
    assert.equal(await available(KEYS.superLive), before + 8.5);
    // `orders show` marks the reversed recipient (its status stays completed), and only it.
    const shown = await runCli(['orders', 'show', orderId], env);
    assert.equal(shown.code, 0, shown.stderr);
    const recipientLines = shown.stdout.split('\n').filter((l) => /^ {2}#\d/.test(l));
    assert.deepEqual(
      recipientLines.map((l) => /REVERSED .*: refunded GHS 8\.50 \(Bundle never arrived\)$/.test(l)),
      recipientLines.map((l) => l.includes('233244910011')),
      shown.stdout,
    );
    assert.ok(recipientLines.some((l) => l.includes('233244910011')));
    const shownJson = JSON.parse((await runCli(['orders', 'show', orderId, '--json'], env)).stdout) as { deliveries: { beneficiaryMsisdn: string; reversalReason: string | null }[] };
    assert.deepEqual(shownJson.deliveries.map((d) => d.reversalReason !== null), shownJson.deliveries.map((d) => d.beneficiaryMsisdn === '233244910011'));
    const [event] = (await eventsOf(KEYS.superLive, 'order.recipient.reversed')).filter((e) => e.object._id === orderId);
    assert.equal(event?.recipient?.beneficiaryMsisdn, '233244910011');
    assert.equal(event?.recipient?.reversalReason, 'Bundle never arrived');
    const [audited] = await auditOf('order.reverse_recipient', orderId);
    assert.equal(audited?.outcome, 'ok');
    assert.deepEqual(audited?.detail && { recipient: audited.detail.recipient, refunded: audited.detail.refunded }, { recipient: '233244910011', refunded: 8.5 });
    await verified();

    await assert.rejects(t.ctx.console.reverseRecipient(adminActor, orderId, '0244910011', 'again'), /already reversed; nothing refunded/);
    assert.equal(await available(KEYS.superLive), before + 8.5);

    const whole = await t.ctx.console.reverseOrder(adminActor, orderId, 'the rest too');
    assert.equal(whole.refunded, 850);
    assert.equal(await available(KEYS.superLive), before + 17, 'only the recipient not reversed yet is refunded');
    assert.equal((await orderOf(KEYS.superLive, orderId)).state, 'reversed');
    assert.deepEqual((await ledgerKinds(orderId)).filter((k) => k.includes('reversal')), ['data_recipient_reversal 850', 'data_reversal 850']);
    await verified();
  });

  test('a webhook endpoint may subscribe to order.recipient.reversed', async () => {
    const res = await t.call('POST', '/api/v1/webhook-endpoints', {
      key: KEYS.agentTest,
      body: { url: 'http://127.0.0.1:9/refunds', events: ['order.recipient.reversed', 'order.reversed'] },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.data.events, ['order.recipient.reversed', 'order.reversed']);
  });

  test('the last completed recipient reversed: the order becomes reversed (order.reversed sent); a whole reversal is then refused', async () => {
    const orderId = await deliveredBulk(['0244920011', '0244920012']);
    const before = await available(KEYS.superLive);
    const one = await t.ctx.console.reverseRecipient(adminActor, orderId, '0244920011', 'first');
    assert.equal(one.orderReversed, false);
    const two = await t.ctx.console.reverseRecipient(adminActor, orderId, '0244920012', 'second');
    assert.equal(two.orderReversed, true);
    assert.equal(two.order.state, 'reversed');
    assert.equal(await available(KEYS.superLive), before + 17);
    assert.equal((await eventsOf(KEYS.superLive, 'order.reversed')).filter((e) => e.object._id === orderId).length, 1);
    await assert.rejects(t.ctx.console.reverseOrder(adminActor, orderId, 'all'), /already reversed; nothing refunded/);
    assert.equal(await available(KEYS.superLive), before + 17);
    await verified();
  });

  test('a result-checker sale refunded by the CLI: credited once, the credential void and never sold again, order reversed, event, audit; a second refund refused and audited', async () => {
    const saleId = await soldCredential('BECE-REFUND-1');
    const before = await available(KEYS.superLive);
    // The sale's page shows its credential's state, not "No recipients".
    const statePage = async () => {
      const page = await admin.get(`/console/orders/${saleId}`);
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.body, /No recipients/);
      return /class="credential-state">([^<]*)</.exec(page.body)?.[1];
    };
    assert.equal(await statePage(), 'assigned');

    const done = await runCli(['rc', 'refund', saleId, '--reason', 'PIN already used'], env);
    assert.equal(done.code, 0, done.stderr);
    assert.match(done.stdout, new RegExp(`refunded ${saleId} .*GHS 15\\.00 back; credential cred_\\w+ voided`));
    assert.equal(await available(KEYS.superLive), before + 15);
    const order = await orderOf(KEYS.superLive, saleId);
    assert.equal(order.state, 'reversed');
    const status = await t.call('GET', `/api/v1/result-checker/orders/${saleId}/status`, { key: KEYS.superLive });
    assert.equal(status.body.data.state, 'completed', 'the contract’s transaction states are kept');
    assert.equal(status.body.data.credential, null, 'a voided credential is not handed out again');
    assert.equal((await eventsOf(KEYS.superLive, 'order.reversed')).filter((e) => e.object._id === saleId).length, 1);
    const [audited] = await auditOf('rc.refund', saleId);
    assert.equal(audited?.actor.startsWith('cli:'), true);
    assert.equal(audited?.detail?.refunded, 15);
    const credential = await t.database.db.selectFrom('rc_credentials').selectAll().where('assigned_transaction_id', '=', saleId).executeTakeFirstOrThrow();
    assert.equal(credential.void_reason, 'PIN already used');
    assert.equal(await statePage(), 'refunded (credential voided)');
    assert.equal(await t.ctx.resultChecker.stock('rcp_bece'), 0, 'a voided credential is not stock');
    const next = await t.call('POST', '/api/v1/result-checker/buy-single', { key: KEYS.superLive, body: { packageId: 'rcp_bece', recipientPhone: '0244555002' } });
    assert.equal(next.status, 409, JSON.stringify(next.body));
    assert.match(next.body.error.message, /Out of stock/);
    assert.equal(await available(KEYS.superLive), before + 15);
    await verified();

    await assert.rejects(t.ctx.console.refundResultChecker(adminActor, saleId, 'again'), /already refunded; nothing refunded/);
    assert.equal(await available(KEYS.superLive), before + 15);
    assert.equal((await auditOf('rc.refund', saleId)).filter((a) => a.outcome === 'refused').length, 1);
  });

  test('two refunds of one sale at once: exactly one credit', async () => {
    const saleId = await soldCredential('BECE-RACE-1');
    const before = await available(KEYS.superLive);
    const outcomes = await Promise.allSettled([
      t.ctx.console.refundResultChecker(adminActor, saleId, 'race one'),
      t.ctx.console.refundResultChecker(adminActor, saleId, 'race two'),
    ]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), ['fulfilled', 'rejected']);
    assert.equal(await available(KEYS.superLive), before + 15);
    assert.deepEqual((await ledgerKinds(saleId)).filter((k) => k.startsWith('rc_reversal')), ['rc_reversal 1500']);
    await verified();
  });

  test('test mode: each item of a bulk purchase refunded on its own to the test wallet, nothing to void', async () => {
    const res = await t.call('POST', '/api/v1/result-checker/buy-bulk', {
      key: KEYS.superTest,
      body: { items: [{ packageId: 'rcp_wassce', recipientPhone: '0244555010' }, { packageId: 'rcp_wassce', recipientPhone: '0244555011' }] },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const [first, second] = res.body.data.transactions as { transactionId: string }[];
    assert.ok(first && second);
    const before = await available(KEYS.superTest);
    const refund = await t.ctx.console.refundResultChecker(adminActor, first.transactionId, 'wrong candidate');
    assert.equal(refund.voidedCredentialId, null);
    assert.equal(await available(KEYS.superTest), before + 18);
    assert.equal((await orderOf(KEYS.superTest, first.transactionId)).state, 'reversed');
    assert.equal((await orderOf(KEYS.superTest, second.transactionId)).state, 'completed');
    await verified();
  });

  test('console forms: an operator is refused (nothing moves), an admin reverses a recipient and refunds a sale', async () => {
    const orderId = await deliveredBulk(['0244930011', '0244930012']);
    const saleId = await soldCredential('BECE-FORM-1');
    const before = await available(KEYS.superLive);
    const page = await operator.get(`/console/orders/${orderId}`);
    assert.equal(page.status, 200);
    assert.ok(!page.body.includes('/recipients/reverse'), 'an operator is offered no Reverse form');
    assert.equal((await operator.post(`/console/orders/${orderId}/recipients/reverse`, { recipient: '233244930011', reason: 'x' })).status, 403);
    assert.equal((await operator.post(`/console/orders/${saleId}/refund`, { reason: 'x' })).status, 403);
    assert.equal(await available(KEYS.superLive), before);

    const reversed = await admin.post(`/console/orders/${orderId}/recipients/reverse`, { recipient: '233244930011', reason: 'never arrived' });
    assert.equal(reversed.status, 303, reversed.body.slice(0, 300));
    const refunded = await admin.post(`/console/orders/${saleId}/refund`, { reason: 'not needed' });
    assert.equal(refunded.status, 303, refunded.body.slice(0, 300));
    const again = await admin.post(`/console/orders/${saleId}/refund`, { reason: 'again' });
    assert.equal(again.status, 409);
    assert.match(again.body, /already refunded/);
    assert.equal(await available(KEYS.superLive), before + 8.5 + 15);
    assert.equal((await auditOf('order.reverse_recipient', orderId))[0]?.actor, 'admin@staff.example');
    await verified();
  });

  test('ledger verify reports a reversed recipient or a refunded sale without its one refund entry', async () => {
    const orderId = await deliveredBulk(['0244950011', '0244950012']);
    const [item] = await t.database.db.selectFrom('order_items').select('id').where('order_id', '=', orderId).orderBy('idx').limit(1).execute();
    assert.ok(item);
    await t.database.db.updateTable('order_items').set({ reversed_at: Date.now(), reversal_reason: 'by hand' }).where('id', '=', item.id).execute();
    const saleId = await soldCredential('BECE-TAMPER-1');
    await t.database.db.updateTable('rc_transactions').set({ refunded_at: Date.now(), refund_reason: 'by hand' }).where('id', '=', saleId).execute();
    try {
      const mismatches = (await t.ctx.ledger.verify()).mismatches.join('\n');
      assert.match(mismatches, new RegExp(`reversed recipient ${item.id} of order ${orderId} has 0 recipient reversal entries`));
      assert.match(mismatches, new RegExp(`refunded transaction ${saleId} has 0 staff refund entries`));
      assert.match(mismatches, new RegExp(`refunded transaction ${saleId} left its credential cred_\\w+ not void`));
    } finally {
      await t.database.db.updateTable('order_items').set({ reversed_at: null, reversal_reason: null }).where('id', '=', item.id).execute();
      await t.database.db.updateTable('rc_transactions').set({ refunded_at: null, refund_reason: null }).where('id', '=', saleId).execute();
    }
    await verified();
  });

  test('in Chromium: Reverse a recipient and Refund a sale on their order pages, the voided credential on the inventory page; screenshots kept', { timeout: 180_000 }, async (c) => {
    const browser = await openBrowser(c);
    if (!browser) return;
    const orderId = await deliveredBulk(['0244940011', '0244940012']);
    const saleId = await soldCredential('BECE-BROWSER-1');
    const before = await available(KEYS.superLive);
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${origin}/console/login`);
    await page.getByLabel('E-mail').fill('admin@staff.example');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Dashboard', exact: true }).waitFor();

    await page.goto(`${origin}/console/orders/${orderId}`);
    const row = page.locator('tr[data-recipient="233244940012"]');
    await row.getByLabel('Reason').fill('Customer says nothing arrived');
    await screenshot(page, 'refunds-bulk-order-reverse-form');
    await row.getByRole('button', { name: 'Reverse' }).click();
    await page.getByText('Recipient reversed: the partner is refunded for it.').waitFor();
    await page.locator('tr[data-recipient="233244940012"]').getByText('Customer says nothing arrived').waitFor();
    await screenshot(page, 'refunds-bulk-order-recipient-reversed');
    assert.equal(await available(KEYS.superLive), before + 8.5);

    await page.goto(`${origin}/console/orders/${saleId}`);
    await page.getByLabel('Reason').fill('Candidate registered twice');
    await page.getByRole('button', { name: 'Refund' }).click();
    await page.getByText('Result checker refunded: the partner is refunded and the credential is void.').waitFor();
    await page.locator('dd.state').getByText('reversed').waitFor();
    await screenshot(page, 'refunds-result-checker-refunded');
    assert.equal(await available(KEYS.superLive), before + 8.5 + 15);

    await page.getByRole('link', { name: 'inventory', exact: true }).click();
    await page.getByRole('cell', { name: 'Candidate registered twice' }).waitFor();
    await screenshot(page, 'refunds-inventory-voided');
    await verified();
  });
});
