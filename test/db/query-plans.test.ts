import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import SQLite from 'better-sqlite3';
import { attemptNamedQuery, unknownSinceQuery } from '../../src/modules/deliveries/attempts-repository.js';
import { firstLeaseEndQuery, firstUnleasedQuery } from '../../src/modules/deliveries/outbox-repository.js';
import { marginRefundsQuery, marginWindowQuery, rcWindowQuery } from '../../src/modules/margins/repository.js';
import { attemptWindowQuery } from '../../src/modules/reconciliation/repository.js';
import { inFlightQuery, orderListQuery, staffOrdersQuery, type StaffOrderMatch } from '../../src/modules/orders/repository.js';
import { createTestApp, TEST_DIALECT, type TestApp } from '../support/app.js';

/** Queries on every purchase must use their index, whatever the table size. */
describe('query plans of the purchase path (SQLite)', { skip: TEST_DIALECT !== 'sqlite' ? 'SQLite planner only' : false }, () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ seed: null });
  });
  after(() => t.close());

  const planOf = (compiled: { sql: string; parameters: readonly unknown[] }) => {
    const raw = new SQLite(t.database.sqlitePath ?? '', { readonly: true });
    try {
      const plan = raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as { detail: string }[];
      return plan.map((p) => p.detail).join('; ');
    } finally {
      raw.close();
    }
  };

  test('a later page of the order list seeks the index to its cursor instead of reading every newer order', () => {
    const details = planOf(
      orderListQuery(t.database.read, {
        profileId: 'usr_x',
        mode: 'live',
        types: ['data', 'result_checker'],
        state: null,
        after: { createdAt: 1_700_000_000_000, id: 'ord_x' },
        limit: 21,
      }).compile(),
    );
    assert.match(details, /USING COVERING INDEX orders_owner_recent \(profile_id=\? AND mode=\? AND \(created_at,id\)<\(\?,\?\)\)/, details);
  });

  test('a page of the order list is read from the owner index alone, never from the order rows', () => {
    for (const state of [null, 'completed' as const]) {
      const details = planOf(
        orderListQuery(t.database.read, { profileId: 'usr_x', mode: 'live', types: ['data', 'result_checker'], state, after: null, limit: 21 }).compile(),
      );
      assert.match(details, /USING COVERING INDEX orders_owner_recent \(profile_id=\? AND mode=\?\)/, details);
      assert.doesNotMatch(details, /TEMP B-TREE/, details);
    }
  });

  test("the console's order list reads each way of searching from its index, seeking the cursor, never the whole table", () => {
    const page = { cursor: { createdAt: 1_700_000_000_000, id: 'ord_x' }, direction: 'older' as const, limit: 50 };
    const plan = (match: StaffOrderMatch) => planOf(staffOrdersQuery(t.database.read, match, { mode: 'live' }, page).compile());
    const every = plan({ by: 'every' });
    assert.match(every, /SEARCH o USING INDEX orders_mode_recent \(mode=\? AND \(created_at,id\)<\(\?,\?\)\)/, every);
    assert.doesNotMatch(every, /TEMP B-TREE/, every);
    const expected: [StaffOrderMatch, RegExp][] = [
      [{ by: 'payment_reference', value: 'INV-1' }, /USING INDEX orders_payment_reference_search \(payment_reference=\? AND mode=\? AND \(created_at,id\)<\(\?,\?\)\)/],
      [{ by: 'number', value: '233244123456' }, /USING INDEX orders_beneficiary \(beneficiary_msisdn=\? AND mode=\? AND \(created_at,id\)<\(\?,\?\)\)/],
      [{ by: 'recipient', value: '233244123456' }, /^SEARCH i USING COVERING INDEX order_items_beneficiary \(beneficiary_msisdn=\?\); SEARCH o USING INDEX sqlite_autoindex_orders_\d \(id=\?\)/],
      [{ by: 'profile', id: 'usr_x' }, /USING (COVERING )?INDEX orders_owner_recent \(profile_id=\? AND mode=\? AND \(created_at,id\)<\(\?,\?\)\)/],
      [{ by: 'short_reference', value: 'ABC123' }, /USING INDEX sqlite_autoindex_orders_\d+ \(short_reference=\?\)/],
    ];
    for (const [match, index] of expected) {
      const details = plan(match);
      assert.match(details, index, `${match.by}: ${details}`);
      if (match.by !== 'recipient') assert.doesNotMatch(details, /TEMP B-TREE/, `${match.by}: ${details}`);
      assert.doesNotMatch(details, /SCAN o\b/, `${match.by}: ${details}`);
    }
  });

  test("the worker's next wake-up reads two indexes in order and stops at the first row", () => {
    const unleased = planOf(firstUnleasedQuery(t.database.read).compile());
    assert.match(unleased, /SCAN outbox USING INDEX outbox_run_at/, unleased);
    const leased = planOf(firstLeaseEndQuery(t.database.read).compile());
    assert.match(leased, /USING (COVERING )?INDEX outbox_leased/, leased);
  });

  test('the in-flight lookup searches the partial index instead of scanning every order item', () => {
    const compiled = inFlightQuery(t.database.read, 'live', ['233244000051', '233244000052']).compile();
    const raw = new SQLite(t.database.sqlitePath ?? '', { readonly: true });
    try {
      const plan = raw.prepare(`explain query plan ${compiled.sql}`).all(...compiled.parameters) as { detail: string }[];
      const details = plan.map((p) => p.detail).join('; ');
      assert.match(details, /USING INDEX order_items_in_flight/, details);
      assert.doesNotMatch(details, /SCAN order_items/, details);
    } finally {
      raw.close();
    }
  });

  // Migration 0021 made these indexes partial: a query that no longer implies an index's condition
  // (the statuses as parameters, say) would scan the whole table instead.
  test('the needs-attention list searches the partial index of open attempts instead of scanning every attempt', () => {
    const details = planOf(unknownSinceQuery(t.database.read, Date.now()).compile());
    assert.match(details, /SEARCH a USING INDEX provider_attempts_open \(created_at<\?\)/, details);
    assert.doesNotMatch(details, /SCAN a\b/, details);
  });

  test("a callback naming the upstream's transaction id finds its attempt through the partial index", () => {
    const query = attemptNamedQuery(t.database.read, 'reloadly', { reference: null, transactionId: '4602843' });
    assert.ok(query);
    const details = planOf(query.compile());
    assert.match(details, /SEARCH provider_attempts USING INDEX provider_attempts_transaction \(provider=\? AND provider_transaction_id=\?\)/, details);
  });

  // Migration 0022 left the sandbox's attempts, never reconciled, out of the window index.
  test("reconciliation reads an upstream's window of attempts through the partial window index, in its order", () => {
    for (const after of [null, { at: Date.now() - 3_600_000, reference: 'PA01' }]) {
      const details = planOf(attemptWindowQuery(t.database.read, 'reloadly', { from: Date.now() - 86_400_000, to: Date.now(), after }).compile());
      assert.match(details, /SEARCH a USING INDEX provider_attempts_window \(provider=\? AND created_at>\? AND created_at<\?\)/, details);
      assert.doesNotMatch(details, /SCAN a\b/, details);
    }
  });

  test("the margin report's window searches the partial index of completed items instead of scanning every item", () => {
    const details = planOf(marginWindowQuery(t.database.read, Date.now() - 86_400_000, Date.now()).compile());
    assert.match(details, /SEARCH i USING INDEX order_items_completed \(completed_at>\? AND completed_at<\?\)/, details);
    assert.doesNotMatch(details, /SCAN i\b/, details);
  });

  test("the margin report's refunds and result-checker sales search their partial indexes by time", () => {
    const [from, to] = [Date.now() - 86_400_000, Date.now()];
    const byItem = planOf(marginRefundsQuery(t.database.read, from, to, 'item').compile());
    assert.match(byItem, /SEARCH i USING INDEX order_items_reversed \(reversed_at>\? AND reversed_at<\?\)/, byItem);
    const byOrder = planOf(marginRefundsQuery(t.database.read, from, to, 'order').compile());
    assert.match(byOrder, /SEARCH r USING INDEX orders_reversed \(reversed_at>\? AND reversed_at<\?\)/, byOrder);
    assert.doesNotMatch(byOrder, /SCAN i\b/, byOrder);
    for (const at of ['completed_at', 'refunded_at'] as const) {
      const plan = planOf(rcWindowQuery(t.database.read, from, to, at).compile());
      assert.match(plan, new RegExp(`SEARCH t USING INDEX rc_transactions_${at === 'completed_at' ? 'completed' : 'refunded'} \\(${at}>\\? AND ${at}<\\?\\)`), plan);
    }
  });
});
