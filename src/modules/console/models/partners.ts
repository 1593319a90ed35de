import type { StaffRole } from '../../../db/schema.js';
import type { StaffProfile } from '../../profiles/service.js';
import type { ConsoleOperations } from '../operations.js';
import { mayAct } from '../service.js';
import type { Mode } from '../../../domain/types.js';
import type { Page } from '../../../lib/staff-page.js';
import { at, ghs } from './frame.js';
import { modeSwitch, pagingLinks, type ModeSwitch, type PagingLinks } from './listing.js';

export interface PartnerLine {
  id: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  status: string;
  /** The wallet of the mode shown: available and held, or dashes when it has none yet. */
  available: string;
  held: string;
}

export interface PartnersView {
  form: { q: string; status: string };
  statuses: string[];
  modes: ModeSwitch;
  lines: PartnerLine[];
  paging: PagingLinks;
  canManage: boolean;
}

export interface WalletLine {
  mode: string;
  available: string;
  held: string;
}

export interface KeyLine {
  id: string;
  mode: string;
  prefix: string;
  state: 'active' | 'revoked';
  lastUsed: string;
  created: string;
}

export interface PartnerView {
  id: string;
  name: string;
  email: string;
  phone: string;
  role: string;
  status: string;
  suspended: boolean;
  wallets: WalletLine[];
  keys: KeyLine[];
  /** A key just created: shown once. */
  newKey: { id: string; key: string } | null;
  /** A new partner's first keys: shown once. */
  newKeys: { id: string; mode: string; key: string }[];
  /** ADJUSTMENT_APPROVAL_ABOVE as shown. */
  approvalAbove: string;
  /** Keys, suspension: admins only. */
  canManage: boolean;
}

export function partnersView(form: { q: string; status: string }, mode: Mode, found: Page<StaffProfile>, canManage: boolean): PartnersView {
  return {
    form,
    statuses: ['', 'Active', 'Suspended'],
    modes: modeSwitch('/console/partners', { ...form }, mode),
    lines: found.rows.map((p) => {
      const wallet = p.wallets.find((w) => w.mode === mode);
      return {
        id: p.id,
        name: p.name,
        email: p.email,
        phone: p.phoneNumber,
        role: p.role,
        status: p.status,
        available: wallet ? ghs(wallet.available) : '—',
        held: wallet ? ghs(wallet.held) : '—',
      };
    }),
    paging: pagingLinks('/console/partners', { ...form }, mode, found),
    canManage,
  };
}

export function partnerView(
  found: NonNullable<Awaited<ReturnType<ConsoleOperations['partner']>>>,
  role: StaffRole,
  newKey: { id: string; key: string } | null = null,
  extra: { newKeys?: { id: string; mode: string; key: string }[]; approvalAbove?: number } = {},
): PartnerView {
  const p = found.profile;
  return {
    id: p.id,
    name: p.name,
    email: p.email,
    phone: p.phoneNumber,
    role: p.role,
    status: p.status,
    suspended: p.status !== 'Active',
    wallets: p.wallets.map((w) => ({ mode: w.mode, available: ghs(w.available), held: ghs(w.held) })),
    keys: found.keys.map((k) => ({
      id: k.id,
      mode: k.mode,
      prefix: k.prefix,
      state: k.revoked ? 'revoked' : 'active',
      lastUsed: at(k.last_used_at === null ? null : Number(k.last_used_at)),
      created: at(Number(k.created_at)),
    })),
    newKey,
    newKeys: extra.newKeys ?? [],
    approvalAbove: ghs(extra.approvalAbove ?? 0),
    canManage: mayAct(role, 'admin'),
  };
}
