import { sql, type Kysely } from 'kysely';

/**
 * Two-factor sign-in for staff (docs/console.md, "Two-factor sign-in"):
 * - staff_accounts.totp_secret: the TOTP secret (RFC 6238), sealed (AES-256-GCM under a key derived
 *   from CREDENTIALS_KEY), set once the holder confirmed it with a valid code; totp_pending_secret:
 *   one being set up, not yet confirmed (it does not count); totp_enabled_at: when it was confirmed;
 *   totp_last_step: the 30-second step of the last code accepted, so no code is accepted twice.
 * - staff_sessions.second_factor_pending: 1 for a session whose password was right but whose code
 *   has not been given yet (it may do nothing but give it).
 * - staff_recovery_codes: one-use codes for a lost device, stored as sha-256 hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_accounts').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('staff_accounts').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('staff_accounts').addColumn('totp_enabled_at', 'bigint').execute();
  await db.schema.alterTable('staff_accounts').addColumn('totp_last_step', 'bigint').execute();
  await db.schema
    .alterTable('staff_sessions')
    .addColumn('second_factor_pending', 'integer', (c) =>
      c.notNull().defaultTo(0).check(sql`second_factor_pending in (0, 1)`),
    )
    .execute();
  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('staff_id', 'text', (c) => c.notNull().references('staff_accounts.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addPrimaryKeyConstraint('staff_recovery_codes_pk', ['staff_id', 'code_hash'])
    .execute();
}
