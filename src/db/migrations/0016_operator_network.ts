import { sql, type Kysely } from 'kysely';

/**
 * operators.network: the mobile network an operator's bundles are for (`MTN`, `TELECEL`, `AT`), or
 * null when it names none; purchases check a recipient's number against it (docs/api.md, "The
 * number's network"). Operators that exist keep null: nothing is checked for them until staff or a
 * seed file set it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('operators')
    .addColumn('network', 'text', (c) => c.check(sql`network in ('MTN', 'TELECEL', 'AT')`))
    .execute();
}
