import type { Database } from '../../db/connection.js';
import type { Statements } from '../../db/statements.js';

function sandboxStatements(sql: Statements) {
  return {
    record: sql.prepare((qb, idempotencyKey: string, providerRef: string, msisdn: string, now: number) =>
      qb
        .insertInto('sandbox_submissions')
        .values({ idempotency_key: idempotencyKey, provider_ref: providerRef, msisdn, accepted_at: now, submit_calls: 1 })
        .onConflict((oc) => oc.column('idempotency_key').doUpdateSet((eb) => ({ submit_calls: eb('sandbox_submissions.submit_calls', '+', 1) })))
        .returning(['provider_ref', 'accepted_at', 'submit_calls']),
    ),
    countPoll: sql.prepare((qb, providerRef: string) =>
      qb
        .updateTable('sandbox_submissions')
        .set((eb) => ({ poll_calls: eb('poll_calls', '+', 1) }))
        .where('provider_ref', '=', providerRef)
        .returning('poll_calls'),
    ),
    byKey: sql.prepare((qb, idempotencyKey: string) =>
      qb.selectFrom('sandbox_submissions').select(['provider_ref', 'msisdn', 'accepted_at']).where('idempotency_key', '=', idempotencyKey),
    ),
    byRef: sql.prepare((qb, providerRef: string) =>
      qb.selectFrom('sandbox_submissions').select(['provider_ref', 'msisdn', 'accepted_at']).where('provider_ref', '=', providerRef),
    ),
  };
}

/**
 * The sandbox provider's own memory (it stands in for an external system, which keeps its own
 * store). Records a submission once per idempotency key; a repeated key only counts the call and
 * returns the first acceptance.
 */
export class SandboxStore {
  private readonly q: ReturnType<typeof sandboxStatements>;

  constructor(private readonly database: Database) {
    this.q = sandboxStatements(database.statements);
  }

  async recordSubmission(s: { idempotencyKey: string; providerRef: string; msisdn: string; now: number }) {
    const [row] = await this.database.singleStatement(async (tx) => (await tx.execute(this.q.record(s.idempotencyKey, s.providerRef, s.msisdn, s.now))).rows);
    if (!row) throw new Error(`sandbox: submission ${s.idempotencyKey} was not recorded`);
    return { providerRef: row.provider_ref, acceptedAt: Number(row.accepted_at), calls: Number(row.submit_calls) };
  }

  /** Counts a poll of the submission; how many there have been, this one included. */
  async countPoll(providerRef: string): Promise<number> {
    const [row] = await this.database.singleStatement(async (tx) => (await tx.execute(this.q.countPoll(providerRef))).rows);
    return Number(row?.poll_calls ?? 0);
  }

  async findSubmission(providerRef: string) {
    return (await this.database.readRows(this.q.byRef(providerRef)))[0];
  }

  /** The submission made under our reference, if one was taken. */
  async findByKey(idempotencyKey: string) {
    return (await this.database.readRows(this.q.byKey(idempotencyKey)))[0];
  }
}
