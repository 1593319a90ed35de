import { Value } from 'typebox/value';
import type { Repositories } from '../repositories.js';
import type { Database } from '../db/connection.js';
import { refreshPlannerStatistics } from '../db/dialect.js';
import type { Tx } from '../db/unit-of-work.js';
import { MODES, ROLES, type Clock, type Role } from '../domain/types.js';
import { newId } from '../lib/ids.js';
import { fromGhs } from '../lib/money.js';
import { readRouteList, RouteListError } from '../modules/package-routes/schemas.js';
import { parseApiKey } from '../modules/profiles/api-keys.js';
import type { Route } from '../providers/types.js';
import type { CredentialCipher } from '../modules/result-checker/credential-crypto.js';
import type { WalletService } from '../modules/wallet/service.js';
import { entryName, SeedError } from './errors.js';
import { findJsonSyntaxProblem } from './json-syntax.js';
import { importOrderHistory, prepareOrderHistory } from './order-history.js';
import { describeSeedErrors } from './schema-errors.js';
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
  constructor(
    private readonly database: Database,
    private readonly repositories: Repositories,
    private readonly wallets: WalletService,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock,
  ) {}

  async import(seed: SeedFile): Promise<ImportSummary> {
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
    };
    const now = this.clock();
    const history = prepareOrderHistory(seed, now);
    const { catalog, resultChecker } = this.repositories;

    await this.database.unit(async (tx) => {
      // Every API process reloads its in-memory catalog on its next request (catalog/service.ts).
      if (operators.length + products.length + packages.length + rcPackages.length > 0) await catalog.bumpVersion(tx);
      for (const o of operators) await catalog.upsertOperator(tx, o, now);

      for (const [index, p] of products.entries()) {
        if (!(await catalog.operatorExists(tx, p.operatorId))) {
          throw new SeedError(`${entryName(seed, 'products', index)}: operatorId "${p.operatorId}" does not exist`);
        }
        await catalog.upsertProduct(tx, p, now);
      }

      for (const [index, p] of packages.entries()) {
        const operatorId = await catalog.operatorOfProduct(tx, p.productId);
        if (operatorId === undefined)
          throw new SeedError(`${entryName(seed, 'dataPackages', index)}: productId "${p.productId}" does not exist`);
        if (operatorId !== p.operatorId) {
          throw new SeedError(
            `${entryName(seed, 'dataPackages', index)}: product "${p.productId}" belongs to operator "${operatorId}", not "${p.operatorId}"`,
          );
        }
        await catalog.upsertDataPackage(
          tx,
          {
            ...p,
            price: pesewas(seed, 'dataPackages', index, 'price', p.price),
            rolePrices: rolePriceRows(seed, 'dataPackages', index, p.rolePrices),
          },
          now,
        );
        const routes = packageRoutes[index];
        if (routes !== undefined) await this.repositories.packageRoutes.replace(tx, p.id, routes);
      }

      for (const [index, p] of rcPackages.entries()) {
        await resultChecker.upsertPackage(
          tx,
          {
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
          },
          now,
        );
        const added = await resultChecker.insertCredentials(tx, this.cipher, p.id, p.credentials ?? [], now);
        summary.credentialsAdded += added;
        summary.credentialsSkipped += (p.credentials ?? []).length - added;
      }

      for (const index of profiles.keys()) {
        const written = await this.importProfile(tx, seed, index, now);
        summary.walletsCreated += written.walletsCreated;
        summary.apiKeysAdded += written.keysAdded;
      }

      const written = await importOrderHistory(tx, this.repositories, seed, history, now);
      summary.ordersImported = written.imported;
      summary.ordersSkipped = written.skipped;
    });
    await refreshPlannerStatistics(this.database.db, this.database.dialect);
    return summary;
  }

  /** One profile: the row, its wallets (opening balances once), its keys. */
  private async importProfile(
    tx: Tx,
    seed: SeedFile,
    index: number,
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
    await profiles.upsertProfile(
      tx,
      {
        id: p.id,
        userId: p.userId ?? p.id,
        firstName: p.firstName,
        middleName: p.middleName ?? '',
        lastName: p.lastName,
        gender: p.gender ?? '',
        phoneNumber: p.phoneNumber,
        email: p.email,
        role: p.role,
        status: p.status,
        countryCode: p.countryCode ?? '',
        countryISO: p.countryISO ?? '',
        countryName: p.countryName ?? '',
        referralCode: p.referralCode,
        uniqueId: p.uniqueId ?? p.id,
        creatorId: p.creatorId ?? '',
        updateMeta: { action: 'seed_import', name: 'Seed import', userId: 'system' },
      },
      now,
    );

    let walletsCreated = 0;
    for (const mode of MODES) {
      const opening = pesewas(seed, 'profiles', index, `wallet.${mode}`, p.wallet?.[mode] ?? 0);
      if ((await this.wallets.ensure(tx, p.id, mode, opening, now)).created) walletsCreated += 1;
    }

    let keysAdded = 0;
    for (const key of p.apiKeys ?? []) {
      const parsed = parseApiKey(key.key);
      if (!parsed) continue; // checked before the unit began
      const existing = await profiles.findKeyOwnerByHash(tx, parsed.hash);
      if (existing && existing.profile_id !== p.id) {
        throw new SeedError(`${entryName(seed, 'profiles', index)}: an API key already belongs to another profile`);
      }
      if (!existing) {
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
      } else if (key.revoked === true) {
        // Revocation is one-way: a re-import can revoke a key but never revive one staff revoked.
        await profiles.revokeKey(tx, existing.id, now);
      }
    }
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
