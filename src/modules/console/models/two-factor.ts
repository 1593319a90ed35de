import type { TwoFactorStatus } from '../service.js';

/** What the two-factor page shows: the account's state, and what this answer adds to it. */
export type TwoFactorView = TwoFactorStatus & {
  enrolmentRequired: boolean;
  error?: string;
  /** Just generated: shown on this page once. */
  recoveryCodes?: string[];
};
