import type { OrderItemRow, OrderRow, OrderState } from '../../db/schema.js';
import type { BulkRecipient, Order, OrderStatus } from './schemas.js';
import { nullableGhs, toGhs } from '../../lib/money.js';

/** Database rows → the wire shapes of an order, its bulk recipients and its status projection (GHS at the edge). */

export function toRecipientView(item: OrderItemRow): BulkRecipient {
  return {
    beneficiaryMsisdn: item.beneficiary_msisdn,
    packageId: item.package_id,
    packageLabel: item.package_label,
    amount: toGhs(Number(item.amount)),
    status: item.status,
    errorMessage: item.error_message,
    submittedAt: item.submitted_at === null ? null : Number(item.submitted_at),
    completedAt: item.completed_at === null ? null : Number(item.completed_at),
    reversedAt: item.reversed_at === null ? null : Number(item.reversed_at),
    reversalReason: item.reversal_reason,
  };
}

/** `items` are the order's items in idx order; they are shown only for a bulk order. */
export function toOrderView(order: OrderRow, items: OrderItemRow[]): Order {
  const bulk = order.is_bulk === 1;
  return {
    _id: order.id,
    _creationTime: Number(order.created_at),
    createdAt: Number(order.created_at),
    updatedAt: Number(order.updated_at),
    shortReference: order.short_reference,
    beneficiaryMsisdn: order.beneficiary_msisdn,
    operatorId: order.operator_id,
    operatorName: order.operator_name,
    productId: order.product_id,
    productName: order.product_name,
    packageId: order.package_id,
    packageLabel: order.package_label,
    amount: toGhs(Number(order.amount)),
    currency: 'GHS',
    state: order.state,
    orderType: order.order_type,
    errorMessage: order.error_message,
    submittedAt: order.submitted_at === null ? null : Number(order.submitted_at),
    completedAt: order.completed_at === null ? null : Number(order.completed_at),
    isBulkOrder: bulk,
    bulkRecipients: bulk ? items.map(toRecipientView) : null,
    bulkCompletedCount: order.bulk_completed_count,
    bulkFailedCount: order.bulk_failed_count,
    walletBalanceBefore: nullableGhs(order.wallet_balance_before === null ? null : Number(order.wallet_balance_before)),
    walletBalanceAfter: nullableGhs(order.wallet_balance_after === null ? null : Number(order.wallet_balance_after)),
  };
}

const CAPITALISED: Record<OrderState, string> = {
  pending: 'Pending',
  processing: 'Processing',
  completed: 'Completed',
  failed: 'Failed',
  reversed: 'Reversed',
};

/** A bulk order's recipient counts, so a partly failed bulk order does not read as plainly delivered. */
function bulkCounts(order: OrderRow): Pick<OrderStatus, 'isBulkOrder' | 'bulkCompletedCount' | 'bulkFailedCount'> {
  if (order.is_bulk !== 1) return { isBulkOrder: false, bulkCompletedCount: null, bulkFailedCount: null };
  return {
    isBulkOrder: true,
    bulkCompletedCount: Number(order.bulk_completed_count ?? 0),
    bulkFailedCount: Number(order.bulk_failed_count ?? 0),
  };
}

export function toStatusView(order: OrderRow): OrderStatus {
  return {
    orderId: order.id,
    _creationTime: Number(order.created_at),
    state: CAPITALISED[order.state],
    shortReference: order.short_reference,
    amount: toGhs(Number(order.amount)),
    currency: 'GHS',
    errorMessage: order.error_message,
    createdAt: Number(order.created_at),
    submittedAt: order.submitted_at === null ? null : Number(order.submitted_at),
    completedAt: order.completed_at === null ? null : Number(order.completed_at),
    ...bulkCounts(order),
  };
}
