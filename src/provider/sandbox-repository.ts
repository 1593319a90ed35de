import type { Database, Executor } from '../db/connection.js';
import { prepared, preparedQuery } from '../db/prepared.js';

/**
 * The sandbox provider's own memory. Records a submission once per idempotency key; a repeated
 * key only counts the call and returns the first acceptance.
 */
export async function recordSubmission(
  db: Executor,
  s: { idempotencyKey: string; providerRef: string; msisdn: string; now: number },
): Promise<{ provider_ref: string; accepted_at: number }> {
  const [row] = (await record(db, s.idempotencyKey, s.providerRef, s.msisdn, s.now)).rows;
  if (!row) throw new Error(`sandbox: submission ${s.idempotencyKey} was not recorded`);
  return row;
}

const record = preparedQuery((db, idempotencyKey: string, providerRef: string, msisdn: string, now: number) =>
  db
    .insertInto('sandbox_submissions')
    .values({ idempotency_key: idempotencyKey, provider_ref: providerRef, msisdn, accepted_at: now, submit_calls: 1 })
    .onConflict((oc) =>
      oc.column('idempotency_key').doUpdateSet((eb) => ({
        submit_calls: eb('sandbox_submissions.submit_calls', '+', 1),
      })),
    )
    .returning(['provider_ref', 'accepted_at']),
);

const submissionByRef = prepared((db, providerRef: string) =>
  db.selectFrom('sandbox_submissions').select(['provider_ref', 'msisdn', 'accepted_at']).where('provider_ref', '=', providerRef),
);

export async function findSubmission(database: Database, providerRef: string) {
  return (await submissionByRef(database, providerRef))[0];
}
