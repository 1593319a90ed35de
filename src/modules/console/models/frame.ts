import type { StaffRole } from '../../../db/schema.js';
import { formatGhs } from '../../../lib/money.js';
import { mayAct, type LiveSession } from '../service.js';

/**
 * The console's view models: what the pages show, as plain values (names, GHS amounts as text,
 * dates as text, which buttons to offer), mapped here from the services' results so that the views
 * (../views/) never see a database row, a pesewa or a role rule.
 */

/** `n` and the noun, singular for one: "1 order", "3 orders". */
export const counted = (n: number, noun: string): string => `${n} ${n === 1 ? noun : `${noun}s`}`;

export interface NavLink {
  name: string;
  href: string;
  current: boolean;
}

/** What every signed-in page shows around its content. */
export interface PageFrame {
  title: string;
  nav: NavLink[];
  /** Who is signed in: `e-mail (role)`. */
  who: string;
  csrfToken: string;
  notice?: string | undefined;
}

const NAV: [string, string, StaffRole][] = [
  ['dashboard', '/console', 'viewer'],
  ['top-ups', '/console/top-ups', 'viewer'],
  ['orders', '/console/orders', 'viewer'],
  ['inventory', '/console/inventory', 'viewer'],
  ['packages', '/console/packages', 'viewer'],
  ['partners', '/console/partners', 'viewer'],
  ['reconciliation', '/console/reconciliation', 'viewer'],
  ['margins', '/console/reports/margins', 'viewer'],
  ['adjustments', '/console/adjustments', 'viewer'],
  ['webhooks', '/console/webhooks', 'viewer'],
  ['staff', '/console/staff', 'admin'],
  ['audit', '/console/audit', 'viewer'],
  ['password', '/console/password', 'viewer'],
  ['2fa', '/console/2fa', 'viewer'],
];

/** The frame of a page; a session that must first choose a password or set up 2FA gets no navigation. */
export function pageFrame(session: LiveSession, title: string, active: string, notice?: string): PageFrame {
  const nav = session.passwordChangeRequired || session.twoFactorEnrolmentRequired || session.secondFactorPending
    ? []
    : NAV.filter(([, , role]) => mayAct(session.role, role)).map(([name, href]) => ({ name, href, current: name === active }));
  return { title, nav, who: `${session.email} (${session.role})`, csrfToken: session.csrfToken, notice };
}

/** Pesewas as shown: `GHS 12.50`. */
export const ghs = (pesewas: number | string) => formatGhs(Number(pesewas));

/** A time as shown (UTC, to the second), or a dash. */
export const at = (ms: number | string | null) =>
  ms === null ? '—' : new Date(Number(ms)).toISOString().replace('T', ' ').slice(0, 19);
