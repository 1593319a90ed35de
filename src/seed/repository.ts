import type { Database } from '../db/connection.js';
import type { Tx } from '../db/unit-of-work.js';
import type { Role } from '../domain/types.js';

/** A role's own price (pesewas). */
export interface RolePriceRow {
  role: Role;
  price: number;
}

function pricesByPackage(rows: { package_id: string; role: Role; price: number | string }[]): Map<string, RolePriceRow[]> {
  const found = new Map<string, RolePriceRow[]>();
  for (const row of rows) {
    const list = found.get(row.package_id) ?? [];
    list.push({ role: row.role, price: Number(row.price) });
    found.set(row.package_id, list);
  }
  return found;
}

/**
 * What a seed import reads of the records the file names, as they are before it writes (inside its
 * unit of work), to say what it changes (src/seed/changes.ts); and whether a database is still empty
 * (the demo imports only into one).
 */
export class SeedRepository {
  constructor(private readonly database: Database) {}

  /** No profile and no data package yet. */
  async isEmpty(): Promise<boolean> {
    const db = this.database.read;
    const [profile, pkg] = await Promise.all([
      db.selectFrom('profiles').select('id').limit(1).executeTakeFirst(),
      db.selectFrom('data_packages').select('id').limit(1).executeTakeFirst(),
    ]);
    return profile === undefined && pkg === undefined;
  }

  async operators(tx: Tx, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return (await tx.execute(tx.qb.selectFrom('operators').select(['id', 'code', 'name', 'status', 'network']).where('id', 'in', [...ids]))).rows;
  }

  async products(tx: Tx, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return (await tx.execute(tx.qb.selectFrom('products').select(['id', 'operator_id', 'name', 'status']).where('id', 'in', [...ids]))).rows;
  }

  async dataPackages(tx: Tx, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const rows = (
      await tx.execute(
        tx.qb
          .selectFrom('data_packages')
          .select(['id', 'operator_id', 'product_id', 'label', 'data_amount', 'validity', 'status', 'price'])
          .where('id', 'in', [...ids]),
      )
    ).rows;
    const prices = pricesByPackage(
      (await tx.execute(tx.qb.selectFrom('data_package_prices').select(['package_id', 'role', 'price']).where('package_id', 'in', [...ids]))).rows,
    );
    return rows.map((row) => ({ ...row, price: Number(row.price), rolePrices: prices.get(row.id) ?? [] }));
  }

  async rcPackages(tx: Tx, ids: readonly string[]) {
    if (ids.length === 0) return [];
    const rows = (
      await tx.execute(
        tx.qb
          .selectFrom('rc_packages')
          .select(['id', 'code', 'name', 'display_name', 'description', 'status', 'priority', 'check_limit', 'includes_pdf', 'price'])
          .where('id', 'in', [...ids]),
      )
    ).rows;
    const prices = pricesByPackage(
      (await tx.execute(tx.qb.selectFrom('rc_package_prices').select(['package_id', 'role', 'price']).where('package_id', 'in', [...ids]))).rows,
    );
    return rows.map((row) => ({
      ...row,
      price: Number(row.price),
      priority: row.priority === null ? null : Number(row.priority),
      check_limit: row.check_limit === null ? null : Number(row.check_limit),
      rolePrices: prices.get(row.id) ?? [],
    }));
  }

  async profiles(tx: Tx, ids: readonly string[]) {
    if (ids.length === 0) return [];
    return (
      await tx.execute(
        tx.qb
          .selectFrom('profiles')
          .select([
            'id',
            'user_id',
            'first_name',
            'middle_name',
            'last_name',
            'gender',
            'phone_number',
            'email',
            'role',
            'status',
            'country_code',
            'country_iso',
            'country_name',
            'referral_code',
            'unique_id',
            'creator_id',
          ])
          .where('id', 'in', [...ids]),
      )
    ).rows;
  }
}

export type ExistingProfile = Awaited<ReturnType<SeedRepository['profiles']>>[number];
