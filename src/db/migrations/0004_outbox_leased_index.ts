import { sql, type Kysely } from 'kysely';

/** Leased outbox rows by lease end: lets the worker find its next wake-up without a scan. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('outbox_leased')
    .on('outbox')
    .column('locked_until')
    .where(sql.ref('locked_until'), 'is not', null)
    .execute();
}
