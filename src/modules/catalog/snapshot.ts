import type { Role } from '../../domain/types.js';
import type { CatalogRows } from './repository.js';

export type CatalogOperator = CatalogRows['operators'][number];
export type CatalogProduct = CatalogRows['products'][number];

/** A data package with its parents' names and statuses, priced for one role. */
export interface PricedPackage {
  id: string;
  label: string;
  data_amount: string;
  validity: string;
  status: string;
  operator_id: string;
  operator_name: string;
  operator_status: string;
  product_id: string;
  product_name: string;
  product_status: string;
  /** Pesewas: the role's own price when it has one, else the package price. */
  price: number;
}

export interface PackageFilter {
  operatorId?: string | undefined;
  productId?: string | undefined;
}

/** A package can be sold only when it and both parents are live. */
export function isSellable(p: PricedPackage): boolean {
  return p.status === 'Active' && p.product_status === 'Available' && p.operator_status === 'Active';
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One version of the data catalog, immutable, with the lookups purchases and the catalog
 * endpoints need. Lists keep the order the SQL used to give (name, then id; packages by
 * operator, product, price, id) and are computed once per role and filter.
 */
export class CatalogSnapshot {
  private readonly operators: Map<string, CatalogOperator>;
  private readonly products: Map<string, CatalogProduct>;
  private readonly rolePrices = new Map<string, number>();
  private readonly pricedByRole = new Map<Role, Map<string, PricedPackage>>();
  private readonly lists = new Map<string, readonly PricedPackage[]>();

  constructor(
    readonly version: number,
    private readonly rows: CatalogRows,
  ) {
    this.operators = new Map(rows.operators.map((o) => [o.id, o]));
    this.products = new Map(rows.products.map((p) => [p.id, p]));
    for (const p of rows.prices) this.rolePrices.set(`${p.package_id}\u0000${p.role}`, Number(p.price));
  }

  operator(operatorId: string): CatalogOperator | undefined {
    return this.operators.get(operatorId);
  }

  product(productId: string): CatalogProduct | undefined {
    return this.products.get(productId);
  }

  /** Any package, sellable or not, priced for `role`. */
  package(packageId: string, role: Role): PricedPackage | undefined {
    return this.priced(role).get(packageId);
  }

  activeOperators(): CatalogOperator[] {
    return this.rows.operators.filter((o) => o.status === 'Active').sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id));
  }

  productsOf(operatorId: string): (CatalogProduct & { operator_name: string })[] {
    const operatorName = this.operators.get(operatorId)?.name ?? '';
    return this.rows.products
      .filter((p) => p.operator_id === operatorId)
      .sort((a, b) => byText(a.name, b.name) || byText(a.id, b.id))
      .map((p) => ({ ...p, operator_name: operatorName }));
  }

  /** Sellable packages only (the package Active, its product Available, its operator Active). */
  sellablePackages(role: Role, filter: PackageFilter): readonly PricedPackage[] {
    const key = `${role}\u0000${filter.operatorId ?? ''}\u0000${filter.productId ?? ''}`;
    let list = this.lists.get(key);
    if (!list) {
      list = [...this.priced(role).values()]
        .filter((p) => isSellable(p))
        .filter((p) => filter.operatorId === undefined || p.operator_id === filter.operatorId)
        .filter((p) => filter.productId === undefined || p.product_id === filter.productId)
        .sort(
          (a, b) =>
            byText(a.operator_name, b.operator_name) ||
            byText(a.product_name, b.product_name) ||
            a.price - b.price ||
            byText(a.id, b.id),
        );
      // Filters come from the query string: a bounded memo, whatever callers send.
      if (this.lists.size < 1_000) this.lists.set(key, list);
    }
    return list;
  }

  private priced(role: Role): Map<string, PricedPackage> {
    let priced = this.pricedByRole.get(role);
    if (priced) return priced;
    priced = new Map();
    for (const p of this.rows.packages) {
      const operator = this.operators.get(p.operator_id);
      const product = this.products.get(p.product_id);
      // Foreign keys guarantee both parents; a package without them could not be shown anyway.
      if (!operator || !product) continue;
      priced.set(p.id, {
        id: p.id,
        label: p.label,
        data_amount: p.data_amount,
        validity: p.validity,
        status: p.status,
        operator_id: p.operator_id,
        operator_name: operator.name,
        operator_status: operator.status,
        product_id: p.product_id,
        product_name: product.name,
        product_status: product.status,
        price: this.rolePrices.get(`${p.id}\u0000${role}`) ?? Number(p.price),
      });
    }
    this.pricedByRole.set(role, priced);
    return priced;
  }
}
