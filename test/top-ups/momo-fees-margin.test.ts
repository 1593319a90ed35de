import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TopUpStatus } from '../../src/db/schema.js';
import type { Mode } from '../../src/domain/types.js';
import { useTestApp } from '../support/app.js';

/**
 * Paystack's fees on live Mobile Money top-ups are a cost of the margin report (docs/live-delivery.md,
 * "Margins"): counted on the day of the credit, per partner, as one "Mobile Money fees" line in the
 * other groupings; test mode, rejected charges and staff-decided top-ups never count.
 */

const DAY_MS = 86_400_000;

describe('Mobile Money fees in the margin report', () => {
  test('a live credited charge’s fee is a cost; test mode, a rejected charge and a bank top-up are not', async (c) => {
    const t = await useTestApp(c);
    const from = Math.floor(Date.now() / DAY_MS) * DAY_MS;
    const at = from + 1_000;
    const day = new Date(from).toISOString().slice(0, 10);
    let n = 0;
    const topUp = (mode: Mode, status: TopUpStatus, gateway: 'paystack' | null, fee: number | null) =>
      t.database.db
        .insertInto('top_ups')
        .values({
          id: `tup_fee_${++n}`,
          profile_id: 'usr_super',
          mode,
          amount: 10_000,
          currency: 'GHS',
          method: gateway ? 'momo' : 'bank',
          reference: `FEE-${n}`,
          note: null,
          status,
          rejection_reason: null,
          decided_at: at,
          decided_by: gateway ? 'paystack' : 'admin@staff.example',
          created_at: at,
          updated_at: at,
          gateway,
          gateway_fee: fee,
        })
        .execute();
    await topUp('live', 'approved', 'paystack', 195);
    await topUp('live', 'approved', 'paystack', 5);
    await topUp('test', 'approved', 'paystack', 1_000);
    await topUp('live', 'rejected', 'paystack', 2_000);
    await topUp('live', 'approved', null, null);

    const byDay = await t.ctx.margins.report(from, from + DAY_MS, 'day');
    assert.deepEqual(byDay.lines, [{ group: day, sales: 0, refunds: 0, cost: 200, margin: -200, deliveries: 0, costUnknown: 0, costUnknownSales: 0 }]);
    const byPartner = await t.ctx.margins.report(from, from + DAY_MS, 'partner');
    assert.deepEqual(byPartner.lines.map((l) => [l.group, l.cost]), [['usr_super', 200]]);
    const byOperator = await t.ctx.margins.report(from, from + DAY_MS, 'operator');
    assert.deepEqual(byOperator.lines.map((l) => [l.group, l.cost]), [['Mobile Money fees', 200]]);
    assert.equal(byOperator.total.margin, -200);
    // The day before holds none of them.
    assert.deepEqual((await t.ctx.margins.report(from - DAY_MS, from, 'day')).lines, []);
  });
});
