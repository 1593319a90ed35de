import { Type, type Static } from 'typebox';

/**
 * The console's forms and queries. `_csrf` is optional here because the CSRF check runs before
 * validation (a missing token is 403, not 400).
 */
const Csrf = { _csrf: Type.Optional(Type.String({ maxLength: 200 })) };
const Id = Type.String({ minLength: 1, maxLength: 128 });

/** Every page is HTML. */
export const HtmlPage = Type.String({ description: 'text/html' });

export const IdParams = Type.Object({ id: Id });
export type IdParams = Static<typeof IdParams>;

export const CsrfOnly = Type.Object(Csrf);

export const LoginBody = Type.Object({
  ...Csrf,
  email: Type.String({ maxLength: 254 }),
  password: Type.String({ maxLength: 1024 }),
});
export type LoginBody = Static<typeof LoginBody>;

/** A one-time code: a TOTP code of an authenticator app or a recovery code. */
export const CodeBody = Type.Object({ ...Csrf, code: Type.String({ maxLength: 32 }) });
export type CodeBody = Static<typeof CodeBody>;

/** Turning two-factor sign-in on (confirming the set-up) or off: the password and a current code. */
export const PasswordAndCodeBody = Type.Object({ ...Csrf, password: Type.String({ maxLength: 1024 }), code: Type.String({ maxLength: 32 }) });

/** The change-password form: the current password, and the new one twice. */
export const PasswordBody = Type.Object({
  ...Csrf,
  current: Type.String({ maxLength: 1024 }),
  password: Type.String({ maxLength: 1024 }),
  repeat: Type.String({ maxLength: 1024 }),
});
export type PasswordBody = Static<typeof PasswordBody>;

export const ReasonBody = Type.Object({ ...Csrf, reason: Type.String({ maxLength: 500 }) });

/** An admin's note on a reconciliation finding. */
export const NoteBody = Type.Object({ ...Csrf, note: Type.String({ maxLength: 500 }) });
export type NoteBody = Static<typeof NoteBody>;

/** A reconciliation asked for in the console: an upstream and a window (ISO 8601 times). */
export const ReconcileBody = Type.Object({
  ...Csrf,
  provider: Type.String({ maxLength: 20 }),
  from: Type.String({ maxLength: 40 }),
  to: Type.String({ maxLength: 40 }),
});
export type ReconcileBody = Static<typeof ReconcileBody>;
export type ReasonBody = Static<typeof ReasonBody>;

/** A delivery resolved by hand: the internal note (staff only) and, for a failure, the partner's message (empty: the standard one). */
export const ResolveBody = Type.Object({
  ...Csrf,
  outcome: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
  note: Type.String({ maxLength: 500 }),
  partnerMessage: Type.Optional(Type.String({ maxLength: 300 })),
  recipient: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9]*$' })),
});
export type ResolveBody = Static<typeof ResolveBody>;

/** One recipient of a bulk order (its number) and why it is reversed. */
export const RecipientReasonBody = Type.Object({
  ...Csrf,
  recipient: Type.String({ minLength: 1, maxLength: 20, pattern: '^[0-9]+$' }),
  reason: Type.String({ maxLength: 500 }),
});
export type RecipientReasonBody = Static<typeof RecipientReasonBody>;

export const KeyBody = Type.Object({ ...Csrf, mode: Type.Union([Type.Literal('live'), Type.Literal('test')]) });
export type KeyBody = Static<typeof KeyBody>;

export const RevokeBody = Type.Object({ ...Csrf, profileId: Type.Optional(Id) });
export type RevokeBody = Static<typeof RevokeBody>;

const Role = Type.Union([Type.Literal('admin'), Type.Literal('operator'), Type.Literal('viewer')]);

export const StaffCreateBody = Type.Object({ ...Csrf, email: Type.String({ maxLength: 254 }), role: Role });
export type StaffCreateBody = Static<typeof StaffCreateBody>;

export const StaffUpdateBody = Type.Object({
  ...Csrf,
  role: Role,
  status: Type.Union([Type.Literal('active'), Type.Literal('disabled')]),
});
export type StaffUpdateBody = Static<typeof StaffUpdateBody>;

/** multipart/form-data: the file arrives as a Buffer. */
export const UploadBody = Type.Object({ ...Csrf, packageId: Id, file: Type.Unsafe<Buffer>({}) });
export type UploadBody = Static<typeof UploadBody>;

const DateText = Type.String({ maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' });

const ModeChoice = Type.Union([Type.Literal('live'), Type.Literal('test')]);

/** A list's mode switch (default live) and its paging links (at most one cursor is used). */
const Listing = {
  mode: Type.Optional(ModeChoice),
  older: Type.Optional(Type.String({ maxLength: 512 })),
  newer: Type.Optional(Type.String({ maxLength: 512 })),
};

export const OrderSearchQuery = Type.Object({
  ...Listing,
  q: Type.Optional(Type.String({ maxLength: 64 })),
  profileId: Type.Optional(Type.String({ maxLength: 128 })),
  state: Type.Optional(Type.Union(['', 'pending', 'processing', 'completed', 'failed', 'reversed'].map((s) => Type.Literal(s)))),
  type: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('data'), Type.Literal('result_checker')])),
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
});
export type OrderSearchQuery = Static<typeof OrderSearchQuery>;

export const NoticeQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })) });
export type NoticeQuery = Static<typeof NoticeQuery>;

/** A page with a mode switch only (the dashboard, adjustments). */
export const ModeQuery = Type.Object({ notice: Type.Optional(Type.String({ maxLength: 40 })), mode: Type.Optional(ModeChoice) });

export const TopUpSearchQuery = Type.Object({
  ...Listing,
  notice: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: 128 })),
  status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('pending'), Type.Literal('approved'), Type.Literal('rejected')])),
  method: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('momo'), Type.Literal('bank')])),
});
export type TopUpSearchQuery = Static<typeof TopUpSearchQuery>;

export const PartnerSearchQuery = Type.Object({
  ...Listing,
  q: Type.Optional(Type.String({ maxLength: 254 })),
  status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('Active'), Type.Literal('Suspended')])),
});
export type PartnerSearchQuery = Static<typeof PartnerSearchQuery>;

/** Pending top-ups approved together: one id, or several (the form's checkboxes). */
export const BulkApproveBody = Type.Object({
  ...Csrf,
  ids: Type.Optional(Type.Union([Id, Type.Array(Id, { maxItems: 200 })])),
});
export type BulkApproveBody = Static<typeof BulkApproveBody>;

/**
 * The margin report's period (days from the date pickers, both included, or ISO 8601 times, `to` not
 * included) and grouping; defaults: the last 30 days by day.
 */
export const MarginsQuery = Type.Object({
  from: Type.Optional(Type.String({ maxLength: 40 })),
  to: Type.Optional(Type.String({ maxLength: 40 })),
  by: Type.Optional(
    Type.Union([
      Type.Literal('day'),
      Type.Literal('kind'),
      Type.Literal('operator'),
      Type.Literal('package'),
      Type.Literal('provider'),
      Type.Literal('partner'),
    ]),
  ),
});
export type MarginsQuery = Static<typeof MarginsQuery>;

export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ maxLength: 64 })),
  before: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type AuditQuery = Static<typeof AuditQuery>;

const FormText = Type.Optional(Type.String({ maxLength: 200 }));

/** A data package's price form: GHS as typed; an empty role price means the package price. */
export const PackageBody = Type.Object({
  ...Csrf,
  price: Type.String({ maxLength: 40 }),
  price_Agent: FormText,
  price_SuperAgent: FormText,
  price_Customer: FormText,
  price_Staff: FormText,
  status: Type.Union([Type.Literal('Active'), Type.Literal('Inactive')]),
  /** The "I know this sells below cost" box, ticked. */
  belowCost: Type.Optional(Type.Literal('yes')),
});
export type PackageBody = Static<typeof PackageBody>;

/** An operator's network form: empty clears it. */
export const OperatorNetworkBody = Type.Object({
  ...Csrf,
  network: Type.Union([Type.Literal(''), Type.Literal('MTN'), Type.Literal('TELECEL'), Type.Literal('AT')]),
});
export type OperatorNetworkBody = Static<typeof OperatorNetworkBody>;

/** The routes form: up to 8 rows `r<i>_<field>` (models/packages.ts, routesFromForm, reads them). */
const ROUTE_FORM_FIELDS = ['order', 'provider', 'serviceId', 'bundle', 'amount', 'operatorId', 'productId', 'cost'];
export const RoutesBody = Type.Object({
  ...Csrf,
  ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => ROUTE_FORM_FIELDS.map((f) => [`r${i}_${f}`, FormText])).flat()),
  belowCost: Type.Optional(Type.Literal('yes')),
});
export type RoutesBody = Record<string, string | undefined>;

const Text100 = Type.String({ maxLength: 100 });

/** The partner form (create and edit). */
export const ProfileBody = Type.Object({
  ...Csrf,
  firstName: Text100,
  middleName: Type.Optional(Text100),
  lastName: Text100,
  phoneNumber: Type.String({ maxLength: 32 }),
  email: Type.String({ maxLength: 254 }),
  role: Type.Union(['Agent', 'SuperAgent', 'Customer', 'Staff'].map((r) => Type.Literal(r))),
  status: Type.Optional(Type.Union([Type.Literal('Active'), Type.Literal('Suspended')])),
});
export type ProfileBody = Static<typeof ProfileBody>;

const Mode = Type.Union([Type.Literal('live'), Type.Literal('test')]);

export const StatementQuery = Type.Object({
  mode: Type.Optional(Mode),
  from: Type.Optional(DateText),
  to: Type.Optional(DateText),
  kind: Type.Optional(Type.String({ maxLength: 40 })),
  after: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type StatementQuery = Static<typeof StatementQuery>;

/** An adjustment: GHS as typed. */
export const AdjustmentBody = Type.Object({
  ...Csrf,
  mode: Mode,
  direction: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
  amount: Type.String({ maxLength: 40 }),
  reason: Type.String({ maxLength: 300 }),
});
export type AdjustmentBody = Static<typeof AdjustmentBody>;

/** A page of a partner's webhooks: the mode, and the notice after an action. */
export const PartnerWebhooksQuery = Type.Object({ mode: Type.Optional(Mode), notice: Type.Optional(Type.String({ maxLength: 40 })) });
export type PartnerWebhooksQuery = Static<typeof PartnerWebhooksQuery>;

/** The failing webhooks page: the mode, and the delivery id the page starts below (keyset paging). */
export const FailingWebhooksQuery = Type.Object({
  mode: Type.Optional(Mode),
  before: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type FailingWebhooksQuery = Static<typeof FailingWebhooksQuery>;
