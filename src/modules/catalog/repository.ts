import type { Database } from '../../db/connection.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
import type { Network } from '../../domain/networks.js';
import type { Role } from '../../domain/types.js';

/*
 * The data catalog is read whole into memory (see service.ts); the other queries serve the seed
 * import inside its unit of work.
 */

function catalogStatements(sql: Statements) {
  return {
    version: sql.prepare((qb) => qb.selectFrom('catalog_state').select('version').where('id', '=', 1)),
  };
}

export interface OperatorRow {
  id: string;
  code: string;
  name: string;
  status: 'Active' | 'Inactive';
  /** Absent: an operator that exists keeps its network (a new one has none); null clears it. */
  network?: Network | null;
}

/** An operator as staff see it. */
export interface StaffOperatorRow {
  id: string;
  code: string;
  name: string;
  status: string;
  network: Network | null;
}

export interface ProductRow {
  id: string;
  operatorId: string;
  name: string;
  status: 'Available' | 'Unavailable';
}

export interface DataPackageRow {
  id: string;
  operatorId: string;
  productId: string;
  label: string;
  dataAmount: string;
  validity: string;
  status: 'Active' | 'Inactive';
  /** Pesewas, for every role without a price of its own. */
  price: number;
  rolePrices: { role: Role; price: number }[];
}

/** What staff change on a data package: its price (pesewas) for every role without its own, those, and its status. */
export interface PackagePricing {
  price: number;
  rolePrices: { role: Role; price: number }[];
  status: 'Active' | 'Inactive';
}

/** A data package as staff see it: as stored, with its parents' names and statuses. */
export interface StaffPackageRow {
  id: string;
  label: string;
  data_amount: string;
  validity: string;
  status: string;
  /** Pesewas. */
  price: number;
  operator_id: string;
  operator_name: string;
  operator_status: string;
  product_id: string;
  product_name: string;
  product_status: string;
  rolePrices: { role: Role; price: number }[];
}

export class CatalogRepository {
  private readonly q: ReturnType<typeof catalogStatements>;

  constructor(private readonly database: Database) {
    this.q = catalogStatements(database.statements);
  }

  /** The catalog's change counter: read on every catalog use, so it must stay a primary-key read. */
  async readVersion(): Promise<number> {
    const [row] = await this.database.readRows(this.q.version());
    if (!row) throw new Error('catalog_state has no row: run the migrations');
    return Number(row.version);
  }

  /** Every catalog write calls this in its own unit, so each process reloads its cached copy. */
  async bumpVersion(tx: Tx): Promise<void> {
    await tx.execute(
      tx.qb
        .updateTable('catalog_state')
        .set((eb) => ({ version: eb('version', '+', 1) }))
        .where('id', '=', 1),
    );
  }

  /** The whole data catalog (it is small: operators, products, packages and their role prices). */
  async loadRows() {
    const db = this.database.read;
    const [operators, products, packages, prices] = await Promise.all([
      db.selectFrom('operators').select(['id', 'code', 'name', 'status', 'network']).execute(),
      db.selectFrom('products').select(['id', 'name', 'operator_id', 'status']).execute(),
      db
        .selectFrom('data_packages')
        .select(['id', 'label', 'data_amount', 'validity', 'status', 'operator_id', 'product_id', 'price'])
        .execute(),
      db.selectFrom('data_package_prices').select(['package_id', 'role', 'price']).execute(),
    ]);
    return { operators, products, packages, prices };
  }

  // ---- seed import, inside its unit ----

  async operatorExists(tx: Tx, id: string): Promise<boolean> {
    return (await tx.execute(tx.qb.selectFrom('operators').select('id').where('id', '=', id))).rows.length > 0;
  }

  async operatorOfProduct(tx: Tx, productId: string): Promise<string | undefined> {
    return (await tx.execute(tx.qb.selectFrom('products').select('operator_id').where('id', '=', productId))).rows[0]
      ?.operator_id;
  }

  async upsertOperator(tx: Tx, o: OperatorRow, now: number): Promise<void> {
    const row = { code: o.code, name: o.name, status: o.status, updated_at: now, ...(o.network === undefined ? {} : { network: o.network }) };
    await tx.execute(
      tx.qb
        .insertInto('operators')
        .values({ id: o.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row)),
    );
  }

  async upsertProduct(tx: Tx, p: ProductRow, now: number): Promise<void> {
    const row = { operator_id: p.operatorId, name: p.name, status: p.status, updated_at: now };
    await tx.execute(
      tx.qb
        .insertInto('products')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row)),
    );
  }

  /** The package and its role prices (replacing the ones it had). */
  async upsertDataPackage(tx: Tx, p: DataPackageRow, now: number): Promise<void> {
    const row = {
      operator_id: p.operatorId,
      product_id: p.productId,
      label: p.label,
      data_amount: p.dataAmount,
      validity: p.validity,
      status: p.status,
      price: p.price,
      updated_at: now,
    };
    await tx.execute(
      tx.qb
        .insertInto('data_packages')
        .values({ id: p.id, ...row, created_at: now })
        .onConflict((oc) => oc.column('id').doUpdateSet(row)),
    );
    await tx.execute(tx.qb.deleteFrom('data_package_prices').where('package_id', '=', p.id));
    if (p.rolePrices.length > 0) {
      await tx.execute(tx.qb.insertInto('data_package_prices').values(p.rolePrices.map((r) => ({ package_id: p.id, ...r }))));
    }
  }

  // ---- staff (console, CLI): operators and their networks ----

  async operatorsForStaff(operatorId?: string): Promise<StaffOperatorRow[]> {
    let query = this.database.read.selectFrom('operators').select(['id', 'code', 'name', 'status', 'network']).orderBy('name').orderBy('id');
    if (operatorId !== undefined) query = query.where('id', '=', operatorId);
    return query.execute();
  }

  /** The operator's network in the unit `tx`; undefined: no such operator. */
  async networkOf(tx: Tx, operatorId: string): Promise<{ network: Network | null } | undefined> {
    return (await tx.execute(tx.qb.selectFrom('operators').select('network').where('id', '=', operatorId))).rows[0];
  }

  async setNetwork(tx: Tx, operatorId: string, network: Network | null, now: number): Promise<void> {
    await tx.execute(tx.qb.updateTable('operators').set({ network, updated_at: now }).where('id', '=', operatorId));
  }

  // ---- staff (console): every package as it is stored, and its price and status changed ----

  /** Data packages with their parents' names and statuses and their role prices: all, or the one `packageId`. */
  async packagesForStaff(packageId?: string): Promise<StaffPackageRow[]> {
    const db = this.database.read;
    let packages = db
      .selectFrom('data_packages as dp')
      .innerJoin('products as pr', 'pr.id', 'dp.product_id')
      .innerJoin('operators as o', 'o.id', 'dp.operator_id')
      .select([
        'dp.id',
        'dp.label',
        'dp.data_amount',
        'dp.validity',
        'dp.status',
        'dp.price',
        'dp.operator_id',
        'o.name as operator_name',
        'o.status as operator_status',
        'dp.product_id',
        'pr.name as product_name',
        'pr.status as product_status',
      ])
      .orderBy('o.name')
      .orderBy('pr.name')
      .orderBy('dp.price')
      .orderBy('dp.id');
    let prices = db.selectFrom('data_package_prices').select(['package_id', 'role', 'price']);
    if (packageId !== undefined) {
      packages = packages.where('dp.id', '=', packageId);
      prices = prices.where('package_id', '=', packageId);
    }
    const [rows, priceRows] = await Promise.all([packages.execute(), prices.execute()]);
    return rows.map((row) => ({
      ...row,
      price: Number(row.price),
      rolePrices: priceRows.filter((p) => p.package_id === row.id).map((p) => ({ role: p.role, price: Number(p.price) })),
    }));
  }

  /** A package's price, role prices and status as they are in the unit `tx`; undefined: no such package. */
  async pricingOf(tx: Tx, packageId: string): Promise<PackagePricing | undefined> {
    const [row] = (await tx.execute(tx.qb.selectFrom('data_packages').select(['status', 'price']).where('id', '=', packageId))).rows;
    if (!row) return undefined;
    const prices = (
      await tx.execute(tx.qb.selectFrom('data_package_prices').select(['role', 'price']).where('package_id', '=', packageId).orderBy('role'))
    ).rows;
    return {
      status: row.status === 'Active' ? 'Active' : 'Inactive',
      price: Number(row.price),
      rolePrices: prices.map((p) => ({ role: p.role, price: Number(p.price) })),
    };
  }

  /** Sets a package's price, role prices (replacing the ones it had) and status. */
  async setPricing(tx: Tx, packageId: string, pricing: PackagePricing, now: number): Promise<void> {
    await tx.execute(
      tx.qb.updateTable('data_packages').set({ price: pricing.price, status: pricing.status, updated_at: now }).where('id', '=', packageId),
    );
    await tx.execute(tx.qb.deleteFrom('data_package_prices').where('package_id', '=', packageId));
    if (pricing.rolePrices.length > 0) {
      await tx.execute(tx.qb.insertInto('data_package_prices').values(pricing.rolePrices.map((r) => ({ package_id: packageId, ...r }))));
    }
  }

  /** One package with its parents, priced for `role` (the seed's order history). */
  async findPackage(tx: Tx, packageId: string, role: Role) {
    const query = tx.qb
      .selectFrom('data_packages as dp')
      .innerJoin('products as pr', 'pr.id', 'dp.product_id')
      .innerJoin('operators as o', 'o.id', 'dp.operator_id')
      .leftJoin('data_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'dp.id').on('rp.role', '=', role))
      .select((eb) => [
        'dp.id',
        'dp.label',
        'dp.operator_id',
        'o.name as operator_name',
        'dp.product_id',
        'pr.name as product_name',
        eb.fn.coalesce('rp.price', 'dp.price').as('price'),
      ])
      .where('dp.id', '=', packageId);
    return (await tx.execute(query)).rows[0];
  }
}

export type CatalogRows = Awaited<ReturnType<CatalogRepository['loadRows']>>;
export type PackageWithParents = NonNullable<Awaited<ReturnType<CatalogRepository['findPackage']>>>;
