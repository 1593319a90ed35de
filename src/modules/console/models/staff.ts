import { STAFF_ROLES, type StaffRole } from '../../../db/schema.js';
import type { StaffAccount, StaffRequest } from '../service.js';
import { at } from './frame.js';

export interface StaffLine {
  id: string;
  email: string;
  role: StaffRole;
  status: 'active' | 'disabled';
  lastSignIn: string;
  created: string;
  /** Two-factor sign-in is on (an admin may reset it: a lost device). */
  twoFactor: boolean;
}

/** A new admin or a role raised to admin waiting for a second admin. */
export interface StaffRequestLine {
  id: string;
  what: string;
  email: string;
  role: StaffRole;
  requestedBy: string;
  requestedAt: string;
  /** Approve is offered to admins but its requester; the service checks the whole four-eyes rule. */
  canApprove: boolean;
}

/** What the staff page shows after an action: an account created, or a request recorded (with its one-time password). */
export type StaffCreated = { email: string; password: string; pendingRequest: string | null };

export interface StaffView {
  pending: StaffRequestLine[];
  accounts: StaffLine[];
  /** The role choices, least first. */
  roles: StaffRole[];
  statuses: ('active' | 'disabled')[];
  /** An account just created (or requested), with its one-time password: shown once. */
  created: StaffCreated | null;
}

export const staffView = (
  accounts: StaffAccount[],
  requests: StaffRequest[],
  viewer: { staffId: string },
  created: StaffCreated | null = null,
): StaffView => ({
  pending: requests
    .filter((r) => r.status === 'pending')
    .map((r) => ({
      id: r.id,
      what: r.kind === 'create' ? 'new account' : 'role raised',
      email: r.email,
      role: r.role,
      requestedBy: r.requestedBy,
      requestedAt: at(r.createdAt),
      canApprove: r.requestedByStaffId !== viewer.staffId,
    })),
  accounts: accounts.map((a) => ({
    id: a.id,
    email: a.email,
    role: a.role,
    status: a.status,
    lastSignIn: at(a.lastLoginAt),
    created: at(a.createdAt),
    twoFactor: a.twoFactor,
  })),
  roles: [...STAFF_ROLES].reverse(),
  statuses: ['active', 'disabled'],
  created,
});
