import type { StaffRole } from '../../db/schema.js';
import type { Tx } from '../../db/unit-of-work.js';
import { conflict } from '../../domain/errors.js';
import { fourEyesAccounts } from './repository.js';

/** A staff account as the four-eyes rule sees it. */
export interface FourEyesAccount {
  id: string;
  email: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  created_by_staff_id: string | null;
  password_reset_by_staff_id: string | null;
}

/**
 * Why `approver` may not approve what `requester` asked (null: they may), docs/console.md "Four eyes".
 * The approver is an active admin other than the requester, and neither account created the other
 * or last gave it a one-time password: whoever did knew that password, so the two could be one person.
 * `requester` is null for a request without a staff account (the CLI's `cli:<user>`).
 */
export function fourEyesRefusal(what: string, requester: FourEyesAccount | null, approver: FourEyesAccount | undefined): string | null {
  if (!approver || approver.status !== 'active' || approver.role !== 'admin') return `only an active admin may approve ${what}`;
  if (requester === null) return null;
  if (requester.id === approver.id) return `${what} was requested by you: another admin must approve it (four eyes)`;
  if (approver.created_by_staff_id === requester.id)
    return `your account was created by ${requester.email}, who requested ${what}: an admin they did not create must approve it (four eyes)`;
  if (approver.password_reset_by_staff_id === requester.id)
    return `your password was last reset by ${requester.email}, who requested ${what}: another admin must approve it (four eyes)`;
  if (requester.created_by_staff_id === approver.id)
    return `${requester.email}, who requested ${what}, was created by you: another admin must approve it (four eyes)`;
  if (requester.password_reset_by_staff_id === approver.id)
    return `the password of ${requester.email}, who requested ${what}, was last reset by you: another admin must approve it (four eyes)`;
  return null;
}

/**
 * The four-eyes rule of every approval of a second admin (wallet adjustments, staff requests, a
 * top-up's second approval), read in the approving unit: refused (409 INVALID_REQUEST) with why.
 */
export async function assertFourEyes(
  tx: Tx,
  approval: { what: string; requestedByStaffId: string | null; approverStaffId: string | null },
): Promise<void> {
  const { what, requestedByStaffId, approverStaffId } = approval;
  const ids = [requestedByStaffId, approverStaffId].filter((id): id is string => id !== null);
  const accounts = await fourEyesAccounts(tx, ids);
  const approver = accounts.find((a) => a.id === approverStaffId);
  // A requester whose account is gone still counts as someone else: only its id is known.
  const requester =
    requestedByStaffId === null
      ? null
      : (accounts.find((a) => a.id === requestedByStaffId) ?? {
          id: requestedByStaffId,
          email: requestedByStaffId,
          role: 'viewer' as const,
          status: 'disabled' as const,
          created_by_staff_id: null,
          password_reset_by_staff_id: null,
        });
  const refusal = fourEyesRefusal(what, requester, approver);
  if (refusal !== null) throw conflict('INVALID_REQUEST', refusal);
}
