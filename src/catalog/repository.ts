import type { Executor } from '../db/connection.js';
import type { Role } from '../db/schema.js';

export async function listActiveOperators(db: Executor) {
  return db
    .selectFrom('operators')
    .select(['id', 'code', 'name', 'status'])
    .where('status', '=', 'Active')
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export async function findOperator(db: Executor, operatorId: string) {
  return db.selectFrom('operators').selectAll().where('id', '=', operatorId).executeTakeFirst();
}

export async function listProducts(db: Executor, operatorId: string) {
  return db
    .selectFrom('products as p')
    .innerJoin('operators as o', 'o.id', 'p.operator_id')
    .select(['p.id', 'p.name', 'p.operator_id', 'o.name as operator_name', 'p.status'])
    .where('p.operator_id', '=', operatorId)
    .orderBy('p.name')
    .orderBy('p.id')
    .execute();
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

/** Sellable packages only: the package Active, its product Available, its operator Active. */
export async function listSellablePackages(
  db: Executor,
  role: Role,
  filter: { operatorId?: string | undefined; productId?: string | undefined },
) {
  let query = packagesWithParents(db, role)
    .where('dp.status', '=', 'Active')
    .where('pr.status', '=', 'Available')
    .where('o.status', '=', 'Active');
  if (filter.operatorId !== undefined) query = query.where('dp.operator_id', '=', filter.operatorId);
  if (filter.productId !== undefined) query = query.where('dp.product_id', '=', filter.productId);
  return query.orderBy('o.name').orderBy('pr.name').orderBy('price').orderBy('dp.id').execute();
}

export async function findPackage(db: Executor, packageId: string, role: Role) {
  return packagesWithParents(db, role).where('dp.id', '=', packageId).executeTakeFirst();
}

export async function listActiveRcPackages(db: Executor, role: Role) {
  return db
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
    .orderBy('p.name')
    .execute();
}

export async function findRcPackage(db: Executor, packageId: string, role: Role) {
  return db
    .selectFrom('rc_packages as p')
    .leftJoin('rc_package_prices as rp', (join) => join.onRef('rp.package_id', '=', 'p.id').on('rp.role', '=', role))
    .select((eb) => ['p.id', 'p.name', 'p.display_name', 'p.status', eb.fn.coalesce('rp.price', 'p.price').as('price')])
    .where('p.id', '=', packageId)
    .executeTakeFirst();
}
