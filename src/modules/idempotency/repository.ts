import { sql } from 'kysely';
import type { Database } from '../../db/connection.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { Mode } from '../../domain/types.js';

function idempotencyStatements(sql: Statements) {
  return {
    claim: sql.prepare(
      (qb, profileId: string, mode: Mode, key: string, fingerprint: string, lockedUntil: number, now: number) =>
        qb
          .insertInto('idempotency_keys')
          .values({ profile_id: profileId, mode, key, fingerprint, state: 'running', locked_until: lockedUntil, created_at: now })
          .onConflict((oc) => oc.columns(['profile_id', 'mode', 'key']).doNothing()),
    ),
    find: sql.prepare((qb, profileId: string, mode: Mode, key: string) =>
      qb.selectFrom('idempotency_keys').selectAll().where('profile_id', '=', profileId).where('mode', '=', mode).where('key', '=', key),
    ),
    succeeded: sql.prepare((qb, profileId: string, mode: Mode, key: string, data: string, now: number) =>
      qb
        .updateTable('idempotency_keys')
        .set({ state: 'done', locked_until: null, response_data: data, completed_at: now })
        .where('profile_id', '=', profileId)
        .where('mode', '=', mode)
        .where('key', '=', key)
        .where('state', '=', 'running'),
    ),
  };
}

/** Idempotency keys and the results stored with them. */
export class IdempotencyRepository {
  private readonly q: ReturnType<typeof idempotencyStatements>;

  constructor(private readonly database: Database) {
    this.q = idempotencyStatements(database.statements);
  }

  /** Takes the key for a first request; false when a row for it exists already. */
  async claim(owner: Owner, key: string, fingerprint: string, lockedUntil: number, now: number): Promise<boolean> {
    const result = await this.database.singleStatement((tx) =>
      tx.execute(this.q.claim(owner.profileId, owner.mode, key, fingerprint, lockedUntil, now)),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async find(owner: Owner, key: string) {
    return (await this.database.readRows(this.q.find(owner.profileId, owner.mode, key)))[0];
  }

  /** A running claim whose request died (its lock ran out) taken over by a new request; false if another took it. */
  async takeOver(owner: Owner, key: string, fingerprint: string, lockedUntil: number, now: number): Promise<boolean> {
    const result = await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .updateTable('idempotency_keys')
          .set({ locked_until: lockedUntil })
          .where('profile_id', '=', owner.profileId)
          .where('mode', '=', owner.mode)
          .where('key', '=', key)
          .where('fingerprint', '=', fingerprint)
          .where('state', '=', 'running')
          .where('locked_until', '<', now),
      ),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** Queues, in the unit that did the work: the key is done, with the data of the success. */
  succeeded(tx: Tx, owner: Owner, key: string, sealedData: string, now: number): void {
    tx.write(this.q.succeeded(owner.profileId, owner.mode, key, sealedData, now));
  }

  /** The key is done, with the response as it was sent (a refusal). */
  async answered(owner: Owner, key: string, status: number, body: string, now: number): Promise<void> {
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .updateTable('idempotency_keys')
          .set({ state: 'done', locked_until: null, response_status: status, response_body: body, completed_at: now })
          .where('profile_id', '=', owner.profileId)
          .where('mode', '=', owner.mode)
          .where('key', '=', key)
          .where('state', '=', 'running'),
      ),
    );
  }

  /** Lets the key go (the request's outcome is not stored): the client may retry with it. */
  async release(owner: Owner, key: string): Promise<void> {
    await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .deleteFrom('idempotency_keys')
          .where('profile_id', '=', owner.profileId)
          .where('mode', '=', owner.mode)
          .where('key', '=', key)
          .where('state', '=', 'running'),
      ),
    );
  }

  /** Deletes up to `limit` keys created before `before`; how many went. */
  async purge(before: number, limit: number): Promise<number> {
    const result = await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .deleteFrom('idempotency_keys')
          .where(
            sql<boolean>`(profile_id, mode, key) in (select profile_id, mode, key from idempotency_keys where created_at < ${before} limit ${limit})`,
          ),
      ),
    );
    return Number(result.numAffectedRows ?? 0);
  }
}
