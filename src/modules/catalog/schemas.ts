import { Type, type Static } from 'typebox';
import { Ghs, Id, Success } from '../../lib/wire.js';

export const Operator = Type.Object({
  _id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  status: Type.String({ description: 'Active or Inactive' }),
});
export type Operator = Static<typeof Operator>;

export const Product = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  operatorId: Type.String(),
  operatorName: Type.String(),
  status: Type.String({ description: 'Available or Unavailable' }),
});
export type Product = Static<typeof Product>;

const dataPackageFields = {
  _id: Type.String(),
  label: Type.String(),
  dataAmount: Type.String(),
  validity: Type.String({ description: 'Validity in days' }),
  price: Ghs("Effective price for the key owner's role, GHS"),
  operatorId: Type.String(),
  operatorName: Type.String(),
  productId: Type.String(),
  productName: Type.String(),
};
export const DataPackage = Type.Object(dataPackageFields);
export type DataPackage = Static<typeof DataPackage>;
export const DataPackageWithStatus = Type.Object({
  ...dataPackageFields,
  status: Type.String({ description: 'Active or Inactive (Inactive when it or a parent is not sellable)' }),
});
export type DataPackageWithStatus = Static<typeof DataPackageWithStatus>;

export const OperatorParams = Type.Object({ operatorId: Id('operators id') });
export const PackageParams = Type.Object({ packageId: Id('packages id') });
export const DataPackagesQuery = Type.Object({
  operatorId: Type.Optional(Id('operators id')),
  productId: Type.Optional(Id('products id')),
});

export const OperatorsResponse = Success(Type.Array(Operator));
export const ProductsResponse = Success(Type.Array(Product));
export const DataPackagesResponse = Success(Type.Array(DataPackage));
export const DataPackageResponse = Success(DataPackageWithStatus);
