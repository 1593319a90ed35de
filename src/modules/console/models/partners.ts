import type { StaffRole } from '../../../db/schema.js';
import type { StaffProfile } from '../../profiles/service.js';
import type { ConsoleOperations } from '../operations.js';
import { mayAct } from '../service.js';
import { at, ghs } from './frame.js';

export interface PartnerLine {
  id: string;
  name: string;
  email: string;
  role: string;
  status: string;
  /** `live GHS 10.00 (held GHS 0.00) · test …`, or a dash. */
  wallets: string;
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

export const partnerLines = (partners: StaffProfile[]): PartnerLine[] =>
  partners.map((p) => ({
    id: p.id,
    name: p.name,
    email: p.email,
    role: p.role,
    status: p.status,
    wallets: p.wallets.map((w) => `${w.mode} ${ghs(w.available)} (held ${ghs(w.held)})`).join(' · ') || '—',
  }));

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
