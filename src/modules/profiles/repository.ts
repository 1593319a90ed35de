import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { keysetSeek } from '../../db/keyset.js';
import type { PageRequest } from '../../lib/staff-page.js';
import type { Database } from '../../db/connection.js';
import type { DB } from '../../db/schema.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Mode, Role } from '../../domain/types.js';

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

function profileStatements(sql: Statements) {
  return {
    /** With what every request checks of the profile. */
    keyByHash: sql.prepare((qb, keyHash: string) => keyQuery(qb, keyHash).select(['p.id', 'p.role', 'p.status'])),
    /** With the whole profile row, for the one route that shows it. */
    keyWithProfileByHash: sql.prepare((qb, keyHash: string) => keyQuery(qb, keyHash).selectAll('p')),
  };
}

export interface ProfileUpsert {
  id: string;
  userId: string;
  firstName: string;
  middleName: string;
  lastName: string;
  gender: string;
  phoneNumber: string;
  email: string;
  role: Role;
  status: string;
  countryCode: string;
  countryISO: string;
  countryName: string;
  referralCode: string;
  uniqueId: string;
  creatorId: string;
  updateMeta: { action: string; name: string; userId: string };
}

/** What staff set on a profile (the console's partner form, `cli profiles create|update`). */
export interface ProfileDetails {
  firstName: string;
  middleName: string;
  lastName: string;
  phoneNumber: string;
  email: string;
  role: Role;
}

export interface NewApiKey {
  id: string;
  profileId: string;
  mode: Mode;
  hash: string;
  prefix: string;
  revoked: boolean;
  now: number;
}

/** The statuses staff set; imported profiles may carry others, which the API treats as suspended. */
export type ProfileStatus = 'Active' | 'Suspended';

/** `text` as a LIKE pattern matching it anywhere, case-insensitive (its wildcards taken literally). */
export const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A profile (table alias `alias`) whose name holds `text`, case-insensitive: first and last name,
 * with or without the middle name, so "ama mensah" finds Ama Serwaa Mensah too.
 */
export function profileNameLike(alias: 'p', text: string): Expression<SqlBool> {
  const pattern = containing(text);
  const first = sql.ref(`${alias}.first_name`);
  const middle = sql.ref(`${alias}.middle_name`);
  const last = sql.ref(`${alias}.last_name`);
  return sql<SqlBool>`(lower(${first} || ' ' || ${last}) like ${pattern} escape '\\' or lower(${first} || ' ' || ${middle} || ' ' || ${last}) like ${pattern} escape '\\')`;
}

/** The console's partner list: a text (name, e-mail or phone in the forms given) and a status. */
export interface StaffProfileFilter {
  text?: string | undefined;
  /** The text as a phone number in the forms a profile may carry (empty: it is not a number). */
  phones: string[];
  status?: ProfileStatus | undefined;
}

export class ProfileRepository {
  private readonly q: ReturnType<typeof profileStatements>;

  constructor(private readonly database: Database) {
    this.q = profileStatements(database.statements);
  }

  /** Runs on every authenticated request: one query, its columns only what the request needs. */
  async findKeyByHash(keyHash: string) {
    return (await this.database.readRows(this.q.keyByHash(keyHash)))[0];
  }

  async findKeyWithProfileByHash(keyHash: string) {
    return (await this.database.readRows(this.q.keyWithProfileByHash(keyHash)))[0];
  }

  async touchKey(tx: Tx, keyId: string, now: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', keyId));
  }

  async findProfile(profileId: string) {
    return this.database.read.selectFrom('profiles').selectAll().where('id', '=', profileId).executeTakeFirst();
  }

  async findProfileInUnit(tx: Tx, profileId: string) {
    return (await tx.execute(tx.qb.selectFrom('profiles').selectAll().where('id', '=', profileId))).rows[0];
  }

  /** Roles of the given profiles (absent ids are missing from the map). */
  async roles(tx: Tx, ids: readonly string[]): Promise<Map<string, Role>> {
    const roles = new Map<string, Role>();
    for (let at = 0; at < ids.length; at += 1000) {
      const chunk = ids.slice(at, at + 1000);
      const { rows } = await tx.execute(tx.qb.selectFrom('profiles').select(['id', 'role']).where('id', 'in', chunk));
      for (const r of rows) roles.set(r.id, r.role);
    }
    return roles;
  }

  /** The profile other than `profileId` that already has `referralCode`, if any. */
  async referralCodeOwner(tx: Tx, referralCode: string, profileId: string): Promise<string | undefined> {
    const query = tx.qb
      .selectFrom('profiles')
      .select('id')
      .where('referral_code', '=', referralCode)
      .where('id', '!=', profileId);
    return (await tx.execute(query)).rows[0]?.id;
  }

  async upsertProfile(tx: Tx, p: ProfileUpsert, now: number): Promise<void> {
    const row = {
      user_id: p.userId,
      first_name: p.firstName,
      middle_name: p.middleName,
      last_name: p.lastName,
      gender: p.gender,
      phone_number: p.phoneNumber,
      email: p.email,
      role: p.role,
      status: p.status,
      country_code: p.countryCode,
      country_iso: p.countryISO,
      country_name: p.countryName,
      referral_code: p.referralCode,
      unique_id: p.uniqueId,
      creator_id: p.creatorId,
      update_meta: JSON.stringify(p.updateMeta),
      updated_at: now,
    };
    await tx.execute(
      tx.qb
        .insertInto('profiles')
        .values({ id: p.id, ...row, registered_at: now, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row)),
    );
  }

  /** Profiles other than `profileId` with this e-mail (case-insensitive). */
  async emailOwner(tx: Tx, email: string, profileId: string | null): Promise<string | undefined> {
    let query = tx.qb
      .selectFrom('profiles')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()));
    if (profileId !== null) query = query.where('id', '!=', profileId);
    return (await tx.execute(query.limit(1))).rows[0]?.id;
  }

  /** Changes a profile's contact details and role; the row as it was before, or undefined when there is none. */
  async updateDetails(tx: Tx, profileId: string, change: ProfileDetails, meta: { action: string; name: string; userId: string }, now: number) {
    const before = (await tx.execute(tx.qb.selectFrom('profiles').selectAll().where('id', '=', profileId))).rows[0];
    if (!before) return undefined;
    await tx.execute(
      tx.qb
        .updateTable('profiles')
        .set({
          first_name: change.firstName,
          middle_name: change.middleName,
          last_name: change.lastName,
          phone_number: change.phoneNumber,
          email: change.email,
          role: change.role,
          update_meta: JSON.stringify(meta),
          updated_at: now,
        })
        .where('id', '=', profileId),
    );
    return before;
  }

  /** Adds the key unless its hash is known; true when it was added. */
  async insertKey(tx: Tx, key: NewApiKey): Promise<boolean> {
    const result = await tx.execute(
      tx.qb
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
        .onConflict((oc) => oc.column('key_hash').doNothing()),
    );
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  async findKeyOwnerByHash(tx: Tx, keyHash: string) {
    return (await tx.execute(tx.qb.selectFrom('api_keys').select(['id', 'profile_id']).where('key_hash', '=', keyHash))).rows[0];
  }

  async listKeys(profileId: string) {
    return this.database.read
      .selectFrom('api_keys')
      .select(['id', 'mode', 'prefix', 'revoked', 'revoked_at', 'last_used_at', 'created_at'])
      .where('profile_id', '=', profileId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async findKey(tx: Tx, keyId: string) {
    return (await tx.execute(tx.qb.selectFrom('api_keys').select(['id', 'revoked', 'prefix', 'profile_id']).where('id', '=', keyId))).rows[0];
  }

  /** Revokes a key that is not revoked yet; the key, or undefined when there was nothing to revoke. */
  async revokeKey(tx: Tx, keyId: string, now: number) {
    const query = tx.qb
      .updateTable('api_keys')
      .set({ revoked: 1, revoked_at: now })
      .where('id', '=', keyId)
      .where('revoked', '=', 0)
      .returning(['id', 'prefix']);
    return (await tx.execute(query)).rows[0];
  }

  /** Sets a profile's status; the row as it was before, or undefined when there is no such profile. */
  async setStatus(tx: Tx, profileId: string, status: ProfileStatus, now: number) {
    const before = (await tx.execute(tx.qb.selectFrom('profiles').select(['id', 'status']).where('id', '=', profileId))).rows[0];
    if (!before) return undefined;
    await tx.execute(tx.qb.updateTable('profiles').set({ status, updated_at: now }).where('id', '=', profileId));
    return before;
  }

  /** Every profile with its wallets (staff lists: the console, `cli profiles list`). */
  /** A page of profiles for staff, newest first (see src/lib/staff-page.ts). */
  async searchForStaff(f: StaffProfileFilter, page: PageRequest) {
    let query = this.database.read
      .selectFrom('profiles as p')
      .select(['p.id', 'p.first_name', 'p.middle_name', 'p.last_name', 'p.email', 'p.phone_number', 'p.role', 'p.status', 'p.created_at']);
    const text = f.text;
    if (text !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb('p.id', '=', text),
          profileNameLike('p', text),
          sql<SqlBool>`lower(${sql.ref('p.email')}) like ${containing(text)} escape '\\'`,
          ...(f.phones.length > 0 ? [eb('p.phone_number', 'in', f.phones)] : []),
        ]),
      );
    }
    if (f.status !== undefined) query = query.where('p.status', '=', f.status);
    const seek = keysetSeek('p.created_at', 'p.id', page);
    if (seek.where) query = query.where(seek.where);
    return query.orderBy('p.created_at', seek.order).orderBy('p.id', seek.order).limit(page.limit + 1).execute();
  }

  /** The wallets of these profiles. */
  async walletsOf(profileIds: readonly string[]) {
    if (profileIds.length === 0) return [];
    return this.database.read
      .selectFrom('wallets')
      .select(['profile_id', 'mode', 'available', 'held'])
      .where('profile_id', 'in', profileIds)
      .orderBy('profile_id')
      .orderBy('mode')
      .execute();
  }

  /** The names of these profiles (those that exist). */
  async namesOf(profileIds: readonly string[]) {
    if (profileIds.length === 0) return [];
    return this.database.read
      .selectFrom('profiles')
      .select(['id', 'first_name', 'middle_name', 'last_name'])
      .where('id', 'in', [...new Set(profileIds)])
      .execute();
  }

  async listWithWallets() {
    const profiles = await this.database.read
      .selectFrom('profiles')
      .select(['id', 'first_name', 'middle_name', 'last_name', 'email', 'phone_number', 'role', 'status', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const wallets = await this.database.read
      .selectFrom('wallets')
      .select(['profile_id', 'mode', 'available', 'held'])
      .orderBy('profile_id')
      .orderBy('mode')
      .execute();
    return { profiles, wallets };
  }

  /** Every key of every profile (`cli keys list` without --profile). */
  async listAllKeys() {
    return this.database.read
      .selectFrom('api_keys')
      .select(['id', 'profile_id', 'mode', 'prefix', 'revoked', 'revoked_at', 'last_used_at', 'created_at'])
      .orderBy('profile_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
