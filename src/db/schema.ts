import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';
import type { EventType } from '../domain/event-types.js';
import type { Network } from '../domain/networks.js';
import type { Mode, Role } from '../domain/types.js';

/**
 * The database as Kysely sees it. Money columns are integer pesewas; time columns are unix ms.
 * Flags are integers (0/1) so one schema serves SQLite and PostgreSQL alike.
 */

export interface ProfilesTable {
  id: string;
  user_id: string;
  first_name: string;
  middle_name: string;
  last_name: string;
  gender: string;
  phone_number: string;
  email: string;
  role: Role;
  status: string;
  country_code: string;
  country_iso: string;
  country_name: string;
  referral_code: string;
  unique_id: string;
  creator_id: string;
  /** JSON text: { action, name, userId } */
  update_meta: string;
  registered_at: number;
  created_at: number;
  updated_at: number;
}

export interface ApiKeysTable {
  id: string;
  profile_id: string;
  mode: Mode;
  key_hash: string;
  /** Non-secret start of the key, for display ("service_live_ab12…"). */
  prefix: string;
  revoked: number;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}

export interface OperatorsTable {
  id: string;
  code: string;
  name: string;
  status: string;
  /** MTN, TELECEL or AT: recipients' numbers are checked against it; null: not checked (migration 0016). */
  network: ColumnType<Network | null, Network | null | undefined, Network | null>;
  created_at: number;
  updated_at: number;
}

export interface ProductsTable {
  id: string;
  operator_id: string;
  name: string;
  status: string;
  created_at: number;
  updated_at: number;
}

export interface DataPackagesTable {
  id: string;
  operator_id: string;
  product_id: string;
  label: string;
  data_amount: string;
  validity: string;
  status: string;
  /** Price for every role without a row in data_package_prices. */
  price: number;
  created_at: number;
  updated_at: number;
}

export interface RolePricesTable {
  package_id: string;
  role: Role;
  price: number;
}

export interface RcPackagesTable {
  id: string;
  code: string;
  name: string;
  display_name: string;
  description: string | null;
  status: string;
  priority: number | null;
  check_limit: number | null;
  includes_pdf: number | null;
  price: number;
  created_at: number;
  updated_at: number;
}

export interface RcCredentialsTable {
  id: string;
  package_id: string;
  /** Keyed digest of the username: detects duplicates without storing the username in clear. */
  username_digest: string;
  /** AES-256-GCM ciphertext of {username, password}. */
  secret: string;
  assigned_transaction_id: string | null;
  assigned_at: number | null;
  created_at: number;
  /** Set when the sale it was handed to was refunded: it stays assigned (never sold again) and is void (migration 0019). */
  voided_at: ColumnType<number | null, number | null | undefined, number | null>;
  void_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** What it cost the platform (pesewas), from the seed or the inventory file; null when not known (migration 0023). */
  cost: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface WalletsTable {
  id: string;
  profile_id: string;
  mode: Mode;
  available: number;
  held: number;
  created_at: number;
  updated_at: number;
  /** Pesewas: available falling from at or above it to below it raises wallet.balance_low (null: no alert). */
  alert_threshold: number | null;
}

/** What each kind does to a wallet: the constructors in src/modules/wallet/postings.ts. */
export type LedgerKind =
  | 'opening_balance'
  | 'top_up'
  | 'data_hold'
  | 'data_settle'
  | 'data_release'
  | 'data_reversal'
  | 'data_recipient_reversal'
  | 'rc_debit'
  | 'rc_refund'
  | 'rc_reversal'
  | 'adjustment';

export interface LedgerEntriesTable {
  id: Generated<number>;
  wallet_id: string;
  kind: LedgerKind;
  available_delta: number;
  held_delta: number;
  available_after: number;
  held_after: number;
  order_id: string | null;
  order_item_id: string | null;
  rc_transaction_id: string | null;
  top_up_id: string | null;
  /** Unique when set: the same business event can never be booked twice. */
  idempotency_key: string | null;
  memo: string | null;
  created_at: number;
}

export type OrderState = 'pending' | 'processing' | 'completed' | 'failed' | 'reversed';
export type OrderType = 'data' | 'airtime' | 'voice' | 'afa' | 'registration' | 'top_up' | 'result_checker';
export const ORDER_TYPES: readonly OrderType[] = ['data', 'airtime', 'voice', 'afa', 'registration', 'top_up', 'result_checker'];
export const ORDER_STATES: readonly OrderState[] = ['pending', 'processing', 'completed', 'failed', 'reversed'];

export interface OrdersTable {
  id: string;
  profile_id: string;
  mode: Mode;
  order_type: OrderType;
  state: OrderState;
  short_reference: string;
  beneficiary_msisdn: string;
  operator_id: string;
  operator_name: string;
  product_id: string;
  product_name: string;
  package_id: string;
  package_label: string;
  amount: number;
  currency: string;
  error_message: string | null;
  submitted_at: number | null;
  completed_at: number | null;
  is_bulk: number;
  bulk_completed_count: number | null;
  bulk_failed_count: number | null;
  wallet_balance_before: number | null;
  wallet_balance_after: number | null;
  payment_reference: string | null;
  anonymous_id: string | null;
  rc_transaction_id: string | null;
  reversal_reason: string | null;
  reversed_at: number | null;
  created_at: number;
  updated_at: number;
  /** Incremented by every change of the order or of one of its items: what a rendered view is valid for. */
  version: number;
}

export type ItemStatus = 'pending' | 'processing' | 'completed' | 'failed';

/** One delivery to one number: a single order has one item, a bulk order one per recipient. */
export interface OrderItemsTable {
  id: string;
  order_id: string;
  idx: number;
  mode: Mode;
  beneficiary_msisdn: string;
  package_id: string;
  package_label: string;
  amount: number;
  status: ItemStatus;
  error_message: string | null;
  /** 1 for the first charge; a retry of a failed bulk recipient increments it. */
  attempt: number;
  provider_ref: string | null;
  submitted_at: number | null;
  completed_at: number | null;
  created_at: number;
  updated_at: number;
  /** A completed recipient refunded by staff on its own: it stays `completed` (migration 0019). */
  reversed_at: ColumnType<number | null, number | null | undefined, number | null>;
  reversal_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export type OutboxKind = 'submit' | 'poll';

export interface OutboxTable {
  id: Generated<number>;
  order_item_id: string;
  kind: OutboxKind;
  run_at: number;
  tries: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

/** A data package's ways of delivery, tried in `position` order (docs/live-delivery.md, "Routes"). */
export interface PackageRoutesTable {
  package_id: string;
  position: number;
  provider: string;
  service_id: string | null;
  bundle: string | null;
  operator_id: number | null;
  product_id: number | null;
  /** Pesewas: what the upstream is asked for (Hubtel, Reloadly). */
  amount: number | null;
  /** Pesewas: what the route costs when the upstream's answer does not say. */
  cost: number | null;
}

/**
 * `pending`: recorded, no answer recorded yet (the call may have gone out); `unknown`: the answer
 * proved nothing; `absent`: a lookup proved the upstream never took it (submit it again, same
 * reference); `accepted`: the upstream has it in flight; then `completed`, `failed` or `refused`.
 */
export type AttemptStatus = 'pending' | 'unknown' | 'absent' | 'accepted' | 'completed' | 'failed' | 'refused';

/** One submission of a delivery to an upstream (docs/live-delivery.md, "One delivery, many attempts"), written before the call. */
export interface ProviderAttemptsTable {
  /** What the upstream's idempotency field receives: at most 36 letters and digits. */
  reference: string;
  order_item_id: string;
  /** The item's charge attempt this submission belongs to (order_items.attempt). */
  item_attempt: number;
  /** The route's position in the package's routes; null for the sandbox stand-in of a package without routes. */
  route_position: number | null;
  provider: string;
  /** The route as it was when the attempt was made (JSON). */
  route: string;
  status: AttemptStatus;
  provider_transaction_id: string | null;
  /** Pesewas: what the delivery cost the platform, once completed. */
  cost: number | null;
  message: string | null;
  /** The staff member who resolved it by hand, if one did. */
  resolved_by: string | null;
  /** Refused for now (Reloadly PHONE_RECENTLY_RECHARGED): the routes may be tried again from this time. */
  retry_at: number | null;
  /** How many lookups proved it absent at its upstream (at most three resubmissions follow: migration 0027). */
  absences: Generated<number>;
  /** A refused or failed attempt's problem: `number` or `route` (migration 0024); null otherwise and before it. */
  problem: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: number;
  submitted_at: number | null;
  resolved_at: number | null;
}

/** Each upstream's last float reading and insufficient-float refusal (docs/live-delivery.md, "Float balances"). */
export interface ProviderBalancesTable {
  provider: string;
  currency: string | null;
  /** Hundredths of `currency`. */
  available: number | null;
  read_at: number | null;
  /** Why the last reading failed, when it did (the reading before it stays). */
  read_error: string | null;
  error_at: number | null;
  /** The last insufficient-float refusal of a purchase. */
  refused_at: number | null;
}

export type ReconciliationRunStatus = 'queued' | 'running' | 'done' | 'failed';
export type ReconciliationTrigger = 'daily' | 'console' | 'cli';

/** One comparison of an upstream's records with our attempts over a window (docs/live-delivery.md, "Reconciliation"). */
export interface ReconciliationRunsTable {
  id: string;
  provider: string;
  window_from: number;
  window_to: number;
  trigger: ReconciliationTrigger;
  requested_by: string | null;
  /** `<provider>:<yyyy-mm-dd>` for the worker's daily run (unique: one per day across all workers); else null. */
  daily_key: string | null;
  status: ReconciliationRunStatus;
  locked_by: string | null;
  locked_until: number | null;
  attempts_checked: number;
  upstream_records: number;
  findings: number;
  error: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export type FindingKind = 'delivered-there-failed-here' | 'failed-there-completed-here' | 'unknown-here' | 'missing-there' | 'amount-differs';

/** A difference between an upstream's record and ours, with both sides (JSON), until staff resolve it. */
export interface ReconciliationFindingsTable {
  id: string;
  /** `<provider>:<kind>:<reference or tx:transaction id>`: a difference found again updates its row. */
  finding_key: string;
  provider: string;
  kind: FindingKind;
  reference: string | null;
  transaction_id: string | null;
  order_id: string | null;
  order_item_id: string | null;
  ours: string | null;
  theirs: string | null;
  first_run_id: string;
  last_run_id: string;
  found_at: number;
  last_seen_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
  resolution_note: string | null;
}

/** A closed day's margin figures, per partner, package (and its operator) and upstream; pesewas. */
export interface MarginDaysTable {
  /** yyyy-mm-dd, UTC. */
  day: string;
  /** 'data' or 'result_checker' (migration 0023). */
  kind: string;
  profile_id: string;
  package_id: string;
  operator_id: string;
  provider: string;
  /** Net of the refunds of the day (a refund is a negative sale on its own day). */
  sales: number;
  /** What was refunded that day (sales made that day or before). */
  refunds: number;
  cost: number;
  deliveries: number;
  /** Deliveries whose cost is not known (no cost from the upstream, none on the route). */
  cost_unknown: number;
  /** The net sales those deliveries (and the refunds of such deliveries) cover. */
  cost_unknown_sales: number;
}

/** Which closed days margin_days holds, and when each was computed. */
export interface MarginDaysDoneTable {
  day: string;
  computed_at: number;
}

/** The sandbox provider's own memory (it stands in for an external system). */
export interface SandboxSubmissionsTable {
  idempotency_key: string;
  provider_ref: string;
  msisdn: string;
  accepted_at: number;
  submit_calls: number;
  poll_calls: Generated<number>;
}

export interface IdempotencyKeysTable {
  profile_id: string;
  mode: Mode;
  key: string;
  /** sha-256 of the method, the path and the body as parsed JSON (key order and spacing ignored). */
  fingerprint: string;
  state: 'running' | 'done';
  locked_until: number | null;
  response_status: number | null;
  response_body: string | null;
  response_data: string | null;
  created_at: number;
  completed_at: number | null;
}

export type RcTransactionState = 'pending' | 'completed' | 'failed';

export interface RcTransactionsTable {
  id: string;
  profile_id: string;
  mode: Mode;
  order_id: string;
  package_id: string;
  package_name: string;
  short_reference: string;
  state: RcTransactionState;
  payment_gateway_status: string | null;
  amount: number;
  currency: string;
  buyer_phone: string;
  credential_id: string | null;
  /** Encrypted copy of the credential handed to the buyer (sandbox credentials live only here). */
  credential_secret: string | null;
  /** Groups the items of one bulk purchase: they share one rc_debit ledger entry for their total. */
  bulk_id: string | null;
  error_message: string | null;
  created_at: number;
  completed_at: number | null;
  updated_at: number;
  /** A completed sale refunded by staff: it stays `completed`, its order is `reversed` (migration 0019). */
  refunded_at: ColumnType<number | null, number | null | undefined, number | null>;
  refund_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export type TopUpStatus = 'pending' | 'approved' | 'rejected';

export interface TopUpsTable {
  id: string;
  profile_id: string;
  mode: Mode;
  amount: number;
  currency: string;
  method: 'momo' | 'bank';
  reference: string;
  note: string | null;
  status: TopUpStatus;
  rejection_reason: string | null;
  decided_at: number | null;
  decided_by: string | null;
  created_at: number;
  updated_at: number;
  /** Mobile Money top-ups (docs/mobile-money.md): the gateway that took the charge; null for a request staff decide. */
  gateway: TopUpGateway | null;
  /** The gateway's last word on the charge (pay_offline, send_otp, pending, success, failed). */
  payment_status: PaymentStatus | null;
  payment_display_text: string | null;
  /** 233… */
  payment_phone: string | null;
  payment_network: MomoNetwork | null;
  /** Pesewas the gateway kept (`fees` of the verified transaction). */
  gateway_fee: number | null;
  /** Why a verified payment was not credited (amount or currency differs), for staff. */
  gateway_problem: string | null;
  /** When the worker checks the charge next; null once it is settled. */
  check_at: number | null;
  expires_at: number | null;
  /** The first of two approvals (above TOPUP_APPROVAL_ABOVE; migration 0025): who, as the audit trail names them, their account, when. */
  first_approved_by: string | null;
  first_approved_by_staff_id: string | null;
  first_approved_at: number | null;
}

export type TopUpGateway = 'paystack' | 'sandbox';
export type PaymentStatus = 'pay_offline' | 'send_otp' | 'pending' | 'success' | 'failed';
export type MomoNetwork = 'MTN' | 'TELECEL' | 'AT';

/** Every answer of the gateway about a Mobile Money top-up, and every staff re-check (the console shows them). */
export interface TopUpGatewayEventsTable {
  id: Generated<number>;
  top_up_id: string;
  /** charge, otp, webhook, check, recheck, expiry */
  source: string;
  payment_status: string | null;
  message: string;
  /** The staff member of a re-check; null otherwise. */
  actor: string | null;
  created_at: number;
}

/** A single row (id 1): incremented with every catalog change (see catalog/service.ts). */
export interface CatalogStateTable {
  id: number;
  version: number;
}

export interface EventsTable {
  id: string;
  profile_id: string;
  mode: Mode;
  type: EventType;
  payload: string;
  created_at: number;
}

export interface WebhookEndpointsTable {
  id: string;
  profile_id: string;
  mode: Mode;
  url: string;
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookSubscriptionsTable {
  endpoint_id: string;
  event_type: string;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: string;
  status: WebhookDeliveryStatus;
  attempts: Generated<number>;
  schedule_step: Generated<number>;
  next_attempt_at: number | null;
  locked_by: string | null;
  locked_until: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempted_at: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export type StaffRole = 'admin' | 'operator' | 'viewer';
export const STAFF_ROLES: readonly StaffRole[] = ['admin', 'operator', 'viewer'];

/** A member of the platform's staff, who signs in to the console (issue 18). */
export interface StaffAccountsTable {
  id: string;
  /** Lower-cased. */
  email: string;
  role: StaffRole;
  password_hash: string;
  status: 'active' | 'disabled';
  last_login_at: number | null;
  created_at: number;
  updated_at: number;
  /** 1 while the password is a one-time one its holder did not choose (migration 0012). */
  password_change_required: Generated<number>;
  /** The confirmed TOTP secret, sealed; null: no two-factor sign-in (migration 0018). */
  totp_secret: string | null;
  /** A TOTP secret being set up, sealed, not yet confirmed by a code. */
  totp_pending_secret: string | null;
  totp_enabled_at: number | null;
  /** The time step (30 s) of the last code accepted: a code of that step or before is refused. */
  totp_last_step: number | null;
  /** The account that created it / last gave it a one-time password; null: the CLI (migration 0026). */
  created_by_staff_id: Generated<string | null>;
  password_reset_by_staff_id: Generated<string | null>;
}

export type StaffRequestKind = 'create' | 'promote';
export type StaffRequestStatus = 'pending' | 'approved' | 'rejected';

/** A new admin account or a role raised to admin, waiting for a second admin (migration 0026). */
export interface StaffRequestsTable {
  id: string;
  kind: StaffRequestKind;
  /** The account to promote, or the id the new account gets once approved. */
  staff_id: string;
  email: string;
  role: StaffRole;
  /** A new account's password (scrypt), until it is approved or rejected; null for a promotion. */
  password_hash: string | null;
  status: StaffRequestStatus;
  requested_by: string;
  requested_by_staff_id: string | null;
  decided_by: string | null;
  decided_by_staff_id: string | null;
  decision_reason: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface StaffRecoveryCodesTable {
  staff_id: string;
  /** sha-256 (hex) of the code as shown, without its dash. */
  code_hash: string;
  created_at: number;
  used_at: number | null;
}

export interface StaffSessionsTable {
  /** sha-256 (hex) of the session cookie's token. */
  id: string;
  staff_id: string;
  csrf_token: string;
  address: string | null;
  created_at: number;
  expires_at: number;
  /** 1 while the password was right but the second factor is still to be given (migration 0018). */
  second_factor_pending: Generated<number>;
}

/** Append-only (the database refuses updates and deletes). */
export interface AuditLogTable {
  id: Generated<number>;
  staff_id: string | null;
  actor: string;
  action: string;
  record_type: string | null;
  record_id: string | null;
  address: string | null;
  outcome: 'ok' | 'refused';
  /** JSON. */
  detail: string | null;
  created_at: number;
}

export type AdjustmentDirection = 'credit' | 'debit';
export type AdjustmentStatus = 'pending' | 'approved' | 'rejected';

/** A staff adjustment of a wallet; its money moves when it is approved (src/modules/wallet/adjustments.ts). */
export interface WalletAdjustmentsTable {
  id: string;
  wallet_id: string;
  profile_id: string;
  mode: Mode;
  direction: AdjustmentDirection;
  /** Pesewas, above 0. */
  amount: number;
  reason: string;
  status: AdjustmentStatus;
  requested_by: string;
  requested_by_staff_id: string | null;
  decided_by: string | null;
  decided_by_staff_id: string | null;
  decision_reason: string | null;
  created_at: number;
  decided_at: number | null;
}

export interface DB {
  catalog_state: CatalogStateTable;
  profiles: ProfilesTable;
  api_keys: ApiKeysTable;
  operators: OperatorsTable;
  products: ProductsTable;
  data_packages: DataPackagesTable;
  data_package_prices: RolePricesTable;
  rc_packages: RcPackagesTable;
  rc_package_prices: RolePricesTable;
  rc_credentials: RcCredentialsTable;
  wallets: WalletsTable;
  ledger_entries: LedgerEntriesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  outbox: OutboxTable;
  sandbox_submissions: SandboxSubmissionsTable;
  package_routes: PackageRoutesTable;
  provider_attempts: ProviderAttemptsTable;
  provider_balances: ProviderBalancesTable;
  reconciliation_runs: ReconciliationRunsTable;
  reconciliation_findings: ReconciliationFindingsTable;
  margin_days: MarginDaysTable;
  margin_days_done: MarginDaysDoneTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  rc_transactions: RcTransactionsTable;
  top_ups: TopUpsTable;
  top_up_gateway_events: TopUpGatewayEventsTable;
  staff_accounts: StaffAccountsTable;
  staff_sessions: StaffSessionsTable;
  staff_recovery_codes: StaffRecoveryCodesTable;
  staff_requests: StaffRequestsTable;
  audit_log: AuditLogTable;
  worker_heartbeats: WorkerHeartbeatsTable;
  wallet_adjustments: WalletAdjustmentsTable;
}

export interface WorkerHeartbeatsTable {
  worker_id: string;
  started_at: number;
  beat_at: number;
}

export type ProfileRow = Selectable<ProfilesTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type WalletRow = Selectable<WalletsTable>;
export type OrderRow = Selectable<OrdersTable>;
export type NewOrder = Insertable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
export type OrderUpdate = Omit<Updateable<OrdersTable>, 'version'>;
export type NewOrderItem = Insertable<OrderItemsTable>;
export type RcTransactionRow = Selectable<RcTransactionsTable>;
export type TopUpRow = Selectable<TopUpsTable>;
export type TopUpGatewayEventRow = Selectable<TopUpGatewayEventsTable>;
export type PackageRouteRow = Selectable<PackageRoutesTable>;
export type ProviderAttemptRow = Selectable<ProviderAttemptsTable>;
export type ProviderBalanceRow = Selectable<ProviderBalancesTable>;
export type ReconciliationRunRow = Selectable<ReconciliationRunsTable>;
export type ReconciliationFindingRow = Selectable<ReconciliationFindingsTable>;
export type StaffAccountRow = Selectable<StaffAccountsTable>;
export type StaffRequestRow = Selectable<StaffRequestsTable>;
export type AuditRow = Selectable<AuditLogTable>;

export type WalletAdjustmentRow = Selectable<WalletAdjustmentsTable>;
