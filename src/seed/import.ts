import { Value } from 'typebox/value';
import { bumpCatalogVersion } from '../catalog/repository.js';
import type { Database, Executor } from '../db/connection.js';
import { refreshPlannerStatistics } from '../db/dialect.js';
import { ROLES, type Role } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { fromGhs } from '../lib/money.js';
import { parseApiKey } from '../profiles/api-keys.js';
import * as profileRepo from '../profiles/repository.js';
import type { CredentialCipher } from '../result-checker/credential-crypto.js';
import { insertCredentials } from '../result-checker/repository.js';
import { ensureWallet } from '../wallet/service.js';
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
    throw new SeedError(`${entryName(seed, section, index)} field ${field}: ${ghs} is not a GHS amount with at most two decimals`);
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

function assertUniqueIds(seed: SeedFile, section: Section, ids: string[]): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) throw new SeedError(`${entryName(seed, section, index)}: duplicate id in the file`);
    seen.add(id);
  });
}

/**
 * Imports a seed file (decisions.md §2): idempotent upsert by id, all-or-nothing.
 * Opening wallet balances are credited only when the wallet is created.
 */
export async function importSeed(database: Database, seed: SeedFile, cipher: CredentialCipher): Promise<ImportSummary> {
  const operators = seed.operators ?? [];
  const products = seed.products ?? [];
  const packages = seed.dataPackages ?? [];
  const rcPackages = seed.resultCheckerPackages ?? [];
  const profiles = seed.profiles ?? [];
  const orders = seed.orders ?? [];
  assertUniqueIds(seed, 'operators', operators.map((o) => o.id));
  assertUniqueIds(seed, 'products', products.map((p) => p.id));
  assertUniqueIds(seed, 'dataPackages', packages.map((p) => p.id));
  assertUniqueIds(seed, 'resultCheckerPackages', rcPackages.map((p) => p.id));
  assertUniqueIds(seed, 'profiles', profiles.map((p) => p.id));
  assertUniqueIds(seed, 'orders', orders.map((o) => o.id));

  const keysInFile = new Map<string, number>();
  profiles.forEach((profile, index) => {
    for (const key of profile.apiKeys ?? []) {
      if (!parseApiKey(key.key)) {
        throw new SeedError(`${entryName(seed, 'profiles', index)}: an API key is malformed (expected service_live_… or service_test_… with at least 8 secret characters)`);
      }
      const other = keysInFile.get(key.key);
      if (other !== undefined) {
        throw new SeedError(`${entryName(seed, 'profiles', index)}: an API key is listed twice in the file (also under ${entryName(seed, 'profiles', other)})`);
      }
      keysInFile.set(key.key, index);
    }
  });

  const summary: ImportSummary = {
    operators: operators.length,
    products: products.length,
    dataPackages: packages.length,
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
  const now = Date.now();
  const history = prepareOrderHistory(seed, now);

  await database.transaction(async (trx) => {
    // Every API process reloads its in-memory catalog on its next request (catalog/service.ts).
    if (operators.length + products.length + packages.length + rcPackages.length > 0) await bumpCatalogVersion(trx);
    for (const o of operators) {
      const row = { code: o.code, name: o.name, status: o.status, updated_at: now };
      await trx
        .insertInto('operators')
        .values({ id: o.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }

    for (const [index, p] of products.entries()) {
      await requireRow(trx, seed, 'products', index, 'operators', p.operatorId);
      const row = { operator_id: p.operatorId, name: p.name, status: p.status, updated_at: now };
      await trx
        .insertInto('products')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
    }

    for (const [index, p] of packages.entries()) {
      const product = await trx.selectFrom('products').select('operator_id').where('id', '=', p.productId).executeTakeFirst();
      if (!product) throw new SeedError(`${entryName(seed, 'dataPackages', index)}: productId "${p.productId}" does not exist`);
      if (product.operator_id !== p.operatorId) {
        throw new SeedError(`${entryName(seed, 'dataPackages', index)}: product "${p.productId}" belongs to operator "${product.operator_id}", not "${p.operatorId}"`);
      }
      const row = {
        operator_id: p.operatorId,
        product_id: p.productId,
        label: p.label,
        data_amount: p.dataAmount,
        validity: p.validity,
        status: p.status,
        price: pesewas(seed, 'dataPackages', index, 'price', p.price),
        updated_at: now,
      };
      const prices = rolePriceRows(seed, 'dataPackages', index, p.rolePrices);
      await trx
        .insertInto('data_packages')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      await trx.deleteFrom('data_package_prices').where('package_id', '=', p.id).execute();
      if (prices.length) {
        await trx.insertInto('data_package_prices').values(prices.map((r) => ({ package_id: p.id, ...r }))).execute();
      }
    }

    for (const [index, p] of rcPackages.entries()) {
      const row = {
        code: p.code,
        name: p.name,
        display_name: p.displayName,
        description: p.description ?? null,
        status: p.status,
        priority: p.priority ?? null,
        check_limit: p.checkLimit ?? null,
        includes_pdf: p.includesPdf === undefined || p.includesPdf === null ? null : p.includesPdf ? 1 : 0,
        price: pesewas(seed, 'resultCheckerPackages', index, 'price', p.price),
        updated_at: now,
      };
      const prices = rolePriceRows(seed, 'resultCheckerPackages', index, p.rolePrices);
      await trx
        .insertInto('rc_packages')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();
      await trx.deleteFrom('rc_package_prices').where('package_id', '=', p.id).execute();
      if (prices.length) {
        await trx.insertInto('rc_package_prices').values(prices.map((r) => ({ package_id: p.id, ...r }))).execute();
      }
      const added = await insertCredentials(trx, cipher, p.id, p.credentials ?? [], now);
      summary.credentialsAdded += added;
      summary.credentialsSkipped += (p.credentials ?? []).length - added;
    }

    for (const [index, p] of profiles.entries()) {
      const referralOwner = await trx
        .selectFrom('profiles')
        .select('id')
        .where('referral_code', '=', p.referralCode)
        .where('id', '!=', p.id)
        .executeTakeFirst();
      if (referralOwner) {
        throw new SeedError(`${entryName(seed, 'profiles', index)}: referralCode "${p.referralCode}" already belongs to profile "${referralOwner.id}"`);
      }
      const row = {
        user_id: p.userId ?? p.id,
        first_name: p.firstName,
        middle_name: p.middleName ?? '',
        last_name: p.lastName,
        gender: p.gender ?? '',
        phone_number: p.phoneNumber,
        email: p.email,
        role: p.role,
        status: p.status,
        country_code: p.countryCode ?? '',
        country_iso: p.countryISO ?? '',
        country_name: p.countryName ?? '',
        referral_code: p.referralCode,
        unique_id: p.uniqueId ?? p.id,
        creator_id: p.creatorId ?? '',
        update_meta: JSON.stringify({ action: 'seed_import', name: 'Seed import', userId: 'system' }),
        updated_at: now,
      };
      await trx
        .insertInto('profiles')
        .values({ id: p.id, ...row, registered_at: now, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .execute();

      for (const mode of ['live', 'test'] as const) {
        const opening = pesewas(seed, 'profiles', index, `wallet.${mode}`, p.wallet?.[mode] ?? 0);
        const { created } = await ensureWallet(trx, p.id, mode, opening, now);
        if (created) summary.walletsCreated += 1;
      }

      for (const key of p.apiKeys ?? []) {
        const parsed = parseApiKey(key.key);
        if (!parsed) continue; // checked above
        const existing = await trx
          .selectFrom('api_keys')
          .select(['id', 'profile_id'])
          .where('key_hash', '=', parsed.hash)
          .executeTakeFirst();
        if (existing && existing.profile_id !== p.id) {
          throw new SeedError(`${entryName(seed, 'profiles', index)}: an API key already belongs to another profile`);
        }
        if (!existing) {
          await profileRepo.insertKey(trx, {
            id: newId('key'),
            profileId: p.id,
            mode: parsed.mode,
            hash: parsed.hash,
            prefix: parsed.prefix,
            revoked: key.revoked === true,
            now,
          });
          summary.apiKeysAdded += 1;
        } else if (key.revoked === true) {
          // Revocation is one-way: a re-import can revoke a key but never revive one staff revoked.
          await profileRepo.revokeKey(trx, existing.id, now);
        }
      }
    }

    const written = await importOrderHistory(trx, seed, history, now);
    summary.ordersImported = written.imported;
    summary.ordersSkipped = written.skipped;
  });
  await refreshPlannerStatistics(database.db, database.dialect);
  return summary;
}

async function requireRow(
  trx: Executor,
  seed: SeedFile,
  section: Section,
  index: number,
  table: 'operators' | 'products',
  id: string,
): Promise<void> {
  const row = await trx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  if (!row) throw new SeedError(`${entryName(seed, section, index)}: ${table === 'operators' ? 'operatorId' : 'productId'} "${id}" does not exist`);
}
