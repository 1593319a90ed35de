import type { Order } from '../http/schemas/orders.js';

/** What identifies one version of a single (non-bulk) order's view. */
export interface OrderVersion {
  id: string;
  state: string;
  submitted_at: number | null;
  updated_at: number;
}

/** One rendered order, and its JSON once a caller has serialized it. */
export interface RenderedOrder {
  view: Order;
  json: string | undefined;
}

interface Entry extends RenderedOrder {
  state: string;
  submittedAt: number | null;
  updatedAt: number;
}

/**
 * Rendered views of single-recipient orders, by order id, each valid for one version of its
 * order. Such an order changes after it is written only by being submitted (submitted_at is set),
 * by settling or by being reversed (state changes), and every change moves updated_at too, so an
 * entry whose version matches can only be the same view. Bulk orders (whose recipients change
 * without their own row telling) are never cached. Least recently used views are dropped beyond
 * `capacity`.
 */
export class OrderViewCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly capacity: number) {}

  get(version: OrderVersion): RenderedOrder | undefined {
    const entry = this.entries.get(version.id);
    if (
      entry === undefined ||
      entry.updatedAt !== version.updated_at ||
      entry.state !== version.state ||
      entry.submittedAt !== version.submitted_at
    ) {
      return undefined;
    }
    this.entries.delete(version.id);
    this.entries.set(version.id, entry);
    return entry;
  }

  set(version: OrderVersion, view: Order): RenderedOrder {
    const entry: Entry = {
      view,
      json: undefined,
      state: version.state,
      submittedAt: version.submitted_at,
      updatedAt: version.updated_at,
    };
    this.entries.delete(version.id);
    this.entries.set(version.id, entry);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return entry;
  }
}
