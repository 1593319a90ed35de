import type { Database, Executor } from '../db/connection.js';
import { prepared } from '../db/prepared.js';
import type { Role } from '../db/schema.js';

/*
 * The data catalog is read whole into memory (loadCatalogRows, see service.ts); these queries
 * serve imports inside their transaction, and the live result-checker stock.
 */

function packagesWithParents(db: Executor, role: Role) {
  return db
    .selectFrom('data_packages as dp')
    .innerJoin('products as pr', 'pr.id', 'dp.product_id')
    .innerJoin('operators as o', 'o.id', 'dp.operator_id')
    .leftJoin('data_package_prices as rp', (join) =>
      join.onRef('rp.package_id', '=', 'dp.id').on('rp.role', '=', role),
    )
    .select((eb) => [
      'dp.id',
      'dp.label',
      'dp.data_amount',
      'dp.validity',
      'dp.status',
      'dp.operator_id',
      'o.name as operator_name',
      'o.status as operator_status',
      'dp.product_id',
      'pr.name as product_name',
      'pr.status as product_status',
      eb.fn.coalesce('rp.price', 'dp.price').as('price'),
    ]);
}

export type PackageWithParents = Awaited<ReturnType<typeof findPackage>>;

/** One package priced for `role`, inside the caller's transaction (seed import of order history). */
export async function findPackage(db: Executor, packageId: string, role: Role) {
  return packagesWithParents(db, role).where('dp.id', '=', packageId).executeTakeFirst();
}

const activeRcPackages = prepared((db, role: Role) =>
  db
    .selectFrom('rc_packages as p')
    .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
    .select((eb) => [
      'p.id',
      'p.code',
      'p.name',
      'p.display_name',
      'p.description',
      'p.priority',
      'p.check_limit',
      'p.includes_pdf',
      eb.fn.coalesce('rp.price', 'p.price').as('price'),
      eb
        .selectFrom('rc_credentials as c')
        .select((sub) => sub.fn.countAll<number>().as('n'))
        .whereRef('c.package_id', '=', 'p.id')
        .where('c.assigned_transaction_id', 'is', null)
        .as('stock'),
    ])
    .where('p.status', '=', 'Active')
    .orderBy((eb) => eb.case().when('p.priority', 'is', null).then(1).else(0).end())
    .orderBy('p.priority')
    .orderBy('p.name'),
);

export async function listActiveRcPackages(database: Database, role: Role) {
  return activeRcPackages(database, role);
}

export async function findRcPackage(db: Executor, packageId: string, role: Role) {
  return db
    .selectFrom('rc_packages as p')
    .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
    .select((eb) => ['p.id', 'p.name', 'p.display_name', 'p.status', eb.fn.coalesce('rp.price', 'p.price').as('price')])
    .where('p.id', '=', packageId)
    .executeTakeFirst();
}

const catalogVersion = prepared((db) => db.selectFrom('catalog_state').select('version').where('id', '=', 1));

/** The catalog's change counter: read on every catalog use, so it must stay a primary-key read. */
export async function readCatalogVersion(database: Database): Promise<number> {
  const [row] = await catalogVersion(database);
  if (!row) throw new Error('catalog_state has no row: run the migrations');
  return Number(row.version);
}

/** Every catalog write calls this in its own transaction, so each process reloads its cached copy. */
export async function bumpCatalogVersion(trx: Executor): Promise<void> {
  await trx
    .updateTable('catalog_state')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('id', '=', 1)
    .execute();
}

/** The whole data catalog (it is small: operators, products, packages and their role prices). */
export async function loadCatalogRows(db: Executor) {
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

export type CatalogRows = Awaited<ReturnType<typeof loadCatalogRows>>;
