import type { Order } from '../http/schemas/orders.js';

/** What identifies one version of a single (non-bulk) order's view. */
export interface OrderVersion {
  id: string;
  state: string;
  submitted_at: number | null;
  updated_at: number;
}

/**
 * Rendered views of single-recipient orders, keyed by the order's version. Such an order changes
 * after it is written only by being submitted (submitted_at is set), by settling or by being
 * reversed (state changes), and every change moves updated_at too, so a key that matches can only
 * be the same view. Bulk orders (whose recipients change without their own row telling) are never
 * cached. Least recently used views are dropped beyond `capacity`.
 */
export class OrderViewCache {
  private readonly views = new Map<string, Order>();

  constructor(private readonly capacity: number) {}

  private static key(v: OrderVersion): string {
    return `${v.id}\u0000${v.state}\u0000${v.submitted_at ?? ''}\u0000${v.updated_at}`;
  }

  get(version: OrderVersion): Order | undefined {
    const key = OrderViewCache.key(version);
    const view = this.views.get(key);
    if (view) {
      this.views.delete(key);
      this.views.set(key, view);
    }
    return view;
  }

  set(version: OrderVersion, view: Order): void {
    const key = OrderViewCache.key(version);
    this.views.delete(key);
    this.views.set(key, view);
    if (this.views.size > this.capacity) this.views.delete(this.views.keys().next().value as string);
  }
}
