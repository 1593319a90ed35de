import { randomBytes } from 'node:crypto';
import type { FindingKind } from '../../src/db/schema.js';
import type { TestApp } from './app.js';

/** Writes a finished DT One run and one unresolved finding of it directly (console tests); the finding's id. */
export async function seedFinding(t: TestApp, kind: FindingKind = 'unknown-here'): Promise<string> {
  const suffix = randomBytes(4).toString('hex');
  const runId = `rcn_seed${suffix}`;
  const id = `fnd_seed${suffix}`;
  const now = Date.now();
  await t.database.db
    .insertInto('reconciliation_runs')
    .values({
      id: runId,
      provider: 'dtone',
      window_from: now - 86_400_000,
      window_to: now,
      trigger: 'cli',
      requested_by: 'cli:test',
      daily_key: null,
      status: 'done',
      locked_by: null,
      locked_until: null,
      attempts_checked: 0,
      upstream_records: 1,
      findings: 1,
      error: null,
      created_at: now,
      started_at: now,
      finished_at: now,
    })
    .execute();
  await t.database.db
    .insertInto('reconciliation_findings')
    .values({
      id,
      finding_key: `dtone:${kind}:tx:${suffix}`,
      provider: 'dtone',
      kind,
      reference: `FOREIGN${suffix.toUpperCase()}`,
      transaction_id: `41${suffix}`,
      order_id: null,
      order_item_id: null,
      ours: null,
      theirs: JSON.stringify({ status: 'COMPLETED', state: 'delivered' }),
      first_run_id: runId,
      last_run_id: runId,
      found_at: now,
      last_seen_at: now,
    })
    .execute();
  return id;
}
