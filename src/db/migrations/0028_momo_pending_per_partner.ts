import { sql, type Kysely } from 'kysely';

/**
 * Mobile Money charges waiting on a phone (docs/mobile-money.md, "Limits"): one at a time per
 * partner, mode and number, no longer per mode and number across partners (one partner's charge
 * blocked the number's owner from topping up for the charge's whole life). How many prompts a number
 * was sent in the last hour, across partners, is read through top_ups_momo_number.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('top_ups_momo_pending').execute();
  await db.schema
    .createIndex('top_ups_momo_pending')
    .on('top_ups')
    .columns(['profile_id', 'mode', 'payment_phone'])
    .unique()
    .where(sql.ref('status'), '=', 'pending')
    .execute();
  await db.schema
    .createIndex('top_ups_momo_number')
    .on('top_ups')
    .columns(['payment_phone', 'mode', 'created_at'])
    .where(sql.ref('payment_phone'), 'is not', null)
    .execute();
}
