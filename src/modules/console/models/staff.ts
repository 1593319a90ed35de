import { STAFF_ROLES, type StaffRole } from '../../../db/schema.js';
import type { StaffAccount } from '../service.js';
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

export interface StaffView {
  accounts: StaffLine[];
  /** The role choices, least first. */
  roles: StaffRole[];
  statuses: ('active' | 'disabled')[];
  /** An account just created, with its one-time password: shown once. */
  created: { email: string; password: string } | null;
}

export const staffView = (accounts: StaffAccount[], created: { email: string; password: string } | null = null): StaffView => ({
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
