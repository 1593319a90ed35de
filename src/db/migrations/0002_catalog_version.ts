import { sql, type Kysely } from 'kysely';

/**
 * One counter that every catalog change increments in its own transaction, so each API process
 * can keep the catalog in memory and know, with one primary-key read, when its copy is stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('catalog_state')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await sql`insert into catalog_state (id, version) values (1, 1)`.execute(db);
}
