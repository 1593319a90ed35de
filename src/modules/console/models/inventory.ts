import type { StaffRole } from '../../../db/schema.js';
import type { RcStockLine } from '../../result-checker/service.js';
import { mayAct } from '../service.js';

export interface StockLine {
  packageId: string;
  code: string;
  name: string;
  status: string;
  stock: number;
  low: boolean;
}

export interface InventoryView {
  stock: StockLine[];
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
});

export const inventoryView = (stock: RcStockLine[], role: StaffRole): InventoryView => ({
  stock: stock.map(stockLine),
  canLoad: mayAct(role, 'operator'),
});
