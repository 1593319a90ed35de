import type { StaffRole } from '../../../db/schema.js';
import type { RcStockLine } from '../../result-checker/service.js';
import { mayAct } from '../service.js';
import { at } from './frame.js';

export interface StockLine {
  packageId: string;
  code: string;
  name: string;
  status: string;
  stock: number;
  low: boolean;
  voided: number;
}

/** A credential voided by the refund of its sale (the credential itself is never shown). */
export interface VoidedLine {
  credentialId: string;
  packageId: string;
  /** The sale's order page. */
  orderId: string;
  shortReference: string;
  profileId: string;
  at: string;
  reason: string;
}

export interface InventoryView {
  stock: StockLine[];
  voided: VoidedLine[];
  /** Whether the PIN upload form is offered. */
  canLoad: boolean;
}

export const stockLine = (l: RcStockLine): StockLine => ({
  packageId: l.packageId,
  code: l.code,
  name: l.name,
  status: l.status,
  stock: l.stock,
  low: l.low,
  voided: l.voided,
});

export interface VoidedCredentialRow {
  id: string;
  package_id: string;
  assigned_transaction_id: string | null;
  voided_at: number | null;
  void_reason: string | null;
  short_reference: string | null;
  profile_id: string | null;
}

export const inventoryView = (stock: RcStockLine[], voided: VoidedCredentialRow[], role: StaffRole): InventoryView => ({
  stock: stock.map(stockLine),
  voided: voided.map((v) => ({
    credentialId: v.id,
    packageId: v.package_id,
    orderId: v.assigned_transaction_id ?? '',
    shortReference: v.short_reference ?? '—',
    profileId: v.profile_id ?? '—',
    at: at(v.voided_at),
    reason: v.void_reason ?? '',
  })),
  canLoad: mayAct(role, 'operator'),
});
