import type { Database, Executor } from '../db/connection.js';
import { prepared } from '../db/prepared.js';
import type { Role } from '../db/schema.js';

/*
 * The catalog reads behind the public list endpoints run as prepared queries (db/prepared.ts);
 * the Executor versions serve purchases and imports inside transactions.
 */

const activeOperators = prepared((db) =>
  db.selectFrom('operators').select(['id', 'code', 'name', 'status']).where('status', '=', 'Active').orderBy('name').orderBy('id'),
);

export async function listActiveOperators(database: Database) {
  return activeOperators(database);
}

export async function findOperator(db: Executor, operatorId: string) {
  return db.selectFrom('operators').selectAll().where('id', '=', operatorId).executeTakeFirst();
}

const operatorById = prepared((db, operatorId: string) => db.selectFrom('operators').selectAll().where('id', '=', operatorId));

export async function readOperator(database: Database, operatorId: string) {
  return (await operatorById(database, operatorId))[0];
}

const productsOf = prepared((db, operatorId: string) =>
  db
    .selectFrom('products as p')
    .innerJoin('operators as o', 'o.id', 'p.operator_id')
    .select(['p.id', 'p.name', 'p.operator_id', 'o.name as operator_name', 'p.status'])
    .where('p.operator_id', '=', operatorId)
    .orderBy('p.name')
    .orderBy('p.id'),
);

export async function listProducts(database: Database, operatorId: string) {
  return productsOf(database, operatorId);
}

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

function sellablePackages(db: Executor, role: Role) {
  return packagesWithParents(db, role)
    .where('dp.status', '=', 'Active')
    .where('pr.status', '=', 'Available')
    .where('o.status', '=', 'Active')
    .orderBy('o.name')
    .orderBy('pr.name')
    .orderBy('price')
    .orderBy('dp.id');
}

// One prepared query per filter combination (optional filters change the SQL text).
const sellableAll = prepared((db, role: Role) => sellablePackages(db, role));
const sellableByOperator = prepared((db, role: Role, operatorId: string) =>
  sellablePackages(db, role).where('dp.operator_id', '=', operatorId),
);
const sellableByProduct = prepared((db, role: Role, productId: string) =>
  sellablePackages(db, role).where('dp.product_id', '=', productId),
);
const sellableByBoth = prepared((db, role: Role, operatorId: string, productId: string) =>
  sellablePackages(db, role).where('dp.operator_id', '=', operatorId).where('dp.product_id', '=', productId),
);

/** Sellable packages only: the package Active, its product Available, its operator Active. */
export async function listSellablePackages(
  database: Database,
  role: Role,
  filter: { operatorId?: string | undefined; productId?: string | undefined },
) {
  const { operatorId, productId } = filter;
  if (operatorId !== undefined && productId !== undefined) return sellableByBoth(database, role, operatorId, productId);
  if (operatorId !== undefined) return sellableByOperator(database, role, operatorId);
  if (productId !== undefined) return sellableByProduct(database, role, productId);
  return sellableAll(database, role);
}

export async function findPackage(db: Executor, packageId: string, role: Role) {
  return packagesWithParents(db, role).where('dp.id', '=', packageId).executeTakeFirst();
}

const packageById = prepared((db, packageId: string, role: Role) => packagesWithParents(db, role).where('dp.id', '=', packageId));

export async function readPackage(database: Database, packageId: string, role: Role) {
  return (await packageById(database, packageId, role))[0];
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
