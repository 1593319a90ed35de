import { Type, type Static } from 'typebox';
import { Ghs, Id, Success, Text } from '../../lib/wire.js';

/** An operator's network (docs/api.md, "The number's network"). */
export const NetworkName = Type.Union([Type.Literal('MTN'), Type.Literal('TELECEL'), Type.Literal('AT')], {
  description: 'A Ghana mobile network: MTN, TELECEL or AT',
});

/** An operator, as GET /api/v1/operators lists it. */
export const Operator = Type.Object({
  _id: Text('Operator id', 'op_mtn'),
  code: Text('Internal operator code', 'MTN'),
  name: Text('Operator name', 'MTN Ghana'),
  status: Text('Active or Inactive', 'Active'),
  network: Type.Union([NetworkName, Type.Null()], {
    description:
      "The network its bundles are for (MTN, TELECEL or AT): a recipient's number of another network by its prefix is refused unless allowPortedNumber is sent; null: numbers are not checked",
    examples: ['MTN'],
  }),
});
export type Operator = Static<typeof Operator>;

/** A product, as GET /api/v1/operators/{operatorId}/products lists it. */
export const Product = Type.Object({
  _id: Text('Product id', 'prd_mtn_data'),
  name: Text('Product name', 'MTN Data'),
  operatorId: Text('Parent operator', 'op_mtn'),
  operatorName: Text('Name of the parent operator', 'MTN Ghana'),
  status: Text('Available or Unavailable', 'Available'),
});
export type Product = Static<typeof Product>;

/** A data package, as GET /api/v1/data-packages lists it; GET /api/v1/packages/{packageId} adds its status. */
const dataPackageFields = {
  _id: Text('Package id', 'pkg_mtn_1gb'),
  label: Text('Human-readable description', 'MTN 1GB (30 days)'),
  dataAmount: Text('Bundle size text', '1GB'),
  validity: Text('Validity in days, as a string', '30'),
  price: Ghs('Effective price for the role of the key owner, GHS', 5.4),
  operatorId: Text('Parent operator', 'op_mtn'),
  operatorName: Text('Name of the parent operator', 'MTN Ghana'),
  productId: Text('Parent product', 'prd_mtn_data'),
  productName: Text('Name of the parent product', 'MTN Data'),
};
export const DataPackage = Type.Object(dataPackageFields);
export type DataPackage = Static<typeof DataPackage>;
export const DataPackageWithStatus = Type.Object({
  ...dataPackageFields,
  status: Text('Active or Inactive (Inactive when it, its product or its operator is not sellable)', 'Active'),
});
export type DataPackageWithStatus = Static<typeof DataPackageWithStatus>;

export const OperatorParams = Type.Object({ operatorId: Id('operators id', 'op_mtn') });
export const PackageParams = Type.Object({ packageId: Id('packages id', 'pkg_mtn_1gb') });
export const DataPackagesQuery = Type.Object({
  operatorId: Type.Optional(Id('Only packages of this operator (operators id)', 'op_mtn')),
  productId: Type.Optional(Id('Only packages of this product (products id)', 'prd_mtn_data')),
});

export const OperatorsResponse = Success(Type.Array(Operator, { description: 'Active operators' }));
export const ProductsResponse = Success(Type.Array(Product, { description: "The operator's products" }));
export const DataPackagesResponse = Success(
  Type.Array(DataPackage, { description: "Active data packages priced for the key owner's role" }),
);
export const DataPackageResponse = Success(DataPackageWithStatus);
