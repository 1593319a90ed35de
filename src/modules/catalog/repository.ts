import type { Database } from '../../db/connection.js';
import type { Statements } from '../../db/statements.js';
import type { Tx } from '../../db/unit-of-work.js';
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
      db.selectFrom('operators').select(['id', 'code', 'name', 'status']).execute(),
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
    const row = { code: o.code, name: o.name, status: o.status, updated_at: now };
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
