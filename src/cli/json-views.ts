import type { ProviderAttemptRow, TopUpRow } from '../db/schema.js';
import { nullableGhs, toGhs } from '../lib/money.js';
import type { AttentionItem } from '../modules/deliveries/service.js';
import type { FloatLine } from '../modules/float/service.js';
import type { StaffProfile } from '../modules/profiles/service.js';
import { toTopUpView } from '../modules/top-ups/service.js';
import { toOrderView } from '../modules/orders/views.js';
import type { StaffOrderDetail, StuckDelivery } from '../modules/orders/service.js';

/**
 * What `--json` prints beyond the API's own shapes (docs/cli.md, "JSON output"): camelCase, amounts
 * in GHS, times in Unix milliseconds as the API gives them. An order is always the API's order
 * (toOrderView), so a script reads the CLI and GET /api/v1/orders/{orderId} alike.
 */

const time = (ms: number | string | null) => (ms === null ? null : Number(ms));

/** `orders show --json`: the API's order, then what only staff see of it. */
export function staffOrderJson(d: StaffOrderDetail, attempts: ProviderAttemptRow[]) {
  const o = d.order;
  return {
    order: toOrderView(o, o.is_bulk === 1 ? d.items : []),
    profileId: o.profile_id,
    mode: o.mode,
    paymentReference: o.payment_reference,
    reversalReason: o.reversal_reason,
    reversedAt: time(o.reversed_at),
    deliveries: d.items.map((i) => ({
      recipient: Number(i.idx),
      beneficiaryMsisdn: i.beneficiary_msisdn,
      status: i.status,
      attempt: Number(i.attempt),
      amount: toGhs(Number(i.amount)),
      errorMessage: i.error_message,
      reversedAt: time(i.reversed_at),
      reversalReason: i.reversal_reason,
      updatedAt: Number(i.updated_at),
      outbox:
        i.outbox_kind === null
          ? null
          : { kind: i.outbox_kind, tries: Number(i.outbox_tries), runAt: time(i.outbox_run_at), lastError: i.outbox_last_error },
    })),
    attempts: attempts.map(attemptJson),
    ledger: d.ledger.map((e) => ({
      entry: Number(e.id),
      createdAt: Number(e.created_at),
      kind: e.kind,
      availableChange: toGhs(Number(e.available_delta)),
      heldChange: toGhs(Number(e.held_delta)),
      availableAfter: toGhs(Number(e.available_after)),
      heldAfter: toGhs(Number(e.held_after)),
      memo: e.memo,
    })),
  };
}

function attemptJson(a: ProviderAttemptRow) {
  return {
    reference: a.reference,
    provider: a.provider,
    status: a.status,
    providerTransactionId: a.provider_transaction_id,
    cost: nullableGhs(a.cost === null ? null : Number(a.cost)),
    message: a.message,
    resolvedBy: a.resolved_by,
    createdAt: Number(a.created_at),
    submittedAt: time(a.submitted_at),
    resolvedAt: time(a.resolved_at),
  };
}

/** `orders stuck --json`. */
export function stuckJson(olderThanMs: number, attention: AttentionItem[], stuck: StuckDelivery[]) {
  return {
    olderThanMs,
    needsAttention: attention.map((a) => ({
      orderId: a.order_id,
      shortReference: a.short_reference,
      profileId: a.profile_id,
      mode: a.mode,
      beneficiaryMsisdn: a.beneficiary_msisdn,
      provider: a.provider,
      reference: a.reference,
      status: a.status,
      message: a.message,
      since: a.created_at,
      unknownForMs: a.unknownForMs,
    })),
    stuck,
  };
}

/** `topups list --json`: the API's top-up, with whose wallet it is for. */
export function topUpJson(t: TopUpRow) {
  return {
    ...toTopUpView(t),
    profileId: t.profile_id,
    mode: t.mode,
    decidedBy: t.decided_by,
    firstApprovedBy: t.first_approved_by,
    firstApprovedAt: t.first_approved_at === null ? null : Number(t.first_approved_at),
  };
}

/** `profiles list --json`: each wallet as the API's balance (GHS). */
export function staffProfileJson(p: StaffProfile) {
  return {
    ...p,
    wallets: p.wallets.map((w) => ({
      mode: w.mode,
      availableBalance: toGhs(w.available),
      heldBalance: toGhs(w.held),
      totalBalance: toGhs(w.available + w.held),
      currency: 'GHS' as const,
    })),
  };
}

/** `keys list --json`: never the key, its prefix. */
export function apiKeyJson(k: {
  id: string;
  profile_id: string;
  mode: string;
  prefix: string;
  revoked: number | boolean;
  revoked_at: number | null;
  last_used_at: number | null;
  created_at: number;
}) {
  return {
    id: k.id,
    profileId: k.profile_id,
    mode: k.mode,
    prefix: k.prefix,
    revoked: Boolean(k.revoked),
    revokedAt: time(k.revoked_at),
    lastUsedAt: time(k.last_used_at),
    createdAt: Number(k.created_at),
  };
}

/** `providers balances --json`: hundredths of the upstream's currency as amounts of it. */
export function floatJson(l: FloatLine) {
  return { ...l, available: l.available === null ? null : l.available / 100, threshold: l.threshold === null ? null : l.threshold / 100 };
}
