import { sql, type Kysely } from 'kysely';

/**
 * staff_accounts.password_change_required: 1 while the account's password is one its holder did not
 * choose (a generated one-time password from `staff create`, the console's staff page or
 * `staff reset-password`); the console lets such an account do nothing but choose its own
 * (docs/console.md, "Passwords"). Accounts that exist already have only ever had such passwords (no
 * one could change their own before), so they start at 1 too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('staff_accounts')
    .addColumn('password_change_required', 'integer', (c) =>
      c.notNull().defaultTo(1).check(sql`password_change_required in (0, 1)`),
    )
    .execute();
}
