import { Value } from 'typebox/value';
import type { Repositories } from '../repositories.js';
import type { Database } from '../db/connection.js';
import { refreshPlannerStatistics } from '../db/dialect.js';
import type { Tx } from '../db/unit-of-work.js';
import { MODES, ROLES, type Clock, type Role } from '../domain/types.js';
import { newId } from '../lib/ids.js';
import { fromGhs, toGhs } from '../lib/money.js';
import { readRouteList, routeToWire, RouteListError } from '../modules/package-routes/schemas.js';
import { parseApiKey } from '../modules/profiles/api-keys.js';
import type { Route } from '../providers/types.js';
import type { CredentialCipher } from '../modules/result-checker/credential-crypto.js';
import type { WalletService } from '../modules/wallet/service.js';
import type { Actor, AuditTrail } from '../modules/audit/service.js';
import {
  ChangeLog,
  fieldChanges,
  NO_PERMISSIONS,
  type FieldChange,
  type FieldValue,
  type ImportChange,
  type ImportPermissions,
  type ImportRecord,
} from './changes.js';
import { entryName, SeedError } from './errors.js';
import { findJsonSyntaxProblem } from './json-syntax.js';
import { importOrderHistory, prepareOrderHistory } from './order-history.js';
import { describeSeedErrors } from './schema-errors.js';
import { SeedRepository, type ExistingProfile, type RolePriceRow } from './repository.js';
import { SeedFile, type SeedRolePrices } from './schema.js';

export { SeedError } from './errors.js';

export interface ImportSummary {
  operators: number;
  products: number;
  dataPackages: number;
  /** Data packages whose routes the file set (replacing the ones they had). */
  routesSet: number;
  resultCheckerPackages: number;
  credentialsAdded: number;
  credentialsSkipped: number;
  profiles: number;
  walletsCreated: number;
  apiKeysAdded: number;
  /** Entries of the `orders` section; those already known are skipped (history is immutable). */
  orders: number;
  ordersImported: number;
  ordersSkipped: number;
  /** What the import created, changed and left as it was (src/seed/changes.ts), in order. */
  changes: ImportChange[];
  /** True when nothing was written (`--dry-run`). */
  dryRun: boolean;
}

export interface ImportOptions {
  /** Who imports, as the audit trail records the changes (the CLI: `cli:<os user>`). */
  actor?: Actor;
  /** Work out the changes and write nothing. */
  dryRun?: boolean;
  /** The staff-controlled changes the import may make (default: none). */
  permissions?: ImportPermissions;
}

/** Who imports when the caller names nobody (tests, programs). */
const SEED_ACTOR: Actor = { staffId: null, name: 'seed import', address: null };

/** Thrown inside a dry run's unit of work, so that everything it wrote is rolled back. */
class DryRunDone extends Error {
  constructor(readonly summary: ImportSummary) {
    super('dry run');
  }
}

type Section = keyof SeedFile;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxProblem(text);
    // The scanner and JSON.parse agree on what is valid; V8's own words are the fallback all the same.
    if (!found) throw new SeedError(`seed file is not valid JSON: ${(error as Error).message.replace(/\s+/g, ' ')}`);
    throw new SeedError(`seed file is not valid JSON at line ${found.line}, column ${found.column}: ${found.problem}`);
  }
}

/** Parses and validates the whole file before anything is written. */
export function parseSeed(text: string): SeedFile {
  // Editors on Windows save UTF-8 with a byte-order mark, which JSON.parse refuses.
  const data = parseJson(text.replace(/^\uFEFF/, ''));
  if (!Value.Check(SeedFile, data)) throw new SeedError(describeSeedErrors(data, SeedFile, Value.Errors(SeedFile, data)));
  return data;
}

function pesewas(seed: SeedFile, section: Section, index: number, field: string, ghs: number): number {
  const value = fromGhs(ghs);
  if (value === null) {
    throw new SeedError(
      `${entryName(seed, section, index)} field ${field}: ${ghs} is not a GHS amount with at most two decimals`,
    );
  }
  return value;
}

function rolePriceRows(seed: SeedFile, section: Section, index: number, prices: SeedRolePrices | undefined) {
  const rows: { role: Role; price: number }[] = [];
  for (const role of ROLES) {
    const ghs = prices?.[role];
    if (ghs !== undefined) rows.push({ role, price: pesewas(seed, section, index, `rolePrices.${role}`, ghs) });
  }
  return rows;
}

/** Each role's own price as a field of its own (`rolePrices.Agent`), none when the role has none. */
function rolePriceFields(rows: readonly RolePriceRow[]): Record<string, FieldValue> {
  const fields: Record<string, FieldValue> = {};
  for (const role of ROLES) {
    const found = rows.find((r) => r.role === role);
    fields[`rolePrices.${role}`] = found ? { ghs: toGhs(found.price) } : null;
  }
  return fields;
}

/** A package's `routes`, read before anything is written; a bad one is named by its entry and field. */
function seedRoutes(seed: SeedFile, index: number, value: unknown): Route[] {
  try {
    return readRouteList(value);
  } catch (error) {
    if (error instanceof RouteListError) throw new SeedError(`${entryName(seed, 'dataPackages', index)} field routes${error.path}: ${error.problem}`);
    throw error;
  }
}

function assertUniqueIds(seed: SeedFile, section: Section, ids: string[]): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw new SeedError(`${entryName(seed, section, index)}: duplicate id in the file`);
    seen.add(id);
  });
}

/**
 * Imports a seed file (docs/seed-import.md): idempotent upsert by id, all-or-nothing (one unit of
 * work). Opening wallet balances are credited only when the wallet is created.
 */
export class SeedImporter {
  private readonly state: SeedRepository;

  constructor(
    private readonly database: Database,
    private readonly repositories: Repositories,
    private readonly wallets: WalletService,
    private readonly cipher: CredentialCipher,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {
    this.state = new SeedRepository(database);
  }

  /** No profile and no data package yet (`npm run demo` imports only into such a database). */
  isEmpty(): Promise<boolean> {
    return this.state.isEmpty();
  }

  async import(seed: SeedFile, options: ImportOptions = {}): Promise<ImportSummary> {
    const permissions = options.permissions ?? NO_PERMISSIONS;
    const log = new ChangeLog(this.audit, options.actor ?? SEED_ACTOR);
    const operators = seed.operators ?? [];
    const products = seed.products ?? [];
    const packages = seed.dataPackages ?? [];
    const rcPackages = seed.resultCheckerPackages ?? [];
    const profiles = seed.profiles ?? [];
    const orders = seed.orders ?? [];
    assertUniqueIds(
      seed,
      'operators',
      operators.map((o) => o.id),
    );
    assertUniqueIds(
      seed,
      'products',
      products.map((p) => p.id),
    );
    assertUniqueIds(
      seed,
      'dataPackages',
      packages.map((p) => p.id),
    );
    assertUniqueIds(
      seed,
      'resultCheckerPackages',
      rcPackages.map((p) => p.id),
    );
    assertUniqueIds(
      seed,
      'profiles',
      profiles.map((p) => p.id),
    );
    assertUniqueIds(
      seed,
      'orders',
      orders.map((o) => o.id),
    );
    assertKeysWellFormed(seed);
    // A package without `routes` keeps the routes it has; with them, they replace its routes.
    const packageRoutes = packages.map((p, index) => (p.routes === undefined ? undefined : seedRoutes(seed, index, p.routes)));

    const summary: ImportSummary = {
      operators: operators.length,
      products: products.length,
      dataPackages: packages.length,
      routesSet: packageRoutes.filter((r) => r !== undefined).length,
      resultCheckerPackages: rcPackages.length,
      credentialsAdded: 0,
      credentialsSkipped: 0,
      profiles: profiles.length,
      walletsCreated: 0,
      apiKeysAdded: 0,
      orders: orders.length,
      ordersImported: 0,
      ordersSkipped: 0,
      changes: log.changes,
      dryRun: options.dryRun === true,
    };
    const now = this.clock();
    const history = prepareOrderHistory(seed, now);
    const { catalog, resultChecker } = this.repositories;

    const run = this.database.unit(async (tx) => {
      // Every API process reloads its in-memory catalog on its next request (catalog/service.ts).
      if (operators.length + products.length + packages.length + rcPackages.length > 0) await catalog.bumpVersion(tx);
      const operatorsBefore = new Map((await this.state.operators(tx, operators.map((o) => o.id))).map((r) => [r.id, r]));
      for (const o of operators) {
        const was = operatorsBefore.get(o.id);
        const after = { code: o.code, name: o.name, status: o.status, network: o.network };
        if (await this.compare(tx, log, 'operator', o.id, was && { code: was.code, name: was.name, status: was.status, network: was.network }, after)) {
          await catalog.upsertOperator(tx, o, now);
        }
      }

      const productsBefore = new Map((await this.state.products(tx, products.map((p) => p.id))).map((r) => [r.id, r]));
      for (const [index, p] of products.entries()) {
        if (!(await catalog.operatorExists(tx, p.operatorId))) {
          throw new SeedError(`${entryName(seed, 'products', index)}: operatorId "${p.operatorId}" does not exist`);
        }
        const was = productsBefore.get(p.id);
        const after = { operatorId: p.operatorId, name: p.name, status: p.status };
        if (await this.compare(tx, log, 'product', p.id, was && { operatorId: was.operator_id, name: was.name, status: was.status }, after)) {
          await catalog.upsertProduct(tx, p, now);
        }
      }

      const packagesBefore = new Map((await this.state.dataPackages(tx, packages.map((p) => p.id))).map((r) => [r.id, r]));
      for (const [index, p] of packages.entries()) {
        const operatorId = await catalog.operatorOfProduct(tx, p.productId);
        if (operatorId === undefined)
          throw new SeedError(`${entryName(seed, 'dataPackages', index)}: productId "${p.productId}" does not exist`);
        if (operatorId !== p.operatorId) {
          throw new SeedError(
            `${entryName(seed, 'dataPackages', index)}: product "${p.productId}" belongs to operator "${operatorId}", not "${p.operatorId}"`,
          );
        }
        const row = {
          ...p,
          price: pesewas(seed, 'dataPackages', index, 'price', p.price),
          rolePrices: rolePriceRows(seed, 'dataPackages', index, p.rolePrices),
        };
        const routes = packageRoutes[index];
        const was = packagesBefore.get(p.id);
        const wasRoutes = was && routes !== undefined ? await this.repositories.packageRoutes.ofPackage(p.id, tx) : undefined;
        const fields = (r: { operatorId: string; productId: string; label: string; dataAmount: string; validity: string; status: string; price: number; rolePrices: RolePriceRow[] }) => ({
          operatorId: r.operatorId,
          productId: r.productId,
          label: r.label,
          dataAmount: r.dataAmount,
          validity: r.validity,
          status: r.status,
          price: { ghs: toGhs(r.price) },
          ...rolePriceFields(r.rolePrices),
        });
        const before = was && {
          ...fields({ ...was, operatorId: was.operator_id, productId: was.product_id, dataAmount: was.data_amount }),
          ...(wasRoutes ? { routes: { routes: wasRoutes.map(routeToWire) } } : {}),
        };
        const after = { ...fields(row), routes: routes && { routes: routes.map(routeToWire) } };
        const changed = await this.compare(tx, log, 'data package', p.id, before, after);
        if (changed === 'created' || changed?.some((f) => f !== 'routes')) await catalog.upsertDataPackage(tx, row, now);
        if (routes !== undefined && (changed === 'created' || changed?.includes('routes'))) await this.repositories.packageRoutes.replace(tx, p.id, routes);
      }

      const rcBefore = new Map((await this.state.rcPackages(tx, rcPackages.map((p) => p.id))).map((r) => [r.id, r]));
      for (const [index, p] of rcPackages.entries()) {
        const rc = {
          id: p.id,
          code: p.code,
          name: p.name,
          displayName: p.displayName,
          description: p.description ?? null,
          status: p.status,
          priority: p.priority ?? null,
          checkLimit: p.checkLimit ?? null,
          includesPdf: p.includesPdf ?? null,
          price: pesewas(seed, 'resultCheckerPackages', index, 'price', p.price),
          rolePrices: rolePriceRows(seed, 'resultCheckerPackages', index, p.rolePrices),
        };
        const was = rcBefore.get(p.id);
        const fields = (r: Omit<typeof rc, 'id' | 'status'> & { status: string }) => ({
          code: r.code,
          name: r.name,
          displayName: r.displayName,
          description: r.description,
          status: r.status,
          priority: r.priority,
          checkLimit: r.checkLimit,
          includesPdf: r.includesPdf,
          price: { ghs: toGhs(r.price) },
          ...rolePriceFields(r.rolePrices),
        });
        const before =
          was &&
          fields({
            ...was,
            displayName: was.display_name,
            checkLimit: was.check_limit,
            includesPdf: was.includes_pdf === null ? null : was.includes_pdf === 1,
          });
        if (await this.compare(tx, log, 'result-checker package', p.id, before, fields(rc))) await resultChecker.upsertPackage(tx, rc, now);
        const credentials = (p.credentials ?? []).map((c) => ({ ...c, cost: c.cost === undefined ? null : pesewas(seed, 'resultCheckerPackages', index, 'credentials[].cost', c.cost) }));
        const added = await resultChecker.insertCredentials(tx, this.cipher, p.id, credentials, now);
        summary.credentialsAdded += added;
        summary.credentialsSkipped += (p.credentials ?? []).length - added;
      }

      const profilesBefore = new Map((await this.state.profiles(tx, profiles.map((p) => p.id))).map((r) => [r.id, r]));
      for (const index of profiles.keys()) {
        const written = await this.importProfile(tx, log, seed, index, profilesBefore.get(profiles[index]?.id ?? ''), permissions, now);
        summary.walletsCreated += written.walletsCreated;
        summary.apiKeysAdded += written.keysAdded;
      }

      const written = await importOrderHistory(tx, this.repositories, seed, history, now);
      summary.ordersImported = written.imported;
      summary.ordersSkipped = written.skipped;
      if (options.dryRun) throw new DryRunDone(summary);
    });
    try {
      await run;
    } catch (error) {
      if (error instanceof DryRunDone) return error.summary;
      throw error;
    }
    await refreshPlannerStatistics(this.database.db, this.database.dialect);
    return summary;
  }

  /**
   * Records what importing `after` over `before` (undefined: a new record) does: 'created', the
   * changed fields (audited in `tx`), or null when nothing changes and nothing need be written.
   */
  private async compare(
    tx: Tx,
    log: ChangeLog,
    record: ImportRecord,
    id: string,
    before: Record<string, FieldValue> | undefined,
    after: Record<string, FieldValue | undefined>,
    skipped: { change: FieldChange; option: string }[] = [],
  ): Promise<'created' | string[] | null> {
    if (before === undefined) {
      log.created(record, id);
      return 'created';
    }
    const changed = fieldChanges(before, after);
    await log.changed(tx, record, id, changed, skipped);
    return changed.length > 0 ? changed.map((c) => c.field) : null;
  }

  /**
   * One profile: the row, its wallets (opening balances once), its keys. Of an existing profile, the
   * import never reactivates it, changes its role or adds a key unless `permissions` say so: those
   * changes are listed as skipped.
   */
  private async importProfile(
    tx: Tx,
    log: ChangeLog,
    seed: SeedFile,
    index: number,
    was: ExistingProfile | undefined,
    permissions: ImportPermissions,
    now: number,
  ): Promise<{ walletsCreated: number; keysAdded: number }> {
    const { profiles } = this.repositories;
    const p = (seed.profiles ?? [])[index];
    if (!p) throw new Error(`no profile at ${index}`);
    const referralOwner = await profiles.referralCodeOwner(tx, p.referralCode, p.id);
    if (referralOwner !== undefined) {
      throw new SeedError(
        `${entryName(seed, 'profiles', index)}: referralCode "${p.referralCode}" already belongs to profile "${referralOwner}"`,
      );
    }
    const skipped: { change: FieldChange; option: string }[] = [];
    let role = p.role;
    let status = p.status;
    if (was) {
      if (was.role !== p.role && !permissions.allowRoleChange) {
        skipped.push({ change: { field: 'role', before: was.role, after: p.role }, option: '--allow-role-change' });
        role = was.role;
      }
      if (was.status !== 'Active' && p.status === 'Active' && !permissions.reactivate.includes(p.id)) {
        skipped.push({ change: { field: 'status', before: was.status, after: p.status }, option: `--reactivate ${p.id}` });
        status = was.status;
      }
    }
    const row = {
      id: p.id,
      userId: p.userId ?? p.id,
      firstName: p.firstName,
      middleName: p.middleName ?? '',
      lastName: p.lastName,
      gender: p.gender ?? '',
      phoneNumber: p.phoneNumber,
      email: p.email,
      role,
      status,
      countryCode: p.countryCode ?? '',
      countryISO: p.countryISO ?? '',
      countryName: p.countryName ?? '',
      referralCode: p.referralCode,
      uniqueId: p.uniqueId ?? p.id,
      creatorId: p.creatorId ?? '',
    };
    const { id: _id, ...after } = row;
    const before = was && {
      userId: was.user_id,
      firstName: was.first_name,
      middleName: was.middle_name,
      lastName: was.last_name,
      gender: was.gender,
      phoneNumber: was.phone_number,
      email: was.email,
      role: was.role,
      status: was.status,
      countryCode: was.country_code,
      countryISO: was.country_iso,
      countryName: was.country_name,
      referralCode: was.referral_code,
      uniqueId: was.unique_id,
      creatorId: was.creator_id,
    };
    const changed = before ? fieldChanges(before, after) : [];
    if (!was) log.created('profile', p.id);
    if (!was || changed.length > 0) {
      await profiles.upsertProfile(tx, { ...row, updateMeta: { action: 'seed_import', name: 'Seed import', userId: 'system' } }, now);
    }

    let walletsCreated = 0;
    for (const mode of MODES) {
      const opening = pesewas(seed, 'profiles', index, `wallet.${mode}`, p.wallet?.[mode] ?? 0);
      if (!(await this.wallets.ensure(tx, p.id, mode, opening, now)).created) continue;
      walletsCreated += 1;
      // A wallet opened on an existing profile credits its opening balance: listed and audited.
      if (was) changed.push({ field: `wallet.${mode}`, before: null, after: { ghs: toGhs(opening) } });
    }

    let keysAdded = 0;
    for (const key of p.apiKeys ?? []) {
      const parsed = parseApiKey(key.key);
      if (!parsed) continue; // checked before the unit began
      const existing = await profiles.findKeyOwnerByHash(tx, parsed.hash);
      if (existing && existing.profile_id !== p.id) {
        throw new SeedError(`${entryName(seed, 'profiles', index)}: an API key already belongs to another profile`);
      }
      const field = `API key ${parsed.prefix}`;
      const state = key.revoked === true ? 'revoked' : 'active';
      if (!existing && was && !permissions.addKeys) {
        skipped.push({ change: { field, before: null, after: state }, option: '--add-keys' });
      } else if (!existing) {
        await profiles.insertKey(tx, {
          id: newId('key'),
          profileId: p.id,
          mode: parsed.mode,
          hash: parsed.hash,
          prefix: parsed.prefix,
          revoked: key.revoked === true,
          now,
        });
        keysAdded += 1;
        if (was) changed.push({ field, before: null, after: state });
      } else if (key.revoked === true) {
        // Revocation is one-way: a re-import can revoke a key but never revive one staff revoked.
        if (await profiles.revokeKey(tx, existing.id, now)) changed.push({ field, before: 'active', after: 'revoked' });
      }
    }
    if (was) await log.changed(tx, 'profile', p.id, changed, skipped);
    return { walletsCreated, keysAdded };
  }
}

/** Every key of the file parses, and none is listed twice. */
function assertKeysWellFormed(seed: SeedFile): void {
  const keysInFile = new Map<string, number>();
  (seed.profiles ?? []).forEach((profile, index) => {
    for (const key of profile.apiKeys ?? []) {
      if (!parseApiKey(key.key)) {
        throw new SeedError(
          `${entryName(seed, 'profiles', index)}: an API key is malformed (expected service_live_… or service_test_… with at least 8 secret characters)`,
        );
      }
      const other = keysInFile.get(key.key);
      if (other !== undefined) {
        throw new SeedError(
          `${entryName(seed, 'profiles', index)}: an API key is listed twice in the file (also under ${entryName(seed, 'profiles', other)})`,
        );
      }
      keysInFile.set(key.key, index);
    }
  });
}
