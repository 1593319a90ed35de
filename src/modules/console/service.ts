import { createHash, randomBytes } from 'node:crypto';
import type { Database } from '../../db/connection.js';
import {
  STAFF_ROLES,
  type StaffAccountRow,
  type StaffRequestKind,
  type StaffRequestRow,
  type StaffRequestStatus,
  type StaffRole,
} from '../../db/schema.js';
import { whenRefusedBy } from '../../db/unique-indexes.js';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../domain/errors.js';
import type { Clock } from '../../domain/types.js';
import type { Tx } from '../../db/unit-of-work.js';
import { newId } from '../../lib/ids.js';
import type { Sealer } from '../../lib/sealer.js';
import { HasherBusy } from './password-hasher.js';
import { DUMMY_HASH, generatePassword, hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from './passwords.js';
import type { Actor, AuditTrail } from '../audit/service.js';
import { assertFourEyes } from '../four-eyes/service.js';
import type { StaffRepository } from './repository.js';
import { looksLikeRecoveryCode, matchingStep, newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpUri } from './totp.js';

/** What each role may do, from least to most: a role may do everything of the roles before it. */
const RANK: Record<StaffRole, number> = { viewer: 0, operator: 1, admin: 2 };

export function mayAct(role: StaffRole, needed: StaffRole): boolean {
  return RANK[role] >= RANK[needed];
}

export function parseStaffRole(value: string): StaffRole | null {
  return STAFF_ROLES.find((r) => r === value) ?? null;
}

export interface StaffAccount {
  id: string;
  email: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  lastLoginAt: number | null;
  createdAt: number;
  /** Two-factor sign-in is on (docs/console.md, "Two-factor sign-in"). */
  twoFactor: boolean;
}

export interface StaffSession {
  /** sha-256 of the cookie token. */
  id: string;
  staffId: string;
  email: string;
  role: StaffRole;
  csrfToken: string;
  expiresAt: number;
}

/** A session as each console request finds it: also whether its holder must first choose a password. */
export interface LiveSession extends StaffSession {
  /** The account's password is a one-time one (docs/console.md, "Passwords"). */
  passwordChangeRequired: boolean;
  /** The password was right; the code (or a recovery code) is still to be given. */
  secondFactorPending: boolean;
  /** An admin without two-factor sign-in while CONSOLE_REQUIRE_2FA=true: may do nothing but set it up. */
  twoFactorEnrolmentRequired: boolean;
}

/** Two-factor sign-in settings of the service. */
export interface TwoFactorSettings {
  /** Seals the TOTP secrets at rest (a key derived from CREDENTIALS_KEY). */
  sealer: Sealer;
  /** CONSOLE_REQUIRE_2FA: admins must have it. */
  requiredForAdmins: boolean;
}

/** How long a signed-in password waits for its code. */
export const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;

/** Failed sign-ins tolerated per e-mail and per address within the window, before sign-in is refused. */
export const LOGIN_LIMITS = { perEmail: 5, perAddress: 20, windowMs: 15 * 60_000 };

/**
 * Sign-in attempts in this process's memory (one console process is the expected deployment; with
 * several, each counts its own: the limit is per process). An attempt is counted when it starts,
 * before its password is hashed, so a burst beyond the limit is refused without hashing; a
 * successful attempt is taken back.
 */
class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly clock: Clock) {}

  /**
   * Counts an attempt for every key, or refuses it (the seconds until one may try again) when any
   * key is at its limit. `release` takes the attempt back from each key.
   */
  begin(keys: readonly [string, number][]): { blockedFor: number } | { release(): void } {
    const now = this.clock();
    let wait: number | null = null;
    for (const [key, limit] of keys) {
      const recent = this.recent(key, now);
      if (recent.length >= limit) {
        const until = (recent[recent.length - limit] ?? now) + LOGIN_LIMITS.windowMs;
        wait = Math.max(wait ?? 0, Math.ceil((until - now) / 1000));
      }
    }
    if (wait !== null) return { blockedFor: wait };
    for (const [key] of keys) this.failures.set(key, [...this.recent(key, now), now]);
    if (this.failures.size > 10_000) this.sweep(now);
    return {
      release: () => {
        for (const [key] of keys) {
          const list = this.failures.get(key);
          const at = list?.lastIndexOf(now) ?? -1;
          if (list && at >= 0) list.splice(at, 1);
        }
      },
    };
  }

  /** A successful sign-in forgives the e-mail's earlier failures. */
  succeeded(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string, now: number): number[] {
    return (this.failures.get(key) ?? []).filter((at) => at > now - LOGIN_LIMITS.windowMs);
  }

  private sweep(now: number): void {
    for (const key of [...this.failures.keys()]) if (this.recent(key, now).length === 0) this.failures.delete(key);
  }
}

const busy = () => forbidden('RATE_LIMITED', 'Too many sign-ins at once; try again in a few seconds');

/** A password hashed for storage; refused (RATE_LIMITED) while sign-ins fill the hashing queue. */
async function hashed(password: string): Promise<string> {
  try {
    return await hashPassword(password);
  } catch (error) {
    throw error instanceof HasherBusy ? busy() : error;
  }
}

const sessionId = (token: string) => createHash('sha256').update(token).digest('hex');

function normaliseEmail(email: string): string {
  const trimmed = email.trim().toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed) || trimmed.length > 254) {
    throw invalid('INVALID_REQUEST', `"${email}" is not an e-mail address`);
  }
  return trimmed;
}

/**
 * Staff accounts, sign-in and sessions of the console. Sessions live in the
 * database: the browser holds a random token (in a signed cookie), the table its sha-256.
 */
export class StaffService {
  private readonly throttle: LoginThrottle;

  constructor(
    private readonly database: Database,
    private readonly staff: StaffRepository,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly sessionTtlMs: number,
    private readonly twoFactor: TwoFactorSettings,
  ) {
    this.throttle = new LoginThrottle(clock);
  }

  /**
   * A new account with a one-time password (returned once, stored hashed), or the password given, at
   * once: the bootstrap, the demo and tests. The console and the CLI go through createOrRequest.
   */
  async create(actor: Actor, emailInput: string, role: StaffRole, password?: string): Promise<{ account: StaffAccount; password: string }> {
    const email = normaliseEmail(emailInput);
    const secret = password ?? generatePassword();
    if (secret.length < MIN_PASSWORD_LENGTH)
      throw invalid('INVALID_REQUEST', `a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
    const hash = await hashed(secret);
    const now = this.clock();
    const row = newAccountRow(actor, { email, role, hash, now });
    await this.database
      .unit(async (tx) => {
        await this.staff.insertAccount(tx, row);
        await this.audit.record(tx, actor, 'staff.create', { type: 'staff', id: row.id }, { email, role });
      })
      .catch(
        whenRefusedBy({
          staff_accounts_email_key: () => conflict('INVALID_REQUEST', `a staff account for ${email} exists already`),
        }),
      );
    return { account: toAccount(row), password: secret };
  }

  /** A new one-time password for an account (its sessions end); returned once, stored hashed. */
  async resetPassword(actor: Actor, emailInput: string): Promise<{ account: StaffAccount; password: string }> {
    const email = emailInput.trim().toLowerCase();
    const password = generatePassword();
    const hash = await hashed(password);
    return this.database.unit(async (tx) => {
      const row = await this.staff.findAccountByEmailInUnit(tx, email);
      if (!row) throw notFound('NOT_FOUND', `no staff account ${email}`);
      await this.staff.updateAccount(tx, row.id, { password_hash: hash, password_reset_by_staff_id: actor.staffId }, this.clock());
      await this.staff.deleteSessionsOf(tx, row.id);
      await this.audit.record(tx, actor, 'staff.reset_password', { type: 'staff', id: row.id }, { email: row.email });
      return { account: toAccount(row), password };
    });
  }

  async list(): Promise<StaffAccount[]> {
    return (await this.staff.listAccounts()).map(toAccount);
  }

  async findByEmail(email: string): Promise<StaffAccount | undefined> {
    const row = await this.staff.findAccountByEmail(email.trim().toLowerCase());
    return row ? toAccount(row) : undefined;
  }

  /** Changes a role or an account's status; the last active admin can be neither demoted nor disabled. */
  async update(actor: Actor, id: string, change: StaffChange): Promise<StaffAccount> {
    return this.database.unit(async (tx) => {
      // The admins first: on PostgreSQL this locks them, so the account is read after any concurrent change to it.
      const admins = await this.staff.activeAdmins(tx);
      const account = await this.staff.findAccount(tx, id);
      if (!account) throw notFound('NOT_FOUND', `no staff account ${id}`);
      return this.applyUpdate(tx, actor, admins, account, change);
    });
  }

  private async applyUpdate(tx: Tx, actor: Actor, admins: string[], account: StaffAccountRow, change: StaffChange): Promise<StaffAccount> {
    const id = account.id;
    const losesAdmin =
      account.role === 'admin' &&
      account.status === 'active' &&
      ((change.role ?? 'admin') !== 'admin' || change.status === 'disabled');
    if (losesAdmin && admins.length <= 1) {
      throw conflict('INVALID_REQUEST', `${account.email} is the last active admin`);
    }
    const now = this.clock();
    await this.staff.updateAccount(tx, id, change, now);
    // A changed role or a disabled account takes effect at once: its sessions end.
    await this.staff.deleteSessionsOf(tx, id);
    const before = { role: account.role, status: account.status };
    await this.audit.record(tx, actor, 'staff.update', { type: 'staff', id }, { email: account.email, before, after: change });
    return toAccount({ ...account, ...change });
  }

  // ---- four eyes on admins (docs/console.md, "Four eyes") ----

  /**
   * The console's and the CLI's new account. A new admin is a request while an active admin exists:
   * the account exists (and its password works) only once another admin approves it. The one-time
   * password is returned to the requester only, whose account is then its creator: the four-eyes
   * rule never lets the two approve each other, and the approver never learns it. With no active
   * admin (an empty platform's first one, from the CLI) the account is created at once.
   */
  async createOrRequest(actor: Actor, emailInput: string, role: StaffRole): Promise<{ account: StaffAccount | null; request: StaffRequest | null; password: string }> {
    if (role !== 'admin') return { ...(await this.create(actor, emailInput, role)), request: null };
    const email = normaliseEmail(emailInput);
    const password = generatePassword();
    const hash = await hashed(password);
    const now = this.clock();
    const created = await this.database
      .unit(async (tx) => {
        const admins = await this.staff.activeAdmins(tx);
        if (await this.staff.findAccountByEmailInUnit(tx, email)) throw conflict('INVALID_REQUEST', `a staff account for ${email} exists already`);
        if (admins.length === 0) {
          const row = newAccountRow(actor, { email, role, hash, now });
          await this.staff.insertAccount(tx, row);
          await this.audit.record(tx, actor, 'staff.create', { type: 'staff', id: row.id }, { email, role, firstAdmin: true });
          return { account: toAccount(row), request: null };
        }
        const request = await this.newRequest(tx, actor, { kind: 'create', staffId: newId('stf'), email, role, passwordHash: hash }, now);
        return { account: null, request };
      })
      .catch(
        whenRefusedBy({
          staff_accounts_email_key: () => conflict('INVALID_REQUEST', `a staff account for ${email} exists already`),
        }),
      );
    return { ...created, password };
  }

  /**
   * The console's and the CLI's change of an account. Raising a role to admin is a request (as
   * createOrRequest) while an active admin exists; anything else is `update`.
   */
  async updateOrRequest(actor: Actor, id: string, change: StaffChange): Promise<{ account: StaffAccount; request: StaffRequest | null }> {
    return this.database.unit(async (tx) => {
      const admins = await this.staff.activeAdmins(tx);
      const account = await this.staff.findAccount(tx, id);
      if (!account) throw notFound('NOT_FOUND', `no staff account ${id}`);
      const promotes = change.role === 'admin' && account.role !== 'admin';
      if (!promotes || admins.length === 0) return { account: await this.applyUpdate(tx, actor, admins, account, change), request: null };
      if (change.status !== undefined && change.status !== account.status)
        throw invalid('INVALID_REQUEST', 'raising a role to admin waits for another admin: change the status on its own first');
      const request = await this.newRequest(tx, actor, { kind: 'promote', staffId: account.id, email: account.email, role: 'admin', passwordHash: null }, this.clock());
      return { account: toAccount(account), request };
    });
  }

  private async newRequest(
    tx: Tx,
    actor: Actor,
    r: { kind: StaffRequestKind; staffId: string; email: string; role: StaffRole; passwordHash: string | null },
    now: number,
  ): Promise<StaffRequest> {
    const open = await this.staff.pendingRequestFor(tx, r.email);
    if (open) throw conflict('INVALID_REQUEST', `${r.email} already waits for approval (request ${open.id})`);
    const row: StaffRequestRow = {
      id: newId('sreq'),
      kind: r.kind,
      staff_id: r.staffId,
      email: r.email,
      role: r.role,
      password_hash: r.passwordHash,
      status: 'pending',
      requested_by: actor.name,
      requested_by_staff_id: actor.staffId,
      decided_by: null,
      decided_by_staff_id: null,
      decision_reason: null,
      created_at: now,
      decided_at: null,
    };
    await this.staff.insertRequest(tx, row);
    await this.audit.record(tx, actor, 'staff.request', { type: 'staff_request', id: row.id }, { kind: r.kind, email: r.email, role: r.role, staffId: r.staffId });
    return toRequest(row);
  }

  async requests(filter: { status?: StaffRequestStatus | undefined; limit?: number } = {}): Promise<StaffRequest[]> {
    return (await this.staff.listRequests({ status: filter.status, limit: filter.limit ?? 200 })).map(toRequest);
  }

  /**
   * A second admin approves a request (assertFourEyes: not its requester, nor an account the
   * requester created or last reset, nor one that created or reset the requester's): the account is
   * created, or its role raised (its sessions end), in the unit of the decision and its audit row.
   */
  async approveRequest(actor: Actor, id: string): Promise<StaffRequest> {
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const request = await this.pendingRequest(tx, id);
      const what = `the request ${id} (${request.email} as ${request.role})`;
      await assertFourEyes(tx, { what, requestedByStaffId: request.requested_by_staff_id, approverStaffId: actor.staffId });
      if (!(await this.staff.decideRequest(tx, id, { status: 'approved', by: actor.name, byStaffId: actor.staffId, reason: null, now })))
        throw conflict('INVALID_REQUEST', `request ${id} was decided meanwhile`);
      if (request.kind === 'create') {
        if (request.password_hash === null) throw conflict('INVALID_REQUEST', `request ${id} has no password`);
        if (await this.staff.findAccountByEmailInUnit(tx, request.email))
          throw conflict('INVALID_REQUEST', `a staff account for ${request.email} exists already`);
        await this.staff.insertAccount(tx, {
          id: request.staff_id,
          email: request.email,
          role: request.role,
          password_hash: request.password_hash,
          status: 'active',
          last_login_at: null,
          created_at: now,
          updated_at: now,
          created_by_staff_id: request.requested_by_staff_id,
        });
      } else {
        const account = await this.staff.findAccount(tx, request.staff_id);
        if (!account) throw conflict('INVALID_REQUEST', `${request.email} no longer exists`);
        await this.staff.updateAccount(tx, account.id, { role: request.role }, now);
        await this.staff.deleteSessionsOf(tx, account.id);
      }
      await this.audit.record(tx, actor, 'staff.request.approve', { type: 'staff_request', id }, {
        kind: request.kind,
        email: request.email,
        role: request.role,
        staffId: request.staff_id,
        requestedBy: request.requested_by,
      });
      return toRequest({ ...request, status: 'approved', decided_by: actor.name, decided_by_staff_id: actor.staffId, decided_at: now });
    });
  }

  /** Any admin refuses a request (its requester may withdraw it): nothing changes, a new account's password is gone. */
  async rejectRequest(actor: Actor, id: string, reasonInput: string): Promise<StaffRequest> {
    const reason = reasonInput.trim();
    if (reason === '') throw invalid('INVALID_REQUEST', 'a reason is required');
    return this.database.unit(async (tx) => {
      const now = this.clock();
      const request = await this.pendingRequest(tx, id);
      if (!(await this.staff.decideRequest(tx, id, { status: 'rejected', by: actor.name, byStaffId: actor.staffId, reason, now })))
        throw conflict('INVALID_REQUEST', `request ${id} was decided meanwhile`);
      await this.audit.record(tx, actor, 'staff.request.reject', { type: 'staff_request', id }, {
        kind: request.kind,
        email: request.email,
        role: request.role,
        requestedBy: request.requested_by,
        reason,
      });
      return toRequest({ ...request, status: 'rejected', decided_by: actor.name, decided_by_staff_id: actor.staffId, decision_reason: reason, decided_at: now });
    });
  }

  private async pendingRequest(tx: Tx, id: string): Promise<StaffRequestRow> {
    const row = await this.staff.findRequest(tx, id);
    if (!row) throw notFound('NOT_FOUND', `no staff request ${id}`);
    if (row.status !== 'pending') throw conflict('INVALID_REQUEST', `request ${id} is already ${row.status}`);
    return row;
  }

  /**
   * Signs in: a session token for the cookie. Refused alike for an unknown e-mail, a wrong
   * password and a disabled account; refused without looking when the e-mail or the address has
   * failed too often lately.
   */
  async login(
    emailInput: string,
    password: string,
    address: string,
  ): Promise<{ token: string; session: StaffSession; secondFactorPending: boolean }> {
    const email = emailInput.trim().toLowerCase();
    const keys: [string, number][] = [
      [`email:${email}`, LOGIN_LIMITS.perEmail],
      [`address:${address}`, LOGIN_LIMITS.perAddress],
    ];
    const attempt = this.throttle.begin(keys);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many failed sign-ins; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    let row: StaffAccountRow | undefined;
    let matches: boolean;
    try {
      row = await this.staff.findAccountByEmail(email);
      matches = await verifyPassword(password, row?.password_hash ?? DUMMY_HASH);
    } catch (error) {
      // Not an answer about the password: the attempt does not count.
      attempt.release();
      throw error instanceof HasherBusy ? busy() : error;
    }
    if (!row || !matches || row.status !== 'active') throw unauthenticated('Wrong e-mail or password');
    attempt.release();
    // Earlier failures of the e-mail are forgiven only once the code is right too (secondFactor).
    if (row.totp_secret !== null) return this.openSession(row, address, { secondFactorPending: true });
    this.throttle.succeeded(`email:${email}`);
    return this.openSession(row, address, {});
  }

  /**
   * Proof that a staff account's holder acts without a console session (the CLI's approvals of
   * four-eyes requests, docs/cli.md): the account's console password and, when two-factor sign-in
   * is on, a current code of its authenticator (accepted once). Limited like a sign-in, and refused
   * with one message whichever part was wrong (a disabled account too). An account the console
   * would hold first is refused as well: a one-time password not yet replaced (its creator saw it),
   * an admin who must set up two-factor sign-in (CONSOLE_REQUIRE_2FA=true).
   */
  async proveHolder(emailInput: string, proof: { password: string; code: string | undefined }, address: string): Promise<StaffAccount> {
    const email = emailInput.trim().toLowerCase();
    const attempt = this.throttle.begin([
      [`email:${email}`, LOGIN_LIMITS.perEmail],
      [`address:${address}`, LOGIN_LIMITS.perAddress],
    ]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many failed sign-ins; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    let row: StaffAccountRow | undefined;
    let matches: boolean;
    try {
      row = await this.staff.findAccountByEmail(email);
      matches = await verifyPassword(proof.password, row?.password_hash ?? DUMMY_HASH);
    } catch (error) {
      attempt.release();
      throw error instanceof HasherBusy ? busy() : error;
    }
    const wrong = () => unauthenticated('Wrong e-mail, password or code');
    if (!row || !matches || row.status !== 'active') throw wrong();
    const sealed = row.totp_secret;
    if (sealed !== null) {
      const step = matchingStep(this.twoFactor.sealer.open(sealed), proof.code ?? '', this.clock());
      if (step === null) throw wrong();
      const id = row.id;
      const fresh = await this.database.unit((tx) => this.staff.acceptTotpStep(tx, id, step));
      if (!fresh) throw unauthenticated('That code was used already: wait for the next one');
    }
    attempt.release();
    this.throttle.succeeded(`email:${email}`);
    if (Number(row.password_change_required) === 1) {
      throw forbidden('INVALID_REQUEST', `${row.email} still has a one-time password: sign in to the console and choose your own first`);
    }
    if (this.twoFactor.requiredForAdmins && row.role === 'admin' && sealed === null) {
      throw forbidden('INVALID_REQUEST', `${row.email} must set up two-factor sign-in in the console first (CONSOLE_REQUIRE_2FA=true)`);
    }
    return toAccount(row);
  }

  /**
   * A new session; a full one is audited as `staff.login` in its unit (with `also`, rows of the same
   * unit), a pending one (password right, code to come) lasts SECOND_FACTOR_WINDOW_MS and is not.
   */
  private async openSession(
    row: StaffAccountRow,
    address: string,
    options: { secondFactorPending?: true; replaces?: string; detail?: Record<string, unknown>; also?: (tx: Tx) => Promise<void> },
  ): Promise<{ token: string; session: StaffSession; secondFactorPending: boolean }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const pending = options.secondFactorPending === true;
    const session: StaffSession = {
      id: sessionId(token),
      staffId: row.id,
      email: row.email,
      role: row.role,
      csrfToken: randomBytes(32).toString('base64url'),
      expiresAt: now + (pending ? Math.min(SECOND_FACTOR_WINDOW_MS, this.sessionTtlMs) : this.sessionTtlMs),
    };
    await this.database.unit(async (tx) => {
      await this.staff.deleteExpiredSessions(tx, now);
      if (options.replaces) await this.staff.deleteSession(tx, options.replaces);
      await this.staff.insertSession(tx, { ...session, address, now, secondFactorPending: pending });
      if (pending) return;
      await this.staff.recordLogin(tx, row.id, now);
      const actor = { staffId: row.id, name: row.email, address };
      await options.also?.(tx);
      await this.audit.record(tx, actor, 'staff.login', { type: 'staff', id: row.id }, options.detail);
    });
    return { token, session, secondFactorPending: pending };
  }

  /**
   * The second step of a sign-in: a TOTP code of the account's authenticator (within one step of
   * now, never one accepted before) or one of its recovery codes (each once). Limited and counted
   * like passwords: a wrong code is a failed sign-in of the account's e-mail and of the address. The
   * pending session is replaced by a full one (a new token) and `staff.login` is recorded, with the
   * recovery code's use, in the same unit.
   */
  async secondFactor(
    pending: LiveSession,
    typed: string,
    address: string,
  ): Promise<{ token: string; session: StaffSession; recoveryCodesLeft: number | null }> {
    if (!pending.secondFactorPending) throw conflict('INVALID_REQUEST', 'This sign-in needs no code');
    const attempt = this.throttle.begin([
      [`email:${pending.email}`, LOGIN_LIMITS.perEmail],
      [`address:${address}`, LOGIN_LIMITS.perAddress],
    ]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many failed sign-ins; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    const row = await this.staff.findAccountById(pending.staffId);
    if (!row || row.status !== 'active' || row.totp_secret === null) {
      attempt.release();
      throw unauthenticated('Your sign-in has ended: sign in again');
    }
    const sealed = row.totp_secret;
    const wrong = () => unauthenticated('Wrong code');
    let recoveryCodesLeft: number | null = null;
    let also: (tx: Tx) => Promise<void>;
    let detail: Record<string, unknown>;
    if (looksLikeRecoveryCode(typed)) {
      const hash = recoveryCodeHash(typed);
      also = async (tx) => {
        if (!(await this.staff.useRecoveryCode(tx, row.id, hash, this.clock()))) throw wrong();
        recoveryCodesLeft = await this.staff.unusedRecoveryCodes(tx, row.id);
        const actor = { staffId: row.id, name: row.email, address };
        await this.audit.record(tx, actor, 'staff.recovery_code_used', { type: 'staff', id: row.id }, { left: recoveryCodesLeft });
      };
      detail = { secondFactor: 'recovery code' };
    } else {
      const step = matchingStep(this.twoFactor.sealer.open(sealed), typed, this.clock());
      if (step === null) throw wrong();
      also = async (tx) => {
        if (!(await this.staff.acceptTotpStep(tx, row.id, step))) throw unauthenticated('That code was used already: wait for the next one');
      };
      detail = { secondFactor: 'totp' };
    }
    const signedIn = await this.openSession(row, address, { replaces: pending.id, detail, also });
    attempt.release();
    this.throttle.succeeded(`email:${pending.email}`);
    return { ...signedIn, recoveryCodesLeft };
  }

  /** The live session of a cookie token, or null (unknown, expired, or its account disabled). */
  async session(token: string): Promise<LiveSession | null> {
    const row = await this.staff.findSession(sessionId(token));
    if (!row || row.status !== 'active' || Number(row.expires_at) <= this.clock()) return null;
    return {
      id: row.id,
      staffId: row.staff_id,
      email: row.email,
      role: row.role,
      csrfToken: row.csrf_token,
      expiresAt: Number(row.expires_at),
      passwordChangeRequired: Number(row.password_change_required) === 1,
      secondFactorPending: Number(row.second_factor_pending) === 1,
      twoFactorEnrolmentRequired: this.twoFactor.requiredForAdmins && row.role === 'admin' && row.totp_enabled_at === null,
    };
  }

  async logout(actor: Actor, session: StaffSession): Promise<void> {
    await this.database.unit(async (tx) => {
      await this.staff.deleteSession(tx, session.id);
      await this.audit.record(tx, actor, 'staff.logout', { type: 'staff', id: session.staffId });
    });
  }

  // ---- the holder's own password (docs/console.md, "Passwords") ----

  /**
   * The signed-in holder replaces their password: the current one must match, the new one must be
   * at least MIN_PASSWORD_LENGTH long and differ from it. The one-time flag clears, every other
   * session of the account ends, and the audit row commits in the same unit as the change.
   */
  async changePassword(
    actor: Actor,
    session: StaffSession,
    passwords: { current: string; next: string },
  ): Promise<void> {
    const { current, next } = passwords;
    if (next.length < MIN_PASSWORD_LENGTH)
      throw invalid('INVALID_REQUEST', `The new password needs at least ${MIN_PASSWORD_LENGTH} characters`);
    if (next.normalize('NFKC') === current.normalize('NFKC'))
      throw invalid('INVALID_REQUEST', 'The new password must differ from the current one');
    const row = await this.staff.findAccountById(session.staffId);
    if (!row || row.status !== 'active') throw unauthenticated('Your session has ended: sign in again');
    // Guesses of the current password are limited like sign-ins (per account), and counted before hashing.
    const attempt = this.throttle.begin([[`password:${row.id}`, LOGIN_LIMITS.perEmail]]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many wrong passwords; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    if (!(await passwordMatches(current, row.password_hash, attempt))) throw forbidden('INVALID_REQUEST', 'The current password is wrong');
    attempt.release();
    const hash = await hashed(next);
    await this.database.unit(async (tx) => {
      if (!(await this.staff.setOwnPassword(tx, row.id, row.password_hash, hash, this.clock())))
        throw conflict('INVALID_REQUEST', 'The password was changed meanwhile: sign in again');
      await this.staff.deleteSessionsOfExcept(tx, row.id, session.id);
      await this.audit.record(tx, actor, 'staff.change_password', { type: 'staff', id: row.id });
    });
  }

  // ---- two-factor sign-in (docs/console.md, "Two-factor sign-in") ----

  /** Where the holder's two-factor sign-in stands; a secret being set up is shown until it is confirmed. */
  async twoFactorStatus(staffId: string): Promise<TwoFactorStatus> {
    const row = await this.staff.findAccountById(staffId);
    if (!row) throw unauthenticated('Your session has ended: sign in again');
    const required = this.twoFactor.requiredForAdmins && row.role === 'admin';
    if (row.totp_secret !== null) {
      const left = await this.database.unit((tx) => this.staff.unusedRecoveryCodes(tx, row.id));
      return { state: 'on', enabledAt: Number(row.totp_enabled_at), recoveryCodesLeft: left, required };
    }
    if (row.totp_pending_secret !== null) {
      const secret = this.twoFactor.sealer.open(row.totp_pending_secret);
      return { state: 'setting-up', secret, uri: totpUri(secret, row.email), required };
    }
    return { state: 'off', required };
  }

  /** A new secret for the holder's authenticator (replacing one being set up); it counts once confirmed. */
  async beginTwoFactor(session: StaffSession): Promise<void> {
    const row = await this.staff.findAccountById(session.staffId);
    if (!row || row.status !== 'active') throw unauthenticated('Your session has ended: sign in again');
    if (row.totp_secret !== null) throw conflict('INVALID_REQUEST', 'Two-factor sign-in is on already');
    await this.database.unit((tx) => this.staff.setPendingTotp(tx, row.id, this.twoFactor.sealer.seal(newTotpSecret()), this.clock()));
  }

  /**
   * Confirms the secret being set up with the holder's current password (a copied session cookie
   * alone must not enrol its own authenticator and lock the owner out) and a code of it: two-factor
   * sign-in is on, the holder's other sessions end (they were opened without it), and ten recovery
   * codes are returned (once; stored hashed). Wrong passwords and codes are limited per account.
   */
  async confirmTwoFactor(actor: Actor, session: StaffSession, proof: { password: string; code: string }): Promise<{ recoveryCodes: string[] }> {
    const { code } = proof;
    const row = await this.staff.findAccountById(session.staffId);
    if (!row || row.status !== 'active') throw unauthenticated('Your session has ended: sign in again');
    if (row.totp_secret !== null) throw conflict('INVALID_REQUEST', 'Two-factor sign-in is on already');
    const pending = row.totp_pending_secret;
    if (pending === null) throw conflict('INVALID_REQUEST', 'Set up two-factor sign-in first');
    const guess = this.throttle.begin([[`password:${row.id}`, LOGIN_LIMITS.perEmail]]);
    if ('blockedFor' in guess) {
      throw forbidden('RATE_LIMITED', `Too many wrong passwords; try again in ${Math.ceil(guess.blockedFor / 60)} min`);
    }
    if (!(await passwordMatches(proof.password, row.password_hash, guess))) throw forbidden('INVALID_REQUEST', 'The password is wrong');
    guess.release();
    const attempt = this.throttle.begin([[`code:${row.id}`, LOGIN_LIMITS.perEmail]]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many wrong codes; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    const step = matchingStep(this.twoFactor.sealer.open(pending), code, this.clock());
    if (step === null) throw invalid('INVALID_REQUEST', 'Wrong code: check the time on your device and type the code it shows now');
    attempt.release();
    const recoveryCodes = newRecoveryCodes();
    await this.database.unit(async (tx) => {
      const now = this.clock();
      if (!(await this.staff.enableTotp(tx, row.id, pending, step, now)))
        throw conflict('INVALID_REQUEST', 'Two-factor sign-in was set up again meanwhile: reload the page');
      await this.staff.replaceRecoveryCodes(tx, row.id, recoveryCodes.map(recoveryCodeHash), now);
      await this.staff.deleteSessionsOfExcept(tx, row.id, session.id);
      await this.audit.record(tx, actor, 'staff.totp_enable', { type: 'staff', id: row.id }, { recoveryCodes: recoveryCodes.length });
    });
    return { recoveryCodes };
  }

  /**
   * The holder turns two-factor sign-in off: their password and a current code are required (limited
   * like a password change); refused for an admin while CONSOLE_REQUIRE_2FA=true.
   */
  async disableTwoFactor(actor: Actor, session: StaffSession, proof: { password: string; code: string }): Promise<void> {
    const row = await this.staff.findAccountById(session.staffId);
    if (!row || row.status !== 'active') throw unauthenticated('Your session has ended: sign in again');
    if (row.totp_secret === null) throw conflict('INVALID_REQUEST', 'Two-factor sign-in is off already');
    if (this.twoFactor.requiredForAdmins && row.role === 'admin')
      throw forbidden('INVALID_REQUEST', 'Admins must keep two-factor sign-in (CONSOLE_REQUIRE_2FA=true)');
    const attempt = this.throttle.begin([[`password:${row.id}`, LOGIN_LIMITS.perEmail]]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many wrong passwords or codes; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    if (!(await passwordMatches(proof.password, row.password_hash, attempt))) throw forbidden('INVALID_REQUEST', 'The password is wrong');
    const step = matchingStep(this.twoFactor.sealer.open(row.totp_secret), proof.code, this.clock());
    if (step === null) throw forbidden('INVALID_REQUEST', 'Wrong code');
    await this.database.unit(async (tx) => {
      if (!(await this.staff.acceptTotpStep(tx, row.id, step))) throw forbidden('INVALID_REQUEST', 'That code was used already: wait for the next one');
      await this.staff.clearTotp(tx, row.id, this.clock());
      await this.audit.record(tx, actor, 'staff.totp_disable', { type: 'staff', id: row.id });
    });
    attempt.release();
  }

  /**
   * New recovery codes for the holder (the old ones stop working), with a current code of their
   * authenticator (limited like a password; a code is accepted once). Returned once, stored hashed;
   * audited in the same unit.
   */
  async regenerateRecoveryCodes(actor: Actor, session: StaffSession, code: string): Promise<{ recoveryCodes: string[] }> {
    const row = await this.staff.findAccountById(session.staffId);
    if (!row || row.status !== 'active') throw unauthenticated('Your session has ended: sign in again');
    if (row.totp_secret === null) throw conflict('INVALID_REQUEST', 'Two-factor sign-in is off: there are no recovery codes');
    const attempt = this.throttle.begin([[`code:${row.id}`, LOGIN_LIMITS.perEmail]]);
    if ('blockedFor' in attempt) {
      throw forbidden('RATE_LIMITED', `Too many wrong codes; try again in ${Math.ceil(attempt.blockedFor / 60)} min`);
    }
    const step = matchingStep(this.twoFactor.sealer.open(row.totp_secret), code, this.clock());
    if (step === null) throw forbidden('INVALID_REQUEST', 'Wrong code: type the code your authenticator app shows now');
    const recoveryCodes = newRecoveryCodes();
    await this.database.unit(async (tx) => {
      if (!(await this.staff.acceptTotpStep(tx, row.id, step))) throw forbidden('INVALID_REQUEST', 'That code was used already: wait for the next one');
      await this.staff.replaceRecoveryCodes(tx, row.id, recoveryCodes.map(recoveryCodeHash), this.clock());
      await this.audit.record(tx, actor, 'staff.recovery_codes_regenerate', { type: 'staff', id: row.id }, { recoveryCodes: recoveryCodes.length });
    });
    attempt.release();
    return { recoveryCodes };
  }

  /**
   * Another account's two-factor sign-in removed (a lost device), by an admin or from the CLI: its
   * sessions end and it signs in with its password alone (an admin under CONSOLE_REQUIRE_2FA=true
   * must set it up again before anything else). The holder's own is turned off with disableTwoFactor.
   */
  async resetTwoFactor(actor: Actor, idOrEmail: string): Promise<StaffAccount> {
    return this.database.unit(async (tx) => {
      const row = idOrEmail.includes('@')
        ? await this.staff.findAccountByEmailInUnit(tx, idOrEmail.trim().toLowerCase())
        : await this.staff.findAccount(tx, idOrEmail);
      if (!row) throw notFound('NOT_FOUND', `no staff account ${idOrEmail}`);
      if (actor.staffId === row.id)
        throw forbidden('INVALID_REQUEST', 'Turn your own two-factor sign-in off on your two-factor page (it asks for a code)');
      if (row.totp_secret === null && row.totp_pending_secret === null)
        throw conflict('INVALID_REQUEST', `${row.email} has no two-factor sign-in`);
      await this.staff.clearTotp(tx, row.id, this.clock());
      await this.staff.deleteSessionsOf(tx, row.id);
      await this.audit.record(tx, actor, 'staff.totp_reset', { type: 'staff', id: row.id }, { email: row.email });
      return toAccount({ ...row, totp_enabled_at: null });
    });
  }
}

export interface StaffChange {
  role?: StaffRole;
  status?: 'active' | 'disabled';
}

/** A new admin account or a role raised to admin, waiting for a second admin (docs/console.md, "Four eyes"). */
export interface StaffRequest {
  id: string;
  kind: StaffRequestKind;
  staffId: string;
  email: string;
  role: StaffRole;
  status: StaffRequestStatus;
  requestedBy: string;
  requestedByStaffId: string | null;
  createdAt: number;
  decidedBy: string | null;
  decidedAt: number | null;
  decisionReason: string | null;
}

function toRequest(row: StaffRequestRow): StaffRequest {
  return {
    id: row.id,
    kind: row.kind,
    staffId: row.staff_id,
    email: row.email,
    role: row.role,
    status: row.status,
    requestedBy: row.requested_by,
    requestedByStaffId: row.requested_by_staff_id,
    createdAt: Number(row.created_at),
    decidedBy: row.decided_by,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    decisionReason: row.decision_reason,
  };
}

/** The holder's two-factor sign-in, as its page shows it. */
export type TwoFactorStatus = { required: boolean } & (
  | { state: 'off' }
  | { state: 'setting-up'; secret: string; uri: string }
  | { state: 'on'; enabledAt: number; recoveryCodesLeft: number }
);

function toAccount(row: {
  id: string;
  email: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  last_login_at: number | null;
  created_at: number;
  totp_enabled_at?: number | null;
}): StaffAccount {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
    createdAt: Number(row.created_at),
    twoFactor: row.totp_enabled_at !== null && row.totp_enabled_at !== undefined,
  };
}

/** A new active account's row; its creator is recorded for the four-eyes rule (src/modules/four-eyes/service.ts). */
function newAccountRow(actor: Actor, a: { email: string; role: StaffRole; hash: string; now: number }) {
  return {
    id: newId('stf'),
    email: a.email,
    role: a.role,
    password_hash: a.hash,
    status: 'active' as const,
    last_login_at: null,
    created_at: a.now,
    updated_at: a.now,
    created_by_staff_id: actor.staffId,
  };
}

/**
 * Whether `password` is the one `hash` keeps. When the hasher cannot answer (busy), that is no answer
 * about the password: the guess is released (it does not count) and the caller is told to retry.
 */
async function passwordMatches(password: string, hash: string, guess: { release(): void }): Promise<boolean> {
  try {
    return await verifyPassword(password, hash);
  } catch (error) {
    guess.release();
    throw error instanceof HasherBusy ? busy() : error;
  }
}
