import type { Database } from '../db/connection.js';
import type { Mode, ProfileRow, Role } from '../db/schema.js';
import { AppError, forbidden, unauthorized } from '../http/errors.js';
import type { Profile } from '../http/schemas/profile.js';
import { toGhs } from '../lib/money.js';
import { parseApiKey } from './api-keys.js';
import * as repo from './repository.js';

/** Who is calling: resolved once per request by the auth plugin. */
export interface AuthContext {
  keyId: string;
  mode: Mode;
  profileId: string;
  role: Role;
  /** The whole profile row, read only when the route asked for it (`authenticate(key, true)`). */
  profile: ProfileRow | null;
  /** The wallet of the key's mode as the request began (null until it is first funded). */
  wallet: { id: string; available: number; held: number } | null;
  /** The catalog's version as the request began (see CatalogService.snapshot). */
  catalogVersion: number;
}

/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export class ProfileService {
  constructor(
    private readonly database: Database,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  async authenticate(presentedKey: string | undefined, withProfile = false): Promise<AuthContext> {
    if (!presentedKey) throw unauthorized('Missing X-API-KEY header');
    const parsed = parseApiKey(presentedKey.trim());
    if (!parsed) throw unauthorized('Malformed API key: expected service_live_… or service_test_…');
    // With the profile, the row is the profile plus the key's columns; copying it without them
    // would cost more than the query, and nothing reads the extra fields.
    const full = withProfile ? await repo.findKeyWithProfileByHash(this.database, parsed.hash) : undefined;
    const row = withProfile ? full : await repo.findKeyByHash(this.database, parsed.hash);
    if (!row || row.mode !== parsed.mode) throw unauthorized('Unknown API key');
    if (row.revoked) throw unauthorized('This API key has been revoked');
    if (row.status !== 'Active') {
      throw forbidden('PROFILE_SUSPENDED', `This profile is ${row.status.toLowerCase()}; API access is disabled`);
    }
    const now = Date.now();
    if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) {
      // Not awaited, through a unit of work so that on SQLite it shares a group commit's fsync.
      this.database.transaction((trx) => repo.touchKey(trx, row.key_id, now)).catch((error: unknown) => {
        this.log.warn({ err: error, keyId: row.key_id }, 'could not record key use');
      });
    }
    const wallet =
      row.wallet_id === null ? null : { id: row.wallet_id, available: Number(row.wallet_available), held: Number(row.wallet_held) };
    return {
      keyId: row.key_id,
      mode: row.mode,
      profileId: row.id,
      role: row.role,
      profile: full ?? null,
      wallet,
      catalogVersion: Number(row.catalog_version),
    };
  }

  /** The balances come from the authentication read: one query for the whole request. */
  getProfile(auth: AuthContext): Profile {
    if (!auth.profile) throw new Error('the route did not ask the authentication for the profile (config.authLoadsProfile)');
    return toProfileView(auth.profile, auth.wallet?.available ?? 0, auth.wallet?.held ?? 0);
  }

  async requireProfile(profileId: string): Promise<ProfileRow> {
    const profile = await repo.findProfile(this.database.read, profileId);
    if (!profile) throw new AppError(404, 'PROFILE_NOT_FOUND', `No profile ${profileId}`);
    return profile;
  }
}

export function fullName(p: Pick<ProfileRow, 'first_name' | 'middle_name' | 'last_name'>): string {
  return [p.first_name, p.middle_name, p.last_name].filter((part) => part.trim() !== '').join(' ');
}

function parseUpdateMeta(raw: string): Profile['updateMeta'] {
  try {
    const value = JSON.parse(raw) as Partial<Profile['updateMeta']>;
    return { action: String(value.action ?? ''), name: String(value.name ?? ''), userId: String(value.userId ?? '') };
  } catch {
    return { action: '', name: '', userId: '' };
  }
}

export function toProfileView(p: ProfileRow, available: number, held: number): Profile {
  return {
    _id: p.id,
    _creationTime: p.created_at,
    userId: p.user_id,
    firstName: p.first_name,
    middleName: p.middle_name,
    lastName: p.last_name,
    fullName: fullName(p),
    gender: p.gender,
    phoneNumber: p.phone_number,
    email: p.email,
    role: p.role,
    status: p.status,
    countryCode: p.country_code,
    countryISO: p.country_iso,
    countryName: p.country_name,
    referralCode: p.referral_code,
    uniqueId: p.unique_id,
    creatorId: p.creator_id,
    registeredAt: p.registered_at,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    updateMeta: parseUpdateMeta(p.update_meta),
    walletAvailableBalance: toGhs(available),
    walletHeldBalance: toGhs(held),
    walletTotalBalance: toGhs(available + held),
  };
}
