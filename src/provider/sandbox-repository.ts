import type { Executor } from '../db/connection.js';

/**
 * The sandbox provider's own memory. Records a submission once per idempotency key; a repeated
 * key only counts the call and returns the first acceptance.
 */
export async function recordSubmission(
  db: Executor,
  s: { idempotencyKey: string; providerRef: string; msisdn: string; now: number },
): Promise<{ provider_ref: string; accepted_at: number }> {
  return db
    .insertInto('sandbox_submissions')
    .values({
      idempotency_key: s.idempotencyKey,
      provider_ref: s.providerRef,
      msisdn: s.msisdn,
      accepted_at: s.now,
      submit_calls: 1,
    })
    .onConflict((oc) =>
      oc.column('idempotency_key').doUpdateSet((eb) => ({
        submit_calls: eb('sandbox_submissions.submit_calls', '+', 1),
      })),
    )
    .returning(['provider_ref', 'accepted_at'])
    .executeTakeFirstOrThrow();
}

export async function findSubmission(db: Executor, providerRef: string) {
  return db
    .selectFrom('sandbox_submissions')
    .select(['provider_ref', 'msisdn', 'accepted_at'])
    .where('provider_ref', '=', providerRef)
    .executeTakeFirst();
}
