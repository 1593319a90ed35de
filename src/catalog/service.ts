import type { Database } from '../db/connection.js';
import type { Role } from '../db/schema.js';
import { AppError, notFound } from '../http/errors.js';
import type { DataPackage, DataPackageWithStatus, Operator, Product, RcPackage } from '../http/schemas/catalog.js';
import { toGhs } from '../lib/money.js';
import * as repo from './repository.js';

type PackageRow = NonNullable<repo.PackageWithParents>;

/** A package can be sold only when it and both parents are live. */
export function isSellable(p: PackageRow): boolean {
  return p.status === 'Active' && p.product_status === 'Available' && p.operator_status === 'Active';
}

function toDataPackage(p: PackageRow): DataPackage {
  return {
    _id: p.id,
    label: p.label,
    dataAmount: p.data_amount,
    validity: p.validity,
    price: toGhs(Number(p.price)),
    operatorId: p.operator_id,
    operatorName: p.operator_name,
    productId: p.product_id,
    productName: p.product_name,
  };
}

export class CatalogService {
  constructor(private readonly database: Database) {}

  async operators(): Promise<Operator[]> {
    const rows = await repo.listActiveOperators(this.database);
    return rows.map((o) => ({ _id: o.id, code: o.code, name: o.name, status: o.status }));
  }

  /** Products of an active operator; an unknown or inactive operator is not part of the catalog. */
  async products(operatorId: string): Promise<Product[]> {
    const operator = await repo.readOperator(this.database, operatorId);
    if (!operator || operator.status !== 'Active') throw notFound(`Operator ${operatorId} not found`);
    const rows = await repo.listProducts(this.database, operatorId);
    return rows.map((p) => ({
      _id: p.id,
      name: p.name,
      operatorId: p.operator_id,
      operatorName: p.operator_name,
      status: p.status,
    }));
  }

  async dataPackages(role: Role, filter: { operatorId?: string; productId?: string }): Promise<DataPackage[]> {
    const rows = await repo.listSellablePackages(this.database, role, filter);
    return rows.map(toDataPackage);
  }

  async dataPackage(packageId: string, role: Role): Promise<DataPackageWithStatus> {
    const row = await repo.readPackage(this.database, packageId, role);
    if (!row) throw new AppError(404, 'PACKAGE_NOT_FOUND', `Package ${packageId} not found`);
    return { ...toDataPackage(row), status: isSellable(row) ? 'Active' : 'Inactive' };
  }

  async rcPackages(role: Role): Promise<RcPackage[]> {
    const rows = await repo.listActiveRcPackages(this.database, role);
    return rows.map((p) => ({
      _id: p.id,
      code: p.code,
      name: p.name,
      displayName: p.display_name,
      description: p.description,
      price: toGhs(Number(p.price)),
      currency: 'GHS',
      stockAvailable: Number(p.stock ?? 0),
      priority: p.priority,
      checkLimit: p.check_limit,
      includesPdf: p.includes_pdf === null ? null : p.includes_pdf === 1,
    }));
  }
}
