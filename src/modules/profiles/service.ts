import type { Database } from '../../db/connection.js';
import type { ProfileRow } from '../../db/schema.js';
import type { Caller } from '../../domain/caller.js';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../domain/errors.js';
import { MODES, ROLES, type Clock, type Mode, type Role } from '../../domain/types.js';
import { newId, REFERENCE_ALPHABET } from '../../lib/ids.js';
import { normaliseGhanaMsisdn } from '../../lib/phone.js';
import { randomBytes } from 'node:crypto';
import { toGhs } from '../../lib/money.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import type { WalletService } from '../wallet/service.js';
import { generateApiKey, parseApiKey } from './api-keys.js';
import { readPage, type Page, type PageRequest } from '../../lib/staff-page.js';
import type { ProfileDetails, ProfileRepository, ProfileStatus } from './repository.js';
import type { Profile } from './schemas.js';

/** The caller as authentication resolves it, with the key and (when the route asks) the profile row. */
export interface AuthContext extends Caller {
  keyId: string;
  /** The whole profile row, read only when the route asked for it (`authenticate(key, true)`). */
  profile: ProfileRow | null;
}

/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_INTERVAL_MS = 60_000;

export interface Logger {
  warn(obj: object, msg: string): void;
}

export class ProfileService {
  constructor(
    private readonly database: Database,
    private readonly profiles: ProfileRepository,
    private readonly wallets: WalletService,
    private readonly log: Logger,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /**
   * The key's owner and mode; 401 for a missing, malformed, unknown or revoked key, 403 when
   * suspended (docs/errors.md, "Codes of the platform").
   */
  async authenticate(presentedKey: string | undefined, withProfile = false): Promise<AuthContext> {
    if (!presentedKey) throw unauthenticated('Missing X-API-KEY header');
    const parsed = parseApiKey(presentedKey.trim());
    if (!parsed) throw unauthenticated('Malformed API key: expected service_live_… or service_test_…');
    // With the profile, the row is the profile plus the key's columns; copying it without them
    // would cost more than the query, and nothing reads the extra fields.
    const full = withProfile ? await this.profiles.findKeyWithProfileByHash(parsed.hash) : undefined;
    const row = withProfile ? full : await this.profiles.findKeyByHash(parsed.hash);
    if (!row || row.mode !== parsed.mode) throw unauthenticated('Unknown API key');
    if (row.revoked) throw unauthenticated('This API key has been revoked');
    if (row.status !== 'Active') {
      throw forbidden('PROFILE_SUSPENDED', `This profile is ${row.status.toLowerCase()}; API access is disabled`);
    }
    const now = this.clock();
    if (row.last_used_at === null || now - row.last_used_at > TOUCH_INTERVAL_MS) {
      // Not awaited, through a unit of work so that on SQLite it shares a group commit's fsync.
      this.database
        .unit((tx) => this.profiles.touchKey(tx, row.key_id, now))
        .catch((error: unknown) => {
          this.log.warn({ err: error, keyId: row.key_id }, 'could not record key use');
        });
    }
    const wallet =
      row.wallet_id === null
        ? null
        : { id: row.wallet_id, available: Number(row.wallet_available), held: Number(row.wallet_held) };
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

  /** GET /api/v1/profile. The balances come from the authentication read: one query for the whole request. */
  profileView(auth: AuthContext): Profile {
    if (!auth.profile) throw new Error('the route did not ask the authentication for the profile (config.authLoadsProfile)');
    return toProfileView(auth.profile, auth.wallet?.available ?? 0, auth.wallet?.held ?? 0);
  }

  // ---- staff (CLI) ----

  /**
   * Onboards a partner (docs/console.md, "Partners"): the profile, its wallet in each mode (at zero)
   * and a first key per mode, in one unit with the audit row. The keys' plaintext is returned once;
   * only their hashes are kept, and the audit row names their prefixes only.
   */
  async createProfile(
    actor: Actor,
    input: ProfileInput & { status: ProfileStatus },
  ): Promise<{ id: string; keys: { id: string; mode: Mode; key: string }[] }> {
    const details = profileDetails(input);
    const status = input.status;
    const id = newId('usr');
    const keys = MODES.map((mode) => ({ mode, id: newId('key'), key: generateApiKey(mode) }));
    await this.database.unit(async (tx) => {
      const taken = await this.profiles.emailOwner(tx, details.email, null);
      if (taken) throw conflict('INVALID_REQUEST', `profile ${taken} already has the e-mail ${details.email}`);
      const now = this.clock();
      const meta = { action: 'create', name: actor.name, userId: actor.staffId ?? '' };
      await this.profiles.upsertProfile(
        tx,
        {
          id,
          userId: id,
          ...details,
          gender: '',
          status,
          countryCode: '+233',
          countryISO: 'GH',
          countryName: 'Ghana',
          referralCode: referralCode(),
          uniqueId: id,
          creatorId: actor.staffId ?? actor.name,
          updateMeta: meta,
        },
        now,
      );
      for (const k of keys) {
        await this.wallets.ensure(tx, id, k.mode, 0, now);
        const parsed = parseApiKey(k.key);
        if (!parsed) throw new Error('a generated key does not parse');
        await this.profiles.insertKey(tx, { id: k.id, profileId: id, mode: k.mode, hash: parsed.hash, prefix: parsed.prefix, revoked: false, now });
      }
      await this.audit.record(tx, actor, 'profile.create', { type: 'profile', id }, {
        ...details,
        status,
        keys: keys.map((k) => ({ mode: k.mode, keyId: k.id, prefix: parseApiKey(k.key)?.prefix ?? '' })),
      });
    });
    return { id, keys };
  }

  /** Changes a profile's names, phone, e-mail and role; the audit row names what changed, before and after. */
  async updateProfile(actor: Actor, profileId: string, input: ProfileInput): Promise<{ id: string; changed: string[] }> {
    const details = profileDetails(input);
    return this.database.unit(async (tx) => {
      const taken = await this.profiles.emailOwner(tx, details.email, profileId);
      if (taken) throw conflict('INVALID_REQUEST', `profile ${taken} already has the e-mail ${details.email}`);
      const meta = { action: 'update', name: actor.name, userId: actor.staffId ?? '' };
      const before = await this.profiles.updateDetails(tx, profileId, details, meta, this.clock());
      if (!before) throw notFound('PROFILE_NOT_FOUND', `no profile ${profileId}`);
      const was: ProfileDetails = {
        firstName: before.first_name,
        middleName: before.middle_name,
        lastName: before.last_name,
        phoneNumber: before.phone_number,
        email: before.email,
        role: before.role,
      };
      const changed = (Object.keys(details) as (keyof ProfileDetails)[]).filter((k) => details[k] !== was[k]);
      if (changed.length === 0) throw conflict('INVALID_REQUEST', `nothing to change on profile ${profileId}`);
      const diff = Object.fromEntries(changed.map((k) => [k, { before: was[k], after: details[k] }]));
      await this.audit.record(tx, actor, 'profile.update', { type: 'profile', id: profileId }, diff);
      return { id: profileId, changed };
    });
  }

  /**
   * A new key for the profile, in `mode` (its wallet is created if missing): the plaintext is
   * returned once, only its hash is kept, and the audit row never holds it.
   */
  async createKey(actor: Actor, profileId: string, mode: Mode): Promise<{ id: string; key: string }> {
    const key = generateApiKey(mode);
    const parsed = parseApiKey(key);
    if (!parsed) throw new Error('a generated key does not parse');
    const id = newId('key');
    await this.database.unit(async (tx) => {
      const profile = await this.profiles.findProfileInUnit(tx, profileId);
      if (!profile) throw notFound('PROFILE_NOT_FOUND', `no profile ${profileId}`);
      const now = this.clock();
      await this.wallets.ensure(tx, profile.id, mode, 0, now);
      await this.profiles.insertKey(tx, {
        id,
        profileId: profile.id,
        mode,
        hash: parsed.hash,
        prefix: parsed.prefix,
        revoked: false,
        now,
      });
      await this.audit.record(tx, actor, 'key.create', { type: 'profile', id: profile.id }, { mode, keyId: id, prefix: parsed.prefix });
    });
    return { id, key };
  }

  /** What staff edit of a profile (the console's form), or null. */
  async details(profileId: string) {
    const p = await this.profiles.findProfile(profileId);
    if (!p) return null;
    return {
      firstName: p.first_name,
      middleName: p.middle_name,
      lastName: p.last_name,
      phoneNumber: p.phone_number,
      email: p.email,
      role: p.role,
      status: p.status,
    };
  }

  async listKeys(profileId: string) {
    return this.profiles.listKeys(profileId);
  }

  async revokeKey(actor: Actor, keyId: string): Promise<{ id: string; prefix: string }> {
    return this.database.unit(async (tx) => {
      const key = await this.profiles.findKey(tx, keyId);
      if (!key) throw notFound('NOT_FOUND', `no key ${keyId}`);
      const revoked = await this.profiles.revokeKey(tx, keyId, this.clock());
      if (!revoked) throw conflict('INVALID_REQUEST', `key ${keyId} is already revoked`);
      await this.audit.record(tx, actor, 'key.revoke', { type: 'api_key', id: keyId }, { prefix: revoked.prefix, profileId: key.profile_id });
      return revoked;
    });
  }

  /** Every profile with its wallet balances per mode (pesewas), for staff. */
  async listForStaff(): Promise<StaffProfile[]> {
    const { profiles, wallets } = await this.profiles.listWithWallets();
    return profiles.map((p) => ({
      id: p.id,
      name: fullName(p),
      email: p.email,
      phoneNumber: p.phone_number,
      role: p.role,
      status: p.status,
      wallets: wallets
        .filter((w) => w.profile_id === p.id)
        .map((w) => ({ mode: w.mode, available: Number(w.available), held: Number(w.held) })),
    }));
  }

  /**
   * A page of profiles for staff, newest first, with their wallets: `text` is a profile id or part of
   * a name or an e-mail (case-insensitive), or a phone number in any of its written forms.
   */
  async searchForStaff(filter: { text?: string | undefined; status?: ProfileStatus | undefined }, page: PageRequest): Promise<Page<StaffProfile>> {
    const text = filter.text?.trim() || undefined;
    const msisdn = text === undefined ? null : normaliseGhanaMsisdn(text);
    const phones = msisdn === null ? [] : [`0${msisdn.slice(3)}`, msisdn];
    const found = await readPage(page, (p) => this.profiles.searchForStaff({ text, phones, status: filter.status }, p));
    const wallets = await this.profiles.walletsOf(found.rows.map((p) => p.id));
    return {
      ...found,
      rows: found.rows.map((p) => ({
        id: p.id,
        name: fullName(p),
        email: p.email,
        phoneNumber: p.phone_number,
        role: p.role,
        status: p.status,
        wallets: wallets
          .filter((w) => w.profile_id === p.id)
          .map((w) => ({ mode: w.mode, available: Number(w.available), held: Number(w.held) })),
      })),
    };
  }

  /** The names of these profiles, by id (an id without a profile is left out). */
  async namesOf(profileIds: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.profiles.namesOf(profileIds);
    return new Map(rows.map((p) => [p.id, fullName(p)]));
  }

  /** Keys of one profile, or of every profile when none is named. */
  async listAllKeys() {
    return this.profiles.listAllKeys();
  }

  /**
   * Suspends or reactivates a profile: a suspended profile's keys are refused with 403
   * PROFILE_SUSPENDED from the next request on (docs/errors.md). Setting the status it has is refused.
   */
  async setStatus(actor: Actor, profileId: string, status: ProfileStatus): Promise<{ id: string; before: string; after: ProfileStatus }> {
    return this.database.unit(async (tx) => {
      const before = await this.profiles.setStatus(tx, profileId, status, this.clock());
      if (!before) throw notFound('PROFILE_NOT_FOUND', `no profile ${profileId}`);
      if (before.status === status) throw conflict('INVALID_REQUEST', `profile ${profileId} is already ${status.toLowerCase()}`);
      const change = { id: profileId, before: before.status, after: status };
      const action = status === 'Active' ? 'profile.reactivate' : 'profile.suspend';
      await this.audit.record(tx, actor, action, { type: 'profile', id: profileId }, { before: change.before, after: status });
      return change;
    });
  }
}

export interface StaffProfile {
  id: string;
  name: string;
  email: string;
  phoneNumber: string;
  role: Role;
  status: string;
  wallets: { mode: Mode; available: number; held: number }[];
}

/** A profile as staff write it: names, phone, e-mail, role. */
export interface ProfileInput {
  firstName: string;
  middleName?: string | undefined;
  lastName: string;
  phoneNumber: string;
  email: string;
  role: string;
}

const NAME_MAX = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Checked and normalised: names trimmed, the phone as 0XXXXXXXXX, the e-mail lower-case. */
function profileDetails(input: ProfileInput): ProfileDetails {
  const name = (field: string, value: string | undefined, required: boolean) => {
    const trimmed = (value ?? '').trim();
    if (required && trimmed === '') throw invalid('INVALID_REQUEST', `${field} is required`);
    if (trimmed.length > NAME_MAX) throw invalid('INVALID_REQUEST', `${field} is longer than ${NAME_MAX} characters`);
    return trimmed;
  };
  const msisdn = normaliseGhanaMsisdn(input.phoneNumber);
  if (msisdn === null) throw invalid('INVALID_REQUEST', `phone ${JSON.stringify(input.phoneNumber)} is not a Ghana mobile number`);
  const email = input.email.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('INVALID_REQUEST', `e-mail ${JSON.stringify(input.email)} is not an e-mail address`);
  if (!(ROLES as readonly string[]).includes(input.role)) throw invalid('INVALID_REQUEST', `role must be one of ${ROLES.join(', ')}`);
  return {
    firstName: name('first name', input.firstName, true),
    middleName: name('middle name', input.middleName, false),
    lastName: name('last name', input.lastName, true),
    phoneNumber: `0${msisdn.slice(3)}`,
    email,
    role: input.role as Role,
  };
}

function referralCode(): string {
  return [...randomBytes(10)].map((b) => REFERENCE_ALPHABET[b % REFERENCE_ALPHABET.length]).join('');
}

export function fullName(p: Pick<ProfileRow, 'first_name' | 'middle_name' | 'last_name'>): string {
  return [p.first_name, p.middle_name, p.last_name].filter((part) => part.trim() !== '').join(' ');
}

function parseUpdateMeta(raw: string): Profile['updateMeta'] {
  try {
    const value = JSON.parse(raw) as Partial<Record<keyof Profile['updateMeta'], unknown>>;
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    return { action: text(value.action), name: text(value.name), userId: text(value.userId) };
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
