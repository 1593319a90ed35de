import type { Kysely } from 'kysely';
import type { Database, Executor } from '../db/connection.js';
import { prepared } from '../db/prepared.js';
import type { DB, Mode } from '../db/schema.js';

/**
 * The key (revoked or not), the wallet of its mode and the catalog's version (so the catalog cache
 * is checked without a query of its own), joined to the key's profile.
 */
function keyQuery(db: Kysely<DB>, keyHash: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('profiles as p', 'p.id', 'k.profile_id')
    .leftJoin('wallets as w', (join) => join.onRef('w.profile_id', '=', 'k.profile_id').onRef('w.mode', '=', 'k.mode'))
    .select(['k.id as key_id', 'k.mode', 'k.revoked', 'k.last_used_at'])
    .select(['w.id as wallet_id', 'w.available as wallet_available', 'w.held as wallet_held'])
    .select((eb) => eb.selectFrom('catalog_state').select('version').where('id', '=', 1).as('catalog_version'))
    .where('k.key_hash', '=', keyHash);
}

/** With what every request checks of the profile. */
const keyByHash = prepared((db, keyHash: string) => keyQuery(db, keyHash).select(['p.id', 'p.role', 'p.status']));

/** With the whole profile row, for the one route that shows it. */
const keyWithProfileByHash = prepared((db, keyHash: string) => keyQuery(db, keyHash).selectAll('p'));

/** Runs on every authenticated request: one query, its columns only what the request needs. */
export async function findKeyByHash(database: Database, keyHash: string) {
  return (await keyByHash(database, keyHash))[0];
}

export async function findKeyWithProfileByHash(database: Database, keyHash: string) {
  return (await keyWithProfileByHash(database, keyHash))[0];
}

export async function touchKey(db: Executor, keyId: string, now: number): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId).execute();
}

export async function findProfile(db: Executor, profileId: string) {
  return db.selectFrom('profiles').selectAll().where('id', '=', profileId).executeTakeFirst();
}

export async function insertKey(
  db: Executor,
  key: { id: string; profileId: string; mode: Mode; hash: string; prefix: string; revoked: boolean; now: number },
): Promise<boolean> {
  const result = await db
    .insertInto('api_keys')
    .values({
      id: key.id,
      profile_id: key.profileId,
      mode: key.mode,
      key_hash: key.hash,
      prefix: key.prefix,
      revoked: key.revoked ? 1 : 0,
      revoked_at: key.revoked ? key.now : null,
      last_used_at: null,
      created_at: key.now,
    })
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function listKeys(db: Executor, profileId: string) {
  return db
    .selectFrom('api_keys')
    .select(['id', 'mode', 'prefix', 'revoked', 'revoked_at', 'last_used_at', 'created_at'])
    .where('profile_id', '=', profileId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function revokeKey(db: Executor, keyId: string, now: number) {
  return db
    .updateTable('api_keys')
    .set({ revoked: 1, revoked_at: now })
    .where('id', '=', keyId)
    .where('revoked', '=', 0)
    .returning(['id', 'prefix'])
    .executeTakeFirst();
}

export async function findKey(db: Executor, keyId: string) {
  return db.selectFrom('api_keys').select(['id', 'revoked', 'prefix']).where('id', '=', keyId).executeTakeFirst();
}
