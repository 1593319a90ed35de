import type { Database } from '../../db/connection.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Owner } from '../../domain/caller.js';
import type { EventType } from '../../domain/event-types.js';
import type { Mode } from '../../domain/types.js';
import type { KeysetPosition } from '../../lib/cursor.js';

export interface NewEvent {
  id: string;
  profileId: string;
  mode: Mode;
  type: EventType;
  /** The event object as sent (JSON). */
  payload: string;
  createdAt: number;
}

/** Events: what happened to a profile's records, kept for EVENT_RETENTION_DAYS. */
export class EventRepository {
  constructor(private readonly database: Database) {}

  /** Queues the event with the unit that made the change. */
  insert(tx: Tx, e: NewEvent): void {
    tx.write(
      this.database.statements.insert('events', {
        id: e.id,
        profile_id: e.profileId,
        mode: e.mode,
        type: e.type,
        payload: e.payload,
        created_at: e.createdAt,
      }),
    );
  }

  /** The owner's events, newest first, after a keyset position. */
  async listOwned(owner: Owner, f: { type: EventType | null; after: KeysetPosition | null; limit: number }) {
    let query = this.database.read
      .selectFrom('events')
      .selectAll()
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode);
    if (f.type !== null) query = query.where('type', '=', f.type);
    const after = f.after;
    if (after !== null)
      query = query.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(after.createdAt, after.id)));
    return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(f.limit).execute();
  }

  async findOwned(owner: Owner, eventId: string) {
    return this.database.read
      .selectFrom('events')
      .selectAll()
      .where('id', '=', eventId)
      .where('profile_id', '=', owner.profileId)
      .where('mode', '=', owner.mode)
      .executeTakeFirst();
  }

  /** Deletes up to `limit` events created before `before` (their deliveries and attempts go with them); how many went. */
  async purge(before: number, limit: number): Promise<number> {
    const result = await this.database.singleStatement((tx) =>
      tx.execute(
        tx.qb
          .deleteFrom('events')
          .where('id', 'in', (eb) => eb.selectFrom('events').select('id').where('created_at', '<', before).limit(limit)),
      ),
    );
    return Number(result.numAffectedRows ?? 0);
  }
}
