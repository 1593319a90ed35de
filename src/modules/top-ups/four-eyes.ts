import type { StaffRole, TopUpRow } from '../../db/schema.js';
import { conflict, forbidden, type DomainError } from '../../domain/errors.js';
import { formatGhs } from '../../lib/money.js';
import type { Actor } from '../audit/service.js';

/** Who approves a top-up: the audit trail's actor and, for a named staff account, its role (null: the CLI's own user). */
export interface TopUpApprover {
  actor: Actor;
  role: StaffRole | null;
}

/** The two approvals of a top-up above TOPUP_APPROVAL_ABOVE (docs/console.md, "Top-up approvals"). */
export const APPROVALS_NEEDED = 2;

const PROOF_HINT = 'approve it in the console (or from the CLI with --approver <e-mail> --password-stdin)';

/**
 * Why `approver` may not give either approval of a top-up that needs two: each must be a named
 * operator or admin account (the CLI's own user is nobody's four eyes); null when they may.
 */
export function namedApprovalRefusal(topUp: TopUpRow, approver: TopUpApprover, above: number): DomainError | null {
  const { actor, role } = approver;
  if (actor.staffId !== null && (role === 'operator' || role === 'admin')) return null;
  return forbidden(
    'INVALID_REQUEST',
    `top-up ${topUp.id} of ${formatGhs(topUp.amount)} is above ${formatGhs(above)} (TOPUP_APPROVAL_ABOVE): it needs ${APPROVALS_NEEDED} approvals by named staff; ${PROOF_HINT}`,
  );
}

/**
 * Why `approver` may not give the second approval of `topUp`, whose first approval is recorded on
 * it; null when they may. The second is an admin's, and not the first approver's. Every rule of
 * who may complete a top-up's four eyes belongs here.
 */
export function secondApprovalRefusal(topUp: TopUpRow, approver: TopUpApprover): DomainError | null {
  const { actor, role } = approver;
  const first = topUp.first_approved_by ?? 'another staff member';
  if (actor.staffId !== null && actor.staffId === topUp.first_approved_by_staff_id) {
    return conflict('INVALID_REQUEST', `top-up ${topUp.id} was approved once by you: another admin must give the second approval (four eyes)`);
  }
  if (role !== 'admin') {
    return forbidden('INVALID_REQUEST', `top-up ${topUp.id} has 1 of ${APPROVALS_NEEDED} approvals (by ${first}): the second must be an admin's`);
  }
  return null;
}
