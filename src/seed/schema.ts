import { Type, type Static } from 'typebox';

/**
 * The seed file of docs/seed-import.md. Money in GHS; ids are kept as the records' ids.
 * A pattern's `description` is what an import error says the value must be (schema-errors.ts).
 */

const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$', description: 'letters, digits and _ . : - only' });
const Text = Type.String({ maxLength: 500 });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Ghs = Type.Number({ minimum: 0, maximum: 10_000_000 });
const RolePrices = Type.Object(
  {
    Agent: Type.Optional(Ghs),
    SuperAgent: Type.Optional(Ghs),
    Customer: Type.Optional(Ghs),
    Staff: Type.Optional(Ghs),
  },
  { additionalProperties: false },
);

const SeedOperator = Type.Object(
  {
    id: Id,
    code: Name,
    name: Name,
    status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]),
    /** The network its bundles are for (docs/seed-import.md); absent: an existing operator keeps its own, null clears it. */
    network: Type.Optional(Type.Union([Type.Literal('MTN'), Type.Literal('TELECEL'), Type.Literal('AT'), Type.Null()])),
  },
  { additionalProperties: false },
);

const SeedProduct = Type.Object(
  {
    id: Id,
    operatorId: Id,
    name: Name,
    status: Type.Union([Type.Literal('Available'), Type.Literal('Unavailable')]),
  },
  { additionalProperties: false },
);

const SeedDataPackage = Type.Object(
  {
    id: Id,
    operatorId: Id,
    productId: Id,
    label: Name,
    dataAmount: Name,
    validity: Type.String({ pattern: '^[0-9]{1,4}$', description: 'a number of days written as a string of 1 to 4 digits' }),
    status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]),
    price: Ghs,
    rolePrices: Type.Optional(RolePrices),
    /** The package's routes to the upstreams (docs/live-delivery.md, "Routes"), read by readRouteList, which names a bad one. */
    routes: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** `cost`: what the credential cost the platform (GHS), for the margin report; unknown when left out. */
const SeedCredential = Type.Object(
  { username: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 1, maxLength: 200 }), cost: Type.Optional(Ghs) },
  { additionalProperties: false },
);

const SeedRcPackage = Type.Object(
  {
    id: Id,
    code: Name,
    name: Name,
    displayName: Name,
    description: Type.Optional(Type.Union([Text, Type.Null()])),
    status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]),
    priority: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
    checkLimit: Type.Optional(Type.Union([Type.Integer({ minimum: 0 }), Type.Null()])),
    includesPdf: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
    price: Ghs,
    rolePrices: Type.Optional(RolePrices),
    credentials: Type.Optional(Type.Array(SeedCredential)),
  },
  { additionalProperties: false },
);

const SeedApiKey = Type.Object(
  { key: Type.String({ minLength: 1 }), revoked: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

const SeedProfile = Type.Object(
  {
    id: Id,
    userId: Type.Optional(Id),
    firstName: Name,
    middleName: Type.Optional(Text),
    lastName: Name,
    gender: Type.Optional(Text),
    phoneNumber: Type.String({ minLength: 1, maxLength: 32 }),
    email: Type.String({ minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+$', description: 'an email address' }),
    role: Type.Union([Type.Literal('Agent'), Type.Literal('SuperAgent'), Type.Literal('Customer'), Type.Literal('Staff')]),
    status: Type.String({ minLength: 1, maxLength: 40 }),
    countryCode: Type.Optional(Type.String({ maxLength: 8 })),
    countryISO: Type.Optional(Type.String({ maxLength: 3 })),
    countryName: Type.Optional(Text),
    referralCode: Type.String({ minLength: 1, maxLength: 64 }),
    uniqueId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    creatorId: Type.Optional(Type.String({ maxLength: 128 })),
    wallet: Type.Optional(Type.Object({ live: Type.Optional(Ghs), test: Type.Optional(Ghs) }, { additionalProperties: false })),
    apiKeys: Type.Optional(Type.Array(SeedApiKey)),
  },
  { additionalProperties: false },
);

/** A past data order migrated from the old platform (history: settled, never resubmitted). */
const SeedOrder = Type.Object(
  {
    id: Id,
    profileId: Id,
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    operatorId: Id,
    productId: Id,
    packageId: Id,
    beneficiaryMsisdn: Type.String({ minLength: 1, maxLength: 32 }),
    state: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
    /** Unix ms. */
    createdAt: Type.Integer({ minimum: 1 }),
    /** GHS; default: the package's price for the profile's role at import. */
    amount: Type.Optional(Ghs),
  },
  { additionalProperties: false },
);

export const SeedFile = Type.Object(
  {
    operators: Type.Optional(Type.Array(SeedOperator)),
    products: Type.Optional(Type.Array(SeedProduct)),
    dataPackages: Type.Optional(Type.Array(SeedDataPackage)),
    resultCheckerPackages: Type.Optional(Type.Array(SeedRcPackage)),
    profiles: Type.Optional(Type.Array(SeedProfile)),
    orders: Type.Optional(Type.Array(SeedOrder)),
  },
  { additionalProperties: false },
);

export type SeedFile = Static<typeof SeedFile>;
export type SeedProfile = Static<typeof SeedProfile>;
export type SeedOrder = Static<typeof SeedOrder>;
export type SeedRolePrices = Static<typeof RolePrices>;
