import type { ItemStatus, NewOrder, NewOrderItem, OrderState, OrderType } from '../../db/schema.js';
import type { Mode } from '../../domain/types.js';

/**
 * The one way each row kind of an order is made: the purchases, the result-checker sale and the
 * seed import of history all build their rows here, so a new column is added in one place.
 */

export interface OrderFields {
  id: string;
  profileId: string;
  mode: Mode;
  type: OrderType;
  state: OrderState;
  shortReference: string;
  /** International form; empty for a bulk order (its recipients carry the numbers). */
  beneficiaryMsisdn: string;
  operator?: { id: string; name: string };
  product?: { id: string; name: string };
  packageId: string;
  packageLabel: string;
  /** Pesewas. */
  amount: number;
  isBulk?: boolean;
  walletBalanceBefore: number | null;
  walletBalanceAfter: number | null;
  paymentReference?: string | null;
  anonymousId?: string | null;
  rcTransactionId?: string | null;
  errorMessage?: string | null;
  submittedAt?: number | null;
  completedAt?: number | null;
  createdAt: number;
  /** Defaults to createdAt. */
  updatedAt?: number;
}

export function orderRow(o: OrderFields): NewOrder {
  const bulk = o.isBulk === true;
  return {
    id: o.id,
    profile_id: o.profileId,
    mode: o.mode,
    order_type: o.type,
    state: o.state,
    short_reference: o.shortReference,
    beneficiary_msisdn: o.beneficiaryMsisdn,
    operator_id: o.operator?.id ?? '',
    operator_name: o.operator?.name ?? '',
    product_id: o.product?.id ?? '',
    product_name: o.product?.name ?? '',
    package_id: o.packageId,
    package_label: o.packageLabel,
    amount: o.amount,
    currency: 'GHS',
    error_message: o.errorMessage ?? null,
    submitted_at: o.submittedAt ?? null,
    completed_at: o.completedAt ?? null,
    is_bulk: bulk ? 1 : 0,
    bulk_completed_count: bulk ? 0 : null,
    bulk_failed_count: bulk ? 0 : null,
    wallet_balance_before: o.walletBalanceBefore,
    wallet_balance_after: o.walletBalanceAfter,
    payment_reference: o.paymentReference ?? null,
    anonymous_id: o.anonymousId ?? null,
    rc_transaction_id: o.rcTransactionId ?? null,
    reversal_reason: null,
    reversed_at: null,
    created_at: o.createdAt,
    updated_at: o.updatedAt ?? o.createdAt,
    version: 0,
  };
}

export interface ItemFields {
  id: string;
  orderId: string;
  /** Position of the recipient in the order (0 for a single order). */
  idx: number;
  mode: Mode;
  beneficiaryMsisdn: string;
  packageId: string;
  packageLabel: string;
  /** Pesewas. */
  amount: number;
  status?: ItemStatus;
  errorMessage?: string | null;
  submittedAt?: number | null;
  completedAt?: number | null;
  createdAt: number;
  /** Defaults to createdAt. */
  updatedAt?: number;
}

/** One delivery to one number, first attempt: pending until the worker submits it, unless given. */
export function itemRow(i: ItemFields): NewOrderItem {
  return {
    id: i.id,
    order_id: i.orderId,
    idx: i.idx,
    mode: i.mode,
    beneficiary_msisdn: i.beneficiaryMsisdn,
    package_id: i.packageId,
    package_label: i.packageLabel,
    amount: i.amount,
    status: i.status ?? 'pending',
    error_message: i.errorMessage ?? null,
    attempt: 1,
    provider_ref: null,
    submitted_at: i.submittedAt ?? null,
    completed_at: i.completedAt ?? null,
    created_at: i.createdAt,
    updated_at: i.updatedAt ?? i.createdAt,
  };
}
