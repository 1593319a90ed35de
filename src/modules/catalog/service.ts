import { notFound } from '../../domain/errors.js';
import type { Role } from '../../domain/types.js';
import { toGhs } from '../../lib/money.js';
import type { CatalogRepository } from './repository.js';
import type { DataPackage, DataPackageWithStatus, Operator, Product } from './schemas.js';
import { CatalogSnapshot, isSellable, type PackageFilter, type PricedPackage } from './snapshot.js';

function toDataPackage(p: PricedPackage): DataPackage {
  return {
    _id: p.id,
    label: p.label,
    dataAmount: p.data_amount,
    validity: p.validity,
    price: toGhs(p.price),
    operatorId: p.operator_id,
    operatorName: p.operator_name,
    productId: p.product_id,
    productName: p.product_name,
  };
}

/**
 * The data catalog is read on every catalog request and every purchase, and changes only when a
 * seed is imported. Each process keeps it in memory and, on every use, compares the version
 * counter in the database (one primary-key read) with the copy's: a change committed by any
 * process (`cli import`, another API process) is seen by the very next request.
 */
export class CatalogService {
  private current: CatalogSnapshot | null = null;
  private loading: { version: number; snapshot: Promise<CatalogSnapshot> } | null = null;

  constructor(private readonly catalog: CatalogRepository) {}

  /**
   * `knownVersion`: the version this request already read (the API key's query reads it, see
   * Caller.catalogVersion), which saves the version query.
   */
  async snapshot(knownVersion?: number): Promise<CatalogSnapshot> {
    const version = knownVersion ?? (await this.catalog.readVersion());
    // Versions only grow: a copy newer than the version read is what a request starting now sees.
    if (this.current && this.current.version >= version) return this.current;
    if (this.loading?.version !== version) {
      const loading = { version, snapshot: this.load(version) };
      this.loading = loading;
      loading.snapshot.then(
        (snapshot) => {
          if (this.loading === loading) this.loading = null;
          if ((this.current?.version ?? -1) < snapshot.version) this.current = snapshot;
        },
        () => {
          if (this.loading === loading) this.loading = null;
        },
      );
    }
    return this.loading.snapshot;
  }

  /**
   * The rows take several statements; every catalog change increments the version in its own
   * unit, so an unchanged version after them proves no change committed in between.
   */
  private async load(version: number): Promise<CatalogSnapshot> {
    for (;;) {
      const rows = await this.catalog.loadRows();
      const after = await this.catalog.readVersion();
      if (after === version) return new CatalogSnapshot(version, rows);
      version = after;
    }
  }

  async operators(version?: number): Promise<Operator[]> {
    return (await this.snapshot(version))
      .activeOperators()
      .map((o) => ({ _id: o.id, code: o.code, name: o.name, status: o.status, network: o.network }));
  }

  /** Products of an active operator; an unknown or inactive operator is not part of the catalog. */
  async products(operatorId: string, version?: number): Promise<Product[]> {
    const catalog = await this.snapshot(version);
    const operator = catalog.operator(operatorId);
    if (!operator || operator.status !== 'Active') throw notFound('NOT_FOUND', `Operator ${operatorId} not found`);
    return catalog.productsOf(operatorId).map((p) => ({
      _id: p.id,
      name: p.name,
      operatorId: p.operator_id,
      operatorName: p.operator_name,
      status: p.status,
    }));
  }

  async dataPackages(role: Role, filter: PackageFilter, version?: number): Promise<DataPackage[]> {
    return (await this.snapshot(version)).sellablePackages(role, filter).map(toDataPackage);
  }

  async dataPackage(packageId: string, role: Role, version?: number): Promise<DataPackageWithStatus> {
    const row = (await this.snapshot(version)).package(packageId, role);
    if (!row) throw notFound('PACKAGE_NOT_FOUND', `Package ${packageId} not found`);
    return { ...toDataPackage(row), status: isSellable(row) ? 'Active' : 'Inactive' };
  }
}
