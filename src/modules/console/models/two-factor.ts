import { qrModules } from '../../../lib/qr-code.js';
import type { TwoFactorStatus } from '../service.js';

/** What the two-factor page shows: the account's state, and what this answer adds to it. */
export type TwoFactorView = TwoFactorStatus & {
  enrolmentRequired: boolean;
  /** While setting up: the authenticator link as QR code modules (drawn by the view). */
  qrModules: boolean[][] | null;
  error?: string;
  /** Just generated: shown on this page once. */
  recoveryCodes?: string[];
};

export function twoFactorView(
  status: TwoFactorStatus,
  page: { enrolmentRequired: boolean; error?: string; recoveryCodes?: string[]; notice?: string },
): TwoFactorView {
  const { notice: _notice, ...shown } = page;
  return { ...status, ...shown, qrModules: status.state === 'setting-up' ? qrModules(status.uri) : null };
}
